//! `cairn images render`: renders ahead of time the variations of every stored image (the
//! originals of every version's image fields, each file once) onto the storage backend, as a
//! first request for each would, skipping those already kept there; and reports what it
//! rendered, found kept, and could not render, with why.

use crate::images::{Images, VariationError};
use crate::storage::Storage;
use cairn_store::Db;
use cairn_store::sql::stmt;
use futures_util::StreamExt;
use sea_orm::ConnectionTrait;
use std::collections::BTreeMap;

/// What a render run did.
#[derive(Debug, Default)]
pub struct Rendered {
    /// Distinct original images found.
    pub images: usize,
    /// Variations rendered now.
    pub rendered: usize,
    /// Variations found kept on the backend.
    pub kept: usize,
    /// `(original's path, variation, why)` of each variation not rendered.
    pub failed: Vec<(String, String, String)>,
}

/// The variations `names` (every configured one when empty) of every stored image, rendered
/// where not kept, `workers` at a time. An unknown name is an error naming the known ones.
pub async fn render_images(
    db: &Db,
    files: &Storage,
    images: &Images,
    names: &[String],
    workers: usize,
) -> anyhow::Result<Rendered> {
    let known = images.variations();
    let chosen: Vec<_> = if names.is_empty() {
        (known.names().iter())
            .filter_map(|n| known.get(n))
            .collect()
    } else {
        let mut chosen = Vec::new();
        for name in names {
            let v = known.get(name).ok_or_else(|| {
                let offered: Vec<&str> = (known.names().iter())
                    .map(String::as_str)
                    .filter(|n| *n != "original")
                    .collect();
                anyhow::anyhow!(
                    "--variation {name}: no such variation to render (the variations: {})",
                    offered.join(", ")
                )
            })?;
            chosen.push(v);
        }
        chosen
    };
    let originals = originals(db).await?;
    let mut report = Rendered {
        images: originals.len(),
        ..Rendered::default()
    };
    let jobs = originals
        .iter()
        .flat_map(|(path, mime)| chosen.iter().map(move |v| (path, mime, *v)));
    let mut done = futures_util::stream::iter(jobs)
        .map(|(path, mime, v)| async move {
            let result = images.variation(files, path, mime, v).await;
            (path, v, result)
        })
        .buffer_unordered(workers.max(1));
    while let Some((path, v, result)) = done.next().await {
        match result {
            Ok(kept) if kept.rendered => report.rendered += 1,
            Ok(_) => report.kept += 1,
            Err(e) => {
                let why = match e {
                    VariationError::Refused(why) => why.to_string(),
                    VariationError::Storage(why) => format!("the storage failed: {why}"),
                    VariationError::Busy => "the render queue is full".to_string(),
                };
                report.failed.push((path.clone(), v.name.clone(), why));
            }
        }
    }
    report.failed.sort();
    Ok(report)
}

/// The stored path and MIME type of every image field's file, each path once.
async fn originals(db: &Db) -> anyhow::Result<BTreeMap<String, String>> {
    let rows = db
        .conn()
        .query_all_raw(stmt(
            db.backend(),
            "SELECT DISTINCT f.value FROM content_fields f WHERE f.field_definition_id IN \
             (SELECT id FROM field_definitions WHERE field_type = 'image')",
            [],
        ))
        .await?;
    let mut out = BTreeMap::new();
    for r in rows {
        let value = crate::stored::hash(&r.try_get_by_index::<String>(0)?);
        if let Some(path) = value.get("id").and_then(|p| p.as_str()) {
            let mime = value.get("mime").and_then(|m| m.as_str()).unwrap_or("");
            out.insert(path.to_string(), mime.to_string());
        }
    }
    Ok(out)
}
