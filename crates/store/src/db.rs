//! Connecting: SQLite (a file created when missing, WAL, a busy timeout, writes that begin
//! IMMEDIATE; run on the calling thread, `sqlite/`) or PostgreSQL (a sized pool), migrated
//! at start-up.

use crate::events::Change;
use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DatabaseTransaction, DbBackend,
    DbErr, TransactionTrait,
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
}

tokio::task_local! {
    /// Statements run by the task of one request (see [`count_statements`]).
    static REQUEST_STATEMENTS: std::cell::Cell<u64>;
}

/// Runs `f` and counts the statements it runs on any [`Db`] (a request's cost).
pub async fn count_statements<F: std::future::Future>(f: F) -> (F::Output, u64) {
    REQUEST_STATEMENTS
        .scope(std::cell::Cell::new(0), async {
            let out = f.await;
            (out, REQUEST_STATEMENTS.with(std::cell::Cell::get))
        })
        .await
}

/// Counts one statement, for the process and for the request running it.
pub(crate) fn counted(statements: &AtomicU64) {
    statements.fetch_add(1, Ordering::Relaxed);
    let _ = REQUEST_STATEMENTS.try_with(|n| n.set(n.get() + 1));
}

/// How to open the database.
#[derive(Clone, Debug)]
pub struct DbOptions {
    /// `sqlite://path` (created when missing) or `postgres://...`.
    pub url: String,
    /// Pool size; SQLite readers share it with the one writer at a time.
    pub max_connections: u32,
    /// The longest a statement may run (PostgreSQL `statement_timeout`); `None`: no limit.
    pub statement_timeout: Option<Duration>,
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
                let pool =
                    crate::sqlite::Pool::open(path, options.max_connections, statements.clone())?;
                let conn = crate::sqlite::shared(&pool).await?;
                (conn, Some(pool))
            }
            None => (Self::postgres(options, &statements).await?, None),
        };
        let schema = crate::notify::schema_of(&conn).await?;
        let db = Db {
            conn,
            sqlite,
            limit: options.statement_timeout,
            statements,
            instance: format!("{:016x}", rand::random::<u64>()).into(),
            schema: schema.into(),
        };
        crate::migration::run(&db).await?;
        Ok(db)
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
            .acquire_timeout(Duration::from_secs(30))
            // A ping before every checkout doubles the cost of a read.
            .test_before_acquire(false)
            .sqlx_logging(false);
        if let Some(t) = options.statement_timeout {
            let ms = t.as_millis().to_string();
            co.map_sqlx_postgres_opts(move |o| {
                o.options([
                    ("statement_timeout", ms.as_str()),
                    // A closed connection cancels its query (see `watch.rs`).
                    ("client_connection_check_interval", "1000"),
                ])
            });
        }
        let mut conn = Database::connect(co).await?;
        let counter = statements.clone();
        conn.set_metric_callback(move |_| counted(&counter));
        Ok(conn)
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
        crate::watch::Watched::acquire(self, self.limit, self.statements.clone()).await
    }

    /// The pool, for reads.
    pub fn conn(&self) -> &DatabaseConnection {
        &self.conn
    }

    pub fn backend(&self) -> DbBackend {
        self.conn.get_database_backend()
    }

    /// Runs `f` (one request) with its reads on SQLite in one read transaction
    /// (`crate::snapshot`); on PostgreSQL as it is.
    pub async fn reading<F: std::future::Future>(&self, f: F) -> F::Output {
        crate::snapshot::reading(self.sqlite.clone(), f).await
    }

    /// Runs `f` in one write transaction: committed with its event in the outbox
    /// (`crate::events`) when it returns `Ok`, rolled back (at once, releasing every lock)
    /// when it returns `Err`.
    pub async fn write<T, E, F>(&self, change: Change<'_>, f: F) -> Result<T, E>
    where
        F: AsyncFnOnce(&DatabaseTransaction) -> Result<T, E>,
        E: From<DbErr>,
    {
        self.transaction(Some(change), f).await
    }

    /// [`Db::write`] for state outside the repository (sessions): no event, so no cache
    /// drops anything for it.
    pub async fn write_untracked<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: AsyncFnOnce(&DatabaseTransaction) -> Result<T, E>,
        E: From<DbErr>,
    {
        self.transaction(None, f).await
    }

    async fn transaction<T, E, F>(&self, change: Option<Change<'_>>, f: F) -> Result<T, E>
    where
        F: AsyncFnOnce(&DatabaseTransaction) -> Result<T, E>,
        E: From<DbErr>,
    {
        // The request's reads after this write must see it; none is held while it waits.
        crate::snapshot::end();
        let out = self.transaction_in_turn(change, f).await;
        crate::snapshot::end();
        out
    }

    async fn transaction_in_turn<T, E, F>(&self, change: Option<Change<'_>>, f: F) -> Result<T, E>
    where
        F: AsyncFnOnce(&DatabaseTransaction) -> Result<T, E>,
        E: From<DbErr>,
    {
        let work = async |tx: &DatabaseTransaction| {
            let (out, mut named) = crate::events::naming(f(tx)).await;
            let v = out?;
            for s in std::mem::take(&mut named.last) {
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
            Ok(v)
        };
        // SQLite has one writer at a time: this process's writers queue in the pool, in
        // order, instead of polling in SQLite's busy handler (whose sleeps grow to hundreds of
        // milliseconds), and share a commit when they come one after another
        // (`sqlite/group.rs`). The busy timeout still covers writers of other processes.
        if let Some(pool) = &self.sqlite {
            return pool.write(work).await;
        }
        let tx = self.conn.begin().await?;
        match work(&tx).await {
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

    /// SQLite: the connections (searches take one of their own, `watch.rs`).
    pub(crate) fn sqlite_pool(&self) -> Option<&Arc<crate::sqlite::Pool>> {
        self.sqlite.as_ref()
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
