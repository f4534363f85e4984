//! The count of a search and those of its aggregations that read only columns of the hits
//! (term aggregations by content type, Section or visibility; ranges and stats of dates and
//! raw columns) in one statement: one `GROUP BY` over the term keys, each group with its
//! number of hits, its count in each range and its sums, added up here per aggregation. A
//! search over many items then reads them once, not once for the count and once per
//! aggregation. The groups are as many as the combinations of those few-valued keys.

use super::aggregations::{Aggregation, Counted, Kind, Matches, Number, Term, range_test};
use super::criteria::Target;
use crate::error::Result;
use cairn_store::rows::Cell;
use cairn_store::watch::Watched;
use std::collections::HashMap;

/// What one aggregation reads of the fused statement's columns.
enum Part {
    /// The index of its key among the group's keys.
    Term(usize),
    /// Its first range column (after the keys), and the number of ranges.
    Range(usize, usize),
    /// Its first column (after the keys): sum, count, min, max.
    Stats(usize),
}

/// The fused statement of a search: its text, and per aggregation (by index in the query)
/// what it reads.
pub struct Fused {
    sql: String,
    keys: usize,
    parts: Vec<(usize, Part)>,
}

/// The key of a term aggregation when it is a few-valued column of the hit rows.
fn term_key(of: &Term, m: &Matches) -> Option<&'static str> {
    match of {
        Term::ContentType => Some("c.content_type_id"),
        Term::Section => Some("c.section_id"),
        Term::Visibility if m.target == Target::Location => {
            Some("CASE WHEN NOT c.is_hidden AND NOT l.is_invisible THEN 1 ELSE 0 END")
        }
        _ => None,
    }
}

fn number(of: &Number) -> Option<&'static str> {
    match of {
        Number::DateMetadata(ty) if ty == "modified" => Some("c.modified"),
        Number::DateMetadata(_) => Some("c.published"),
        Number::Raw(column) => Some(column),
        Number::Field(..) => None,
    }
}

impl Fused {
    /// The fused statement of `aggregations` over `m`, when any of them can be fused: with
    /// the indexes (in `aggregations`) of those it counts.
    pub fn of(aggregations: &[Aggregation], m: &Matches) -> Option<Fused> {
        let mut keys: Vec<&str> = Vec::new();
        let mut columns: Vec<String> = vec!["COUNT(*)".into()];
        let mut parts = Vec::new();
        for (i, a) in aggregations.iter().enumerate() {
            match &a.kind {
                Kind::Term { of, .. } => {
                    if let Some(k) = term_key(of, m) {
                        let at = keys.iter().position(|x| *x == k).unwrap_or_else(|| {
                            keys.push(k);
                            keys.len() - 1
                        });
                        parts.push((i, Part::Term(at)));
                    }
                }
                Kind::Range { of, ranges } => {
                    if let Some(expr) = number(of) {
                        let first = columns.len();
                        for (from, to) in ranges {
                            let test = range_test(expr, *from, *to);
                            columns.push(format!("COUNT(CASE WHEN {test} THEN 1 END)"));
                        }
                        parts.push((i, Part::Range(first, ranges.len())));
                    }
                }
                Kind::Stats { of } => {
                    if let Some(expr) = number(of) {
                        let first = columns.len();
                        for f in ["SUM", "COUNT", "MIN", "MAX"] {
                            columns.push(format!("CAST({f}({expr}) AS DOUBLE PRECISION)"));
                        }
                        parts.push((i, Part::Stats(first)));
                    }
                }
            }
        }
        if parts.is_empty() {
            return None;
        }
        let mut select: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        select.extend(columns);
        let group = match keys.len() {
            0 => String::new(),
            n => format!(
                " GROUP BY {}",
                (1..=n)
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        Some(Fused {
            sql: format!(
                "{}SELECT {} FROM {} WHERE {}{group}",
                m.head,
                select.join(", "),
                m.from,
                m.condition
            ),
            keys: keys.len(),
            parts,
        })
    }

    /// Whether aggregation `i` of the query is counted here.
    pub fn counts(&self, i: usize) -> bool {
        self.parts.iter().any(|(j, _)| *j == i)
    }

    /// Runs the statement: the number of all matches, and what each fused aggregation
    /// counted, by its index in `aggregations`.
    pub async fn run(
        &self,
        w: &mut Watched,
        m: &Matches<'_>,
        aggregations: &[Aggregation],
    ) -> Result<(i64, Vec<(usize, Counted)>)> {
        let rows = w.cells(&self.sql, m.values.to_vec()).await?;
        let int = |r: &[Cell], i: usize| r.get(i).and_then(Cell::int).unwrap_or(0);
        let hits = |r: &[Cell]| int(r, self.keys);
        let total = rows.iter().map(|r| hits(r)).sum();
        let mut out = Vec::new();
        for (i, part) in &self.parts {
            let counted = match (part, &aggregations[*i].kind) {
                (
                    Part::Term(k),
                    Kind::Term {
                        limit, min_count, ..
                    },
                ) => {
                    let mut by_key: HashMap<i64, i64> = HashMap::new();
                    for r in &rows {
                        if let Some(key) = r.get(*k).and_then(Cell::int) {
                            *by_key.entry(key).or_default() += hits(r);
                        }
                    }
                    let mut buckets: Vec<(i64, i64)> =
                        by_key.into_iter().filter(|(_, n)| n >= min_count).collect();
                    buckets.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                    buckets.truncate(*limit as usize);
                    Counted::Term(
                        buckets
                            .into_iter()
                            .map(|(k, n)| (Cell::Int(k), n))
                            .collect(),
                    )
                }
                (Part::Range(first, n), _) => Counted::Range(
                    (0..*n)
                        .map(|j| rows.iter().map(|r| int(r, self.keys + first + j)).sum())
                        .collect(),
                ),
                (Part::Stats(first), _) => {
                    let at = self.keys + first;
                    let f = |r: &Vec<Cell>, j: usize| r.get(at + j).and_then(Cell::float);
                    let sum: Option<f64> = rows.iter().filter_map(|r| f(r, 0)).reduce(|a, b| a + b);
                    let count: i64 = rows.iter().filter_map(|r| f(r, 1)).sum::<f64>() as i64;
                    let min = rows.iter().filter_map(|r| f(r, 2)).reduce(f64::min);
                    let max = rows.iter().filter_map(|r| f(r, 3)).reduce(f64::max);
                    let cell = |v: Option<f64>| v.map_or(Cell::Null, Cell::Float);
                    let avg = sum.filter(|_| count > 0).map(|s| s / count as f64);
                    Counted::Stats([cell(sum), Cell::Int(count), cell(min), cell(max), cell(avg)])
                }
                _ => continue,
            };
            out.push((*i, counted));
        }
        Ok((total, out))
    }
}
