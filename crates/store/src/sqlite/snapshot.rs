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
use sea_orm::DatabaseConnection;
use std::cell::RefCell;
use std::sync::Arc;

/// What a request's task holds: the SQLite pool it reads (none on PostgreSQL), and the
/// connection holding its read transaction, once it has read.
struct Held {
    pool: Option<Arc<Pool>>,
    lease: Option<Lease>,
}

tokio::task_local! {
    static SNAPSHOT: RefCell<Held>;
}

/// Runs `f` (one request) with its reads of `pool` in one read transaction; the transaction
/// ends, and its connection goes back to the pool, when `f` does.
pub(crate) async fn reading<F: std::future::Future>(pool: Option<Arc<Pool>>, f: F) -> F::Output {
    SNAPSHOT
        .scope(RefCell::new(Held { pool, lease: None }), f)
        .await
}

/// Runs `f` on the task's snapshot connection of `pool` (begun now if the task has none);
/// none outside [`reading`], on another pool's task, or when no connection is free.
pub(crate) fn with<T>(pool: &Arc<Pool>, f: impl FnOnce(&Lease) -> T) -> Option<T> {
    SNAPSHOT
        .try_with(|held| on(&mut held.try_borrow_mut().ok()?.lease, pool, f))
        .ok()
        .flatten()
}

/// [`with`] for sea-orm's connection `conn`, when it is the shared connection of the pool the
/// task reads: its statement then runs here, without sea-orm's connection in between.
pub(crate) fn with_shared<T>(conn: &DatabaseConnection, f: impl FnOnce(&Lease) -> T) -> Option<T> {
    SNAPSHOT
        .try_with(|held| {
            let mut held = held.try_borrow_mut().ok()?;
            let Held { pool, lease } = &mut *held;
            on(lease, pool.as_ref().filter(|p| p.serves(conn))?, f)
        })
        .ok()
        .flatten()
}

/// Runs `f` on `lease`, begun on `pool` if there is none; none if it is another pool's.
fn on<T>(lease: &mut Option<Lease>, pool: &Arc<Pool>, f: impl FnOnce(&Lease) -> T) -> Option<T> {
    if lease.is_none() {
        *lease = pool.try_snapshot();
    }
    lease.as_ref().filter(|l| l.of(pool)).map(f)
}

/// Ends the task's snapshot (its next read begins a new one). Called around writes, whose
/// commit makes it stale: it is not kept.
pub(crate) fn end() {
    let _ = SNAPSHOT.try_with(|held| {
        if let Ok(mut held) = held.try_borrow_mut()
            && let Some(mut lease) = held.lease.take()
        {
            lease.forget_snapshot();
        }
    });
}

#[cfg(test)]
mod tests {
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
        db.reading(async {
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
            db.reading(async {
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

    /// Models read on the pool's connection run in the request's snapshot directly (not
    /// through sea-orm's connection); a transaction's reads and another database's do not.
    #[tokio::test]
    async fn models_read_the_snapshot_of_their_own_connection() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.db"), dir.path().join("b.db"));
        let (db, db_b) = (open(&a).await, open(&b).await);
        let other = rusqlite::Connection::open(&a).unwrap();
        rusqlite::Connection::open(&b)
            .unwrap()
            .execute("INSERT INTO t VALUES (1), (2)", [])
            .unwrap();
        let direct = || crate::read::SHARED_READS.with(std::cell::Cell::get);
        db.reading(async {
            assert_eq!(counted(db.conn()).await, 0);
            assert_eq!(direct(), 1, "read in the snapshot directly");
            other.execute("INSERT INTO t VALUES (1)", []).unwrap();
            assert_eq!(counted(db.conn()).await, 0, "the request's snapshot");
            assert_eq!(counted(db_b.conn()).await, 2, "the other database's rows");
            assert_eq!(direct(), 2, "not the other database's read");
            let change = Change::by_server("test", "/t");
            let in_tx = db.write(change, async |tx| {
                tx.execute_unprepared("INSERT INTO t VALUES (2)").await?;
                Ok::<_, sea_orm::DbErr>(counted(tx).await)
            });
            assert_eq!(in_tx.await.unwrap(), 2, "the transaction's own write");
            assert_eq!(direct(), 2, "not the transaction's read");
            assert_eq!(
                counted(db.conn()).await,
                2,
                "a new snapshot after the write"
            );
        })
        .await;
    }
}
