//! Search criteria (formats.md section 8): the `Filter` and `Query` maps of a view, turned
//! into one SQL condition over `contents c` (and, in a Location search, `locations l`).
//! Conditions on Locations in a content search ask whether any Location of the item matches.
//!
//! Longer than 500 lines for one reason: every criterion's translation sits beside the others
//! (one `match` over criterion names), so adding one is one arm here.

use super::image_criteria;
use crate::error::{Error, Result};
use crate::full_text;
use cairn_runtime::HashValue;
use sea_orm::{DbBackend, Value};
use std::collections::HashSet;

/// What a search returns, which decides how Location conditions apply.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Content,
    Location,
}

/// A SQL condition with its bind values, in order.
#[derive(Default)]
pub struct Sql {
    pub text: String,
    pub values: Vec<Value>,
}

impl Sql {
    fn new(text: impl Into<String>, values: Vec<Value>) -> Sql {
        Sql {
            text: text.into(),
            values,
        }
    }

    /// `(a) AND (b) ...`, or `1 = 1` for none; joined as a balanced tree, so that a long list
    /// nests log2(n) deep, not n (SQLite refuses expressions deeper than 1,000).
    pub fn all(parts: Vec<Sql>, joiner: &str) -> Sql {
        if parts.is_empty() {
            return Sql::new(if joiner == "OR" { "1 = 0" } else { "1 = 1" }, vec![]);
        }
        Self::balanced(parts, joiner)
    }

    fn balanced(mut parts: Vec<Sql>, joiner: &str) -> Sql {
        if parts.len() == 1 {
            let p = parts.remove(0);
            return Sql::new(format!("({})", p.text), p.values);
        }
        let right = parts.split_off(parts.len() / 2);
        let (l, r) = (Self::balanced(parts, joiner), Self::balanced(right, joiner));
        let mut values = l.values;
        values.extend(r.values);
        Sql::new(format!("({} {joiner} {})", l.text, r.text), values)
    }
}

/// What criteria need to know of the request.
pub struct Context {
    pub target: Target,
    pub user_id: i64,
    pub backend: DbBackend,
    /// Words too common to search for (see `full_text::Counts::stop_words`).
    pub stop_words: HashSet<String>,
}

/// The texts of every full-text criterion in `criteria`, at any depth.
pub fn full_texts(criteria: &HashValue) -> Vec<String> {
    let mut out = Vec::new();
    collect_full_texts(criteria, &mut out);
    out
}

fn collect_full_texts(v: &HashValue, out: &mut Vec<String>) {
    match v {
        HashValue::List(items) => items.iter().for_each(|i| collect_full_texts(i, out)),
        HashValue::Map(entries) => {
            for (name, value) in entries {
                match (name.as_str(), value) {
                    ("FullTextCriterion", HashValue::List(texts)) => {
                        out.extend(texts.iter().filter_map(HashValue::to_text))
                    }
                    ("FullTextCriterion", text) => out.extend(text.to_text()),
                    _ => collect_full_texts(value, out),
                }
            }
        }
        _ => {}
    }
}

/// Takes the full-text criterion that ranks the hits out of a query: one that must hold for
/// every hit (at the top, or in an AND at the top). Its text is returned; the criteria left
/// still filter.
pub fn take_ranked(criteria: &mut HashValue) -> Option<String> {
    let HashValue::Map(entries) = criteria else {
        return None;
    };
    if let Some(i) = entries
        .iter()
        .position(|(n, v)| n == "FullTextCriterion" && matches!(v, HashValue::String(_)))
    {
        return entries.remove(i).1.to_text();
    }
    for (_, value) in entries.iter_mut().filter(|(n, _)| n == "AND") {
        let found = match value {
            HashValue::List(maps) => maps.iter_mut().find_map(take_ranked),
            map => take_ranked(map),
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

pub(super) fn bad(name: &str, why: impl std::fmt::Display) -> Error {
    Error::BadRequest(format!("{name}: {why}"))
}

/// The items of a criterion value: a comma list, a list, or one scalar.
fn items(name: &str, v: &HashValue) -> Result<Vec<String>> {
    let out: Vec<String> = match v {
        HashValue::List(l) => l.iter().filter_map(HashValue::to_text).collect(),
        HashValue::Map(_) | HashValue::Null => return Err(bad(name, "expects a value or a list")),
        other => other
            .to_text()
            .unwrap_or_default()
            .split(',')
            .map(|s| s.trim().to_string())
            .collect(),
    };
    let out: Vec<String> = out.into_iter().filter(|s| !s.is_empty()).collect();
    if out.is_empty() {
        return Err(bad(name, "expects at least one value"));
    }
    Ok(out)
}

fn ints(name: &str, v: &HashValue) -> Result<Vec<i64>> {
    items(name, v)?
        .iter()
        .map(|s| {
            s.parse::<i64>()
                .map_err(|_| bad(name, format!("'{s}' is not an integer")))
        })
        .collect()
}

fn boolean(name: &str, v: &HashValue) -> Result<bool> {
    match v {
        HashValue::Bool(b) => Ok(*b),
        HashValue::Int(i) => Ok(*i != 0),
        HashValue::String(s) if s == "true" || s == "1" => Ok(true),
        HashValue::String(s) if s == "false" || s == "0" => Ok(false),
        _ => Err(bad(name, "expects true or false")),
    }
}

/// `?, ?, ?` for `n` values.
fn marks(n: usize) -> String {
    vec!["?"; n].join(", ")
}

fn in_list<T: Into<Value> + Clone>(column: &str, list: &[T]) -> Sql {
    Sql::new(
        format!("{column} IN ({})", marks(list.len())),
        list.iter().cloned().map(Into::into).collect(),
    )
}

/// A `*` pattern as a LIKE pattern (`%` and `_` escaped with `\`).
pub fn like_pattern(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
        .replace('*', "%")
}

/// A key of a data map, whatever its case (`Target` or `target`).
pub(super) fn key<'a>(v: &'a HashValue, k: &str) -> Option<&'a HashValue> {
    match v {
        HashValue::Map(entries) => entries
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(k))
            .map(|(_, v)| v),
        _ => None,
    }
}

/// `op` (EQ, GT, ...) as SQL, with BETWEEN and IN taking lists.
fn compare(name: &str, column: &str, op: &str, value: &HashValue, numeric: bool) -> Result<Sql> {
    let scalar = |v: &HashValue| -> Result<Value> {
        if numeric {
            v.as_i64()
                .map(Value::from)
                .ok_or_else(|| bad(name, format!("{v:?} is not an integer")))
        } else {
            v.to_text()
                .map(|s| Value::from(s.to_lowercase()))
                .ok_or_else(|| bad(name, "expects a value"))
        }
    };
    let list: Vec<HashValue> = match value {
        HashValue::List(l) => l.clone(),
        v => vec![v.clone()],
    };
    let col = if numeric {
        column.to_string()
    } else {
        format!("LOWER({column})")
    };
    let text = || -> Result<String> {
        list.first()
            .and_then(HashValue::to_text)
            .map(|s| s.to_lowercase())
            .ok_or_else(|| bad(name, "expects a value"))
    };
    let one = || -> Result<Value> {
        list.first()
            .map(scalar)
            .unwrap_or_else(|| Err(bad(name, "expects a value")))
    };
    Ok(match op.to_ascii_uppercase().as_str() {
        "EQ" => Sql::new(format!("{col} = ?"), vec![one()?]),
        "GT" => Sql::new(format!("{col} > ?"), vec![one()?]),
        "GTE" => Sql::new(format!("{col} >= ?"), vec![one()?]),
        "LT" => Sql::new(format!("{col} < ?"), vec![one()?]),
        "LTE" => Sql::new(format!("{col} <= ?"), vec![one()?]),
        "IN" => {
            let vals = list.iter().map(scalar).collect::<Result<Vec<_>>>()?;
            if vals.is_empty() {
                return Err(bad(name, "IN expects values"));
            }
            Sql::new(format!("{col} IN ({})", marks(vals.len())), vals)
        }
        "BETWEEN" => {
            if list.len() != 2 {
                return Err(bad(name, "BETWEEN expects two values"));
            }
            Sql::new(
                format!("{col} BETWEEN ? AND ?"),
                vec![scalar(&list[0])?, scalar(&list[1])?],
            )
        }
        "LIKE" if !numeric => Sql::new(
            format!("{col} LIKE ? ESCAPE '\\'"),
            vec![like_pattern(&text()?).into()],
        ),
        "CONTAINS" if !numeric => Sql::new(
            format!("{col} LIKE ? ESCAPE '\\'"),
            vec![format!("%{}%", like_pattern(&text()?)).into()],
        ),
        other => return Err(bad(name, format!("unknown operator '{other}'"))),
    })
}

impl Context {
    /// A condition on Locations: on `l` in a Location search; in a content search, that the
    /// item has a Location satisfying it. The Locations are found first (not correlated with
    /// `c`), so a narrow condition drives the search instead of one probe per content item.
    fn location(&self, cond: &str, values: Vec<Value>) -> Sql {
        match self.target {
            Target::Location => Sql::new(cond.replace("{l}", "l"), values),
            Target::Content => Sql::new(
                format!(
                    "c.id IN (SELECT lx.content_id FROM locations lx WHERE {})",
                    cond.replace("{l}", "lx")
                ),
                values,
            ),
        }
    }

    /// The condition of a criteria map: every key (a criterion, or AND/OR/NOT) must hold.
    pub fn map(&self, criteria: &HashValue) -> Result<Sql> {
        let HashValue::Map(entries) = criteria else {
            return Err(Error::BadRequest(
                "Criteria must be a map of criterion names to their values".into(),
            ));
        };
        let mut parts = Vec::new();
        for (name, value) in entries {
            parts.push(self.named(name, value, "AND")?);
        }
        Ok(Sql::all(parts, "AND"))
    }

    /// One criterion name with its value inside a `joiner` (AND or OR); a list value is that
    /// criterion once per item, joined as the criteria around it (two criteria of one name
    /// under OR: either holds), as the reference reads repeated elements and JSON arrays;
    /// AND and OR also take a list of maps.
    fn named(&self, name: &str, value: &HashValue, joiner: &str) -> Result<Sql> {
        match name {
            "AND" | "OR" => {
                let inner = if name == "AND" { "AND" } else { "OR" };
                let parts = match value {
                    HashValue::List(maps) => {
                        maps.iter().map(|m| self.map(m)).collect::<Result<_>>()?
                    }
                    HashValue::Map(entries) => entries
                        .iter()
                        .map(|(n, v)| self.named(n, v, inner))
                        .collect::<Result<_>>()?,
                    _ => return Err(bad(name, "expects criteria")),
                };
                Ok(Sql::all(parts, inner))
            }
            "NOT" => {
                let inner = self.map(value)?;
                Ok(Sql::new(format!("NOT ({})", inner.text), inner.values))
            }
            _ => match value {
                HashValue::List(list) => {
                    let parts = list
                        .iter()
                        .map(|v| self.criterion(name, v))
                        .collect::<Result<_>>()?;
                    Ok(Sql::all(parts, joiner))
                }
                v => self.criterion(name, v),
            },
        }
    }

    fn criterion(&self, name: &str, v: &HashValue) -> Result<Sql> {
        let n = name;
        Ok(match name {
            "ContentIdCriterion" => in_list("c.id", &ints(n, v)?),
            "ContentRemoteIdCriterion" => in_list("c.remote_id", &items(n, v)?),
            "LocationIdCriterion" => {
                let ids = ints(n, v)?;
                self.location(
                    &format!("{{l}}.id IN ({})", marks(ids.len())),
                    to_values(ids),
                )
            }
            "LocationRemoteIdCriterion" => {
                let ids = items(n, v)?;
                self.location(
                    &format!("{{l}}.remote_id IN ({})", marks(ids.len())),
                    to_values(ids),
                )
            }
            "ParentLocationIdCriterion" => {
                let ids = ints(n, v)?;
                self.location(
                    &format!("{{l}}.parent_id IN ({})", marks(ids.len())),
                    to_values(ids),
                )
            }
            "ParentLocationRemoteIdCriterion" => {
                let ids = items(n, v)?;
                self.location(
                    &format!(
                        "{{l}}.parent_id IN (SELECT id FROM locations WHERE remote_id IN ({}))",
                        marks(ids.len())
                    ),
                    to_values(ids),
                )
            }
            "SubtreeCriterion" => {
                let paths = items(n, v)?;
                let mut values = Vec::new();
                let mut conds = Vec::new();
                for p in paths {
                    let p = format!("/{}/", p.trim_matches('/'));
                    values.push(Value::from(p.clone()));
                    values.push(Value::from(crate::tree::subtree_end(&p)));
                    conds.push("({l}.path_string >= ? AND {l}.path_string < ?)");
                }
                self.location(&format!("({})", conds.join(" OR ")), values)
            }
            "AncestorCriterion" => {
                let mut ids: Vec<i64> = Vec::new();
                for p in items(n, v)? {
                    for seg in p.split('/').filter(|s| !s.is_empty()) {
                        ids.push(
                            seg.parse()
                                .map_err(|_| bad(n, format!("'{p}' is not a path")))?,
                        );
                    }
                }
                self.location(
                    &format!("{{l}}.id IN ({})", marks(ids.len())),
                    to_values(ids),
                )
            }
            "SiblingCriterion" => {
                let id = *ints(n, v)?.first().unwrap_or(&0);
                self.location(
                    "{l}.parent_id = (SELECT s.parent_id FROM locations s WHERE s.id = ?) AND {l}.id <> ?",
                    vec![id.into(), id.into()],
                )
            }
            "VisibilityCriterion" => {
                let hidden = match v.to_text().as_deref() {
                    Some("0") | Some("VISIBLE") | Some("visible") => false,
                    Some("1") | Some("HIDDEN") | Some("hidden") => true,
                    _ => return Err(bad(n, "expects 0 (visible) or 1 (hidden)")),
                };
                let visible = self.location("{l}.is_invisible = ?", vec![false.into()]);
                let cond = Sql::all(
                    vec![Sql::new("c.is_hidden = ?", vec![false.into()]), visible],
                    "AND",
                );
                if hidden {
                    Sql::new(format!("NOT ({})", cond.text), cond.values)
                } else {
                    cond
                }
            }
            "IsBookmarkedCriterion" => {
                let wanted = boolean(n, v)?;
                let cond = self.location(
                    "{l}.id IN (SELECT location_id FROM bookmarks WHERE user_id = ?)",
                    vec![self.user_id.into()],
                );
                negate_unless(wanted, cond)
            }
            "SectionIdCriterion" => in_list("c.section_id", &ints(n, v)?),
            "SectionIdentifierCriterion" => {
                let ids = items(n, v)?;
                Sql::new(
                    format!(
                        "c.section_id IN (SELECT id FROM sections WHERE identifier IN ({}))",
                        marks(ids.len())
                    ),
                    to_values(ids),
                )
            }
            "ContentTypeIdCriterion" => in_list("c.content_type_id", &ints(n, v)?),
            "ContentTypeIdentifierCriterion" => {
                let ids = items(n, v)?;
                Sql::new(
                    format!(
                        "c.content_type_id IN (SELECT id FROM content_types WHERE status = 0 AND identifier IN ({}))",
                        marks(ids.len())
                    ),
                    to_values(ids),
                )
            }
            "ContentTypeGroupIdCriterion" => {
                let ids = ints(n, v)?;
                Sql::new(
                    format!(
                        "c.content_type_id IN (SELECT content_type_id FROM content_type_group_links WHERE status = 0 AND group_id IN ({}))",
                        marks(ids.len())
                    ),
                    to_values(ids),
                )
            }
            "IsContainerCriterion" => Sql::new(
                "c.content_type_id IN (SELECT id FROM content_types WHERE status = 0 AND is_container = ?)",
                vec![boolean(n, v)?.into()],
            ),
            "LanguageCodeCriterion" => {
                let codes = items(n, v)?;
                Sql::new(
                    format!(
                        "EXISTS (SELECT 1 FROM content_fields f WHERE f.content_id = c.id AND f.version_no = c.current_version AND f.language_code IN ({}))",
                        marks(codes.len())
                    ),
                    to_values(codes),
                )
            }
            "ObjectStateIdCriterion" => {
                let ids = ints(n, v)?;
                Sql::new(
                    format!(
                        "c.id IN (SELECT s.content_id FROM content_object_states s WHERE s.state_id IN ({}))",
                        marks(ids.len())
                    ),
                    to_values(ids),
                )
            }
            "ObjectStateIdentifierCriterion" => {
                let (value, group) = match v {
                    HashValue::Map(_) => (
                        key(v, "value").cloned().unwrap_or_default(),
                        key(v, "target").and_then(HashValue::to_text),
                    ),
                    other => (other.clone(), None),
                };
                let names = items(n, &value)?;
                let mut values = to_values(names.clone());
                let mut sql = format!(
                    "c.id IN (SELECT s.content_id FROM content_object_states s JOIN object_states o ON o.id = s.state_id WHERE o.identifier IN ({})",
                    marks(names.len())
                );
                if let Some(g) = group {
                    sql.push_str(" AND o.group_id IN (SELECT id FROM object_state_groups WHERE identifier = ?)");
                    values.push(g.into());
                }
                sql.push(')');
                Sql::new(sql, values)
            }
            "ContentNameCriterion" => {
                let pattern = v.to_text().ok_or_else(|| bad(n, "expects a pattern"))?;
                Sql::new(
                    "LOWER(c.name) LIKE ? ESCAPE '\\'",
                    vec![like_pattern(&pattern.to_lowercase()).into()],
                )
            }
            "FullTextCriterion" => {
                let text = v.to_text().ok_or_else(|| bad(n, "expects text"))?;
                let query = full_text::Query::parse(&text);
                if query.is_empty() {
                    return Ok(Sql::new("1 = 1", vec![]));
                }
                let (sql, values) = query.without(&self.stop_words).condition(self.backend);
                Sql::new(sql, values)
            }
            "Field" => self.field(v)?,
            n if image_criteria::is_image_criterion(n) => {
                image_criteria::condition(self.backend, n, v)?
            }
            "DateMetadataCriterion" => {
                let target = key(v, "Target")
                    .and_then(HashValue::to_text)
                    .unwrap_or_default();
                let column = match target.to_lowercase().as_str() {
                    "modified" => "c.modified",
                    "created" | "published" => "c.published",
                    other => return Err(bad(n, format!("unsupported target '{other}'"))),
                };
                let op = key(v, "Operator")
                    .and_then(HashValue::to_text)
                    .unwrap_or("EQ".into());
                let value = key(v, "Value").ok_or_else(|| bad(n, "needs a Value"))?;
                compare(n, column, &op, value, true)?
            }
            "UserMetadataCriterion" => {
                let target = key(v, "Target")
                    .and_then(HashValue::to_text)
                    .unwrap_or_default();
                let ids = ints(n, key(v, "Value").ok_or_else(|| bad(n, "needs a Value"))?)?;
                let m = marks(ids.len());
                let sql = match target.to_lowercase().as_str() {
                    "owner" => format!("c.owner_id IN ({m})"),
                    "modifier" => format!(
                        "EXISTS (SELECT 1 FROM content_versions v WHERE v.content_id = c.id AND v.version_no = c.current_version AND v.creator_id IN ({m}))"
                    ),
                    "group" => format!(
                        "c.owner_id IN (SELECT u.content_id FROM locations u JOIN locations g ON u.parent_id = g.id WHERE g.content_id IN ({m}))"
                    ),
                    other => return Err(bad(n, format!("unsupported target '{other}'"))),
                };
                Sql::new(sql, to_values(ids))
            }
            "UserIdCriterion" => {
                let ids = ints(n, v)?;
                Sql::new(
                    format!(
                        "c.id IN ({}) AND c.id IN (SELECT id FROM users)",
                        marks(ids.len())
                    ),
                    to_values(ids),
                )
            }
            "IsUserBasedCriterion" => negate_unless(
                boolean(n, v)?,
                Sql::new("c.id IN (SELECT id FROM users)", vec![]),
            ),
            "IsUserEnabledCriterion" => Sql::new(
                "c.id IN (SELECT id FROM users WHERE enabled = ?)",
                vec![boolean(n, v)?.into()],
            ),
            "UserLoginCriterion" | "UserEmailCriterion" => {
                let column = if name == "UserLoginCriterion" {
                    "login"
                } else {
                    "email"
                };
                let values = items(n, v)?;
                if values.len() == 1 && values[0].contains('*') {
                    Sql::new(
                        format!(
                            "c.id IN (SELECT id FROM users WHERE LOWER({column}) LIKE ? ESCAPE '\\')"
                        ),
                        vec![like_pattern(&values[0].to_lowercase()).into()],
                    )
                } else {
                    Sql::new(
                        format!(
                            "c.id IN (SELECT id FROM users WHERE {column} IN ({}))",
                            marks(values.len())
                        ),
                        to_values(values),
                    )
                }
            }
            other => {
                return Err(Error::BadRequest(format!(
                    "The criterion '{other}' is not supported"
                )));
            }
        })
    }

    /// `Field`: `{name, operator, value}` against the sort keys of the current version's
    /// fields of that Field definition identifier (numbers compare as integers).
    fn field(&self, v: &HashValue) -> Result<Sql> {
        let n = "Field";
        let name = key(v, "name")
            .and_then(HashValue::to_text)
            .ok_or_else(|| bad(n, "needs a name"))?;
        let op = key(v, "operator")
            .and_then(HashValue::to_text)
            .unwrap_or_else(|| "EQ".into());
        let value = key(v, "value").ok_or_else(|| bad(n, "needs a value"))?;
        let first = match value {
            HashValue::List(l) => l.first().cloned().unwrap_or_default(),
            v => v.clone(),
        };
        let numeric = matches!(first, HashValue::Int(_) | HashValue::Bool(_));
        let column = if numeric {
            "f.sort_key_int"
        } else {
            "f.sort_key_string"
        };
        let cmp = compare(n, column, &op, value, numeric)?;
        let mut values: Vec<Value> = vec![name.into()];
        values.extend(cmp.values);
        Ok(Sql::new(
            format!(
                "EXISTS (SELECT 1 FROM content_fields f WHERE f.content_id = c.id AND f.version_no = c.current_version AND f.field_definition_id IN (SELECT id FROM field_definitions WHERE status = 0 AND identifier = ?) AND {})",
                cmp.text
            ),
            values,
        ))
    }
}

fn to_values<T: Into<Value>>(v: Vec<T>) -> Vec<Value> {
    v.into_iter().map(Into::into).collect()
}

fn negate_unless(wanted: bool, cond: Sql) -> Sql {
    if wanted {
        cond
    } else {
        Sql::new(format!("NOT ({})", cond.text), cond.values)
    }
}
