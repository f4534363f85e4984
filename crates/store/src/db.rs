//! Connecting: SQLite (a file created when missing, WAL, a busy timeout, writes that begin
//! IMMEDIATE; run on the calling thread, `sqlite/`) or PostgreSQL (a sized pool), migrated
//! at start-up.

use crate::events::Change;
use crate::statements::counted;
use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbBackend, DbErr,
    TransactionTrait,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The database: a connection pool, and how to start a write.
#[derive(Clone, Debug)]
pub struct Db {
    conn: DatabaseConnection,
    /// SQLite: the connections behind `conn`, where transactions take theirs and the commit
    /// marks are read (`crate::commits`).
    pub(crate) sqlite: Option<Arc<crate::sqlite::Pool>>,
    /// The longest a statement may run.
    limit: Option<Duration>,
    /// Statements run since start-up (tests count what an operation costs).
    statements: Arc<AtomicU64>,
    /// This instance and the schema it works in, as notifications to the other instances
    /// name them (see `notify.rs`).
    pub(crate) instance: Arc<str>,
    pub(crate) schema: Arc<str>,
    /// The database was created by this opening (with the clean-install data).
    created: bool,
}

/// How to open the database.
#[derive(Clone, Debug)]
pub struct DbOptions {
    /// `sqlite://path` (created when missing) or `postgres://...`.
    pub url: String,
    /// Pool size; SQLite readers share it with the one writer at a time.
    pub max_connections: u32,
    /// The longest a statement may run (PostgreSQL `statement_timeout`); `None`: no limit.
    /// It is also how long a statement waits for a connection of the pool (30 s without it).
    pub statement_timeout: Option<Duration>,
}

impl DbOptions {
    /// How long a statement waits for a connection of the pool before it fails (a pool
    /// exhausted): as long as a statement may run, 30 s when that has no limit.
    fn patience(&self) -> Duration {
        self.statement_timeout.unwrap_or(Duration::from_secs(30))
    }
}

impl Db {
    /// Opens the database and applies pending migrations.
    pub async fn open(options: &DbOptions) -> Result<Db, DbErr> {
        let statements = Arc::new(AtomicU64::new(0));
        let (conn, sqlite) = match options.url.strip_prefix("sqlite:") {
            Some(path) => {
                // `sqlite://file` or `sqlite:file`; options after `?` are sqlx's, not taken.
                let path = path
                    .trim_start_matches("//")
                    .split('?')
                    .next()
                    .unwrap_or_default();
                // The file is created when missing, and so is its folder (`var/`).
                let folder = std::path::Path::new(path).parent();
                if let Some(folder) = folder.filter(|f| !f.as_os_str().is_empty()) {
                    std::fs::create_dir_all(folder).map_err(|e| {
                        DbErr::Custom(format!("cannot create {}: {e}", folder.display()))
                    })?;
                }
                let pool =
                    crate::sqlite::Pool::open(path, options.max_connections, statements.clone())?;
                pool.wait_at_most(options.patience());
                let conn = crate::sqlite::shared(&pool).await?;
                (conn, Some(pool))
            }
            None => (Self::postgres(options, &statements).await?, None),
        };
        let schema = schema_of(&conn).await?;
        let db = Db {
            conn,
            sqlite,
            limit: options.statement_timeout,
            statements,
            instance: format!("{:016x}", rand::random::<u64>()).into(),
            schema: schema.into(),
            created: false,
        };
        // Each pending migration in one transaction with its record.
        let (todo, created) = crate::migration::to_apply(db.conn()).await?;
        for m in todo {
            db.write_untracked(async |tx| crate::migration::apply(tx, &*m).await)
                .await?;
        }
        // SQLite's planner statistics, which the pool keeps up from then on.
        if let Some(pool) = db.sqlite.clone() {
            tokio::task::spawn_blocking(move || pool.optimize())
                .await
                .map_err(|e| DbErr::Custom(format!("the planner's statistics failed: {e}")))??;
        }
        Ok(Db { created, ..db })
    }

    /// A PostgreSQL pool whose statements are counted and limited.
    async fn postgres(
        options: &DbOptions,
        statements: &Arc<AtomicU64>,
    ) -> Result<DatabaseConnection, DbErr> {
        let mut co = ConnectOptions::new(options.url.clone());
        co.max_connections(options.max_connections)
            .min_connections(1)
            .connect_timeout(Duration::from_secs(30))
            .acquire_timeout(options.patience())
            // A ping before every checkout doubles the cost of a read.
            .test_before_acquire(false)
            .sqlx_logging(false)
            // Nagle's algorithm off (sqlx 0.9.0 leaves it on): see `nodelay.rs`.
            .map_sqlx_postgres_pool_opts(|o| {
                o.after_connect(|c, _| {
                    Box::pin(async move {
                        crate::nodelay::no_delay(c).await;
                        Ok(())
                    })
                })
            });
        // No JIT compilation: it pays off for queries running seconds over millions of rows,
        // not for these, and it starts above a cost threshold that a plan goes past as soon
        // as a scan it must use is one a search turned off (`Watched::numbers_by_index`),
        // to compile and optimize for 50 ms and more a statement that runs in a few.
        let mut settings = vec![("jit", "off".to_string())];
        if let Some(t) = options.statement_timeout {
            settings.extend([
                ("statement_timeout", t.as_millis().to_string()),
                // A closed connection cancels its query (see `watch.rs`).
                ("client_connection_check_interval", "1000".into()),
            ]);
        }
        co.map_sqlx_postgres_opts(move |o| o.options(settings.clone()));
        let mut conn = Database::connect(co).await?;
        let counter = statements.clone();
        conn.set_metric_callback(move |_| counted(&counter));
        Ok(conn)
    }

    /// Whether this opening created the database, with the clean-install data.
    pub fn created(&self) -> bool {
        self.created
    }

    /// Closes the database for good, as a clean shutdown does. On SQLite it waits (up to
    /// 10 s) for the connections in use to come back, copies the WAL back into the database
    /// and closes every connection, so that the `-wal` and `-shm` files are removed; on
    /// PostgreSQL it closes the pool.
    pub async fn close(&self) -> Result<(), DbErr> {
        if let Some(pool) = &self.sqlite {
            if !pool.close(Duration::from_secs(10)).await? {
                tracing::warn!("connections still in use after 10 s: the WAL files stay");
            }
            return Ok(());
        }
        self.conn.clone().close().await
    }

    /// SQLite: the WAL-index header now, which changes with every commit (`crate::commits`);
    /// none on PostgreSQL or when it cannot be read.
    pub fn commit_mark(&self) -> Option<crate::commits::Mark> {
        self.sqlite.as_ref()?.mark()
    }

    /// Adds the languages (code, name) that are missing; ids continue the bit flags (2, 4, 8...).
    pub async fn ensure_languages(&self, languages: &[(String, String)]) -> Result<(), DbErr> {
        use crate::entity::language;
        use sea_orm::{ActiveValue::Set, EntityTrait};
        let known: Vec<language::Model> = language::Entity::find().all(&self.conn).await?;
        let missing: Vec<&(String, String)> = (languages.iter())
            .filter(|(code, _)| !known.iter().any(|l| &l.language_code == code))
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        let change = Change::by_server("addLanguage", "/languages");
        self.write(change, async |tx| {
            // Ids are bits (the reference's language masks): each new one doubles the highest.
            let mut max = (language::Entity::find().all(tx).await?.into_iter())
                .map(|l| l.id)
                .max()
                .unwrap_or(1);
            for (code, name) in missing {
                max *= 2;
                language::Entity::insert(language::ActiveModel {
                    id: Set(max),
                    language_code: Set(code.clone()),
                    name: Set(name.clone()),
                    enabled: Set(true),
                })
                .exec(tx)
                .await?;
            }
            Ok(())
        })
        .await
    }

    /// Connections of the pool: (open, idle).
    pub fn pool_use(&self) -> (u32, usize) {
        match &self.sqlite {
            Some(pool) => pool.size(),
            None => {
                let p = self.conn.get_postgres_connection_pool();
                (p.size(), p.num_idle())
            }
        }
    }

    /// How many statements have run so far.
    pub fn statements(&self) -> u64 {
        self.statements.load(Ordering::Relaxed)
    }

    /// A connection for one search, which stops when the search is dropped (see `watch.rs`).
    pub async fn watched(&self) -> Result<crate::watch::Watched, DbErr> {
        let sqlite = self.sqlite.as_ref();
        crate::watch::Watched::acquire(sqlite, &self.conn, self.limit, self.statements.clone())
            .await
    }

    /// The pool, for reads.
    pub fn conn(&self) -> &DatabaseConnection {
        &self.conn
    }

    pub fn backend(&self) -> DbBackend {
        self.conn.get_database_backend()
    }

    /// Runs `f` in one write transaction: committed with its event in the outbox
    /// (`crate::events`) when it returns `Ok`, rolled back (at once, releasing every lock)
    /// when it returns `Err`.
    pub async fn write<T, E, F>(&self, change: Change<'_>, f: F) -> Result<T, E>
    where
        F: AsyncFnOnce(&crate::Tx) -> Result<T, E>,
        E: From<DbErr>,
    {
        self.transaction(Some(change), change.reader, f).await
    }

    /// [`Db::write`] for state outside the repository (sessions): no event, so no cache
    /// drops anything for it.
    pub async fn write_untracked<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: AsyncFnOnce(&crate::Tx) -> Result<T, E>,
        E: From<DbErr>,
    {
        self.transaction(None, None, f).await
    }

    /// [`Db::write_untracked`] for a request: its `reader`'s snapshot ends around it, and its
    /// statements count for it.
    pub async fn write_untracked_for<T, E, F>(&self, reader: &crate::Reader, f: F) -> Result<T, E>
    where
        F: AsyncFnOnce(&crate::Tx) -> Result<T, E>,
        E: From<DbErr>,
    {
        self.transaction(None, Some(reader), f).await
    }

    async fn transaction<T, E, F>(
        &self,
        change: Option<Change<'_>>,
        reader: Option<&crate::Reader>,
        f: F,
    ) -> Result<T, E>
    where
        F: AsyncFnOnce(&crate::Tx) -> Result<T, E>,
        E: From<DbErr>,
    {
        // The request's reads after this write must see it; none is held while it waits.
        if let Some(r) = reader {
            r.end_snapshot();
        }
        let out = self.transaction_in_turn(change, reader, f).await;
        if let Some(r) = reader {
            r.end_snapshot();
        }
        out
    }

    async fn transaction_in_turn<T, E, F>(
        &self,
        change: Option<Change<'_>>,
        reader: Option<&crate::Reader>,
        f: F,
    ) -> Result<T, E>
    where
        F: AsyncFnOnce(&crate::Tx) -> Result<T, E>,
        E: From<DbErr>,
    {
        let work = async |tx: &crate::Tx| {
            let out: Result<T, E> = async {
                let v = f(tx).await?;
                let named = tx.take_named();
                for s in named.last {
                    tx.execute_raw(s).await?;
                }
                if let Some(change) = &change {
                    let resource = named.created.as_deref().unwrap_or(change.resource);
                    let change = Change {
                        resource,
                        narrow: change.narrow && !named.everything,
                        ..*change
                    };
                    crate::events::record(tx, &change, &named.touched).await?;
                }
                Ok::<T, E>(v)
            }
            .await;
            // The request's count includes its write.
            if let Some(r) = reader {
                r.count(tx.statements());
            }
            out
        };
        // SQLite has one writer at a time: this process's writers queue in the pool, in
        // order, instead of polling in SQLite's busy handler (whose sleeps grow to hundreds of
        // milliseconds), and share a commit when they come one after another
        // (`sqlite/group.rs`). The busy timeout still covers writers of other processes.
        if let Some(pool) = &self.sqlite {
            return pool.write(work).await;
        }
        let tx = crate::Tx::new(self.conn.begin().await?, None);
        let out = work(&tx).await;
        let (tx, _) = tx.into_parts();
        match out {
            Ok(v) => {
                tx.commit().await?;
                Ok(v)
            }
            Err(e) => {
                if let Err(rb) = tx.rollback().await {
                    tracing::warn!(error = %rb, "rollback failed");
                }
                Err(e)
            }
        }
    }

    /// SQLite: caps the database at the size it has now, as a full disk would, or lifts the
    /// cap (`sqlite::Pool::cap_size`); nothing on PostgreSQL.
    #[cfg(any(test, feature = "testing"))]
    pub fn cap_sqlite_size(&self, capped: bool) -> Result<(), DbErr> {
        self.sqlite
            .as_ref()
            .map_or(Ok(()), |pool| pool.cap_size(capped))
    }
}

impl Db {
    /// Whether the database answers and every migration is applied (readiness).
    pub async fn ready(&self) -> Result<(), String> {
        use sea_orm::ConnectionTrait;
        self.conn
            .execute_unprepared("SELECT 1")
            .await
            .map_err(|e| format!("the database does not answer: {e}"))?;
        let pending = crate::migration::pending(&self.conn)
            .await
            .map_err(|e| format!("cannot read the applied migrations: {e}"))?;
        if !pending.is_empty() {
            return Err(format!("{} migrations are not applied", pending.len()));
        }
        Ok(())
    }
}

/// The schema the connection works in (PostgreSQL), or "" (SQLite).
pub(crate) async fn schema_of(conn: &DatabaseConnection) -> Result<String, DbErr> {
    if conn.get_database_backend() != DbBackend::Postgres {
        return Ok(String::new());
    }
    let row = conn
        .query_one_raw(crate::sql::stmt(
            DbBackend::Postgres,
            "SELECT current_schema()",
            [],
        ))
        .await?;
    Ok(row
        .and_then(|r| r.try_get_by_index::<String>(0).ok())
        .unwrap_or_default())
}
