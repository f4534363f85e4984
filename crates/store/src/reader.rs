//! A request's reads as a value ([`Reader`]): the connection it reads on (on SQLite the
//! request's snapshot, `sqlite/snapshot.rs`) and the statements it has run. The app makes one
//! per request and hands it to whatever reads; a write whose `Change` names it ends its
//! snapshot around the transaction and adds the transaction's statements to its count.
//! Queries take it as any sea-orm connection.

use crate::Db;
use crate::rows::Decode;
use crate::sqlite::snapshot::Snapshot;
use sea_orm::{ConnectionTrait, DbBackend, DbErr, ExecResult, ProxyRow, QueryResult, Statement};
use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// One request's (or one command's) reads of the database.
#[derive(Debug)]
pub struct Reader {
    db: Db,
    /// SQLite, for a request: its read transaction.
    snapshot: Option<Snapshot>,
    /// Statements run for it (its reads, and the writes that name it).
    statements: Arc<AtomicU64>,
}

impl Db {
    /// A request's reader: on SQLite its reads run in one read transaction, until
    /// [`Reader::finish`].
    pub fn reader(&self) -> Reader {
        Reader {
            db: self.clone(),
            snapshot: self.sqlite.clone().map(Snapshot::new),
            statements: Arc::default(),
        }
    }

    /// A reader whose every statement reads the latest state (no snapshot): for work that
    /// is not one request (commands, background tasks).
    pub fn plain_reader(&self) -> Reader {
        Reader {
            snapshot: None,
            ..self.reader()
        }
    }
}

impl Reader {
    /// The database it reads.
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Statements run for it so far.
    pub fn statements(&self) -> u64 {
        self.statements.load(Ordering::Relaxed)
    }

    /// The request is over: its snapshot's connection goes back to the pool (later reads
    /// take a connection each); the statements it ran.
    pub fn finish(&self) -> u64 {
        if let Some(s) = &self.snapshot {
            s.finish();
        }
        self.statements()
    }

    /// Ends its snapshot: its next read sees what was committed since (a write's own).
    pub(crate) fn end_snapshot(&self) {
        if let Some(s) = &self.snapshot {
            s.end();
        }
    }

    /// Counts `n` statements run for it.
    pub(crate) fn count(&self, n: u64) {
        self.statements.fetch_add(n, Ordering::Relaxed);
    }

    /// A connection for one search (`Db::watched`), its statements counted here too.
    pub async fn watched(&self) -> Result<crate::watch::Watched, DbErr> {
        let mut w = self.db.watched().await?;
        w.count_for(self.statements.clone());
        Ok(w)
    }

    /// SQLite: runs `f` on the snapshot's connection, or else on an idle one; none on
    /// PostgreSQL.
    async fn on_sqlite<T>(
        &self,
        f: impl FnOnce(&crate::sqlite::Lease) -> Result<T, DbErr>,
    ) -> Option<Result<T, DbErr>> {
        let pool = self.db.sqlite.as_ref()?;
        self.count(1);
        let mut f = Some(f);
        if let Some(s) = &self.snapshot
            && let Some(out) = s.with(|l| f.take().map(|f| f(l)))
        {
            return out;
        }
        let f = f?;
        Some(match pool.get().await {
            Ok(lease) => f(&lease),
            Err(e) => Err(e),
        })
    }

    /// SQLite: the rows of `s` decoded by `decode` (`read::models`); none on PostgreSQL.
    pub(crate) async fn decoded(
        &self,
        s: &Statement,
        decode: Decode,
    ) -> Option<Result<Box<dyn Any + Send>, DbErr>> {
        #[cfg(test)]
        if self.snapshot.is_some() {
            crate::read::SHARED_READS.with(|n| n.set(n.get() + 1));
        }
        self.on_sqlite(|l| l.decode(s, decode)).await
    }

    /// SQLite: runs a write outside a transaction; the snapshot ends before and after it, so
    /// that the request's later reads see it.
    async fn write_sqlite(&self, s: Statement) -> Option<Result<ExecResult, DbErr>> {
        let pool = self.db.sqlite.as_ref()?;
        self.count(1);
        self.end_snapshot();
        let done = match pool.get().await {
            Ok(lease) => lease.execute(&s).map(ExecResult::from),
            Err(e) => Err(e),
        };
        self.end_snapshot();
        Some(done)
    }

    async fn rows(&self, s: &Statement) -> Option<Result<Vec<ProxyRow>, DbErr>> {
        self.on_sqlite(|l| l.query(s)).await
    }
}

#[async_trait::async_trait]
impl ConnectionTrait for Reader {
    fn get_database_backend(&self) -> DbBackend {
        self.db.backend()
    }

    async fn execute_raw(&self, s: Statement) -> Result<ExecResult, DbErr> {
        if self.db.sqlite.is_some() {
            return self.write_sqlite(s).await.unwrap_or_else(no_pool);
        }
        self.count(1);
        self.db.conn().execute_raw(s).await
    }

    async fn execute_unprepared(&self, sql: &str) -> Result<ExecResult, DbErr> {
        if self.db.sqlite.is_some() {
            let s = Statement::from_string(DbBackend::Sqlite, sql);
            return self.write_sqlite(s).await.unwrap_or_else(no_pool);
        }
        self.count(1);
        self.db.conn().execute_unprepared(sql).await
    }

    async fn query_one_raw(&self, s: Statement) -> Result<Option<QueryResult>, DbErr> {
        if let Some(rows) = self.rows(&s).await {
            return Ok(rows?.into_iter().next().map(QueryResult::from));
        }
        self.count(1);
        self.db.conn().query_one_raw(s).await
    }

    async fn query_all_raw(&self, s: Statement) -> Result<Vec<QueryResult>, DbErr> {
        if let Some(rows) = self.rows(&s).await {
            return Ok(rows?.into_iter().map(QueryResult::from).collect());
        }
        self.count(1);
        self.db.conn().query_all_raw(s).await
    }

    fn support_returning(&self) -> bool {
        self.db.conn().support_returning()
    }
}

/// What a SQLite statement answers when the pool is gone (it never is while a `Db` lives).
fn no_pool<T>() -> Result<T, DbErr> {
    Err(DbErr::Custom("the SQLite pool is gone".into()))
}
