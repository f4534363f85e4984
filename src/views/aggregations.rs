//! Aggregations of a search (formats.md section 8, ibexa/rest 4.6
//! `Input/Parser/Aggregation/*`): the `Aggregations` of a query read into what to count, and
//! each counted in one SQL statement over the same matches, with the same permission filter,
//! as the count of the hits. Term aggregations count the hits by a key (most first, at most
//! `limit`, each at least `minCount`), range ones the hits in each range asked, stats ones
//! sum a number over the hits. `keys.rs` renders the keys.

use super::criteria::Target;
use super::criteria::bad;
use crate::error::{Error, Result};
use cairn_runtime::HashValue;
use cairn_store::rows::Cell;
use cairn_store::watch::Watched;
use sea_orm::{DbBackend, Value};

/// At most this many aggregations in one query, ranges in one aggregation, and buckets in
/// one term aggregation (its `limit`): each is refused with a 400 past them.
pub const MAX_AGGREGATIONS: usize = 20;
pub const MAX_RANGES: usize = 50;
pub const MAX_BUCKETS: i64 = 1_000;

/// A term aggregation's defaults (core's `AbstractTermAggregation`).
const DEFAULT_LIMIT: i64 = 10;
const DEFAULT_MIN_COUNT: i64 = 1;

/// One aggregation of a query, named as the query names it.
pub struct Aggregation {
    pub name: String,
    pub kind: Kind,
}

pub enum Kind {
    Term {
        of: Term,
        limit: i64,
        min_count: i64,
    },
    Range {
        of: Number,
        ranges: Vec<(Bound, Bound)>,
    },
    Stats {
        of: Number,
    },
}

/// What a term aggregation counts the hits by.
pub enum Term {
    ContentType,
    ContentTypeGroup,
    Section,
    Language,
    /// The states of the Object state group of this identifier.
    ObjectState(String),
    /// owner, group (the owner's user groups) or modifier.
    UserMetadata(String),
    Visibility,
    LocationChildren,
    /// The Locations within this path string the hits are under.
    Subtree(String),
    Author(FieldRef),
    Checkbox(FieldRef),
    /// name, IDC, alpha2 or alpha3.
    Country(FieldRef, String),
    Keyword(FieldRef),
    Selection(FieldRef),
    Raw(&'static str),
}

/// What a range or stats aggregation reads a number of.
pub enum Number {
    /// created, modified or published.
    DateMetadata(String),
    /// A field's number: a float (float fields) or an integer (the others).
    Field(FieldRef, bool),
    Raw(&'static str),
}

/// A Field definition by its content type's identifier and its own.
pub struct FieldRef {
    pub content_type: String,
    pub field: String,
}

/// One end of a range: none (unbounded), an integer (also dates, as Unix seconds) or a float.
#[derive(Clone, Copy, PartialEq)]
pub enum Bound {
    None,
    Int(i64),
    Float(f64),
    /// A date, as Unix seconds: written back as ISO 8601.
    Date(i64),
}

impl Bound {
    fn sql(self) -> Option<String> {
        match self {
            Bound::None => None,
            Bound::Int(i) | Bound::Date(i) => Some(i.to_string()),
            Bound::Float(f) => Some(format!("{f:?}")),
        }
    }
}

/// What a statement counts over: the matches of the query (its `WITH` head, FROM and WHERE
/// with their bind values, as the count of the hits has them) and the hits' id.
pub struct Matches<'a> {
    pub head: &'a str,
    pub from: &'a str,
    pub condition: &'a str,
    pub values: &'a [Value],
    pub id: &'a str,
    pub target: Target,
    pub backend: DbBackend,
}

/// The counted result of one aggregation, keys not yet rendered.
pub enum Counted {
    /// (key, count) most first.
    Term(Vec<(Cell, i64)>),
    Range(Vec<i64>),
    /// sum, count, min, max, avg.
    Stats([Cell; 5]),
}

/// The aggregations of an `Aggregations` value: in JSON a list of single-key maps, in XML
/// `Aggregation` elements each holding one; refused past the limits, and each unknown one
/// by its name.
pub fn parse(v: &HashValue) -> Result<Vec<Aggregation>> {
    let entries = entries(v);
    if entries.len() > MAX_AGGREGATIONS {
        return Err(Error::BadRequest(format!(
            "A query may hold {MAX_AGGREGATIONS} aggregations at most"
        )));
    }
    entries.into_iter().map(|(k, v)| one(k, v)).collect()
}

fn entries(v: &HashValue) -> Vec<(&str, &HashValue)> {
    match v {
        HashValue::List(items) => items.iter().flat_map(entries).collect(),
        HashValue::Map(m) => m
            .iter()
            .flat_map(|(k, v)| {
                if k == "Aggregation" {
                    entries(v)
                } else {
                    vec![(k.as_str(), v)]
                }
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn text(n: &str, v: &HashValue, key: &str) -> Result<String> {
    v.get(key)
        .and_then(HashValue::to_text)
        .ok_or_else(|| bad(n, format!("missing '{key}'")))
}

fn int(n: &str, v: &HashValue, key: &str, default: i64) -> Result<i64> {
    match v.get(key).and_then(HashValue::to_text) {
        None => Ok(default),
        Some(t) => {
            (t.trim().parse::<i64>()).map_err(|_| bad(n, format!("'{key}' is not an integer")))
        }
    }
}

fn field(n: &str, v: &HashValue) -> Result<FieldRef> {
    Ok(FieldRef {
        content_type: text(n, v, "contentTypeIdentifier")?,
        field: text(n, v, "fieldDefinitionIdentifier")?,
    })
}

fn one_of(n: &str, v: &HashValue, key: &str, allowed: &[&str]) -> Result<String> {
    let t = text(n, v, key)?;
    if !allowed.contains(&t.as_str()) {
        return Err(bad(
            n,
            format!(
                "invalid '{key}' value. Expected one of {}, got: {t}",
                allowed.join(", ")
            ),
        ));
    }
    Ok(t)
}

fn one(n: &str, v: &HashValue) -> Result<Aggregation> {
    if !matches!(v, HashValue::Map(_)) {
        return Err(bad(n, "expects an object with its name"));
    }
    let name = text(n, v, "name")?;
    let term = |of| -> Result<Kind> {
        let limit = int(n, v, "limit", DEFAULT_LIMIT)?;
        if !(0..=MAX_BUCKETS).contains(&limit) {
            return Err(bad(n, format!("'limit' is 0 to {MAX_BUCKETS}")));
        }
        Ok(Kind::Term {
            of,
            limit,
            min_count: int(n, v, "minCount", DEFAULT_MIN_COUNT)?,
        })
    };
    let kind = match n {
        "ContentTypeTermAggregation" => term(Term::ContentType)?,
        "ContentTypeGroupTermAggregation" => term(Term::ContentTypeGroup)?,
        "SectionTermAggregation" => term(Term::Section)?,
        "LanguageTermAggregation" => term(Term::Language)?,
        "ObjectStateTermAggregation" => {
            term(Term::ObjectState(text(n, v, "objectStateGroupIdentifier")?))?
        }
        "UserMetadataTermAggregation" => term(Term::UserMetadata(one_of(
            n,
            v,
            "type",
            &["owner", "group", "modifier"],
        )?))?,
        "VisibilityTermAggregation" => term(Term::Visibility)?,
        "LocationChildrenTermAggregation" => term(Term::LocationChildren)?,
        "SubtreeTermAggregation" => {
            let path = text(n, v, "pathString")?;
            let ok = path.starts_with('/')
                && path.ends_with('/')
                && (path.trim_matches('/').split('/')).all(|s| s.parse::<i64>().is_ok());
            if !ok {
                return Err(bad(n, format!("'{path}' is not a path string")));
            }
            term(Term::Subtree(path))?
        }
        "AuthorTermAggregation" => term(Term::Author(field(n, v)?))?,
        "CheckboxTermAggregation" => term(Term::Checkbox(field(n, v)?))?,
        "CountryTermAggregation" => {
            let f = field(n, v)?;
            let ty = match v.get("type") {
                None => "alpha3".to_string(),
                Some(_) => one_of(n, v, "type", &["name", "idc", "alpha2", "alpha3"])?,
            };
            term(Term::Country(f, ty))?
        }
        "KeywordTermAggregation" => term(Term::Keyword(field(n, v)?))?,
        "SelectionTermAggregation" => term(Term::Selection(field(n, v)?))?,
        "RawTermAggregation" => term(Term::Raw(raw(n, v)?))?,
        "DateMetadataRangeAggregation" => {
            let ty = one_of(n, v, "type", &["created", "modified", "published"])?;
            range(n, v, Number::DateMetadata(ty), Bound::Date)?
        }
        "DateRangeAggregation" | "DateTimeRangeAggregation" => {
            range(n, v, Number::Field(field(n, v)?, false), Bound::Date)?
        }
        "IntegerRangeAggregation" | "TimeRangeAggregation" => {
            range(n, v, Number::Field(field(n, v)?, false), Bound::Int)?
        }
        "FloatRangeAggregation" => range(n, v, Number::Field(field(n, v)?, true), Bound::Int)?,
        "RawRangeAggregation" => range(n, v, Number::Raw(raw(n, v)?), Bound::Int)?,
        "IntegerStatsAggregation" => Kind::Stats {
            of: Number::Field(field(n, v)?, false),
        },
        "FloatStatsAggregation" => Kind::Stats {
            of: Number::Field(field(n, v)?, true),
        },
        "RawStatsAggregation" => Kind::Stats {
            of: Number::Raw(raw(n, v)?),
        },
        other => {
            return Err(Error::BadRequest(format!(
                "The aggregation '{other}' is not supported"
            )));
        }
    };
    Ok(Aggregation { name, kind })
}

/// The search fields a raw aggregation may name (the reference's Solr field names of what
/// cairn keeps in its tables), with the column each reads.
const RAW: &[(&str, &str)] = &[
    ("content_id_id", "c.id"),
    ("content_type_id_id", "c.content_type_id"),
    ("content_section_id_id", "c.section_id"),
    ("content_owner_user_id_id", "c.owner_id"),
    ("content_main_language_code_s", "c.main_language_code"),
    ("content_remote_id_id", "c.remote_id"),
    ("content_always_available_b", "c.always_available"),
    ("content_name_s", "c.name"),
    ("content_publication_date_dt", "c.published"),
    ("content_modification_date_dt", "c.modified"),
    ("content_version_no_i", "c.current_version"),
    ("main_location_id", "c.main_location_id"),
];

fn raw(n: &str, v: &HashValue) -> Result<&'static str> {
    let name = text(n, v, "fieldName")?;
    RAW.iter()
        .find(|(k, _)| *k == name)
        .map(|(_, c)| *c)
        .ok_or_else(|| {
            bad(
                n,
                format!(
                    "unknown field '{name}'; one of {}",
                    RAW.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")
                ),
            )
        })
}

/// A range aggregation: `ranges` a list of `{from, to}` (in XML `Range` elements), each end
/// null for unbounded; `date` ends are Unix seconds or ISO 8601 dates.
fn range(n: &str, v: &HashValue, of: Number, make: fn(i64) -> Bound) -> Result<Kind> {
    let float = matches!(of, Number::Field(_, true));
    let ranges = match v.get("ranges") {
        Some(HashValue::List(l)) => l.iter().collect::<Vec<_>>(),
        Some(HashValue::Map(m)) => m
            .iter()
            .flat_map(|(_, r)| match r {
                HashValue::List(l) => l.iter().collect::<Vec<_>>(),
                r => vec![r],
            })
            .collect(),
        None => return Err(bad(n, "missing 'ranges'")),
        Some(_) => return Err(bad(n, "invalid 'ranges'")),
    };
    if ranges.len() > MAX_RANGES {
        return Err(bad(
            n,
            format!("a range aggregation takes {MAX_RANGES} ranges at most"),
        ));
    }
    let end = |r: &HashValue, key: &str| -> Result<Bound> {
        let Some(x) = r.get(key) else {
            return Err(bad(n, format!("missing '{key}' element for Range")));
        };
        let Some(t) = x.to_text().filter(|t| !t.trim().is_empty()) else {
            return Ok(Bound::None);
        };
        let t = t.trim();
        if make(0) == Bound::Date(0) {
            return date(t)
                .map(Bound::Date)
                .ok_or_else(|| bad(n, format!("'{t}' is not a date")));
        }
        if float {
            return match t.parse::<f64>() {
                Ok(f) if f.is_finite() => Ok(Bound::Float(f)),
                _ => Err(bad(n, format!("'{t}' is not a number"))),
            };
        }
        (t.parse::<i64>().map(make)).map_err(|_| bad(n, format!("'{t}' is not an integer")))
    };
    let ranges = ranges
        .into_iter()
        .map(|r| Ok((end(r, "from")?, end(r, "to")?)))
        .collect::<Result<_>>()?;
    Ok(Kind::Range { of, ranges })
}

/// Unix seconds, or an ISO 8601 date or date and time (UTC unless it says otherwise).
fn date(t: &str) -> Option<i64> {
    if let Ok(i) = t.trim_start_matches('@').parse::<i64>() {
        return Some(i);
    }
    if let Ok(d) = chrono::DateTime::parse_from_rfc3339(t) {
        return Some(d.timestamp());
    }
    if let Ok(d) = chrono::NaiveDateTime::parse_from_str(t, "%Y-%m-%dT%H:%M:%S") {
        return Some(d.and_utc().timestamp());
    }
    (chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d").ok())
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|d| d.and_utc().timestamp())
}

/// The join and condition that give each hit the current version's value of a Field (in
/// its main language) as `ff`.
fn field_join(f: &FieldRef) -> (String, String, Vec<Value>) {
    (
        " JOIN content_fields ff ON ff.content_id = c.id AND ff.version_no = c.current_version \
         AND ff.language_code = c.main_language_code"
            .into(),
        " AND ff.field_definition_id IN (SELECT d.id FROM field_definitions d JOIN content_types t \
         ON t.id = d.content_type_id WHERE d.status = 0 AND t.status = 0 AND t.identifier = ? \
         AND d.identifier = ?)"
            .into(),
        vec![f.content_type.clone().into(), f.field.clone().into()],
    )
}

/// The items of the JSON list a Field holds, as `j.value` (text).
fn json_items(backend: DbBackend) -> (&'static str, &'static str) {
    match backend {
        DbBackend::Postgres => (
            " CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(ff.value::jsonb) = 'array' \
             THEN ff.value::jsonb ELSE '[]'::jsonb END) j",
            "(j.value #>> '{}')",
        ),
        _ => (
            " JOIN json_each(CASE WHEN json_type(ff.value) = 'array' THEN ff.value ELSE '[]' END) j",
            "CAST(j.value AS TEXT)",
        ),
    }
}

/// The key of each hit of a term aggregation: (joins, key, condition, its values).
fn term_sql(of: &Term, m: &Matches) -> (String, String, String, Vec<Value>) {
    let location = m.target == Target::Location;
    // A content search reaches its items' Locations through a join.
    let locations = if location {
        String::new()
    } else {
        " JOIN locations l ON l.content_id = c.id".to_string()
    };
    let none = String::new;
    match of {
        Term::ContentType => (none(), "c.content_type_id".into(), none(), vec![]),
        Term::ContentTypeGroup => (
            " JOIN content_type_group_links g ON g.content_type_id = c.content_type_id".into(),
            "g.group_id".into(),
            " AND g.status = 0".into(),
            vec![],
        ),
        Term::Section => (none(), "c.section_id".into(), none(), vec![]),
        Term::Language => (
            " JOIN content_fields lf ON lf.content_id = c.id AND lf.version_no = c.current_version \
             JOIN languages lg ON lg.language_code = lf.language_code"
                .into(),
            "lg.id".into(),
            none(),
            vec![],
        ),
        Term::ObjectState(group) => (
            " JOIN content_object_states s ON s.content_id = c.id".into(),
            "s.state_id".into(),
            " AND s.group_id IN (SELECT id FROM object_state_groups WHERE identifier = ?)".into(),
            vec![group.clone().into()],
        ),
        Term::UserMetadata(ty) => match ty.as_str() {
            "modifier" => (
                " JOIN content_versions v ON v.content_id = c.id AND v.version_no = c.current_version"
                    .into(),
                "v.creator_id".into(),
                none(),
                vec![],
            ),
            "group" => (
                " JOIN locations ul ON ul.content_id = c.owner_id JOIN locations gl ON gl.id = ul.parent_id"
                    .into(),
                "gl.content_id".into(),
                none(),
                vec![],
            ),
            _ => (none(), "c.owner_id".into(), none(), vec![]),
        },
        Term::Visibility => {
            let key = if location {
                "CASE WHEN NOT c.is_hidden AND NOT l.is_invisible THEN 1 ELSE 0 END"
            } else {
                "CASE WHEN NOT c.is_hidden AND EXISTS (SELECT 1 FROM locations vl \
                 WHERE vl.content_id = c.id AND NOT vl.is_invisible) THEN 1 ELSE 0 END"
            };
            (none(), key.into(), none(), vec![])
        }
        Term::LocationChildren => (locations, "l.parent_id".into(), none(), vec![]),
        Term::Subtree(path) => (
            format!("{locations} JOIN locations a ON l.path_string LIKE a.path_string || '%' AND a.id <> l.id"),
            "a.id".into(),
            " AND a.path_string >= ? AND a.path_string < ?".into(),
            vec![
                path.clone().into(),
                crate::tree::subtree_end(path).into(),
            ],
        ),
        Term::Checkbox(f) => {
            let (join, cond, values) = field_join(f);
            (join, "ff.sort_key_int".into(), cond, values)
        }
        Term::Author(f) | Term::Country(f, _) | Term::Keyword(f) | Term::Selection(f) => {
            let (join, cond, values) = field_join(f);
            let (items, key) = json_items(m.backend);
            (format!("{join}{items}"), key.into(), cond, values)
        }
        Term::Raw(column) => (none(), format!("CAST({column} AS TEXT)"), none(), vec![]),
    }
}

/// The number of each hit a range or stats aggregation reads: (joins, expression,
/// condition, its values).
fn number_sql(of: &Number, m: &Matches) -> (String, String, String, Vec<Value>) {
    match of {
        Number::DateMetadata(ty) => {
            let column = if ty == "modified" {
                "c.modified"
            } else {
                "c.published"
            };
            (String::new(), column.into(), String::new(), vec![])
        }
        Number::Raw(column) => (String::new(), (*column).into(), String::new(), vec![]),
        Number::Field(f, float) => {
            let (join, cond, values) = field_join(f);
            let ty = match m.backend {
                DbBackend::Postgres => "DOUBLE PRECISION",
                _ => "REAL",
            };
            let expr = if *float {
                format!("CASE WHEN ff.value = 'null' THEN NULL ELSE CAST(ff.value AS {ty}) END")
            } else {
                "CASE WHEN ff.value = 'null' THEN NULL ELSE ff.sort_key_int END".into()
            };
            (join, expr, cond, values)
        }
    }
}

/// Whether `expr` is within `from` (included) and `to` (excluded); the ends are numbers the
/// server parsed, written into the statement.
pub fn range_test(expr: &str, from: Bound, to: Bound) -> String {
    let mut test = vec![format!("{expr} IS NOT NULL")];
    test.extend(from.sql().map(|f| format!("{expr} >= {f}")));
    test.extend(to.sql().map(|t| format!("{expr} < {t}")));
    test.join(" AND ")
}

/// Whether the joins of a term aggregation may give a hit more than one row with one key
/// (the fields of its languages, a value twice in a list, Locations under one parent): then
/// hits are counted as distinct ids, otherwise as rows, which reads no more than the index.
fn repeats(of: &Term, m: &Matches) -> bool {
    match of {
        Term::Language | Term::UserMetadata(_) => true,
        Term::LocationChildren | Term::Subtree(_) => m.target == Target::Content,
        Term::Author(_) | Term::Country(..) | Term::Keyword(_) | Term::Selection(_) => true,
        _ => false,
    }
}

/// Counts `a` over the matches `m`, in one statement.
pub async fn count(w: &mut Watched, m: &Matches<'_>, a: &Aggregation) -> Result<Counted> {
    let mut values = m.values.to_vec();
    let head = m.head;
    let (from, id) = (m.from, m.id);
    Ok(match &a.kind {
        Kind::Term {
            of,
            limit,
            min_count,
        } => {
            if *limit == 0 {
                return Ok(Counted::Term(Vec::new()));
            }
            let (joins, key, cond, more) = term_sql(of, m);
            values.extend(more);
            values.extend([(*min_count).into(), (*limit).into()]);
            let n = match repeats(of, m) {
                true => format!("COUNT(DISTINCT {id})"),
                false => "COUNT(*)".into(),
            };
            let sql = format!(
                "{head}SELECT {key}, {n} FROM {from}{joins} WHERE {}{cond} \
                 AND {key} IS NOT NULL GROUP BY {key} HAVING {n} >= ? ORDER BY 2 DESC, 1 LIMIT ?",
                m.condition
            );
            let rows = w.cells(&sql, values).await?;
            Counted::Term(
                rows.into_iter()
                    .filter_map(|mut r| {
                        let n = r.pop()?.int()?;
                        Some((r.pop()?, n))
                    })
                    .collect(),
            )
        }
        Kind::Range { of, ranges } => {
            if ranges.is_empty() {
                return Ok(Counted::Range(Vec::new()));
            }
            let (joins, expr, cond, more) = number_sql(of, m);
            values.extend(more);
            let columns: Vec<String> = ranges
                .iter()
                .map(|(from, to)| {
                    let test = range_test(&expr, *from, *to);
                    format!("COUNT(CASE WHEN {test} THEN 1 END)")
                })
                .collect();
            let sql = format!(
                "{head}SELECT {} FROM {from}{joins} WHERE {}{cond}",
                columns.join(", "),
                m.condition
            );
            let rows = w.cells(&sql, values).await?;
            let row = rows.into_iter().next().unwrap_or_default();
            Counted::Range(
                (0..ranges.len())
                    .map(|i| row.get(i).and_then(Cell::int).unwrap_or(0))
                    .collect(),
            )
        }
        Kind::Stats { of } => {
            let (joins, expr, cond, more) = number_sql(of, m);
            values.extend(more);
            let f = |agg: &str| format!("CAST({agg}({expr}) AS DOUBLE PRECISION)");
            let sql = format!(
                "{head}SELECT {}, COUNT({expr}), {}, {}, {} FROM {from}{joins} WHERE {}{cond}",
                f("SUM"),
                f("MIN"),
                f("MAX"),
                f("AVG"),
                m.condition
            );
            let rows = w.cells(&sql, values).await?;
            let mut row = rows.into_iter().next().unwrap_or_default().into_iter();
            let mut next = || row.next().unwrap_or(Cell::Null);
            Counted::Stats([next(), next(), next(), next(), next()])
        }
    })
}
