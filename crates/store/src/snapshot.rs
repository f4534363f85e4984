//! SQLite: a request's reads in one read transaction. Each statement outside a transaction
//! is a read transaction of its own, and beginning one takes a lock in the WAL-index (system
//! calls and a process-wide mutex): a fifth of the time of an uncached Location read, whose
//! three statements took three. Inside [`reading`], the task's first read begins a
//! transaction on a connection kept for it, and its later reads run there: one lock, and one
//! consistent snapshot for everything the request reads.
//!
//! The snapshot ends where the request could otherwise miss its own change: before and after
//! each write transaction (`Db::write`) and each write outside one. Connections for
//! snapshots are counted apart from the pool's ([`Pool::try_snapshot`]); when none is free,
//! statements take an idle connection each, as outside [`reading`]. PostgreSQL is untouched.
//!
//! A snapshot that only read is kept on its connection after the request while the commit
//! mark (`commits.rs`: any commit of any process changes it) is the one taken before it
//! began: its state is still the latest, and the next request reads in it as it is, without
//! the locks of ending one transaction and beginning another (`sqlite::Conn::snapshot`).

use crate::sqlite::{Lease, Pool};
use std::cell::RefCell;
use std::sync::Arc;

tokio::task_local! {
    /// The connection holding the current task's read transaction, once it has read.
    static SNAPSHOT: RefCell<Option<Lease>>;
}

/// Runs `f` (one request) with its reads in one read transaction; the transaction ends, and
/// its connection goes back to the pool, when `f` does.
pub async fn reading<F: std::future::Future>(f: F) -> F::Output {
    SNAPSHOT.scope(RefCell::new(None), f).await
}

/// Runs `f` on the task's snapshot connection of `pool` (begun now if the task has none);
/// none outside [`reading`], on another pool's task, or when no connection is free.
pub(crate) fn with<T>(pool: &Arc<Pool>, f: impl FnOnce(&Lease) -> T) -> Option<T> {
    SNAPSHOT
        .try_with(|held| {
            let mut held = held.try_borrow_mut().ok()?;
            if held.is_none() {
                *held = pool.try_snapshot();
            }
            held.as_ref().filter(|l| l.of(pool)).map(f)
        })
        .ok()
        .flatten()
}

/// Ends the task's snapshot (its next read begins a new one). Called around writes, whose
/// commit makes it stale: it is not kept.
pub(crate) fn end() {
    let _ = SNAPSHOT.try_with(|held| {
        if let Ok(mut held) = held.try_borrow_mut()
            && let Some(mut lease) = held.take()
        {
            lease.forget_snapshot();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::Change;
    use crate::{Db, DbOptions};
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

    /// Inside `reading`, another connection's commit is not seen, the request's own writes
    /// (in a transaction or not) are; its connection goes back to the pool at the end.
    #[tokio::test]
    async fn a_request_reads_one_snapshot_and_sees_its_own_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let db = open(&path).await;
        let c = db.conn();
        let other = rusqlite::Connection::open(&path).unwrap();
        let count = async || {
            let sql = "SELECT count(*) AS n FROM t";
            let row = c.query_one_raw(Statement::from_string(DbBackend::Sqlite, sql));
            row.await.unwrap().unwrap().try_get::<i64>("", "n").unwrap()
        };
        reading(async {
            assert_eq!(count().await, 0);
            other.execute("INSERT INTO t VALUES (1)", []).unwrap();
            assert_eq!(count().await, 0, "the request's snapshot");
            let change = Change::by_server("test", "/t");
            db.write(change, async |tx| {
                tx.execute_unprepared("INSERT INTO t VALUES (2)").await
            })
            .await
            .unwrap();
            assert_eq!(count().await, 2, "its write in a transaction");
            c.execute_unprepared("INSERT INTO t VALUES (3)")
                .await
                .unwrap();
            assert_eq!(count().await, 3, "its write outside one");
        })
        .await;
        other.execute("INSERT INTO t VALUES (4)", []).unwrap();
        assert_eq!(count().await, 4, "outside a request");
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
        let c = db.conn();
        let other = rusqlite::Connection::open(&path).unwrap();
        let count = async || {
            reading(async {
                let sql = "SELECT count(*) AS n FROM t";
                let row = c.query_one_raw(Statement::from_string(DbBackend::Sqlite, sql));
                row.await.unwrap().unwrap().try_get::<i64>("", "n").unwrap()
            })
            .await
        };
        assert_eq!(count().await, 0);
        assert_eq!(pool.kept_snapshots(), 1, "kept after the request");
        assert_eq!(count().await, 0);
        assert_eq!(pool.kept_snapshots(), 1, "taken again, and kept again");
        other.execute("INSERT INTO t VALUES (1)", []).unwrap();
        assert_eq!(count().await, 1, "another process's commit is read");
        assert_eq!(pool.kept_snapshots(), 1);
        let change = Change::by_server("test", "/t");
        db.write(change, async |tx| {
            tx.execute_unprepared("INSERT INTO t VALUES (2)").await
        })
        .await
        .unwrap();
        assert_eq!(pool.kept_snapshots(), 0, "a commit ends the kept snapshots");
        assert_eq!(count().await, 2, "a write of this process is read");
        assert_eq!(pool.kept_snapshots(), 1);
        other.execute("INSERT INTO t VALUES (3)", []).unwrap();
        pool.end_kept_snapshots(false);
        assert_eq!(pool.kept_snapshots(), 0, "a past snapshot is ended");
        assert_eq!(count().await, 3);
        pool.end_kept_snapshots(true);
        assert_eq!(pool.kept_snapshots(), 0, "every kept snapshot is ended");
        pool.keeping
            .store(false, std::sync::atomic::Ordering::Release);
        assert_eq!(count().await, 3);
        assert_eq!(
            pool.kept_snapshots(),
            0,
            "none is kept while a checkpoint restarts"
        );
        let (open, idle) = db.pool_use();
        assert_eq!(open as usize, idle, "every connection is back");
    }
}
