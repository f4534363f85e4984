//! The files a request stored for the first time, noted as the field types store them and
//! removed again when it fails (the backends and the names of stored files: `crate::storage`).

use crate::storage::FileStore;
use std::sync::Mutex;

/// The files a request (or an import batch) stored for the first time. The field types note
/// them as they store them (`ValueContext::uploads`); when the request fails, those that no
/// stored field value references are removed (what its rolled-back transaction would have).
#[derive(Debug, Default)]
pub struct Uploads(Mutex<Vec<String>>);

impl Uploads {
    /// Notes a file stored for the first time.
    pub fn note(&self, path: &str) {
        let mut paths = self.0.lock().unwrap_or_else(|e| e.into_inner());
        paths.push(path.to_string());
    }

    /// Removes the files noted so far that no stored field value references, and forgets them.
    pub async fn remove_unreferenced(
        &self,
        db: &impl cairn_store::Connection,
        store: &dyn FileStore,
    ) {
        let paths = std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()));
        if !paths.is_empty() {
            remove_unreferenced(db, store, &paths).await;
        }
    }

    /// Forgets the files noted so far (their request succeeded).
    pub fn forget(&self) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
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
