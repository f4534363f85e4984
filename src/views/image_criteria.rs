//! The reference's image criteria (`ImageCriterion`, `ImageDimensionsCriterion`,
//! `ImageFileSizeCriterion`, `ImageMimeTypeCriterion`, `ImageOrientationCriterion`): read as
//! ibexa/rest 4.6's parsers and ibexa/core's criteria validate them, and translated into one
//! condition over the width, height, MIME type and size kept in the image field's stored
//! value (read from the file's bytes at upload). On an image asset field they ask the same of
//! the `image` field of the content item the asset names (the image its variations show).
//! The orientation is the reference's (`Image\SearchField`): `square`, `landscape` or
//! `portrait` from the kept width and height.

use super::criteria::{Sql, bad, key};
use super::limits::MAX_VALUES;
use crate::error::Result;
use cairn_runtime::HashValue;
use sea_orm::{DbBackend, Value};

/// The orientations the reference allows, in its order.
const ORIENTATIONS: [&str; 3] = ["square", "portrait", "landscape"];

/// One condition on an image's kept metadata, `{v}` standing for its stored value's column.
struct Condition {
    text: String,
    values: Vec<Value>,
}

/// The criteria each name takes (besides `fieldDefIdentifier`).
fn supported(name: &str) -> &'static [&'static str] {
    match name {
        "ImageCriterion" => &["mimeTypes", "size", "width", "height", "orientation"],
        "ImageDimensionsCriterion" => &["width", "height"],
        "ImageFileSizeCriterion" => &["size"],
        "ImageMimeTypeCriterion" => &["type"],
        _ => &["orientation"],
    }
}

/// Whether `name` is one of the image criteria.
pub fn is_image_criterion(name: &str) -> bool {
    matches!(
        name,
        "ImageCriterion"
            | "ImageDimensionsCriterion"
            | "ImageFileSizeCriterion"
            | "ImageMimeTypeCriterion"
            | "ImageOrientationCriterion"
    )
}

/// The condition of the image criterion `name` with its value `v` on `c` (the content item).
pub fn condition(backend: DbBackend, name: &str, v: &HashValue) -> Result<Sql> {
    let HashValue::Map(entries) = v else {
        return Err(bad(
            name,
            "expects fieldDefIdentifier and the image's criteria",
        ));
    };
    let allowed = supported(name);
    let identifier = key(v, "fieldDefIdentifier")
        .and_then(HashValue::as_str)
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| bad(name, "fieldDefIdentifier must be a non-blank string"))?;
    let unknown: Vec<&str> = entries
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| !k.eq_ignore_ascii_case("fieldDefIdentifier") && !allowed.contains(k))
        .collect();
    if !unknown.is_empty() {
        return Err(bad(
            name,
            format!(
                "Given criteria are not supported: \"{}\". Supported image criteria: \"{}\"",
                unknown.join(", "),
                allowed.join(", ")
            ),
        ));
    }
    let get = |k: &str| entries.iter().find(|(n, _)| n == k).map(|(_, v)| v);
    let mut parts = Vec::new();
    for criterion in allowed {
        let Some(value) = get(criterion) else {
            continue;
        };
        parts.push(match *criterion {
            "mimeTypes" | "type" => mime_types(name, backend, value)?,
            "size" => file_size(name, backend, value)?,
            "width" | "height" => {
                let (min, max) = range(name, criterion, value)?;
                between(name, &number(backend, criterion), Some(min), max)?
            }
            _ => orientation(name, backend, value)?,
        });
    }
    // The file size criterion without a size has no bound, which the reference refuses.
    if parts.is_empty() {
        return Err(match name {
            "ImageFileSizeCriterion" => bad(name, "At least one value must be specified."),
            "ImageMimeTypeCriterion" => bad(name, "expects at least one MIME type"),
            "ImageOrientationCriterion" => bad(name, "expects an orientation"),
            _ => bad(
                name,
                format!(
                    "At least one of the supported criteria should be passed: \"{}\"",
                    allowed.join(", ")
                ),
            ),
        });
    }
    let text = parts
        .iter()
        .map(|p| format!("({})", p.text))
        .collect::<Vec<_>>()
        .join(" AND ");
    let values: Vec<Value> = parts.into_iter().flat_map(|p| p.values).collect();
    Ok(on_field(backend, identifier, &text, values))
}

/// The condition `cond` on the image of the current version's field `identifier`: its own
/// value for an image field, the named content item's `image` field for an image asset.
fn on_field(backend: DbBackend, identifier: &str, cond: &str, values: Vec<Value>) -> Sql {
    let target = match backend {
        DbBackend::Postgres => {
            "(CASE WHEN jsonb_typeof(f.value::jsonb -> 'destinationContentId') = 'number' \
             THEN (f.value::jsonb ->> 'destinationContentId')::bigint END)"
        }
        _ => "json_extract(f.value, '$.destinationContentId')",
    };
    let text = format!(
        "EXISTS (SELECT 1 FROM content_fields f JOIN field_definitions d ON d.id = f.field_definition_id \
         WHERE f.content_id = c.id AND f.version_no = c.current_version AND d.status = 0 AND d.identifier = ? \
         AND ((d.field_type = 'image' AND {own}) \
         OR (d.field_type = 'imageasset' AND EXISTS (SELECT 1 FROM contents t \
         JOIN content_fields i ON i.content_id = t.id AND i.version_no = t.current_version \
         AND i.language_code = t.main_language_code \
         JOIN field_definitions di ON di.id = i.field_definition_id AND di.status = 0 \
         WHERE t.id = {target} AND t.status = 1 AND di.identifier = 'image' AND {asset}))))",
        own = cond.replace("{v}", "f.value"),
        asset = cond.replace("{v}", "i.value"),
    );
    let mut all: Vec<Value> = vec![identifier.into()];
    all.extend(values.iter().cloned());
    all.extend(values);
    Sql { text, values: all }
}

/// A number of the stored value (`width`, `height`, `fileSize`); NULL when it holds none.
fn number(backend: DbBackend, k: &str) -> String {
    let k = match k {
        "size" => "fileSize",
        k => k,
    };
    match backend {
        DbBackend::Postgres => format!(
            "(CASE WHEN jsonb_typeof({{v}}::jsonb -> '{k}') = 'number' \
             THEN ({{v}}::jsonb ->> '{k}')::float8 END)"
        ),
        _ => format!("json_extract({{v}}, '$.{k}')"),
    }
}

/// The stored value's MIME type.
fn mime(backend: DbBackend) -> &'static str {
    match backend {
        DbBackend::Postgres => "({v}::jsonb ->> 'mime')",
        _ => "json_extract({v}, '$.mime')",
    }
}

/// `min`/`max` of a range (`{min?, max?}`, numbers or numeric strings); the reference's
/// defaults: no `min` is 0, no `max` (or 0) is no upper bound.
fn range(name: &str, k: &str, v: &HashValue) -> Result<(f64, Option<f64>)> {
    let HashValue::Map(entries) = v else {
        return Err(bad(name, format!("{k} expects a range: min and/or max")));
    };
    if let Some((other, _)) = entries.iter().find(|(n, _)| n != "min" && n != "max") {
        return Err(bad(
            name,
            format!("{k}: '{other}' is not expected (a range has min and max)"),
        ));
    }
    let read = |bound: &str| -> Result<Option<f64>> {
        match entries.iter().find(|(n, _)| n == bound).map(|(_, v)| v) {
            None | Some(HashValue::Null) => Ok(None),
            Some(x) => x
                .as_f64()
                .filter(|f| f.is_finite())
                .map(Some)
                .ok_or_else(|| bad(name, format!("{k}.{bound} must be a number"))),
        }
    };
    Ok((read("min")?.unwrap_or(0.0), read("max")?))
}

/// The reference's range criterion: `min` at least 0, `max` (when given) at least 0 and not
/// below `min`; BETWEEN when `max` is above 0, else GTE `min`. `min` `None`: no bound given.
fn between(name: &str, column: &str, min: Option<f64>, max: Option<f64>) -> Result<Condition> {
    if min.is_none() && max.is_none() {
        return Err(bad(name, "At least one value must be specified."));
    }
    let min = min.unwrap_or(0.0);
    if min < 0.0 {
        return Err(bad(name, "the minimum should be greater or equal 0"));
    }
    if let Some(max) = max {
        if max < 0.0 {
            return Err(bad(name, "the maximum should be greater than 0"));
        }
        if min > max {
            return Err(bad(
                name,
                format!("the minimum should not be greater than {max}"),
            ));
        }
    }
    Ok(match max.filter(|m| *m > 0.0) {
        Some(max) => Condition {
            text: format!("{column} BETWEEN ? AND ?"),
            values: vec![min.into(), max.into()],
        },
        None => Condition {
            text: format!("{column} >= ?"),
            values: vec![min.into()],
        },
    })
}

/// `size`: a range in megabytes, compared in bytes (the reference's `FileSize` criterion: a
/// bound of 0 is no bound).
fn file_size(name: &str, backend: DbBackend, v: &HashValue) -> Result<Condition> {
    let (min, max) = range(name, "size", v)?;
    let bytes = |mb: f64| (mb != 0.0).then(|| (mb * 1024.0 * 1024.0).trunc());
    between(
        name,
        &number(backend, "size"),
        bytes(min),
        max.and_then(bytes),
    )
}

/// A string or a list of non-blank strings.
fn strings(name: &str, k: &str, v: &HashValue) -> Result<Vec<String>> {
    let list = match v {
        HashValue::String(s) => vec![s.clone()],
        HashValue::List(items) => items
            .iter()
            .map(|i| match i {
                HashValue::String(s) if !s.trim().is_empty() => Ok(s.clone()),
                _ => Err(bad(
                    name,
                    format!("{k} must be a string or a list of strings"),
                )),
            })
            .collect::<Result<_>>()?,
        _ => {
            return Err(bad(
                name,
                format!("{k} must be a string or a list of strings"),
            ));
        }
    };
    if list.is_empty() {
        return Err(bad(name, format!("{k} expects at least one value")));
    }
    if list.len() > MAX_VALUES {
        return Err(bad(
            name,
            format!(
                "{} values; a criterion takes {MAX_VALUES} at most",
                list.len()
            ),
        ));
    }
    Ok(list)
}

fn marks(n: usize) -> String {
    vec!["?"; n].join(", ")
}

/// `mimeTypes` / `type`: the kept MIME type is one of them.
fn mime_types(name: &str, backend: DbBackend, v: &HashValue) -> Result<Condition> {
    let k = if name == "ImageCriterion" {
        "mimeTypes"
    } else {
        "type"
    };
    let types = strings(name, k, v)?;
    Ok(Condition {
        text: format!("{} IN ({})", mime(backend), marks(types.len())),
        values: types.into_iter().map(Into::into).collect(),
    })
}

/// `orientation`: one or more of square, portrait and landscape.
fn orientation(name: &str, backend: DbBackend, v: &HashValue) -> Result<Condition> {
    let wanted = strings(name, "orientation", v)?;
    let invalid: Vec<&str> = wanted
        .iter()
        .map(String::as_str)
        .filter(|o| !ORIENTATIONS.contains(o))
        .collect();
    if !invalid.is_empty() {
        return Err(bad(
            name,
            format!(
                "Invalid image orientation: \"{}\". Allowed orientations: {}",
                invalid.join(", "),
                ORIENTATIONS.join(", ")
            ),
        ));
    }
    let (w, h) = (number(backend, "width"), number(backend, "height"));
    Ok(Condition {
        text: format!(
            "(CASE WHEN {w} = {h} THEN 'square' WHEN {w} > {h} THEN 'landscape' \
             WHEN {w} < {h} THEN 'portrait' END) IN ({})",
            marks(wanted.len())
        ),
        values: wanted.into_iter().map(Into::into).collect(),
    })
}
