//! Sort clauses of a view (`SortClauses`: name → `ascending` | `descending`, or data for
//! `Field`), as an SQL ORDER BY over `contents c` and `locations l` (the main Location in a
//! content search).

use super::criteria::{Sql, key};
use crate::error::{Error, Result};
use cairn_runtime::HashValue;

fn direction(name: &str, v: Option<&HashValue>) -> Result<&'static str> {
    match v
        .and_then(HashValue::to_text)
        .map(|s| s.to_ascii_lowercase())
        .as_deref()
    {
        Some("ascending") | Some("asc") => Ok("ASC"),
        Some("descending") | Some("desc") => Ok("DESC"),
        other => Err(Error::BadRequest(format!(
            "Sort clause {name}: the direction must be 'ascending' or 'descending', not {other:?}"
        ))),
    }
}

/// Whether `clauses` hold any sort clause.
pub fn given(clauses: Option<&HashValue>) -> bool {
    matches!(clauses, Some(HashValue::Map(entries)) if !entries.is_empty())
}

/// The ORDER BY terms of `clauses`, then `tie` (the hit's id) for a stable order. `score` is
/// the rank of a full-text query: what `Score` sorts by, and the order when no clause is given
/// (best first); without one, `Score` sorts nothing.
pub fn order_by(clauses: Option<&HashValue>, tie: &str, score: Option<&str>) -> Result<Sql> {
    let mut out = Sql::default();
    let mut terms: Vec<String> = Vec::new();
    let entries: Vec<(String, HashValue)> = match clauses {
        None | Some(HashValue::Null) => Vec::new(),
        Some(HashValue::Map(entries)) => entries
            .iter()
            .flat_map(|(k, v)| match v {
                HashValue::List(items) => items.iter().map(|i| (k.clone(), i.clone())).collect(),
                v => vec![(k.clone(), v.clone())],
            })
            .collect(),
        Some(_) => {
            return Err(Error::BadRequest(
                "SortClauses must map sort clause names to directions".into(),
            ));
        }
    };
    for (name, v) in &entries {
        let column = match name.as_str() {
            "ContentId" => "c.id",
            "ContentName" => "c.name",
            "DateModified" => "c.modified",
            "DatePublished" => "c.published",
            "LocationDepth" => "l.depth",
            "LocationId" => "l.id",
            "LocationPath" => "l.path_string",
            "LocationPriority" => "l.priority",
            // Not REST input parsers of the reference, but its sort clauses all the same
            // (`Location\IsMainLocation`, `Location\Visibility`), which its GraphQL sorts by.
            "LocationIsMainLocation" => "CASE WHEN l.id = c.main_location_id THEN 1 ELSE 0 END",
            "LocationVisibility" => "l.is_invisible",
            "SectionIdentifier" => "(SELECT identifier FROM sections WHERE id = c.section_id)",
            "SectionName" => "(SELECT name FROM sections WHERE id = c.section_id)",
            "Score" => {
                let dir = direction(name, Some(v))?;
                if let Some(score) = score {
                    terms.push(format!("{score} {dir}"));
                }
                continue;
            }
            "Field" => {
                let (ty, field) = match key(v, "identifier").and_then(HashValue::to_text) {
                    Some(id) => match id.split_once('/') {
                        Some((t, f)) => (t.to_string(), f.to_string()),
                        None => {
                            return Err(Error::BadRequest(format!(
                                "Sort clause Field: '{id}' is not 'contentType/fieldDefinition'"
                            )));
                        }
                    },
                    None => (
                        key(v, "contentTypeIdentifier")
                            .and_then(HashValue::to_text)
                            .unwrap_or_default(),
                        key(v, "fieldDefinitionIdentifier")
                            .and_then(HashValue::to_text)
                            .unwrap_or_default(),
                    ),
                };
                let dir = direction(name, key(v, "direction").or_else(|| key(v, "#text")))?;
                for key in ["sort_key_int", "sort_key_string"] {
                    terms.push(format!(
                        "(SELECT f.{key} FROM content_fields f WHERE f.content_id = c.id AND f.version_no = c.current_version AND f.field_definition_id = (SELECT fd.id FROM field_definitions fd JOIN content_types t ON t.id = fd.content_type_id AND t.status = 0 WHERE fd.status = 0 AND t.identifier = ? AND fd.identifier = ?) ORDER BY f.language_code LIMIT 1) {dir}"
                    ));
                    out.values.push(ty.clone().into());
                    out.values.push(field.clone().into());
                }
                continue;
            }
            other => {
                return Err(Error::BadRequest(format!(
                    "The sort clause '{other}' is not supported"
                )));
            }
        };
        terms.push(format!("{column} {}", direction(name, Some(v))?));
    }
    if let (true, Some(score)) = (entries.is_empty(), score) {
        terms.push(format!("{score} DESC"));
    }
    terms.push(format!("{tie} ASC"));
    out.text = terms.join(", ");
    Ok(out)
}
