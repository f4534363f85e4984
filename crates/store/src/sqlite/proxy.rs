//! The pool behind sea-orm's proxy connection: [`shared`] for reads, [`Transaction`] for
//! writes and migrations.

use super::*;

/// Runs a read for sea-orm: its rows decoded straight into the caller's type when it asked
/// for that (`direct.rs`; sea-orm then gets no rows), else as proxy rows.
pub(super) fn read(lease: &Lease, s: &Statement) -> Result<Vec<ProxyRow>, DbErr> {
    match crate::direct::take() {
        Some(decode) => {
            crate::direct::answer(lease.decode(s, decode)?);
            Ok(Vec::new())
        }
        None => lease.query(s),
    }
}

/// The pool as one connection: each statement on whichever connection is idle. It has no
/// transactions (they need [`Transaction`]).
#[derive(Debug)]
struct Shared(Arc<Pool>);

#[async_trait::async_trait]
impl ProxyDatabaseTrait for Shared {
    async fn query(&self, s: Statement) -> Result<Vec<ProxyRow>, DbErr> {
        if let Some(rows) = crate::snapshot::with(&self.0, |l| read(l, &s)) {
            return rows;
        }
        read(&self.0.get().await?, &s)
    }

    async fn execute(&self, s: Statement) -> Result<ProxyExecResult, DbErr> {
        // A write outside a transaction: the request's later reads must see it.
        crate::snapshot::end();
        let done = self.0.get().await?.execute(&s);
        crate::snapshot::end();
        done
    }

    async fn begin(&self) {
        tracing::error!("a transaction was begun on the shared SQLite pool; use Db::write");
    }
}

/// The pool as a sea-orm connection, for reads.
pub async fn shared(pool: &Arc<Pool>) -> Result<DatabaseConnection, DbErr> {
    sea_orm::Database::connect_proxy(DbBackend::Sqlite, Arc::new(Box::new(Shared(pool.clone()))))
        .await
}

/// One connection held for a transaction: begun (`BEGIN IMMEDIATE` for writes) before sea-orm
/// sees it, committed by sea-orm's commit, which records the outcome here.
#[derive(Debug)]
pub struct Transaction {
    lease: Mutex<Option<Lease>>,
    committed: Mutex<Option<Result<(), DbErr>>>,
}

impl Transaction {
    /// Begins a transaction on a connection of `pool` and returns it as sea-orm's.
    pub async fn begin(
        pool: &Arc<Pool>,
        immediate: bool,
    ) -> Result<(sea_orm::DatabaseTransaction, Arc<Transaction>), DbErr> {
        use sea_orm::TransactionTrait;
        let lease = pool.get().await?;
        let sql = if immediate {
            "BEGIN IMMEDIATE"
        } else {
            "BEGIN"
        };
        // Waits (blocking) only for another process's writer, up to the busy timeout.
        lease.execute_batch(sql).map_err(err)?;
        let t = Arc::new(Transaction {
            lease: Mutex::new(Some(lease)),
            committed: Mutex::new(None),
        });
        let conn = sea_orm::Database::connect_proxy(
            DbBackend::Sqlite,
            Arc::new(Box::new(Held(t.clone()))),
        )
        .await?;
        Ok((conn.begin().await?, t))
    }

    /// What the commit gave; an error if sea-orm never committed.
    pub fn committed(&self) -> Result<(), DbErr> {
        (self.committed.lock().expect("commit lock").take())
            .unwrap_or_else(|| Err(DbErr::Custom("the transaction was not committed".into())))
    }

    fn with<T>(&self, f: impl FnOnce(&Lease) -> Result<T, DbErr>) -> Result<T, DbErr> {
        match self.lease.lock().expect("lease lock").as_ref() {
            Some(l) => f(l),
            None => Err(DbErr::Custom("the transaction has ended".into())),
        }
    }

    /// Ends the transaction: `COMMIT` or `ROLLBACK`, and gives the connection back.
    fn end(&self, sql: &str) -> Result<(), DbErr> {
        let lease = self.lease.lock().expect("lease lock").take();
        match lease {
            Some(l) => l.execute_batch(sql).map_err(err),
            None => Ok(()),
        }
    }
}

/// A [`Transaction`] as sea-orm's proxy sees it.
#[derive(Debug)]
struct Held(Arc<Transaction>);

#[async_trait::async_trait]
impl ProxyDatabaseTrait for Held {
    async fn query(&self, s: Statement) -> Result<Vec<ProxyRow>, DbErr> {
        self.0.with(|l| read(l, &s))
    }

    async fn execute(&self, s: Statement) -> Result<ProxyExecResult, DbErr> {
        self.0.with(|l| l.execute(&s))
    }

    async fn commit(&self) {
        let outcome = self.0.end("COMMIT");
        *self.0.committed.lock().expect("commit lock") = Some(outcome);
    }

    async fn rollback(&self) {
        if let Err(e) = self.0.end("ROLLBACK") {
            tracing::warn!(error = %e, "rollback failed");
        }
    }

    fn start_rollback(&self) {
        let _ = self.0.end("ROLLBACK");
    }
}
