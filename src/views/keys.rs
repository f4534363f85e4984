//! The results of a query's aggregations as the reference writes them (ibexa/rest 4.6
//! `TermAggregationResult`, `RangeAggregationResult`, `StatsAggregationResult` visitors):
//! each term bucket keyed by the object it counts (a ContentType, Section, Location, ...,
//! rendered as its own resource; loaded for all buckets of an aggregation at once) or by a
//! value; each range by the range asked.

use super::ViewsService;
use super::aggregations::{Aggregation, Bound, Counted, Kind, Term};
use crate::api::model::*;
use crate::error::Result;
use cairn_runtime::{Float, HashValue, Timestamp};
use cairn_store::entity::{content, field_definition, location};
use cairn_store::rows::Cell;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use std::collections::HashMap;

fn value(c: &Cell) -> HashValue {
    match c {
        Cell::Null => HashValue::Null,
        Cell::Int(i) => HashValue::Int(*i),
        Cell::Float(f) => HashValue::Float(Float(*f)),
        Cell::Text(t) => HashValue::String(t.clone()),
    }
}

fn bound(b: Bound) -> HashValue {
    match b {
        Bound::None => HashValue::Null,
        Bound::Int(i) => HashValue::Int(i),
        Bound::Float(f) => HashValue::Float(Float(f)),
        Bound::Date(t) => HashValue::String(Timestamp(t).to_iso8601()),
    }
}

fn float(c: &Cell) -> Option<Float> {
    c.float().map(Float)
}

/// Buckets keyed by objects: those whose object is found, in the buckets' order.
fn keyed<T>(
    buckets: &[(Cell, i64)],
    found: Vec<T>,
    id: impl Fn(&T) -> i64,
    key: impl Fn(T) -> TermAggregationKey,
) -> Vec<TermAggregationEntry> {
    let mut by_id: HashMap<i64, T> = found.into_iter().map(|t| (id(&t), t)).collect();
    buckets
        .iter()
        .filter_map(|(k, n)| {
            let object = by_id.remove(&k.int()?)?;
            Some(TermAggregationEntry::TermAggregationResultEntry(
                TermAggregationResultEntry {
                    key: key(object),
                    count: *n,
                },
            ))
        })
        .collect()
}

fn valued(buckets: &[(Cell, i64)], key: impl Fn(&Cell) -> HashValue) -> Vec<TermAggregationEntry> {
    buckets
        .iter()
        .map(|(k, n)| {
            TermAggregationEntry::TermAggregationValueEntry(TermAggregationValueEntry {
                key: key(k),
                count: *n,
            })
        })
        .collect()
}

impl ViewsService {
    /// The result of aggregation `a` from what was counted of it.
    pub(super) async fn aggregation_result(
        &self,
        db: &cairn_store::Reader,
        a: &Aggregation,
        counted: Counted,
    ) -> Result<AggregationResult> {
        let name = a.name.clone();
        Ok(match (&a.kind, counted) {
            (Kind::Term { of, .. }, Counted::Term(buckets)) => {
                AggregationResult::TermAggregationResult(TermAggregationResult {
                    name,
                    entries: self.term_entries(db, of, &buckets).await?,
                })
            }
            (Kind::Range { ranges, .. }, Counted::Range(counts)) => {
                AggregationResult::RangeAggregationResult(RangeAggregationResult {
                    name,
                    range_aggregation_result_entry: ranges
                        .iter()
                        .zip(counts)
                        .map(|((from, to), count)| RangeAggregationResultEntry {
                            key: RangeAggregationKey::Range(Range {
                                from: bound(*from),
                                to: bound(*to),
                            }),
                            count,
                        })
                        .collect(),
                })
            }
            (_, Counted::Stats([sum, count, min, max, avg])) => {
                AggregationResult::StatsAggregationResult(StatsAggregationResult {
                    name,
                    sum: float(&sum),
                    count: count.int(),
                    min: float(&min),
                    max: float(&max),
                    avg: float(&avg),
                })
            }
            (_, Counted::Term(_)) | (_, Counted::Range(_)) => {
                return Err(crate::error::Error::Internal(
                    "an aggregation counted as another kind".into(),
                ));
            }
        })
    }

    async fn term_entries(
        &self,
        db: &cairn_store::Reader,
        of: &Term,
        buckets: &[(Cell, i64)],
    ) -> Result<Vec<TermAggregationEntry>> {
        let ids: Vec<i64> = buckets.iter().filter_map(|(k, _)| k.int()).collect();
        if buckets.is_empty() {
            return Ok(Vec::new());
        }
        use TermAggregationKey as K;
        Ok(match of {
            Term::ContentType => keyed(
                buckets,
                self.content_types_by_ids(db, ids).await?,
                |t| t.id,
                K::ContentType,
            ),
            Term::ContentTypeGroup => keyed(
                buckets,
                crate::content_types::groups_by_ids(db, ids).await?,
                |g| g.id,
                K::ContentTypeGroup,
            ),
            Term::Section => keyed(
                buckets,
                crate::sections::by_ids(db, ids).await?,
                |s| s.section_id,
                K::Section,
            ),
            Term::Language => keyed(
                buckets,
                crate::languages::by_ids(db, &ids).await?,
                |l| l.language_id,
                K::Language,
            ),
            Term::ObjectState(_) => keyed(
                buckets,
                crate::object_states::states_by_ids(db, ids).await?,
                |s| s.id,
                K::ObjectState,
            ),
            Term::UserMetadata(ty) if ty == "group" => {
                let cs = content::Entity::find()
                    .filter(content::Column::Id.is_in(ids))
                    .all(db)
                    .await?;
                let mains: Vec<i64> = cs.iter().filter_map(|c| c.main_location_id).collect();
                let mut ls: HashMap<i64, location::Model> = location::Entity::find()
                    .filter(location::Column::Id.is_in(mains))
                    .all(db)
                    .await?
                    .into_iter()
                    .map(|l| (l.id, l))
                    .collect();
                let pairs: Vec<(content::Model, location::Model)> = cs
                    .into_iter()
                    .filter_map(|c| {
                        let l = ls.remove(&c.main_location_id?)?;
                        Some((c, l))
                    })
                    .collect();
                keyed(
                    buckets,
                    self.group_bodies(db, pairs).await?,
                    |g| g.id,
                    K::UserGroup,
                )
            }
            Term::UserMetadata(_) => {
                let cs = content::Entity::find()
                    .filter(content::Column::Id.is_in(ids))
                    .filter(content::Column::Id.in_subquery(users_subquery()))
                    .all(db)
                    .await?;
                keyed(buckets, self.user_bodies(db, cs).await?, |u| u.id, K::User)
            }
            Term::LocationChildren | Term::Subtree(_) => {
                let ls = location::Entity::find()
                    .filter(location::Column::Id.is_in(ids))
                    .all(db)
                    .await?;
                let (bodies, _) = self.located(db, &ls).await?;
                keyed(buckets, bodies, |l| l.id, K::Location)
            }
            Term::Visibility | Term::Checkbox(_) => {
                valued(buckets, |k| HashValue::Bool(k.int() == Some(1)))
            }
            Term::Country(_, ty) => valued(buckets, |k| country(&k.text().unwrap_or_default(), ty)),
            Term::Author(_) => valued(buckets, |k| {
                let text = k.text().unwrap_or_default();
                serde_json::from_str::<serde_json::Value>(&text)
                    .map(|v| HashValue::from_json(&v))
                    .unwrap_or(HashValue::String(text))
            }),
            Term::Selection(f) => {
                let names = self.option_names(db, f).await?;
                valued(buckets, |k| {
                    let i = k.int().unwrap_or(-1);
                    names
                        .get(&i)
                        .cloned()
                        .map_or_else(|| value(k), HashValue::String)
                })
            }
            Term::Keyword(_) | Term::Raw(_) => valued(buckets, value),
        })
    }

    /// The option names of a selection Field definition, by index.
    async fn option_names(
        &self,
        db: &cairn_store::Reader,
        f: &super::aggregations::FieldRef,
    ) -> Result<HashMap<i64, String>> {
        let defs = field_definition::Entity::find()
            .filter(field_definition::Column::Identifier.eq(f.field.clone()))
            .filter(field_definition::Column::Status.eq(0))
            .filter(
                field_definition::Column::ContentTypeId.in_subquery(
                    sea_orm::sea_query::Query::select()
                        .column(cairn_store::entity::content_type::Column::Id)
                        .from(cairn_store::entity::content_type::Entity)
                        .and_where(
                            cairn_store::entity::content_type::Column::Identifier
                                .eq(f.content_type.clone()),
                        )
                        .to_owned(),
                ),
            )
            .all(db)
            .await?;
        let mut out = HashMap::new();
        for d in defs {
            let settings: serde_json::Value =
                serde_json::from_str(&d.field_settings).unwrap_or_default();
            match &settings["options"] {
                serde_json::Value::Array(names) => {
                    for (i, n) in names.iter().enumerate() {
                        if let Some(n) = n.as_str() {
                            out.insert(i as i64, n.to_string());
                        }
                    }
                }
                serde_json::Value::Object(names) => {
                    for (i, n) in names {
                        if let (Ok(i), Some(n)) = (i.parse(), n.as_str()) {
                            out.insert(i, n.to_string());
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(out)
    }
}

fn users_subquery() -> sea_orm::sea_query::SelectStatement {
    sea_orm::sea_query::Query::select()
        .column(cairn_store::entity::user::Column::Id)
        .from(cairn_store::entity::user::Entity)
        .to_owned()
}

/// A country of an alpha-2 code, as the aggregation's `type` names it.
fn country(alpha2: &str, ty: &str) -> HashValue {
    let Some((name, a2, a3, idc)) = (crate::countries_data::COUNTRIES.iter())
        .find(|(_, a2, _, _)| a2.eq_ignore_ascii_case(alpha2))
    else {
        return HashValue::String(alpha2.to_string());
    };
    match ty {
        "name" => HashValue::String(name.to_string()),
        "idc" => HashValue::Int(*idc),
        "alpha2" => HashValue::String(a2.to_string()),
        _ => HashValue::String(a3.to_string()),
    }
}
