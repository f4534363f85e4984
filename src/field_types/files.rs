//! The files a request stored, removed again when it fails (the backends and the names of
//! stored files: `crate::storage`).

use crate::storage::FileStore;

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
