//! SQLite: a request's reads in one read transaction. Each statement outside a transaction
//! is a read transaction of its own, and beginning one takes a lock in the WAL-index (system
//! calls and a process-wide mutex): a fifth of the time of an uncached Location read, whose
//! three statements took three. A request's [`crate::Reader`] holds a [`Snapshot`]: its first
//! read begins a transaction on a connection kept for it, and its later reads run there: one
//! lock, and one consistent snapshot for everything the request reads.
//!
//! The snapshot ends where the request could otherwise miss its own change: before and after
//! each write transaction whose `Change` names the reader (`Db::write`) and each write the
//! reader runs outside one. Connections for snapshots are counted apart from the pool's
//! ([`Pool::try_snapshot`]); when none is free, statements take an idle connection each, as
//! a reader without a snapshot does. PostgreSQL has none.
//!
//! A snapshot that only read is kept on its connection after the request while the commit
//! mark (`commits.rs`: any commit of any process changes it) is the one taken before it
//! began: its state is still the latest, and the next request reads in it as it is, without
//! the locks of ending one transaction and beginning another (`sqlite::Conn::snapshot`).

use crate::sqlite::{Lease, Pool};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

/// One request's read transaction on `pool`: the connection holding it, once it has read.
pub(crate) struct Snapshot {
    pool: Arc<Pool>,
    held: Mutex<Option<Lease>>,
    /// Set when the request is over ([`Snapshot::finish`]): no new one begins.
    finished: AtomicBool,
}

impl Snapshot {
    pub(crate) fn new(pool: Arc<Pool>) -> Snapshot {
        Snapshot {
            pool,
            held: Mutex::new(None),
            finished: AtomicBool::new(false),
        }
    }

    /// Runs `f` on the snapshot's connection (begun now if there is none); none once the
    /// request is over, while the connection is in use, or when no connection is free.
    pub(crate) fn with<T>(&self, f: impl FnOnce(&Lease) -> T) -> Option<T> {
        if self.finished.load(Ordering::Acquire) {
            return None;
        }
        let mut held = match self.held.try_lock() {
            Ok(held) => held,
            // Nothing panics while holding it; a poisoned lock holds a whole lease or none.
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) => return None,
        };
        if held.is_none() {
            *held = self.pool.try_snapshot();
        }
        held.as_ref().map(f)
    }

    /// Ends the snapshot (the next read begins a new one). Called around writes, whose
    /// commit makes it stale: it is not kept.
    pub(crate) fn end(&self) {
        if let Some(mut lease) = self.held().take() {
            lease.forget_snapshot();
        }
    }

    /// The request is over: its connection goes back to the pool (its read transaction kept
    /// there if it only read), and later reads take a connection each.
    pub(crate) fn finish(&self) {
        self.finished.store(true, Ordering::Release);
        drop(self.held().take());
    }

    fn held(&self) -> MutexGuard<'_, Option<Lease>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Snapshot({:?})", self.pool)
    }
}

#[cfg(test)]
mod tests {
    use crate::events::Change;
    use crate::{Db, DbOptions, Reader};
    use sea_orm::{ConnectionTrait, DbBackend, Statement};

    /// A database in the SQLite file `path`, with a table `t`.
    async fn open(path: &std::path::Path) -> Db {
        let db = Db::open(&DbOptions {
            url: format!("sqlite://{}", path.display()),
            max_connections: 4,
            statement_timeout: None,
        })
        .await
        .unwrap();
        let create = db.conn().execute_unprepared("CREATE TABLE t (n INTEGER)");
        create.await.unwrap();
        db
    }

    async fn count(r: &Reader) -> i64 {
        let sql = "SELECT count(*) AS n FROM t";
        let row = r.query_one_raw(Statement::from_string(DbBackend::Sqlite, sql));
        row.await.unwrap().unwrap().try_get::<i64>("", "n").unwrap()
    }

    /// A request's reader does not see another connection's commit, and sees the request's
    /// own writes (in a transaction that names it, or its own outside one); its connection
    /// goes back to the pool when it finishes.
    #[tokio::test]
    async fn a_request_reads_one_snapshot_and_sees_its_own_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let db = open(&path).await;
        let other = rusqlite::Connection::open(&path).unwrap();
        let r = db.reader();
        assert_eq!(count(&r).await, 0);
        other.execute("INSERT INTO t VALUES (1)", []).unwrap();
        assert_eq!(count(&r).await, 0, "the request's snapshot");
        let change = Change {
            reader: Some(&r),
            ..Change::by_server("test", "/t")
        };
        db.write(change, async |tx| {
            tx.execute_unprepared("INSERT INTO t VALUES (2)").await
        })
        .await
        .unwrap();
        assert_eq!(count(&r).await, 2, "its write in a transaction");
        r.execute_unprepared("INSERT INTO t VALUES (3)")
            .await
            .unwrap();
        assert_eq!(count(&r).await, 3, "its write outside one");
        assert_eq!(r.finish(), 7, "its statements, the write's included");
        other.execute("INSERT INTO t VALUES (4)", []).unwrap();
        assert_eq!(count(&r).await, 4, "after the request");
        assert_eq!(count(&db.plain_reader()).await, 4, "outside a request");
        let (open, idle) = db.pool_use();
        assert_eq!(open as usize, idle, "every connection is back");
    }

    /// A request's read transaction is kept after it while nothing commits, and the next
    /// request reads in it as it is; once anything commits (another process's write
    /// included), the next request reads a new one, and the checkpoints end the old ones.
    #[tokio::test]
    async fn a_kept_snapshot_serves_later_requests_until_a_commit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let db = open(&path).await;
        let pool = db.sqlite.clone().unwrap();
        let other = rusqlite::Connection::open(&path).unwrap();
        let request = async || {
            let r = db.reader();
            let n = count(&r).await;
            r.finish();
            n
        };
        assert_eq!(request().await, 0);
        assert_eq!(pool.kept_snapshots(), 1, "kept after the request");
        assert_eq!(request().await, 0);
        assert_eq!(pool.kept_snapshots(), 1, "taken again, and kept again");
        other.execute("INSERT INTO t VALUES (1)", []).unwrap();
        assert_eq!(request().await, 1, "another process's commit is read");
        assert_eq!(pool.kept_snapshots(), 1);
        let change = Change::by_server("test", "/t");
        db.write(change, async |tx| {
            tx.execute_unprepared("INSERT INTO t VALUES (2)").await
        })
        .await
        .unwrap();
        assert_eq!(pool.kept_snapshots(), 0, "a commit ends the kept snapshots");
        assert_eq!(request().await, 2, "a write of this process is read");
        assert_eq!(pool.kept_snapshots(), 1);
        other.execute("INSERT INTO t VALUES (3)", []).unwrap();
        pool.end_kept_snapshots(false);
        assert_eq!(pool.kept_snapshots(), 0, "a past snapshot is ended");
        assert_eq!(request().await, 3);
        pool.end_kept_snapshots(true);
        assert_eq!(pool.kept_snapshots(), 0, "every kept snapshot is ended");
        pool.keeping
            .store(false, std::sync::atomic::Ordering::Release);
        assert_eq!(request().await, 3);
        assert_eq!(
            pool.kept_snapshots(),
            0,
            "none is kept while a checkpoint restarts"
        );
        let (open, idle) = db.pool_use();
        assert_eq!(open as usize, idle, "every connection is back");
    }

    crate::from_row! {
        #[derive(Debug, sea_orm::FromQueryResult)]
        struct Count {
            n: i64,
        }
    }

    async fn counted(db: &impl crate::Connection) -> i64 {
        let sql = "SELECT count(*) AS n FROM t";
        let s = Statement::from_string(DbBackend::Sqlite, sql);
        crate::read::models::<Count>(db, s).await.unwrap()[0].n
    }

    /// Models read on a request's reader run in its snapshot directly (not through sea-orm's
    /// connection); another database's reader reads its own; a transaction's reads see the
    /// transaction's writes.
    #[tokio::test]
    async fn models_read_the_snapshot_of_their_own_reader() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.db"), dir.path().join("b.db"));
        let (db, db_b) = (open(&a).await, open(&b).await);
        let other = rusqlite::Connection::open(&a).unwrap();
        rusqlite::Connection::open(&b)
            .unwrap()
            .execute("INSERT INTO t VALUES (1), (2)", [])
            .unwrap();
        let direct = || crate::read::SHARED_READS.with(std::cell::Cell::get);
        let (r, r_b) = (db.reader(), db_b.reader());
        assert_eq!(counted(&r).await, 0);
        assert_eq!(direct(), 1, "read in the snapshot directly");
        other.execute("INSERT INTO t VALUES (1)", []).unwrap();
        assert_eq!(counted(&r).await, 0, "the request's snapshot");
        assert_eq!(counted(&r_b).await, 2, "the other database's rows");
        assert_eq!(
            counted(db.conn()).await,
            1,
            "sea-orm's connection reads the latest"
        );
        let change = Change {
            reader: Some(&r),
            ..Change::by_server("test", "/t")
        };
        let in_tx = db.write(change, async |tx| {
            tx.execute_unprepared("INSERT INTO t VALUES (2)").await?;
            Ok::<_, sea_orm::DbErr>(counted(tx).await)
        });
        assert_eq!(in_tx.await.unwrap(), 2, "the transaction's own write");
        assert_eq!(counted(&r).await, 2, "a new snapshot after the write");
        r.finish();
        r_b.finish();
    }
}
