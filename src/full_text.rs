//! The full-text index: one document per published content item, on the databases' own
//! engines: SQLite FTS5 (`content_text`, rowid = content id) and PostgreSQL `tsvector` with a
//! GIN index (`content_text.body`, configuration `simple`). A document holds the words of the
//! searchable fields of the published version in every language; it is written in the
//! transaction that publishes, copies or changes that version, so a search sees exactly what
//! has been committed. Words are runs of letters and digits, lowercased, cut the same way for
//! documents and queries on both databases.

use crate::content::FieldSet;
use crate::content::rows::TypeInfo;
use crate::error::Result;
use crate::field_types::Definition;
use crate::service::Service;
use crate::stored;
use cairn_store::entity::content;
use cairn_store::sql::stmt;
use sea_orm::{ConnectionTrait, DbBackend, Value};

/// The longest document kept, in bytes (PostgreSQL refuses a `tsvector` over 1 MB); the words
/// past it are not indexed.
const MAX_DOCUMENT: usize = 256 * 1024;

/// Content items indexed per statement when the index catches up at start-up.
const BATCH: usize = 200;

/// The words of `text`: runs of letters and digits, lowercased, accents removed (`Zürich`
/// is found by `zurich`, as the reference transliterates).
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(fold)
}

fn fold(word: &str) -> String {
    use unicode_normalization::{UnicodeNormalization, char::is_combining_mark};
    if word.is_ascii() {
        return word.to_ascii_lowercase();
    }
    word.nfd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// A full-text query, as the reference reads one: content matching any of its words, each
/// whole or as a prefix (`word*`), best ranked first.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    terms: Vec<(String, bool)>,
}

impl Query {
    /// Reads the criterion's text: words separated by anything but letters and digits; a `*`
    /// right after a word makes it a prefix. Quotes and operators are read as separators.
    pub fn parse(text: &str) -> Query {
        let mut terms = Vec::new();
        for chunk in text.split_whitespace() {
            for piece in chunk.split_inclusive('*') {
                let prefix = piece.ends_with('*');
                let mut ws: Vec<String> = words(piece).collect();
                if let Some(last) = ws.pop() {
                    terms.extend(ws.into_iter().map(|w| (w, false)));
                    terms.push((last, prefix));
                }
            }
        }
        let mut seen = std::collections::HashSet::new();
        terms.retain(|t| seen.insert(t.clone()));
        Query { terms }
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The whole words (not prefixes), which may be stop words.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.terms
            .iter()
            .filter(|(_, prefix)| !prefix)
            .map(|(w, _)| w.as_str())
    }

    /// The query without the words in `stop`.
    pub fn without(&self, stop: &std::collections::HashSet<String>) -> Query {
        Query {
            terms: (self.terms.iter())
                .filter(|(w, prefix)| *prefix || !stop.contains(w))
                .cloned()
                .collect(),
        }
    }

    /// The query in the engine's own syntax, one bind value: every term quoted (terms hold
    /// only letters and digits), any of them matching.
    fn expression(&self, backend: DbBackend) -> String {
        let terms = self.terms.iter().map(|(w, prefix)| match backend {
            DbBackend::Postgres => format!("'{w}'{}", if *prefix { ":*" } else { "" }),
            _ => format!("\"{w}\"{}", if *prefix { "*" } else { "" }),
        });
        let joiner = if backend == DbBackend::Postgres {
            " | "
        } else {
            " OR "
        };
        terms.collect::<Vec<_>>().join(joiner)
    }

    /// How a search over `contents c` joins the matches and ranks them.
    pub fn ranked(&self, backend: DbBackend) -> Rank {
        let value = self.expression(backend).into();
        match backend {
            DbBackend::Postgres => Rank {
                before: "",
                after: " JOIN (SELECT content_id AS id, ts_rank(body, q) AS score \
                        FROM content_text, to_tsquery('simple', ?) q WHERE body @@ q) ft \
                        ON ft.id = c.id",
                condition: "1 = 1",
                score: "ft.score",
                value,
            },
            // The FTS5 table drives the join (CROSS JOIN fixes the order): looked up once,
            // not once per content row.
            _ => Rank {
                before: "content_text CROSS JOIN ",
                after: "",
                condition: "content_text MATCH ? AND c.id = content_text.rowid",
                score: "-bm25(content_text)",
                value,
            },
        }
    }

    /// A condition on `c.id`: the content item matches, and its bind value; nothing matches
    /// an empty query.
    pub fn condition(&self, backend: DbBackend) -> (String, Vec<Value>) {
        if self.is_empty() {
            return ("1 = 0".into(), Vec::new());
        }
        let sql = match backend {
            DbBackend::Postgres => {
                "c.id IN (SELECT content_id FROM content_text WHERE body @@ to_tsquery('simple', ?))"
            }
            _ => "c.id IN (SELECT rowid FROM content_text WHERE content_text MATCH ?)",
        };
        (sql.into(), vec![self.expression(backend).into()])
    }
}

/// The parts a ranked full-text query adds to a search: `before` and `after` the FROM clause,
/// a `condition` before the others, the `score` expression, and the one bind value (which
/// comes first in the statement's text).
pub struct Rank {
    pub before: &'static str,
    pub after: &'static str,
    pub condition: &'static str,
    pub score: &'static str,
    pub value: Value,
}

/// The share of content items a word may occur in and still be searched for: more common
/// words are stop words, left out of queries (the reference's `stopWordThresholdFactor`).
const STOP_WORD_SHARE: f64 = 0.66;

/// Which of `words` are stop words. SQLite counts exactly (`content_words`, the FTS5
/// vocabulary); PostgreSQL reads the planner's statistics of the most common words, kept by
/// autovacuum's ANALYZE.
pub(crate) async fn stop_words(
    db: &impl ConnectionTrait,
    words: &[&str],
) -> Result<std::collections::HashSet<String>> {
    if words.is_empty() {
        return Ok(Default::default());
    }
    let backend = db.get_database_backend();
    let mut values: Vec<Value> = words.iter().map(|w| (*w).into()).collect();
    let marks = vec!["?"; words.len()].join(", ");
    let sql = match backend {
        DbBackend::Postgres => {
            values.push(STOP_WORD_SHARE.into());
            format!(
                "SELECT e.word FROM pg_stats s, \
                 unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) \
                 AS e(word, share) WHERE s.schemaname = current_schema() \
                 AND s.tablename = 'content_text' AND s.attname = 'body' \
                 AND e.word IN ({marks}) AND e.share >= ?"
            )
        }
        _ => {
            values.push(STOP_WORD_SHARE.into());
            format!(
                "SELECT term FROM content_words WHERE term IN ({marks}) \
                 AND doc >= ? * (SELECT COUNT(*) FROM contents)"
            )
        }
    };
    let rows = db.query_all_raw(stmt(backend, &sql, values)).await?;
    Ok(rows
        .iter()
        .filter_map(|r| r.try_get_by_index::<String>(0).ok())
        .collect())
}

impl Service {
    /// The document of a version: the search text of its searchable fields, in every language.
    pub(crate) fn document(&self, ty: &TypeInfo, set: &FieldSet) -> String {
        let mut doc = String::new();
        for e in &set.entries {
            let Some(def) = ty.field(e.definition_id).filter(|d| d.is_searchable) else {
                continue;
            };
            let Some(ft) = self.field_type(&def.field_type) else {
                continue;
            };
            let settings = stored::hash(&def.field_settings);
            let validators = stored::hash(&def.validator_configuration);
            let text = ft.search_text(
                &e.value,
                &Definition {
                    settings: &settings,
                    validators: &validators,
                },
                &e.language,
            );
            for w in words(&text) {
                if doc.len() + w.len() + 1 > MAX_DOCUMENT {
                    return doc;
                }
                if !doc.is_empty() {
                    doc.push(' ');
                }
                doc.push_str(&w);
            }
        }
        doc
    }

    /// Writes the document of content `id` (replacing the one it had).
    pub(crate) async fn index_text(
        &self,
        tx: &impl ConnectionTrait,
        id: i64,
        ty: &TypeInfo,
        set: &FieldSet,
    ) -> Result<()> {
        let doc = self.document(ty, set);
        store(tx, &[(id, doc)]).await
    }

    /// Writes the document of `c`'s published version again, from its stored fields.
    pub(crate) async fn reindex_text(
        &self,
        tx: &impl ConnectionTrait,
        c: &content::Model,
    ) -> Result<()> {
        let ty = self.defined_type(tx, c.content_type_id).await?;
        let rows = crate::content::rows::fields(tx, c.id, c.current_version).await?;
        self.index_text(tx, c.id, &ty, &FieldSet::from_rows(&rows))
            .await
    }

    /// Indexes the published content items that have no document yet (after the index is
    /// created, or after a restore from a backup taken without it); returns how many.
    pub async fn catch_up_text(&self) -> Result<usize> {
        let db = self.db.conn();
        let backend = db.get_database_backend();
        let key = match backend {
            DbBackend::Postgres => "content_id",
            _ => "rowid",
        };
        let mut done = 0;
        loop {
            let ids = cairn_store::sql::ids(
                db,
                &format!(
                    "SELECT c.id FROM contents c WHERE c.status = ? AND NOT EXISTS \
                     (SELECT 1 FROM content_text t WHERE t.{key} = c.id) ORDER BY c.id LIMIT {BATCH}"
                ),
                [content::PUBLISHED.into()],
            )
            .await?;
            if ids.is_empty() {
                return Ok(done);
            }
            let cs = {
                use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
                content::Entity::find()
                    .filter(content::Column::Id.is_in(ids.clone()))
                    .all(db)
                    .await?
            };
            let pairs: Vec<(i64, i64)> = cs.iter().map(|c| (c.id, c.current_version)).collect();
            let rows = crate::content::rows::version_rows(db, &pairs).await?;
            let mut docs = Vec::with_capacity(cs.len());
            for c in &cs {
                let ty = self.defined_type(db, c.content_type_id).await?;
                let fields = rows.fields.get(&(c.id, c.current_version));
                let set = FieldSet::from_rows(fields.map_or(&[][..], Vec::as_slice));
                docs.push((c.id, self.document(&ty, &set)));
            }
            self.db.write(async |tx| store(tx, &docs).await).await?;
            done += ids.len();
        }
    }
}

/// Replaces the documents of these content items.
async fn store(tx: &impl ConnectionTrait, docs: &[(i64, String)]) -> Result<()> {
    let backend = tx.get_database_backend();
    for chunk in docs.chunks(BATCH) {
        let mut values: Vec<Value> = Vec::with_capacity(chunk.len() * 2);
        for (id, doc) in chunk {
            values.push((*id).into());
            values.push(doc.clone().into());
        }
        let sql = match backend {
            DbBackend::Postgres => format!(
                "INSERT INTO content_text (content_id, body) VALUES {} \
                 ON CONFLICT (content_id) DO UPDATE SET body = excluded.body",
                vec!["(?, to_tsvector('simple', ?))"; chunk.len()].join(", ")
            ),
            _ => {
                // FTS5 has no upsert: the old documents go first.
                let ids = chunk.iter().map(|(id, _)| Value::from(*id));
                let marks = vec!["?"; chunk.len()].join(", ");
                let sql = format!("DELETE FROM content_text WHERE rowid IN ({marks})");
                tx.execute_raw(stmt(backend, &sql, ids)).await?;
                format!(
                    "INSERT INTO content_text (rowid, body) VALUES {}",
                    vec!["(?, ?)"; chunk.len()].join(", ")
                )
            }
        };
        tx.execute_raw(stmt(backend, &sql, values)).await?;
    }
    Ok(())
}

/// Gives the copy `to` the document of `from`.
pub(crate) async fn copy(tx: &impl ConnectionTrait, from: i64, to: i64) -> Result<()> {
    let backend = tx.get_database_backend();
    let sql = match backend {
        DbBackend::Postgres => {
            "INSERT INTO content_text (content_id, body) SELECT ?, body FROM content_text \
             WHERE content_id = ?"
        }
        _ => {
            "INSERT INTO content_text (rowid, body) SELECT ?, body FROM content_text WHERE rowid = ?"
        }
    };
    tx.execute_raw(stmt(backend, sql, [to.into(), from.into()]))
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_letters_and_digits_lowercased_without_accents() {
        let w: Vec<String> = words("Ibexa's REST-API v2, Zürich 2024 ÉCOLE!").collect();
        assert_eq!(
            w,
            ["ibexa", "s", "rest", "api", "v2", "zurich", "2024", "ecole"]
        );
    }

    #[test]
    fn queries_quote_every_term_and_keep_prefixes() {
        let q = Query::parse("\"Hello\" wor* it's -x OR hello");
        assert_eq!(
            q.expression(DbBackend::Sqlite),
            "\"hello\" OR \"wor\"* OR \"it\" OR \"s\" OR \"x\" OR \"or\""
        );
        assert_eq!(
            q.expression(DbBackend::Postgres),
            "'hello' | 'wor':* | 'it' | 's' | 'x' | 'or'"
        );
        assert!(Query::parse("* \"\" --").is_empty());
        let stop = ["hello".to_string(), "wor".to_string()].into();
        assert_eq!(
            q.without(&stop).expression(DbBackend::Postgres),
            "'wor':* | 'it' | 's' | 'x' | 'or'"
        );
    }
}
