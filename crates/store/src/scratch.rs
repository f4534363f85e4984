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
        // The connections still open on it are ended now (a test's pool would otherwise
        // hold the server's connections); the schema is dropped by the janitor, after the
        // test: dropping it waits for those backends to end (about a second a test).
        let ended = base.clone();
        let terminate = format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '{schema}'"
        );
        // Drop may run outside a runtime: a thread with its own.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Runtime::new().expect("a runtime");
            rt.block_on(async {
                if let Ok(db) = sea_orm::Database::connect(ended.as_str()).await {
                    let _ = db.execute_unprepared(&terminate).await;
                }
            });
        })
        .join();
        janitor::drop_later(base, schema);
    }
}

/// Drops the schemas of finished tests one after the other on a thread of its own, and at
/// its start those that processes which have ended left behind (a process ends without
/// waiting for its last drops).
mod janitor {
    use sea_orm::ConnectionTrait;
    use std::sync::Mutex;
    use std::sync::mpsc::{Sender, channel};

    static QUEUE: Mutex<Option<Sender<(String, String)>>> = Mutex::new(None);

    /// Queues `schema` of the server at `base` to be dropped.
    pub(super) fn drop_later(base: String, schema: String) {
        let mut queue = QUEUE.lock().unwrap_or_else(|e| e.into_inner());
        let tx = queue.get_or_insert_with(|| {
            let (tx, rx) = channel::<(String, String)>();
            std::thread::spawn(move || {
                let rt = tokio::runtime::Runtime::new().expect("a runtime");
                // One connection for every drop (every test names the same server), opened
                // at the first, when the schemas left behind go too.
                let mut conn: Option<sea_orm::DatabaseConnection> = None;
                while let Ok((base, schema)) = rx.recv() {
                    rt.block_on(async {
                        if conn.is_none() {
                            let Ok(db) = sea_orm::Database::connect(base.as_str()).await else {
                                return;
                            };
                            for s in left_behind(&db).await {
                                let _ = db.execute_unprepared(&drop_schema(&s)).await;
                            }
                            conn = Some(db);
                        }
                        if let Some(db) = &conn
                            && db.execute_unprepared(&drop_schema(&schema)).await.is_err()
                        {
                            // A connection the server ended: the next drop opens another.
                            conn = None;
                        }
                    });
                }
            });
            tx
        });
        let _ = tx.send((base, schema));
    }

    fn drop_schema(schema: &str) -> String {
        format!("DROP SCHEMA IF EXISTS {schema} CASCADE")
    }

    /// The test schemas of processes that no longer run (`cairn_test_<pid>_<n>`).
    async fn left_behind(db: &sea_orm::DatabaseConnection) -> Vec<String> {
        let Ok(rows) = db
            .query_all_raw(sea_orm::Statement::from_string(
                db.get_database_backend(),
                "SELECT nspname::text FROM pg_namespace WHERE nspname LIKE 'cairn\\_test\\_%'",
            ))
            .await
        else {
            return Vec::new();
        };
        (rows.iter())
            .filter_map(|r| r.try_get_by_index::<String>(0).ok())
            .filter(|s| {
                let pid = s.trim_start_matches("cairn_test_").split('_').next();
                pid.is_some_and(|pid| {
                    pid.parse::<u32>().is_ok_and(|pid| {
                        pid != std::process::id()
                            && !std::path::Path::new(&format!("/proc/{pid}")).exists()
                    })
                })
            })
            .collect()
    }
}
