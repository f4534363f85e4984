//! Connecting: SQLite (a file created when missing, WAL, a busy timeout, writes that begin
//! IMMEDIATE) or PostgreSQL (a sized pool), migrated at start-up.

use sea_orm::{
    ConnectOptions, Database, DatabaseConnection, DatabaseTransaction, DbBackend, DbErr,
    SqliteTransactionMode, TransactionOptions, TransactionTrait,
};
use sea_orm_migration::MigratorTrait;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The database: a connection pool, and how to start a write.
#[derive(Clone, Debug)]
pub struct Db {
    conn: DatabaseConnection,
    /// Statements run since start-up (tests count what an operation costs).
    statements: Arc<AtomicU64>,
    /// SQLite has one writer at a time: this process's writers queue here, in order, instead
    /// of polling in SQLite's busy handler (whose sleeps grow to hundreds of milliseconds).
    /// The busy timeout still covers writers of other processes.
    write_queue: Option<Arc<tokio::sync::Mutex<()>>>,
    /// This instance and the schema it works in, as notifications to the other instances
    /// name them (see `notify.rs`).
    pub(crate) instance: Arc<str>,
    pub(crate) schema: Arc<str>,
}

/// How to open the database.
#[derive(Clone, Debug)]
pub struct DbOptions {
    /// `sqlite://path` (created when missing) or `postgres://...`.
    pub url: String,
    /// Pool size; SQLite readers share it with the one writer at a time.
    pub max_connections: u32,
}

impl Db {
    /// Opens the database and applies pending migrations.
    pub async fn open(options: &DbOptions) -> Result<Db, DbErr> {
        let mut co = ConnectOptions::new(options.url.clone());
        co.max_connections(options.max_connections)
            .min_connections(1)
            .connect_timeout(Duration::from_secs(30))
            .acquire_timeout(Duration::from_secs(30))
            // A ping before every checkout doubles the cost of a read.
            .test_before_acquire(false)
            .sqlx_logging(false);
        if options.url.starts_with("sqlite:") {
            co.map_sqlx_sqlite_opts(|o| {
                o.create_if_missing(true)
                    .journal_mode(sea_orm::sqlx::sqlite::SqliteJournalMode::Wal)
                    .synchronous(sea_orm::sqlx::sqlite::SqliteSynchronous::Normal)
                    .busy_timeout(Duration::from_secs(10))
                    .foreign_keys(true)
            });
        }
        let mut conn = Database::connect(co).await?;
        let statements = Arc::new(AtomicU64::new(0));
        let counter = statements.clone();
        conn.set_metric_callback(move |_| {
            counter.fetch_add(1, Ordering::Relaxed);
        });
        crate::migration::Migrator::up(&conn, None).await?;
        let write_queue = (conn.get_database_backend() == DbBackend::Sqlite)
            .then(|| Arc::new(tokio::sync::Mutex::new(())));
        let schema = crate::notify::schema_of(&conn).await?;
        Ok(Db {
            conn,
            statements,
            write_queue,
            instance: format!("{:016x}", rand::random::<u64>()).into(),
            schema: schema.into(),
        })
    }

    /// Adds the languages (code, name) that are missing; ids continue the bit flags (2, 4, 8...).
    pub async fn ensure_languages(&self, languages: &[(String, String)]) -> Result<(), DbErr> {
        use crate::entity::language;
        use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};
        for (code, name) in languages {
            let known = language::Entity::find()
                .filter(language::Column::LanguageCode.eq(code.as_str()))
                .one(&self.conn)
                .await?;
            if known.is_some() {
                continue;
            }
            let max = language::Entity::find()
                .all(&self.conn)
                .await?
                .into_iter()
                .map(|l| l.id)
                .max()
                .unwrap_or(1);
            language::Entity::insert(language::ActiveModel {
                id: Set(max * 2),
                language_code: Set(code.clone()),
                name: Set(name.clone()),
                enabled: Set(true),
            })
            .exec(&self.conn)
            .await?;
        }
        Ok(())
    }

    /// How many statements have run so far.
    pub fn statements(&self) -> u64 {
        self.statements.load(Ordering::Relaxed)
    }

    /// The pool, for reads.
    pub fn conn(&self) -> &DatabaseConnection {
        &self.conn
    }

    pub fn backend(&self) -> DbBackend {
        self.conn.get_database_backend()
    }

    /// Runs `f` in one write transaction: committed when it returns `Ok`, rolled back (at once,
    /// releasing every lock) when it returns `Err`.
    pub async fn write<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: AsyncFnOnce(&DatabaseTransaction) -> Result<T, E>,
        E: From<DbErr>,
    {
        let _turn = match &self.write_queue {
            Some(q) => Some(q.lock().await),
            None => None,
        };
        let tx = self.begin_write().await?;
        match f(&tx).await {
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

    /// Begins a write transaction. On SQLite it takes the write lock at once (BEGIN
    /// IMMEDIATE), so a transaction that reads before it writes cannot fail to upgrade; other
    /// writers wait for the busy timeout.
    async fn begin_write(&self) -> Result<DatabaseTransaction, DbErr> {
        match self.backend() {
            DbBackend::Sqlite => {
                self.conn
                    .begin_with_options(TransactionOptions {
                        sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
                        ..Default::default()
                    })
                    .await
            }
            _ => self.conn.begin().await,
        }
    }
}
