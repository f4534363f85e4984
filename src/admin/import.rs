//! `cairn import FILE`: content items from a JSON Lines file, one `ContentCreate` body per
//! line as `POST /content/objects` takes it in JSON (hrefs with the first dialect's prefix),
//! created and published (or left as drafts) as a user of the repository, with its Policies.
//! Each batch of lines is one transaction: a line that fails rolls its batch back and stops
//! the import, naming the line; the batches before it stay.

use crate::api::model::ContentCreate;
use crate::api::routes::OPERATIONS;
use crate::content::Then;
use crate::shared::Shared;
use cairn_runtime::HttpError;
use cairn_runtime::http::{Settings, decode_json};
use std::io::BufRead;
use std::sync::Arc;

/// How an import runs.
pub struct Import {
    /// The user it acts as (`admin`).
    pub login: String,
    /// Lines per transaction.
    pub batch: usize,
    /// Publish each item (else leave it a draft).
    pub publish: bool,
}

/// Imports every line of `input`; calls `progress` with the number of items written after each
/// batch, and returns that number.
pub async fn import(
    service: &Shared,
    dialect: Arc<Settings>,
    input: impl BufRead,
    how: &Import,
    mut progress: impl FnMut(usize),
) -> anyhow::Result<usize> {
    let op = OPERATIONS
        .iter()
        .find(|o| o.id == "createContent")
        .expect("the spec has createContent");
    let cx = service
        .caller_named(&how.login, op, dialect.clone())
        .await
        .map_err(|e| anyhow::anyhow!("{}", HttpError::from(e).description))?;
    let then = match how.publish {
        true => Then::Publish,
        false => Then::Draft,
    };
    let mut done = 0;
    let mut batch: Vec<(usize, ContentCreate)> = Vec::with_capacity(how.batch);
    let mut lines = input.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        let line = line.map_err(|e| anyhow::anyhow!("line {}: {e}", i + 1))?;
        if !line.trim().is_empty() {
            let b = decode_json::<ContentCreate>(&line, "ContentCreate", &dialect.wire)
                .map_err(|e| anyhow::anyhow!("line {}: {}", i + 1, e.description))?;
            batch.push((i + 1, b));
        }
        if batch.len() < how.batch.max(1) && lines.peek().is_some() {
            continue;
        }
        let items = std::mem::take(&mut batch);
        let n = items.len();
        if n == 0 {
            continue;
        }
        let change = cairn_store::events::Change {
            operation: "import",
            resource: "/content/objects",
            user_id: Some(cx.user_id),
            narrow: false,
            reader: None,
        };
        let write = service.db.write(change, async |tx| {
            for (line, b) in items {
                service
                    .create_in(tx, &cx, b, then)
                    .await
                    .map_err(|e| describe(line, e))?;
            }
            Ok::<_, anyhow::Error>(())
        });
        // A batch rolled back removes the files it stored that no committed version uses.
        let written = Box::pin(write).await;
        if written.is_err() {
            let (db, store) = (service.db.conn(), service.files.as_ref());
            cx.uploads.remove_unreferenced(db, store).await;
        }
        cx.uploads.forget();
        written?;
        done += n;
        progress(done);
    }
    Ok(done)
}

/// What a client of the API would be told of the line's failure, with the failing fields.
fn describe(line: usize, e: crate::error::Error) -> anyhow::Error {
    let http = HttpError::from(e);
    let mut text = format!("line {line}: {}", http.description);
    for field in &http.details {
        for (kind, message) in &field.errors {
            let id = field.field_definition_id;
            text.push_str(&format!("\n  Field definition {id}: {kind}: {message}"));
        }
    }
    anyhow::anyhow!(text)
}
