//! Search views (formats.md section 8): `POST /views` runs a content or Location query at
//! once and answers a View with its hits. A query is one SQL statement for the page and one
//! for the count, whatever its criteria (`search.rs`); hits are rendered in a fixed number of
//! statements. A full-text criterion that every hit must meet ranks them by its rarest words
//! (BM25 on SQLite; on PostgreSQL the summed rarity of the words a hit holds): best first
//! unless sort clauses say otherwise; without one every hit scores 1.0. Stored views are not
//! kept, as in the reference (501).

mod aggregations;
mod criteria;
mod fused;
mod image_criteria;
mod keys;
mod limits;
mod search;
mod sort;

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::ViewsApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::full_text;
use cairn_runtime::{Float, HashValue};
use cairn_store::entity::content;
use criteria::{Context, Sql, Target};

/// The page size when a query gives no `limit` (the reference's default).
const DEFAULT_LIMIT: i64 = 25;

impl ViewsService {
    async fn run_view(&self, cx: &Caller, input: ViewInput) -> Result<View> {
        let started = std::time::Instant::now();
        let (target, q) = match (input.location_query, input.content_query, input.query) {
            (Some(q), _, _) => (Target::Location, q),
            (None, Some(q), _) | (None, None, Some(q)) => (Target::Content, q),
            (None, None, None) => {
                return Err(Error::BadRequest(
                    "A ViewInput needs a Query, ContentQuery or LocationQuery".into(),
                ));
            }
        };
        let aggregations = match &q.aggregations {
            Some(a) => aggregations::parse(a)?,
            None => Vec::new(),
        };
        let limit = q.limit.unwrap_or(DEFAULT_LIMIT);
        let offset = q.offset.unwrap_or(0);
        if limit < 0 || offset < 0 {
            return Err(Error::BadRequest(
                "limit and offset must not be negative".into(),
            ));
        }
        // Only what the caller may read is found, counted and paged.
        let readable = self
            .visible(
                cx,
                crate::permissions::READ,
                crate::permissions::Scope {
                    content: "c",
                    location: (target == Target::Location).then_some("l"),
                    location_sections: true,
                },
            )
            .sql();
        let mut texts = Vec::new();
        for criteria in [&q.filter, &q.query].into_iter().flatten() {
            limits::check_limits(criteria)?;
            texts.extend(criteria::full_texts(criteria));
        }
        let queries: Vec<full_text::Query> =
            texts.iter().map(|t| full_text::Query::parse(t)).collect();
        let reader = cx.reader();
        let counts = full_text::counts(reader, &queries).await?;
        let cx = Context {
            target,
            user_id: cx.user_id,
            backend: self.db.backend(),
            stop_words: counts.stop_words(),
        };
        let mut conds = vec![Sql {
            text: "c.status = ?".into(),
            values: vec![content::PUBLISHED.into()],
        }];
        // A full-text criterion every hit must meet ranks them; it filters as a join.
        let mut query = q.query.clone();
        let ranked = query
            .as_mut()
            .and_then(criteria::take_ranked)
            .map(|text| full_text::Query::parse(&text));
        let text = match ranked {
            Some(r) if r.is_empty() => None,
            Some(r) => match counts.common_first(&r.without(&cx.stop_words)) {
                r if r.is_empty() => {
                    conds.push(Sql {
                        text: "1 = 0".into(),
                        values: vec![],
                    });
                    None
                }
                all => {
                    let budget = self.settings.rank_documents;
                    let rank = counts.ranking(&all, budget);
                    Some(search::Text {
                        narrow: counts.documents(&rank) <= budget as f64,
                        rank,
                        all,
                    })
                }
            },
            None => None,
        };
        for criteria in [&q.filter, &query].into_iter().flatten() {
            if !is_empty(criteria) {
                conds.push(cx.map(criteria)?);
            }
        }
        if let Some(lang) = &input.language_code {
            let mut lang_filter = Sql {
                text: "EXISTS (SELECT 1 FROM content_fields f WHERE f.content_id = c.id AND f.version_no = c.current_version AND f.language_code = ?)".into(),
                values: vec![lang.clone().into()],
            };
            if input.use_always_available.unwrap_or(true) {
                lang_filter.text.push_str(" OR c.always_available = ?");
                lang_filter.values.push(true.into());
            }
            conds.push(lang_filter);
        }
        conds.push(Sql {
            text: readable.sql,
            values: readable.values,
        });
        let filter = Sql::all(conds, "AND");
        let found = self
            .search(
                reader,
                search::Wanted {
                    target,
                    filter: &filter,
                    text: text.as_ref(),
                    sort: q.sort_clauses.as_ref(),
                    page: (limit, offset),
                    aggregations: &aggregations,
                },
            )
            .await?;
        let mut results = Vec::new();
        for (a, counted) in aggregations.iter().zip(found.counted) {
            results.push(self.aggregation_result(reader, a, counted).await?);
        }
        let identifier = input.identifier;
        Ok(View {
            href: hrefs::get_view(&identifier),
            query: ViewQuery {},
            result: ViewResult {
                href: hrefs::load_view_results(&identifier),
                count: found.count,
                time: Float(started.elapsed().as_secs_f64() * 1000.0),
                timed_out: false,
                max_score: found
                    .hits
                    .iter()
                    .map(|(_, score)| *score)
                    .reduce(f64::max)
                    .map(Float),
                search_hits: SearchHits {
                    search_hit: found
                        .hits
                        .into_iter()
                        .map(|(object, score)| SearchHit {
                            score: Float(score),
                            index: "cairn".into(),
                            value: object,
                        })
                        .collect(),
                },
                aggregations: results,
            },
            identifier,
        })
    }
}

fn is_empty(v: &HashValue) -> bool {
    match v {
        HashValue::Null => true,
        HashValue::List(l) => l.is_empty(),
        HashValue::Map(m) => m.is_empty(),
        _ => false,
    }
}

crate::services::family_service!(
    /// Implements the API of views (search).
    ViewsService
);

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> ViewsApi<B> for ViewsService
{
    async fn create_view(&self, cx: &Caller, req: CreateViewRequest) -> Result<CreateViewResponse> {
        Ok(CreateViewResponse::Ok {
            body: self.run_view(cx, req.body).await?,
        })
    }

    async fn list_view(&self, _cx: &Caller, _req: ListViewRequest) -> Result<ListViewResponse> {
        Err(Error::not_implemented("listView"))
    }

    async fn get_view(&self, _cx: &Caller, _req: GetViewRequest) -> Result<GetViewResponse> {
        Err(Error::not_implemented("getView"))
    }

    async fn load_view_results(
        &self,
        _cx: &Caller,
        _req: LoadViewResultsRequest,
    ) -> Result<LoadViewResultsResponse> {
        Err(Error::not_implemented("loadViewResults"))
    }

    async fn create_content_view(
        &self,
        cx: &Caller,
        req: CreateContentViewRequest,
    ) -> Result<CreateContentViewResponse> {
        Ok(CreateContentViewResponse::MovedPermanently {
            body: self.run_view(cx, req.body).await?,
            location: hrefs::list_view(),
        })
    }
}
