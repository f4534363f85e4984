//! The pool behind sea-orm's proxy connection: [`shared`] for reads, [`Transaction`] for
//! writes and migrations.

use super::*;

/// The pool as one connection: each statement on whichever connection is idle. It has no
/// transactions (they need [`Transaction`]).
#[derive(Debug)]
struct Shared(Arc<Pool>);

#[async_trait::async_trait]
impl ProxyDatabaseTrait for Shared {
    async fn query(&self, s: Statement) -> Result<Vec<ProxyRow>, DbErr> {
        self.0.get().await?.query(&s)
    }

    async fn execute(&self, s: Statement) -> Result<ProxyExecResult, DbErr> {
        self.0.get().await?.execute(&s)
    }

    async fn begin(&self) {
        tracing::error!("a transaction was begun on the shared SQLite pool; use Db::write");
    }
}

/// The pool as a sea-orm connection, for reads outside a request's [`crate::Reader`].
pub async fn shared(pool: &Arc<Pool>) -> Result<DatabaseConnection, DbErr> {
    let proxy = Arc::new(Box::new(Shared(pool.clone())) as Box<dyn ProxyDatabaseTrait>);
    sea_orm::Database::connect_proxy(DbBackend::Sqlite, proxy).await
}

/// One connection held for a transaction: begun (`BEGIN IMMEDIATE` for writes) before sea-orm
/// sees it, handed to sea-orm in parts (`group.rs`), committed by [`Transaction::commit`].
#[derive(Debug)]
pub struct Transaction {
    lease: Mutex<Option<Lease>>,
    /// What the last part's commit (a savepoint's release) gave, which sea-orm's proxy
    /// cannot return.
    committed: Mutex<Option<Result<(), DbErr>>>,
}

impl Transaction {
    /// Begins a transaction (`BEGIN`, or `BEGIN IMMEDIATE` to take the write lock at once)
    /// that [`Self::part`] hands out in parts and [`Self::commit`] ends.
    pub(crate) async fn open(pool: &Arc<Pool>, immediate: bool) -> Result<Arc<Self>, DbErr> {
        let lease = pool.get().await?;
        let sql = if immediate {
            "BEGIN IMMEDIATE"
        } else {
            "BEGIN"
        };
        // Waits (blocking) only for another process's writer, up to the busy timeout.
        lease.execute_batch(sql).map_err(err)?;
        Ok(Arc::new(Transaction {
            lease: Mutex::new(Some(lease)),
            committed: Mutex::new(None),
        }))
    }

    /// One part of the transaction as sea-orm's: the first (`nested` false) is the
    /// transaction itself up to its commit, which sea-orm's commit leaves to
    /// [`Self::commit`] and whose rollback rolls back the whole; a later one is a savepoint,
    /// released by sea-orm's commit, rolled back alone by its rollback.
    pub(crate) async fn part(
        self: &Arc<Self>,
        nested: bool,
    ) -> Result<sea_orm::DatabaseTransaction, DbErr> {
        if !nested {
            return self.as_sea_orm(Scope::First).await;
        }
        self.with(|l| l.execute_batch("SAVEPOINT cairn_part").map_err(err))?;
        self.as_sea_orm(Scope::Savepoint).await
    }

    /// Commits the transaction (its parts released before) and gives the connection back;
    /// an error if it has ended already (a part's rollback that failed rolled back the whole).
    pub(crate) fn commit(&self) -> Result<(), DbErr> {
        if !self.is_open() {
            return Err(group::abandoned());
        }
        self.end("COMMIT")
    }

    /// Whether the transaction is still open.
    pub(crate) fn is_open(&self) -> bool {
        self.lease.lock().expect("lease lock").is_some()
    }

    async fn as_sea_orm(
        self: &Arc<Self>,
        scope: Scope,
    ) -> Result<sea_orm::DatabaseTransaction, DbErr> {
        use sea_orm::TransactionTrait;
        let proxy = Held {
            t: self.clone(),
            scope,
        };
        let conn =
            sea_orm::Database::connect_proxy(DbBackend::Sqlite, Arc::new(Box::new(proxy))).await?;
        conn.begin().await
    }

    /// What the last part's commit gave; an error if sea-orm never committed it.
    pub(crate) fn committed(&self) -> Result<(), DbErr> {
        (self.committed.lock().expect("commit lock").take())
            .unwrap_or_else(|| Err(DbErr::Custom("the transaction was not committed".into())))
    }

    /// Runs `f` on its connection; an error once it has ended.
    pub(crate) fn with<T>(&self, f: impl FnOnce(&Lease) -> Result<T, DbErr>) -> Result<T, DbErr> {
        match self.lease.lock().expect("lease lock").as_ref() {
            Some(l) => f(l),
            None => Err(DbErr::Custom("the transaction has ended".into())),
        }
    }

    /// Ends the transaction: `COMMIT` or `ROLLBACK`, and gives the connection back; after a
    /// commit, the read transactions idle connections kept of the state before it end too.
    fn end(&self, sql: &str) -> Result<(), DbErr> {
        let lease = self.lease.lock().expect("lease lock").take();
        let Some(l) = lease else { return Ok(()) };
        let done = l.execute_batch(sql).map_err(err);
        let pool = l.pool.clone();
        drop(l);
        if sql == "COMMIT" {
            pool.end_kept_snapshots(false);
        }
        done
    }
}

/// What a sea-orm transaction over a [`Transaction`] commits and rolls back.
#[derive(Debug, Clone, Copy)]
enum Scope {
    /// The transaction up to its commit, which is left to [`Transaction::commit`].
    First,
    /// A savepoint in it.
    Savepoint,
}

impl Scope {
    fn commit(self) -> Option<&'static str> {
        match self {
            Scope::First => None,
            Scope::Savepoint => Some("RELEASE cairn_part"),
        }
    }

    fn rollback(self) -> &'static str {
        match self {
            Scope::First => "ROLLBACK",
            Scope::Savepoint => "ROLLBACK TO cairn_part; RELEASE cairn_part",
        }
    }
}

/// A [`Transaction`], or a part of it, as sea-orm's proxy sees it.
#[derive(Debug)]
struct Held {
    t: Arc<Transaction>,
    scope: Scope,
}

impl Held {
    /// Runs `sql` to end this scope; the whole transaction's end gives the connection back.
    fn end(&self, sql: &str) -> Result<(), DbErr> {
        match self.scope {
            Scope::Savepoint => self.t.with(|l| l.execute_batch(sql).map_err(err)),
            Scope::First => self.t.end(sql),
        }
    }
}

#[async_trait::async_trait]
impl ProxyDatabaseTrait for Held {
    async fn query(&self, s: Statement) -> Result<Vec<ProxyRow>, DbErr> {
        self.t.with(|l| l.query(&s))
    }

    async fn execute(&self, s: Statement) -> Result<ProxyExecResult, DbErr> {
        self.t.with(|l| l.execute(&s))
    }

    async fn commit(&self) {
        let outcome = match self.scope.commit() {
            Some(sql) => self.end(sql),
            None => Ok(()),
        };
        *self.t.committed.lock().expect("commit lock") = Some(outcome);
    }

    async fn rollback(&self) {
        if let Err(e) = self.end(self.scope.rollback()) {
            tracing::warn!(error = %e, "rollback failed");
            // A savepoint that could not be rolled back leaves the transaction unusable.
            let _ = self.t.end("ROLLBACK");
        }
    }

    fn start_rollback(&self) {
        if self.end(self.scope.rollback()).is_err() {
            let _ = self.t.end("ROLLBACK");
        }
    }
}
