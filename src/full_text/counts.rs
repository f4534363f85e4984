//! What the index knows of a query's terms: in how many documents each occurs. From it come
//! the stop words (too common to search for) and the words that rank the hits (the rarest,
//! within a budget of documents ranking may read).

use super::Query;
use crate::error::Result;
use cairn_store::Connection;
use cairn_store::sql::stmt;
use sea_orm::{DbBackend, Value};
use std::collections::{HashMap, HashSet};

/// The share of content items a word may occur in and still be searched for: more common
/// words are stop words, left out of queries (the reference's `stopWordThresholdFactor`).
const STOP_WORD_SHARE: f64 = 0.66;

/// How many documents hold each term of a query, of how many in all.
#[derive(Debug, Clone, Default)]
pub struct Counts {
    total: f64,
    /// The terms (word, is a prefix) whose counts are known.
    docs: HashMap<(String, bool), f64>,
    /// What a word or a prefix of unknown count is taken to hold: none on SQLite, whose
    /// counts are exact; on PostgreSQL, a word as many as the least common word its
    /// statistics track, a prefix every document.
    unknown_word: f64,
    unknown_prefix: f64,
}

impl Counts {
    fn docs(&self, term: &(String, bool)) -> f64 {
        match self.docs.get(term) {
            Some(n) => *n,
            None if term.1 => self.unknown_prefix,
            None => self.unknown_word,
        }
    }

    /// The words that occur in too many documents to be searched for.
    pub fn stop_words(&self) -> HashSet<String> {
        (self.docs.iter())
            .filter(|((_, prefix), _)| !prefix && self.total > 0.0)
            .filter(|(_, n)| **n >= STOP_WORD_SHARE * self.total)
            .map(|((w, _), _)| w.clone())
            .collect()
    }

    /// `q` with its most common terms first (PostgreSQL tries the words of a query in its
    /// order, so most documents are matched by the first ones tried), each weighing its
    /// inverse document frequency (BM25's: the rarer, the heavier).
    pub fn common_first(&self, q: &Query) -> Query {
        let mut terms = q.terms.clone();
        terms.sort_by(|a, b| self.docs(b).total_cmp(&self.docs(a)));
        Query::weighed(terms, |t| {
            let n = self.docs(t).min(self.total);
            (1.0 + (self.total - n + 0.5) / (n + 0.5)).ln()
        })
    }

    /// How many documents hold a term of `q`, at most (a document may hold several).
    pub fn documents(&self, q: &Query) -> f64 {
        q.terms.iter().map(|t| self.docs(t)).sum()
    }

    /// The terms of `q` that rank its hits: the rarest, while the documents holding them
    /// total at most `budget` (what ranking reads); at least one. In the query's order. The
    /// other words still match; hits holding none of these follow the ranked ones.
    pub fn ranking(&self, q: &Query, budget: u64) -> Query {
        let mut by_count: Vec<(f64, &(String, bool))> =
            q.terms.iter().map(|t| (self.docs(t), t)).collect();
        by_count.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut read = 0.0;
        let mut chosen = HashSet::new();
        for (n, t) in by_count {
            if !chosen.is_empty() && read + n > budget as f64 {
                break;
            }
            read += n;
            chosen.insert(t);
        }
        q.retain(|t| chosen.contains(t))
    }
}

/// Counts the documents of the terms of `queries`. SQLite counts exactly (`content_words`,
/// the FTS5 vocabulary; a prefix counts the documents of each word it begins, an upper
/// bound); PostgreSQL reads the planner's statistics of the most common words, kept by
/// autovacuum's ANALYZE.
pub(crate) async fn counts(db: &impl Connection, queries: &[Query]) -> Result<Counts> {
    let terms: HashSet<&(String, bool)> = queries.iter().flat_map(|q| &q.terms).collect();
    if terms.is_empty() {
        return Ok(Counts::default());
    }
    let backend = db.get_database_backend();
    let words: Vec<&str> = (terms.iter())
        .filter(|(_, prefix)| !prefix)
        .map(|(w, _)| w.as_str())
        .collect();
    let mut values: Vec<Value> = Vec::new();
    // Rows: (word, documents, 0) for a word, 1 for a prefix; (NULL, n, 2) for the total and
    // (NULL, share, 3) for the least common tracked word's share (PostgreSQL).
    let mut parts = Vec::new();
    match backend {
        DbBackend::Postgres => {
            const STATS: &str = "s.schemaname = current_schema() \
                AND s.tablename = 'content_text' AND s.attname = 'body'";
            if !words.is_empty() {
                parts.push(format!(
                    "SELECT e.word, CAST(e.share AS DOUBLE PRECISION), CAST(0 AS BIGINT) FROM pg_stats s, \
                     unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) \
                     AS e(word, share) WHERE {STATS} AND e.word IN ({})",
                    marks(words.len()),
                ));
                values.extend(words.iter().map(|w| Value::from(*w)));
            }
            parts.push(format!(
                "SELECT NULL, CAST(s.most_common_elem_freqs[array_length(s.most_common_elems::text::text[], 1) + 1] AS DOUBLE PRECISION), CAST(3 AS BIGINT) FROM pg_stats s WHERE {STATS}"
            ));
            parts.push(
                "SELECT NULL, CAST(GREATEST(reltuples, 0) AS DOUBLE PRECISION), CAST(2 AS BIGINT) FROM pg_class \
                 WHERE oid = to_regclass('content_text')"
                    .into(),
            );
        }
        _ => {
            if !words.is_empty() {
                parts.push(format!(
                    "SELECT term, CAST(doc AS REAL), 0 FROM content_words WHERE term IN ({})",
                    marks(words.len())
                ));
                values.extend(words.iter().map(|w| Value::from(*w)));
            }
            for (w, _) in terms.iter().filter(|(_, prefix)| *prefix) {
                parts.push(
                    "SELECT ?, CAST(COALESCE(SUM(doc), 0) AS REAL), 1 FROM content_words \
                     WHERE term >= ? AND term < ?"
                        .into(),
                );
                values.extend([w.as_str().into(), w.as_str().into()]);
                values.push(format!("{w}\u{10FFFF}").into());
            }
            // The documents FTS5 holds, counted in its table of document sizes (cheap).
            parts.push("SELECT NULL, CAST(COUNT(*) AS REAL), 2 FROM content_text_docsize".into());
        }
    }
    let sql = parts.join(" UNION ALL ");
    let rows = db.query_all_raw(stmt(backend, &sql, values)).await?;
    let mut counts = Counts::default();
    let mut least_share = None;
    for r in &rows {
        let term = r.try_get_by_index::<Option<String>>(0)?;
        let n = r.try_get_by_index::<Option<f64>>(1)?;
        let kind = r.try_get_by_index::<i64>(2)?;
        match (kind, term, n) {
            (0, Some(w), Some(n)) => {
                counts.docs.insert((w, false), n);
            }
            (1, Some(w), Some(n)) => {
                counts.docs.insert((w, true), n);
            }
            (2, _, Some(n)) => counts.total = n,
            (3, _, share) => least_share = share,
            _ => {}
        }
    }
    if backend == DbBackend::Postgres {
        // Shares are of the table's rows; without statistics nothing is known to be common.
        for n in counts.docs.values_mut() {
            *n *= counts.total;
        }
        if let Some(share) = least_share {
            counts.unknown_word = share * counts.total;
            counts.unknown_prefix = counts.total;
        }
    }
    Ok(counts)
}

fn marks(n: usize) -> String {
    vec!["?"; n].join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use sea_orm::ConnectionTrait;

    #[test]
    fn the_rarest_words_rank_within_the_budget() {
        let q = Query::parse("common rare mid* rarer");
        let counts = Counts {
            total: 100_000.0,
            docs: [
                (("common".into(), false), 60_000.0),
                (("rare".into(), false), 4_000.0),
                (("rarer".into(), false), 10.0),
                (("mid".into(), true), 5_000.0),
            ]
            .into(),
            ..Counts::default()
        };
        assert_eq!(counts.ranking(&q, 10_000), Query::parse("rare mid* rarer"));
        let first = counts.common_first(&q);
        assert_eq!(first.terms, Query::parse("common mid* rare rarer").terms);
        // The rarer a term, the more it weighs; a term in most documents weighs little.
        assert!(first.weights.windows(2).all(|w| w[0] < w[1]), "{first:?}");
        assert!(
            first.weights[0] < 1.0 && first.weights[3] > 9.0,
            "{first:?}"
        );
        assert_eq!(counts.stop_words(), HashSet::new());
        let only_common = Query::parse("common");
        assert_eq!(counts.ranking(&only_common, 10_000), only_common);
        let stop = Counts {
            total: 80_000.0,
            ..counts
        };
        assert_eq!(stop.stop_words(), ["common".to_string()].into());
    }

    /// PostgreSQL's counts come from its statistics, which cairn keeps current itself
    /// (`cairn_store::maintenance`).
    #[tokio::test]
    async fn statistics_follow_the_index_on_postgresql() {
        if cairn_store::scratch::backend() != "postgres" {
            return; // SQLite counts exactly.
        }
        let t = cairn_store::scratch::CleanDb::new().await;
        let c = t.db.conn();
        // Every item (a dozen in the clean install) holds "common", one holds "rare"; written
        // six times, so that more rows changed than autovacuum's analyze threshold (50 + 10%)
        // and more are dead than its vacuum threshold (50 + 20%).
        for _ in 0..6 {
            c.execute_unprepared(
                "INSERT INTO content_text (content_id, body) SELECT id, to_tsvector('simple', \
                 CASE WHEN id = (SELECT MIN(id) FROM contents) THEN 'common rare' ELSE 'common' END) \
                 FROM contents ON CONFLICT (content_id) DO UPDATE SET body = excluded.body",
            )
            .await
            .unwrap();
        }
        let q = Query::parse("common rare");
        assert!(
            counts(c, std::slice::from_ref(&q))
                .await
                .unwrap()
                .stop_words()
                .is_empty()
        );
        // The writers' activity reaches the statistics collector within seconds.
        let mut upkeep = cairn_store::maintenance::connect(&t.db).await.unwrap();
        let mut analyzed = false;
        for _ in 0..40 {
            cairn_store::maintenance::analyze_changed(&mut upkeep)
                .await
                .unwrap();
            let found = c
                .query_one_raw(stmt(
                    DbBackend::Postgres,
                    "SELECT 1 FROM pg_stats WHERE schemaname = current_schema() \
                     AND tablename = 'content_text'",
                    [],
                ))
                .await
                .unwrap();
            if found.is_some() {
                analyzed = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        }
        assert!(analyzed, "content_text was not analyzed");
        // Vacuumed too where autovacuum is off (as on the CI machine).
        let autovacuum = c
            .query_one_raw(stmt(DbBackend::Postgres, "SHOW autovacuum", []))
            .await
            .unwrap()
            .unwrap()
            .try_get_by_index::<String>(0)
            .unwrap();
        let vacuumed = cairn_store::maintenance::vacuum_if_no_autovacuum(&mut upkeep)
            .await
            .unwrap();
        assert_eq!(
            vacuumed.contains(&"content_text".to_string()),
            autovacuum == "off",
            "{vacuumed:?}"
        );
        let counts = counts(c, std::slice::from_ref(&q)).await.unwrap();
        assert_eq!(counts.stop_words(), ["common".to_string()].into());
        assert_eq!(counts.ranking(&q, 1), Query::parse("rare"));
    }
}
