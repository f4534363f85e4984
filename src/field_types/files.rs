//! The names of uploaded files (content-addressed: `ab/cd/<sha256>/<file name>`), and the
//! files a request stored, removed again when it fails (the backends: `crate::storage`).

use super::FileStore;
use sha2::{Digest, Sha256};

/// The relative path of `data` named `file_name`: `ab/cd/<sha256 hex>/<sanitized name>`.
pub fn content_path(data: &[u8], file_name: &str) -> String {
    hashed_path(&hex(&Sha256::digest(data)), file_name)
}

pub(crate) fn hashed_path(hash: &str, file_name: &str) -> String {
    format!(
        "{}/{}/{hash}/{}",
        &hash[0..2],
        &hash[2..4],
        sanitize_file_name(file_name)
    )
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A file name safe in a path and a URI: the last path segment, characters other than
/// letters, digits, `.`, `-` and `_` replaced by `_`, no leading dots, at most 200 bytes;
/// `file` when nothing is left.
pub fn sanitize_file_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or("");
    let mut out: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    out = out.trim_start_matches('.').to_string();
    out.truncate(200);
    if out.is_empty() {
        "file".to_string()
    } else {
        out
    }
}

tokio::task_local! {
    /// The files a request stored for the first time (see [`tracking`]).
    static CREATED: std::cell::RefCell<Vec<String>>;
}

/// Runs `f` (a request, an import batch) noting the files it stores for the first time; when
/// `failed` says of its outcome that it failed, removes those that no stored field value
/// references (what its rolled-back transaction would have).
pub async fn removing_on_failure<F: std::future::Future>(
    db: &impl cairn_store::Connection,
    store: &dyn FileStore,
    f: F,
    failed: impl FnOnce(&F::Output) -> bool,
) -> F::Output {
    let (out, created) = tracking(f).await;
    if !created.is_empty() && failed(&out) {
        remove_unreferenced(db, store, &created).await;
    }
    out
}

/// Runs `f` noting the files it stores for the first time.
async fn tracking<F: std::future::Future>(f: F) -> (F::Output, Vec<String>) {
    CREATED
        .scope(std::cell::RefCell::new(Vec::new()), async {
            let out = f.await;
            (out, CREATED.with(|c| c.take()))
        })
        .await
}

/// Removes the files of `paths` that no stored field value references.
async fn remove_unreferenced(
    db: &impl cairn_store::Connection,
    store: &dyn FileStore,
    paths: &[String],
) {
    for path in paths {
        let pattern = format!(
            "%{}%",
            path.replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_")
        );
        let referenced = db
            .query_one_raw(cairn_store::sql::stmt(
                db.get_database_backend(),
                "SELECT 1 FROM content_fields WHERE value LIKE ? ESCAPE '\\'",
                [pattern.into()],
            ))
            .await;
        match referenced {
            Ok(None) => store.remove(path),
            Ok(Some(_)) => {}
            Err(e) => {
                tracing::warn!(error = %e, %path, "cannot tell whether an upload is used; kept")
            }
        }
    }
}

/// Notes a file stored for the first time by the current request.
pub fn note_created(path: &str) {
    let _ = CREATED.try_with(|c| c.borrow_mut().push(path.to_string()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sanitized() {
        assert_eq!(sanitize_file_name("../../etc/pass wd.txt"), "pass_wd.txt");
        assert_eq!(sanitize_file_name("C:\\x\\été.png"), "_t_.png");
        assert_eq!(sanitize_file_name("..."), "file");
        assert_eq!(sanitize_file_name(""), "file");
    }
}
