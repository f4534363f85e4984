//! Scratch databases for tests (feature `testing`): a fresh, migrated database per test, on
//! the PostgreSQL server `CAIRN_TEST_DATABASE_URL` names (a schema of its own, dropped
//! afterwards) or else in a SQLite file in a temporary directory.

use crate::{Db, DbOptions};
use sea_orm::ConnectionTrait;
use std::sync::atomic::{AtomicU32, Ordering};

static NEXT: AtomicU32 = AtomicU32::new(0);

/// A database that lasts as long as this value.
pub struct ScratchDb {
    /// The URL to open it with.
    pub url: String,
    place: Place,
}

enum Place {
    Sqlite(#[allow(dead_code)] tempfile::TempDir),
    Postgres { base: String, schema: String },
}

/// Which backend the tests run on: `postgres` or `sqlite`.
pub fn backend() -> &'static str {
    match std::env::var("CAIRN_TEST_DATABASE_URL") {
        Ok(url) if url.starts_with("postgres") => "postgres",
        _ => "sqlite",
    }
}

impl ScratchDb {
    /// A new empty database (not migrated yet: [`Db::open`] does that).
    pub async fn new() -> ScratchDb {
        match std::env::var("CAIRN_TEST_DATABASE_URL") {
            Ok(base) if base.starts_with("postgres") => {
                let schema = format!(
                    "cairn_test_{}_{}",
                    std::process::id(),
                    NEXT.fetch_add(1, Ordering::Relaxed)
                );
                let admin = sea_orm::Database::connect(base.as_str())
                    .await
                    .expect("the test PostgreSQL server answers");
                admin
                    .execute_unprepared(&format!(
                        "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
                    ))
                    .await
                    .expect("create the test schema");
                let sep = if base.contains('?') { '&' } else { '?' };
                // The application name lets the drop end the connections still open on it.
                let url =
                    format!("{base}{sep}options[search_path]={schema}&application_name={schema}");
                ScratchDb {
                    url,
                    place: Place::Postgres { base, schema },
                }
            }
            _ => {
                let dir = tempfile::tempdir().expect("a temporary directory");
                let url = format!("sqlite://{}", dir.path().join("cairn.db").display());
                ScratchDb {
                    url,
                    place: Place::Sqlite(dir),
                }
            }
        }
    }

    /// Opens (and migrates) it with a pool of `max_connections`.
    pub async fn open(&self, max_connections: u32) -> Db {
        Db::open(&DbOptions {
            statement_timeout: None,
            url: self.url.clone(),
            max_connections,
        })
        .await
        .expect("open the test database")
    }
}

/// A scratch database opened and migrated: the clean install, for tests that work on the
/// storage directly.
pub struct CleanDb {
    pub db: Db,
    _scratch: ScratchDb,
}

impl CleanDb {
    pub async fn new() -> CleanDb {
        let scratch = ScratchDb::new().await;
        CleanDb {
            db: scratch.open(2).await,
            _scratch: scratch,
        }
    }
}

impl Drop for ScratchDb {
    fn drop(&mut self) {
        let Place::Postgres { base, schema } = &self.place else {
            return;
        };
        let (base, schema) = (base.clone(), schema.clone());
        // Drop may run outside a runtime: a thread with its own.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Runtime::new().expect("a runtime");
            rt.block_on(async {
                if let Ok(db) = sea_orm::Database::connect(base.as_str()).await {
                    let _ = db
                        .execute_unprepared(&format!(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '{schema}'"
                        ))
                        .await;
                    let _ = db
                        .execute_unprepared(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
                        .await;
                }
            });
        })
        .join();
    }
}
