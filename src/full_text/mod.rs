//! The full-text index: one document per published content item, on the databases' own
//! engines: SQLite FTS5 (`content_text`, rowid = content id) and PostgreSQL `tsvector` with a
//! GIN index (`content_text.body`, configuration `simple`). A document holds the words of the
//! searchable fields of the published version in every language; it is written in the
//! transaction that publishes, copies or changes that version, so a search sees exactly what
//! has been committed. Words are runs of letters and digits, lowercased, cut the same way for
//! documents and queries on both databases.
//!
//! Hits rank by BM25 on SQLite; on PostgreSQL by the sum of the inverse document frequencies
//! of the query's words a document holds, each word read through the GIN index on its own
//! (`ts_rank` reads every matching document whole, for every word of the query: with a long
//! query, most of a search's time).

mod counts;
mod index;

pub(crate) use counts::counts;
pub(crate) use index::{Document, copy};
use sea_orm::{DbBackend, Value};

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
    /// What each term weighs in a PostgreSQL rank, in the order of `terms` (1 until
    /// `Counts::common_first` weighs them by their rarity).
    weights: Vec<f64>,
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
        Query::weighed(terms, |_| 1.0)
    }

    /// `terms`, each weighing what `weight` says.
    fn weighed(terms: Vec<(String, bool)>, weight: impl Fn(&(String, bool)) -> f64) -> Query {
        let weights = terms.iter().map(weight).collect();
        Query { terms, weights }
    }

    /// The terms `keep` keeps, with their weights.
    fn retain(&self, keep: impl Fn(&(String, bool)) -> bool) -> Query {
        let (terms, weights) = (self.terms.iter().zip(&self.weights))
            .filter(|(t, _)| keep(t))
            .map(|(t, w)| (t.clone(), *w))
            .unzip();
        Query { terms, weights }
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The query without the words in `stop`.
    pub fn without(&self, stop: &std::collections::HashSet<String>) -> Query {
        self.retain(|(w, prefix)| *prefix || !stop.contains(w))
    }

    /// The query in the engine's own syntax, one bind value: every term quoted (terms hold
    /// only letters and digits), any of them matching.
    fn expression(&self, backend: DbBackend) -> String {
        let terms = self.terms.iter().map(|t| term(backend, t));
        let joiner = if backend == DbBackend::Postgres {
            " | "
        } else {
            " OR "
        };
        terms.collect::<Vec<_>>().join(joiner)
    }

    /// How a search over `contents c` joins the matches and ranks them.
    pub fn ranked(&self, backend: DbBackend) -> Rank {
        match backend {
            DbBackend::Postgres => {
                let (scores, values) = self.scores(backend);
                Rank {
                    before: "",
                    after: format!(" JOIN ({scores}) ft ON ft.id = c.id"),
                    condition: "1 = 1",
                    score: "ft.score",
                    values,
                }
            }
            // The FTS5 table drives the join (CROSS JOIN fixes the order): looked up once,
            // not once per content row.
            _ => Rank {
                before: "content_text CROSS JOIN ",
                after: String::new(),
                condition: "content_text MATCH ? AND c.id = content_text.rowid",
                score: "-bm25(content_text)",
                values: vec![self.expression(backend).into()],
            },
        }
    }

    /// A subquery of the matches' content ids (`id`) and ranks (`score`), and its bind
    /// values. On PostgreSQL each term is looked up on its own (a weight and the term, two
    /// bind values a term), its matches summed up by document.
    pub fn scores(&self, backend: DbBackend) -> (String, Vec<Value>) {
        match backend {
            DbBackend::Postgres => {
                let terms = vec![
                    "SELECT content_id, CAST(? AS DOUBLE PRECISION) AS w FROM content_text \
                     WHERE body @@ to_tsquery('simple', ?)";
                    self.terms.len()
                ];
                let sql = format!(
                    "SELECT t.content_id AS id, SUM(t.w) AS score FROM ({}) t GROUP BY t.content_id",
                    terms.join(" UNION ALL ")
                );
                let values = (self.terms.iter().zip(&self.weights))
                    .flat_map(|(t, w)| [Value::from(*w), Value::from(term(backend, t))])
                    .collect();
                (sql, values)
            }
            _ => (
                "SELECT rowid AS id, -bm25(content_text) AS score FROM content_text \
                 WHERE content_text MATCH ?"
                    .into(),
                vec![self.expression(backend).into()],
            ),
        }
    }

    /// A condition on `c.id`: the content item matches, and its bind values; nothing
    /// matches an empty query. On PostgreSQL one `@@` a term, OR'ed (a bind value a term):
    /// the GIN index then reads each term on its own into a bitmap and ORs the bitmaps,
    /// where one `@@` of the whole query would check every document it finds against every
    /// term (with 50 words, three times as long); on SQLite the whole query, one bind value.
    pub fn condition(&self, backend: DbBackend) -> (String, Vec<Value>) {
        if self.is_empty() {
            return ("1 = 0".into(), Vec::new());
        }
        match backend {
            DbBackend::Postgres => {
                let any = vec!["body @@ to_tsquery('simple', ?)"; self.terms.len()].join(" OR ");
                let values = self.terms.iter().map(|t| term(backend, t).into());
                (
                    format!("c.id IN (SELECT content_id FROM content_text WHERE {any})"),
                    values.collect(),
                )
            }
            _ => (
                "c.id IN (SELECT rowid FROM content_text WHERE content_text MATCH ?)".into(),
                vec![self.expression(backend).into()],
            ),
        }
    }
}

/// A term in the engine's own syntax: quoted (terms hold only letters and digits), a prefix
/// marked.
fn term(backend: DbBackend, (w, prefix): &(String, bool)) -> String {
    match backend {
        DbBackend::Postgres => format!("'{w}'{}", if *prefix { ":*" } else { "" }),
        _ => format!("\"{w}\"{}", if *prefix { "*" } else { "" }),
    }
}

/// The parts a ranked full-text query adds to a search: `before` and `after` the FROM clause,
/// a `condition` before the others, the `score` expression, and the bind values (which come
/// first in the statement's text).
pub struct Rank {
    pub before: &'static str,
    pub after: String,
    pub condition: &'static str,
    pub score: &'static str,
    pub values: Vec<Value>,
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

    #[test]
    fn a_postgresql_condition_looks_up_each_term_on_its_own() {
        let q = Query::parse("hello wor*");
        let (sql, values) = q.condition(DbBackend::Postgres);
        assert_eq!(
            sql,
            "c.id IN (SELECT content_id FROM content_text WHERE \
             body @@ to_tsquery('simple', ?) OR body @@ to_tsquery('simple', ?))"
        );
        assert_eq!(values, [Value::from("'hello'"), Value::from("'wor':*")]);
        let (sql, values) = q.condition(DbBackend::Sqlite);
        assert!(sql.ends_with("MATCH ?)"), "{sql}");
        assert_eq!(values, [Value::from("\"hello\" OR \"wor\"*")]);
        assert_eq!(Query::parse("--").condition(DbBackend::Postgres).0, "1 = 0");
    }
}
