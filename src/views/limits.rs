//! What one query may ask (criteria, nesting, values, full-text words), checked before any
//! of it is translated.

use super::criteria::bad;
use crate::error::{Error, Result};
use crate::full_text;
use cairn_runtime::HashValue;

/// What one query may ask, each refused with a 400 that names it: the work a query costs
/// grows with these.
pub const MAX_CRITERIA: usize = 100;
pub const MAX_DEPTH: usize = 10;
pub const MAX_VALUES: usize = 1_000;
pub const MAX_WORDS: usize = 100;

/// Refuses criteria past the limits above: criteria in the query, nesting of AND/OR/NOT,
/// values in one criterion, words of a full-text criterion.
pub fn check_limits(criteria: &HashValue) -> Result<()> {
    let mut count = 0;
    walk(criteria, 0, &mut count)
}

fn walk(v: &HashValue, depth: usize, count: &mut usize) -> Result<()> {
    match v {
        HashValue::List(items) => items.iter().try_for_each(|i| walk(i, depth, count)),
        HashValue::Map(entries) => {
            for (name, value) in entries {
                if matches!(name.as_str(), "AND" | "OR" | "NOT") {
                    if depth + 1 > MAX_DEPTH {
                        return Err(Error::BadRequest(format!(
                            "Criteria may nest AND, OR and NOT {MAX_DEPTH} deep at most"
                        )));
                    }
                    walk(value, depth + 1, count)?;
                    continue;
                }
                let values = match value {
                    HashValue::List(l) => l.len(),
                    HashValue::String(s) => s.split(',').count(),
                    _ => 1,
                };
                *count += 1;
                if *count > MAX_CRITERIA {
                    return Err(Error::BadRequest(format!(
                        "A query may hold {MAX_CRITERIA} criteria at most"
                    )));
                }
                if values > MAX_VALUES {
                    return Err(bad(
                        name,
                        format!("{values} values; a criterion takes {MAX_VALUES} at most"),
                    ));
                }
                if name == "FullTextCriterion" {
                    // Counted as the query reads them: `a-b` is two words.
                    let count = |t: String| full_text::words(&t).count();
                    let words: usize = match value {
                        HashValue::List(l) => {
                            l.iter().filter_map(HashValue::to_text).map(count).sum()
                        }
                        v => v.to_text().map_or(0, count),
                    };
                    if words > MAX_WORDS {
                        return Err(bad(
                            name,
                            format!("{words} words; a full-text query takes {MAX_WORDS} at most"),
                        ));
                    }
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
