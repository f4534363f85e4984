//! `cairn storage gc`: the stored files no version references (of deleted content, versions,
//! translations, or of a request cut off between storing a file and committing), listed and
//! removed. A referenced file is never removed; nor is one stored within the grace period,
//! which may belong to a write not yet committed (storing a file again, as every upload of
//! the same bytes does, starts its grace period again). Files derived from a stored file (image
//! variations) are kept while their original is referenced.

use super::{Storage, on_io};
use cairn_store::Connection;
use sea_orm::Value;
use std::collections::HashSet;

/// What a collection found.
#[derive(Debug, Default)]
pub struct Collected {
    /// Files some version references.
    pub referenced: usize,
    /// Unreferenced files within the grace period, kept.
    pub recent: Vec<String>,
    /// Unreferenced files removed (or, on a dry run, that would be).
    pub removed: Vec<String>,
}

/// Field values read per statement.
const PAGE: u64 = 1000;

/// Collects the unreferenced files of `storage` older than `grace`; removes them unless
/// `dry_run`.
pub async fn collect(
    db: &impl Connection,
    storage: &Storage,
    grace: std::time::Duration,
    dry_run: bool,
) -> anyhow::Result<Collected> {
    // Listed before the references are read: a file stored and referenced in between is
    // within its grace period.
    let objects = storage.objects().await?;
    let referenced = referenced(db).await?;
    let referenced_hashes: HashSet<&str> = referenced
        .iter()
        .filter_map(|p| p.split('/').nth(2))
        .collect();
    let cutoff = chrono::Utc::now() - chrono::Duration::from_std(grace)?;
    let mut out = Collected::default();
    for meta in objects {
        let path = meta.location.to_string();
        // Hidden files are the spool's and a backend's own partial writes.
        if path.split('/').any(|s| s.starts_with('.')) || path.contains('#') {
            continue;
        }
        // A derived file (an image variation) is kept while its original is.
        let original_kept = super::paths::derived_from(&path)
            .is_some_and(|(hash, _)| referenced_hashes.contains(hash));
        if referenced.contains(&path) || original_kept {
            out.referenced += 1;
        } else if meta.last_modified > cutoff {
            out.recent.push(path);
        } else {
            if !dry_run {
                let store = storage.store();
                let location = meta.location.clone();
                match on_io(async move { store.delete(&location).await }).await {
                    Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
                    Err(e) => anyhow::bail!("{path} could not be removed: {e}"),
                }
            }
            out.removed.push(path);
        }
    }
    Ok(out)
}

/// Every stored path a field value or a Field definition's default value names (`"id"` of
/// the binary types' values), read a page at a time.
async fn referenced(db: &impl Connection) -> anyhow::Result<HashSet<String>> {
    let backend = db.get_database_backend();
    let mut paths = HashSet::new();
    for (table, column) in [
        ("content_fields", "value"),
        ("field_definitions", "default_value"),
    ] {
        let mut after = 0i64;
        loop {
            let rows = db
                .query_all_raw(cairn_store::sql::stmt(
                    backend,
                    &format!(
                        "SELECT id, {column} AS v FROM {table} WHERE id > ? AND {column} LIKE ? \
                         ORDER BY id LIMIT {PAGE}"
                    ),
                    [Value::from(after), Value::from("%\"id\"%")],
                ))
                .await?;
            for row in &rows {
                after = row.try_get::<i64>("", "id")?;
                let v: String = row.try_get("", "v")?;
                if let Ok(json) = serde_json::from_str::<serde_json::Value>(&v) {
                    ids(&json, &mut paths);
                }
            }
            if (rows.len() as u64) < PAGE {
                break;
            }
        }
    }
    Ok(paths)
}

/// The string values of `id` keys anywhere in `v`.
fn ids(v: &serde_json::Value, out: &mut HashSet<String>) {
    match v {
        serde_json::Value::Object(o) => {
            for (k, v) in o {
                match v {
                    serde_json::Value::String(s) if k == "id" => {
                        out.insert(s.trim_start_matches('/').to_string());
                    }
                    v => ids(v, out),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|v| ids(v, out)),
        _ => {}
    }
}
