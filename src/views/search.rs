//! The statements of a search: the count of all matches and the page of hits, ranked when a
//! full-text query ranks them. They run at once, each on a connection that stops it at the
//! time limit or when the client goes.
//!
//! Ranking reads only the documents of the query's rarest words (`full_text::Counts`): hits
//! holding one of them come first, best first; the other matches follow by id with score 0.
//! With sort clauses, every match gets the rank of those words (0 without them) to sort by.

use super::ViewsService;
use super::aggregations::{self, Aggregation, Counted, Matches};
use super::criteria::{Sql, Target};
use super::fused::Fused;
use super::sort;
use crate::api::model::{Content, LocationContent, SearchHitObject};
use crate::error::Result;
use crate::full_text::Query;
use cairn_runtime::HashValue;
use cairn_store::entity::{content, location};
use cairn_store::watch::{IndexPlan, Watched};
use sea_orm::{ColumnTrait, DbBackend, EntityTrait, QueryFilter, Value};
use std::collections::HashMap;

/// A ranked full-text query: `all` its searched words (what matches), `rank` the ones that
/// rank the hits; `narrow` when the documents of those are within the ranking budget, so
/// that its statements read them through the index.
pub(super) struct Text {
    pub all: Query,
    pub rank: Query,
    pub narrow: bool,
}

/// The hits of one page with their scores, the number of all matches, and what each
/// aggregation counted of them.
pub(super) struct Found {
    pub count: i64,
    pub hits: Vec<(SearchHitObject, f64)>,
    pub counted: Vec<Counted>,
}

/// What a statement selects from: a `WITH` head, the FROM clause and the WHERE condition,
/// with their bind values in the order of the text; `by_index` how its full-text condition
/// reads the index, when it must (`Watched::numbers_by_index`): a narrow one by lookups, the
/// count's by bitmaps.
#[derive(Clone)]
struct Source {
    head: String,
    from: String,
    condition: String,
    values: Vec<Value>,
    by_index: Option<IndexPlan>,
}

impl Source {
    fn new(table: &str) -> Source {
        Source {
            head: String::new(),
            from: table.into(),
            condition: "1 = 1".into(),
            values: Vec::new(),
            by_index: None,
        }
    }

    /// The matches of `q` joined to `table`, and the expression of their rank.
    fn matching(
        q: &Query,
        narrow: bool,
        backend: DbBackend,
        table: &str,
    ) -> (Source, &'static str) {
        let rank = q.ranked(backend);
        let source = Source {
            head: String::new(),
            from: format!("{}{table}{}", rank.before, rank.after),
            condition: rank.condition.into(),
            values: rank.values,
            by_index: narrow.then_some(IndexPlan::Lookups),
        };
        (source, rank.score)
    }

    fn and(mut self, sql: &Sql) -> Source {
        self.condition = format!("{} AND {}", self.condition, sql.text);
        self.values.extend(sql.values.iter().cloned());
        self
    }

    async fn count(&self, w: &mut Watched) -> Result<i64> {
        let sql = format!(
            "{}SELECT COUNT(*) FROM {} WHERE {}",
            self.head, self.from, self.condition
        );
        let rows = self.run(w, &sql, self.values.clone()).await?;
        Ok(rows.first().map_or(0, |(n, _)| *n))
    }

    /// The ids and scores of `limit` hits from `offset`, in `order`.
    async fn page(
        &self,
        w: &mut Watched,
        (id, score): (&str, &str),
        order: Sql,
        (limit, offset): (i64, i64),
    ) -> Result<Vec<(i64, f64)>> {
        let sql = format!(
            "{}SELECT {id}, CAST({score} AS DOUBLE PRECISION) FROM {} WHERE {} ORDER BY {} \
             LIMIT ? OFFSET ?",
            self.head, self.from, self.condition, order.text
        );
        let mut values = self.values.clone();
        values.extend(order.values);
        values.extend([limit.into(), offset.into()]);
        self.run(w, &sql, values).await
    }

    async fn run(&self, w: &mut Watched, sql: &str, values: Vec<Value>) -> Result<Vec<(i64, f64)>> {
        Ok(match self.by_index {
            Some(plan) => w.numbers_by_index(sql, values, plan).await?,
            None => w.numbers(sql, values).await?,
        })
    }
}

/// What a search asks for: the matches of `filter` and `text` (ranked by `text` when given)
/// among `target`, in `sort`'s order; the page (limit, offset); and the `aggregations` of all
/// matches.
pub(super) struct Wanted<'a> {
    pub target: Target,
    pub filter: &'a Sql,
    pub text: Option<&'a Text>,
    pub sort: Option<&'a HashValue>,
    pub page: (i64, i64),
    pub aggregations: &'a [Aggregation],
}

impl ViewsService {
    /// The page of hits, the count of all matches, and the aggregations of all matches of
    /// what is `wanted`, read on the request's `reader`.
    pub(super) async fn search(
        &self,
        reader: &cairn_store::Reader,
        wanted: Wanted<'_>,
    ) -> Result<Found> {
        let Wanted {
            target,
            filter,
            text,
            sort,
            page,
            aggregations,
        } = wanted;
        // A content search joins its items' main Locations only for sort clauses on them.
        let (table, id) = match target {
            Target::Content => ("contents c", "c.id"),
            Target::Location => ("locations l JOIN contents c ON c.id = l.content_id", "l.id"),
        };
        let backend = self.db.backend();
        let (all, score) = match text {
            None => (Source::new(table), None),
            Some(text) => {
                // Narrow when every word ranks: then all matches are the ranked ones.
                let narrow = text.narrow && text.rank == text.all;
                let (all, score) = Source::matching(&text.all, narrow, backend, table);
                (all, Some(score))
            }
        };
        let all = all.and(filter);
        let sorted = match target {
            Target::Content if sort::given(sort) => {
                let mut all = all.clone();
                all.from
                    .push_str(" LEFT JOIN locations l ON l.id = c.main_location_id");
                all
            }
            _ => all.clone(),
        };
        // PostgreSQL counts the matches with the whole query at once, through its GIN index
        // (a bitmap of each word's documents, OR'ed), not by summing each word's rank.
        let counted = match text {
            Some(text) if backend == DbBackend::Postgres => {
                let (condition, values) = text.all.condition(backend);
                let mut counted = Source::new(table).and(&Sql {
                    text: condition,
                    values,
                });
                counted.by_index = Some(IndexPlan::Bitmaps);
                counted.and(filter)
            }
            _ => all.clone(),
        };
        let m = Matches {
            head: &counted.head,
            from: &counted.from,
            condition: &counted.condition,
            values: &counted.values,
            id,
            target,
            backend,
        };
        // Aggregations over columns of the hits are counted with the hits, in one statement
        // (not where the count reads a full-text index through `numbers_by_index`).
        let fused = match counted.by_index {
            None => Fused::of(aggregations, &m),
            Some(_) => None,
        };
        // The count and the page run at once, each on a connection of its own.
        let count = async {
            let mut w = reader.watched().await?;
            let n = match &fused {
                Some(f) => f.run(&mut w, &m, aggregations).await?,
                None => (counted.count(&mut w).await?, Vec::new()),
            };
            w.release().await?;
            Ok::<_, crate::error::Error>(n)
        };
        let rows = async {
            let mut w = reader.watched().await?;
            let rows = match (text, score) {
                (Some(text), Some(_)) if text.rank != text.all => {
                    if sort::given(sort) {
                        // Every match sorts with the rank of the ranking words, 0 without.
                        let (scores, values) = text.rank.scores(backend);
                        let mut all = sorted.clone();
                        all.head = format!("WITH r AS MATERIALIZED ({scores}) ");
                        all.values.splice(0..0, values);
                        all.from.push_str(" LEFT JOIN r ON r.id = c.id");
                        let score = "COALESCE(r.score, 0)";
                        let order = sort::order_by(sort, id, Some(score))?;
                        all.page(&mut w, (id, score), order, page).await?
                    } else {
                        tiers(&mut w, backend, (table, id), &all, text, filter, page).await?
                    }
                }
                (_, score) => {
                    let order = sort::order_by(sort, id, score)?;
                    sorted
                        .page(&mut w, (id, score.unwrap_or("1.0")), order, page)
                        .await?
                }
            };
            w.release().await?;
            Ok(rows)
        };
        // The other aggregations count over the matches the count counts, one statement
        // each, on a connection of their own.
        let rest: Vec<usize> = (0..aggregations.len())
            .filter(|i| !fused.as_ref().is_some_and(|f| f.counts(*i)))
            .collect();
        let aggregated = async {
            if rest.is_empty() {
                return Ok(Vec::new());
            }
            let mut w = reader.watched().await?;
            let mut out = Vec::new();
            for i in &rest {
                out.push((
                    *i,
                    aggregations::count(&mut w, &m, &aggregations[*i]).await?,
                ));
            }
            w.release().await?;
            Ok::<_, crate::error::Error>(out)
        };
        let ((count, with_count), rows, apart) = tokio::try_join!(count, rows, aggregated)?;
        let mut by_index: Vec<(usize, Counted)> = with_count.into_iter().chain(apart).collect();
        by_index.sort_by_key(|(i, _)| *i);
        let hits = self.hits(reader, target, rows).await?;
        Ok(Found {
            count,
            hits,
            counted: by_index.into_iter().map(|(_, c)| c).collect(),
        })
    }

    /// The content items or Locations of `rows` (id, score), in their order.
    async fn hits(
        &self,
        db: &cairn_store::Reader,
        target: Target,
        rows: Vec<(i64, f64)>,
    ) -> Result<Vec<(SearchHitObject, f64)>> {
        let ids: Vec<i64> = rows.iter().map(|(id, _)| *id).collect();
        let scores: HashMap<i64, f64> = rows.into_iter().collect();
        Ok(match target {
            Target::Content => {
                let mut by_id: HashMap<i64, content::Model> = cairn_store::read::keyed(
                    db,
                    content::Entity::find().filter(content::Column::Id.is_in(ids.clone())),
                )
                .await?;
                let cs: Vec<content::Model> = ids.iter().filter_map(|i| by_id.remove(i)).collect();
                let scored: Vec<f64> = cs.iter().map(|c| scores[&c.id]).collect();
                self.current_versions(db, &cs)
                    .await?
                    .into_iter()
                    .map(|(info, v)| SearchHitObject::Content(self.content_with_version(info, v)))
                    .zip(scored)
                    .collect()
            }
            Target::Location => {
                let mut by_id: HashMap<i64, location::Model> = cairn_store::read::keyed(
                    db,
                    location::Entity::find().filter(location::Column::Id.is_in(ids.clone())),
                )
                .await?;
                let ls: Vec<location::Model> = ids.iter().filter_map(|i| by_id.remove(i)).collect();
                let scored: Vec<f64> = ls.iter().map(|l| scores[&l.id]).collect();
                // As the reference's Location visitor writes a hit: its ContentInfo holds the
                // full content item, with its current version.
                let (bodies, mut contents) = self.located(db, &ls).await?;
                let cs: Vec<content::Model> = (ls.iter())
                    .filter_map(|l| contents.remove(&l.content_id))
                    .collect();
                let mut full: HashMap<i64, Content> = (cs.iter().map(|c| c.id))
                    .zip(self.current_versions(db, &cs).await?)
                    .map(|(id, (info, v))| (id, self.content_with_version(info, v)))
                    .collect();
                bodies
                    .into_iter()
                    .map(|mut body| {
                        if let Some(c) = full.remove(&body.content) {
                            body.content_info.content = LocationContent::Content(c);
                        }
                        SearchHitObject::Location(body)
                    })
                    .zip(scored)
                    .collect()
            }
        })
    }
}

/// The page in rank order without sort clauses: the hits of the ranking words best first,
/// then (once those run out) the other matches by id, scored 0. `all` is every match that
/// meets `filter`.
async fn tiers(
    w: &mut Watched,
    backend: DbBackend,
    (table, id): (&str, &str),
    all: &Source,
    text: &Text,
    filter: &Sql,
    (limit, offset): (i64, i64),
) -> Result<Vec<(i64, f64)>> {
    let (ranked, score) = Source::matching(&text.rank, text.narrow, backend, table);
    let ranked = ranked.and(filter);
    let order = sort::order_by(None, id, Some(score))?;
    let mut rows = ranked.page(w, (id, score), order, (limit, offset)).await?;
    let short = limit - rows.len() as i64;
    if short > 0 {
        // The ranked hits end on this page: the rest follow them.
        let before = match rows.len() {
            0 => ranked.count(w).await?,
            n => offset + n as i64,
        };
        let (condition, values) = text.rank.condition(backend);
        let rest = all.clone().and(&Sql {
            text: format!("NOT ({condition})"),
            values,
        });
        let order = sort::order_by(None, id, None)?;
        let more = rest
            .page(w, (id, "0"), order, (short, (offset - before).max(0)))
            .await?;
        rows.extend(more);
    }
    Ok(rows)
}
