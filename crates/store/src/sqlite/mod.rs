//! SQLite, run on the calling thread. sqlx runs each SQLite connection on a thread of its own
//! and crosses to it and back for every statement, which cost about 100 µs here against 3 µs
//! for the statement itself (`crates/bench/README.md`). This is a pool of rusqlite
//! connections whose statements run where they are called, behind sea-orm's proxy connection,
//! so that the services keep one code path for both databases.
//!
//! - [`shared`]: the pool as one connection, for reads; each statement takes an idle
//!   connection and gives it back. A request's reads run on its [`crate::Reader`] instead,
//!   in the request's read transaction (`snapshot.rs`), without sea-orm's connection.
//! - [`Pool::write`]: a write, in the transaction this process's writers share while they
//!   queue (`group.rs`), on one connection held from `BEGIN` to `COMMIT` ([`Transaction`]),
//!   whose failures are reported (the proxy's own commit cannot report one).
//! - Rows: every integer is `i64` (the entities declare no narrower one; migration 16),
//!   `BOOLEAN` columns are `bool`, text is `String`, blobs are bytes. Each value is keyed by
//!   its column's name and by its position, since sea-orm reads models by name and tuples by
//!   position (its proxy row finds the n-th value in key order). The reads that take whole
//!   models on a reader or a write's transaction have their rows decoded straight into them
//!   instead (`read::models`).
//! - A commit's WAL frames are written to the file with one write, not two a page
//!   (`gather.rs`, a VFS over SQLite's own).
//! - Statements are prepared once per connection (an LRU of 256).
//! - A statement blocks the thread that runs it: those whose cost the caller decides
//!   (searches, `watch.rs`) run on the blocking pool instead.
//! - [`Pool::close`]: a clean stop copies the WAL back and closes every connection, so that
//!   no `-wal` or `-shm` file is left beside the database.

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, OpenFlags, ToSql};
use sea_orm::{
    DatabaseConnection, DbBackend, DbErr, ProxyDatabaseTrait, ProxyExecResult, ProxyRow,
    RuntimeErr, Statement, Value,
};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::commits::{CommitMarks, Mark};

mod binding;
mod gather;
mod group;
mod proxy;
pub(crate) mod snapshot;
#[cfg(test)]
mod tests;

use binding::*;
pub(crate) use binding::{err, limits_fixed};
use group::Writers;
pub use proxy::{Transaction, shared};

/// How long a connection waits for another process's writer.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// How long [`Pool::get`] waits for a connection unless told otherwise.
const DEFAULT_PATIENCE: Duration = Duration::from_secs(30);

/// How often the WAL is copied back into the database.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(250);

/// How often the tables are looked at for the planner's statistics ([`Pool::optimize`]).
const OPTIMIZE_EVERY: Duration = Duration::from_secs(60);

/// WAL frames (pages) past which a checkpoint also waits for the writers, so that the next
/// one starts the WAL over: 16 MiB of 4 KiB pages.
const WAL_RESTART_FRAMES: i64 = 4096;

/// How long a checkpoint that waits for the writers (holding their queue) waits for the
/// readers of older states to finish; past it, it gives up until its next turn.
const RESTART_PATIENCE: Duration = Duration::from_millis(200);

/// The size the WAL's file is cut back to when it starts over (`journal_size_limit`).
const WAL_KEPT_BYTES: i64 = 64 << 20;

/// Copies the WAL back into the database every [`CHECKPOINT_EVERY`], on a thread and a
/// connection of its own, while the pool lives. SQLite's default does it in the commit that
/// takes the WAL past 1,000 pages, so one write in a dozen paid for copying (and syncing) the
/// pages of the others; here the copying does not hold up the writers, and a page written by
/// many commits in between is copied once. A passive checkpoint blocks no one, but while
/// writers keep appending it never catches up, and the WAL only starts over after one that
/// did: past [`WAL_RESTART_FRAMES`] the checkpoint waits for the writers (RESTART), so that the
/// next writer starts the WAL over, and cut back to [`WAL_KEPT_BYTES`] then. It takes its turn
/// in the writers' queue for that, since SQLite's busy handler would rarely find a moment
/// between this process's writers.
///
/// On the same thread, every [`OPTIMIZE_EVERY`], it brings the planner's statistics up to date
/// ([`Pool::optimize`]: the tables of 10,000 rows and more never analyzed, or twice as large
/// as when last analyzed, each read in part, in a few milliseconds). Without them SQLite takes
/// an equality on an index's first column for a selective one: with `contents_facets` (status
/// first), a view of 10 Locations by id read every published item of 100,000 (110 ms)
/// instead of the 10 rows. The statistics go into the database; the pool's connections,
/// which SQLite loads them into as they open, are opened again.
/// It ends when the pool is dropped or closed ([`Pool::close`]).
fn checkpoints(
    pool: std::sync::Weak<Pool>,
    writers: Arc<Writers>,
) -> Result<std::thread::JoinHandle<()>, DbErr> {
    let path = pool.upgrade().map(|p| p.path.clone()).unwrap_or_default();
    let c = Connection::open(&path).map_err(err)?;
    c.busy_timeout(RESTART_PATIENCE).map_err(err)?;
    let checkpoint = move |mode: &str| {
        // (busy, frames in the WAL, frames copied back)
        c.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |r| {
            r.get::<_, i64>(1)
        })
    };
    // The database's opening brings them up to date first (`Db::open`, after its migrations).
    let mut optimized = std::time::Instant::now();
    std::thread::Builder::new()
        .name("sqlite-checkpoint".into())
        .spawn(move || {
            loop {
                if optimized.elapsed() >= OPTIMIZE_EVERY
                    && let Some(pool) = pool.upgrade()
                {
                    if let Err(e) = pool.optimize() {
                        tracing::warn!(error = %e, "the planner's statistics failed");
                    }
                    optimized = std::time::Instant::now();
                }
                std::thread::sleep(CHECKPOINT_EVERY);
                if pool
                    .upgrade()
                    .is_none_or(|p| p.closing.load(Ordering::Acquire))
                {
                    break;
                }
                // An idle connection's read transaction of an older state keeps its frames
                // from being copied back and the WAL from starting over.
                if let Some(pool) = pool.upgrade() {
                    pool.end_kept_snapshots(false);
                }
                let done = match checkpoint("PASSIVE") {
                    Ok(frames) if frames > WAL_RESTART_FRAMES => {
                        match writers.blocking_turn() {
                            // RESTART waits for every reader of the WAL, a kept one too: none
                            // is kept until it is done.
                            Some(_turn) => pool.upgrade().map_or(Ok(frames), |pool| {
                                pool.keeping.store(false, Ordering::Release);
                                pool.end_kept_snapshots(true);
                                let done = checkpoint("RESTART");
                                pool.keeping.store(true, Ordering::Release);
                                done
                            }),
                            // A group's transaction is open: next time.
                            None => Ok(frames),
                        }
                    }
                    other => other,
                };
                if let Err(e) = done {
                    tracing::warn!(error = %e, "the WAL checkpoint failed");
                }
            }
        })
        .map_err(|e| DbErr::Custom(format!("cannot start the checkpoint thread: {e}")))
}

/// Rows past which a table's statistics are kept: below, SQLite's own assumptions (an index
/// narrows a search to a few rows) serve, and statistics taken of a small table would hold
/// once it has grown (a table of ten rows is read whole rather than through an index).
const ANALYZED_FROM: i64 = 10_000;

/// Analyzes each table of at least [`ANALYZED_FROM`] rows never analyzed, or twice as large as
/// when it last was, each read in part (`analysis_limit`); whether any was.
fn analyze_grown(c: &Connection) -> Result<bool, DbErr> {
    let analyzed: std::collections::HashMap<String, i64> = {
        let has_stats: i64 = c
            .query_row(
                "SELECT COUNT(*) FROM sqlite_master WHERE name = 'sqlite_stat1'",
                [],
                |r| r.get(0),
            )
            .map_err(err)?;
        if has_stats == 0 {
            Default::default()
        } else {
            let mut s = c
                .prepare("SELECT tbl, MAX(CAST(stat AS INTEGER)) FROM sqlite_stat1 GROUP BY tbl")
                .map_err(err)?;
            let rows = s
                .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
                .map_err(err)?;
            rows.collect::<Result<_, _>>().map_err(err)?
        }
    };
    let tables: Vec<String> = {
        let mut s = c
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
                 AND sql NOT LIKE 'CREATE VIRTUAL%' AND sql NOT LIKE '%WITHOUT ROWID%'",
            )
            .map_err(err)?;
        let rows = s.query_map([], |r| r.get(0)).map_err(err)?;
        rows.collect::<Result<_, _>>().map_err(err)?
    };
    let quoted = |t: &str| format!("\"{}\"", t.replace('"', "\"\""));
    let mut any = false;
    for t in tables {
        // The highest rowid: the rows, or near them, without counting them.
        let rows: i64 = c
            .query_row(
                &format!("SELECT COALESCE(MAX(rowid), 0) FROM {}", quoted(&t)),
                [],
                |r| r.get(0),
            )
            .map_err(err)?;
        let due = match analyzed.get(&t) {
            None => rows >= ANALYZED_FROM,
            Some(n) => rows >= ANALYZED_FROM && rows >= 2 * n,
        };
        if due {
            c.execute_batch(&format!(
                "PRAGMA analysis_limit = 1000; ANALYZE {}",
                quoted(&t)
            ))
            .map_err(err)?;
            any = true;
        }
    }
    Ok(any)
}

/// Connections to one SQLite file, opened as needed up to a size.
pub struct Pool {
    path: String,
    idle: Mutex<Vec<Conn>>,
    permits: Arc<Semaphore>,
    /// Connections held by requests' read snapshots (`snapshot.rs`), counted apart: a request
    /// holding one never keeps a statement waiting for a connection.
    snapshots: Arc<Semaphore>,
    /// The most connections open at once (the permits of each semaphore).
    size: u32,
    opened: AtomicU32,
    statements: Arc<AtomicU64>,
    /// This process's writers: their turns and their groups.
    writers: Arc<Writers>,
    /// The database's commit marks, when they can be read (`commits.rs`).
    marks: Option<CommitMarks>,
    /// Whether a request's read transaction may be kept after it (see [`Conn::snapshot`]).
    pub(crate) keeping: std::sync::atomic::AtomicBool,
    /// Set by [`Pool::close`]: the checkpoint thread ends.
    closing: std::sync::atomic::AtomicBool,
    /// How long, in milliseconds, [`Pool::get`] waits for a connection ([`Pool::wait_at_most`]).
    patience: AtomicU64,
    /// The most pages the database may grow to, set on every connection (0: SQLite's own
    /// limit); tests fill a disk with it ([`Pool::cap_size`]).
    most_pages: std::sync::atomic::AtomicI64,
    /// The checkpoint thread, joined by [`Pool::close`].
    checkpointer: Mutex<Option<std::thread::JoinHandle<()>>>,
    /// How many times [`Pool::optimize`] changed the planner's statistics: a connection
    /// opened before the last change is closed instead of used, since SQLite reads them only
    /// as a connection opens.
    stats: AtomicU64,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "sqlite::Pool({})", self.path)
    }
}

impl Pool {
    /// Opens the file `path` (created when missing) in WAL mode; at most `size` connections.
    pub fn open(path: &str, size: u32, statements: Arc<AtomicU64>) -> Result<Arc<Pool>, DbErr> {
        let mut pool = Pool {
            path: path.to_owned(),
            idle: Mutex::new(Vec::new()),
            permits: Arc::new(Semaphore::new(size.max(1) as usize)),
            snapshots: Arc::new(Semaphore::new(size.max(1) as usize)),
            size: size.max(1),
            opened: AtomicU32::new(0),
            statements,
            writers: Default::default(),
            marks: None,
            keeping: true.into(),
            closing: false.into(),
            patience: AtomicU64::new(DEFAULT_PATIENCE.as_millis() as u64),
            most_pages: 0.into(),
            checkpointer: Mutex::new(None),
            stats: AtomicU64::new(0),
        };
        let first = pool.connect()?;
        (first.db)
            .pragma_update(None, "journal_mode", "WAL")
            .map_err(err)?;
        pool.marks = CommitMarks::open(path);
        let pool = Arc::new(pool);
        pool.idle.lock().expect("pool lock").push(first);
        let checkpointer = checkpoints(Arc::downgrade(&pool), pool.writers.clone())?;
        *pool.checkpointer.lock().expect("pool lock") = Some(checkpointer);
        Ok(pool)
    }

    /// Closes the pool for good, as a clean shutdown does: waits (up to `patience`) for the
    /// connections in use to come back, copies the whole WAL back into the database
    /// (`wal_checkpoint(TRUNCATE)`) and closes every connection, so that SQLite, closing the
    /// last one, removes the `-wal` and `-shm` files. Whether every connection was closed
    /// (one still in use after `patience` is left to the process's exit, and the files with
    /// it; SQLite recovers from them at the next start).
    pub async fn close(&self, patience: Duration) -> Result<bool, DbErr> {
        self.keeping.store(false, Ordering::Release);
        self.closing.store(true, Ordering::Release);
        // Holding every permit, no connection is in use (kept until the end).
        let all = async {
            let a = self.permits.acquire_many(self.size).await;
            (a, self.snapshots.acquire_many(self.size).await)
        };
        let held = tokio::time::timeout(patience, all).await;
        let returned = matches!(held, Ok((Ok(_), Ok(_))));
        self.permits.close();
        self.snapshots.close();
        let checkpointer = self.checkpointer.lock().expect("pool lock").take();
        if let Some(thread) = checkpointer {
            // It ends within one of its pauses.
            let _ = tokio::task::spawn_blocking(move || thread.join()).await;
        }
        let idle = std::mem::take(&mut *self.idle.lock().expect("pool lock"));
        self.opened.fetch_sub(idle.len() as u32, Ordering::Relaxed);
        drop(idle);
        let last = self.connect()?;
        last.db
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .map_err(err)?;
        if let Some(marks) = &self.marks {
            marks.release();
        }
        drop(last);
        self.opened.fetch_sub(1, Ordering::Relaxed);
        drop(held);
        Ok(returned)
    }

    /// Brings the planner's statistics up to date (see [`checkpoints`]) on a connection of its
    /// own, in the writers' turn (ANALYZE writes them); nothing while a group's transaction is
    /// open. Blocks the thread.
    pub fn optimize(&self) -> Result<(), DbErr> {
        let Some(_turn) = self.writers.blocking_turn() else {
            return Ok(());
        };
        let c = self.connect()?;
        let done = analyze_grown(&c.db);
        drop(c);
        self.opened.fetch_sub(1, Ordering::Relaxed);
        if done? {
            self.stats.fetch_add(1, Ordering::AcqRel);
        }
        Ok(())
    }

    fn connect(&self) -> Result<Conn, DbErr> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI;
        let vfs = gather::register()
            .map_err(|rc| DbErr::Custom(format!("cannot register SQLite's VFS: error {rc}")))?;
        let c = Connection::open_with_flags_and_vfs(&self.path, flags, vfs).map_err(err)?;
        c.busy_timeout(BUSY_TIMEOUT).map_err(err)?;
        c.pragma_update(None, "synchronous", "NORMAL")
            .map_err(err)?;
        c.pragma_update(None, "foreign_keys", "ON").map_err(err)?;
        // Statement journals (a statement's undo inside a transaction) stay in memory
        // instead of spilling to temporary files.
        c.pragma_update(None, "temp_store", "MEMORY").map_err(err)?;
        // The WAL is copied back by `checkpoints`, not by the commit that crosses 1,000 pages.
        c.pragma_update(None, "wal_autocheckpoint", 0)
            .map_err(err)?;
        c.pragma_update(None, "journal_size_limit", WAL_KEPT_BYTES)
            .map_err(err)?;
        c.set_prepared_statement_cache_capacity(256);
        let most_pages = self.most_pages.load(Ordering::Relaxed);
        if most_pages > 0 {
            c.pragma_update(None, "max_page_count", most_pages)
                .map_err(err)?;
        }
        self.opened.fetch_add(1, Ordering::Relaxed);
        Ok(Conn {
            db: c,
            shapes: Default::default(),
            snapshot: None,
            stats: self.stats.load(Ordering::Acquire),
        })
    }

    /// Runs `work` as a write and answers once it has committed (`group.rs`).
    pub async fn write<T, E: From<DbErr>>(
        self: &Arc<Self>,
        work: impl AsyncFnOnce(&crate::Tx) -> Result<T, E>,
    ) -> Result<T, E> {
        self.writers.write(self, work).await
    }

    /// Caps the database at the size it has now (`capped`), as a full disk would, or lifts
    /// the cap: `PRAGMA max_page_count` on every connection, idle or opened later (call it
    /// while none is in use). A write that needs more room fails with `SQLITE_FULL`.
    #[cfg(any(test, feature = "testing"))]
    pub fn cap_size(&self, capped: bool) -> Result<(), DbErr> {
        // SQLite's own limit, 2^32 - 2 pages.
        const NO_CAP: i64 = 4_294_967_294;
        let idle = self.idle.lock().expect("pool lock");
        let first = idle
            .first()
            .ok_or_else(|| DbErr::Custom("no idle connection".into()))?;
        let pages: i64 = if capped {
            (first.db)
                .query_row("PRAGMA page_count", [], |r| r.get(0))
                .map_err(err)?
        } else {
            NO_CAP
        };
        for c in idle.iter() {
            c.db.pragma_update(None, "max_page_count", pages)
                .map_err(err)?;
        }
        self.most_pages.store(pages, Ordering::Relaxed);
        Ok(())
    }

    /// Commits of writes since the pool opened.
    pub fn commits(&self) -> u64 {
        self.writers.commits()
    }

    /// How long [`Pool::get`] waits for a connection before it gives up (30 s unless set).
    pub fn wait_at_most(&self, patience: Duration) {
        (self.patience).store(patience.as_millis() as u64, Ordering::Relaxed);
    }

    /// A connection, once one is free, outside any transaction; a timeout once every one
    /// stayed in use for the pool's patience ([`Pool::wait_at_most`]).
    pub async fn get(self: &Arc<Self>) -> Result<Lease, DbErr> {
        use sea_orm::ConnAcquireErr;
        // A free connection is taken without a timer.
        let permit = match self.permits.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                let patience = Duration::from_millis(self.patience.load(Ordering::Relaxed));
                let waited = self.permits.clone().acquire_owned();
                match tokio::time::timeout(patience, waited).await {
                    Ok(Ok(permit)) => permit,
                    Ok(Err(_)) => {
                        return Err(DbErr::ConnectionAcquire(ConnAcquireErr::ConnectionClosed));
                    }
                    Err(_) => return Err(DbErr::ConnectionAcquire(ConnAcquireErr::Timeout)),
                }
            }
        };
        Ok(Lease {
            conn: Some(self.idle_or_new(None)?),
            pool: self.clone(),
            watched: false,
            _permit: permit,
        })
    }

    /// A connection in a read transaction, if one can be had without waiting: an idle one's
    /// kept since a commit mark that is still now's (nothing committed since, in any process:
    /// its snapshot is the latest), else a new one (`BEGIN`; SQLite takes the snapshot at
    /// its first read) under the mark taken before it.
    pub(crate) fn try_snapshot(self: &Arc<Self>) -> Option<Lease> {
        let permit = self.snapshots.clone().try_acquire_owned().ok()?;
        let mark = self.mark();
        let conn = self.idle_or_new(mark.as_ref()).ok()?;
        let kept = conn.snapshot.is_some();
        let mut lease = Lease {
            conn: Some(conn),
            pool: self.clone(),
            watched: false,
            _permit: permit,
        };
        if !kept {
            lease.run_cached("BEGIN").ok()?;
            lease.conn.as_mut()?.snapshot = mark;
        }
        Some(lease)
    }

    /// An idle connection (or a new one) outside any transaction, or in a read transaction
    /// kept since `current`; a transaction kept since another mark is ended.
    fn idle_or_new(&self, current: Option<&Mark>) -> Result<Conn, DbErr> {
        loop {
            let idle = self.idle.lock().expect("pool lock").pop();
            let Some(mut c) = idle else {
                return self.connect();
            };
            if c.stats != self.stats.load(Ordering::Acquire) {
                // Opened before the statistics changed: closed.
                drop(c);
                self.opened.fetch_sub(1, Ordering::Relaxed);
                continue;
            }
            if c.snapshot.is_none() || c.snapshot.as_ref() == current {
                return Ok(c);
            }
            if c.end_snapshot() {
                return Ok(c);
            }
            self.opened.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// The commit mark now (`commits.rs`), when it can be read.
    pub(crate) fn mark(&self) -> Option<Mark> {
        self.marks.as_ref()?.current()
    }

    /// Idle connections keeping a read transaction.
    #[cfg(test)]
    pub(crate) fn kept_snapshots(&self) -> usize {
        let idle = self.idle.lock().expect("pool lock");
        idle.iter().filter(|c| c.snapshot.is_some()).count()
    }

    /// Ends the read transactions idle connections keep since a commit mark that is past, or
    /// (`all`) every one.
    pub(crate) fn end_kept_snapshots(&self, all: bool) {
        let current = if all { None } else { self.mark() };
        let is_stale = |c: &Conn| c.snapshot.is_some() && c.snapshot != current;
        let stale: Vec<Conn> = {
            let mut idle = self.idle.lock().expect("pool lock");
            if !idle.iter().any(is_stale) {
                return;
            }
            let (stale, fresh) = std::mem::take(&mut *idle).into_iter().partition(is_stale);
            *idle = fresh;
            stale
        };
        for mut c in stale {
            if c.end_snapshot() {
                self.idle.lock().expect("pool lock").push(c);
            } else {
                self.opened.fetch_sub(1, Ordering::Relaxed);
            }
        }
    }

    /// Connections: (open, idle).
    pub fn size(&self) -> (u32, usize) {
        let idle = self.idle.lock().expect("pool lock").len();
        (self.opened.load(Ordering::Relaxed), idle)
    }
}

/// A connection, and the shapes of the rows of the statements it ran, by their text.
struct Conn {
    db: Connection,
    shapes: std::cell::RefCell<
        std::collections::HashMap<String, Arc<Shape>, xxhash_rust::xxh3::Xxh3DefaultBuilder>,
    >,
    /// The commit mark taken before its open read transaction began: kept idle while no
    /// commit has changed it, that transaction reads the latest state, and a request's
    /// snapshot takes it as it is, without ending one and beginning another (their locks in
    /// the WAL-index, system calls and a process-wide mutex, were a tenth of an uncached
    /// read's time).
    snapshot: Option<Mark>,
    /// The planner's statistics it read as it opened ([`Pool::stats`]).
    stats: u64,
}

impl Conn {
    /// Ends its transaction, if one is open; whether it can be used again.
    fn end_snapshot(&mut self) -> bool {
        self.snapshot = None;
        let rollback = || (self.db.prepare_cached("ROLLBACK")).and_then(|mut s| s.execute([]));
        self.db.is_autocommit() || rollback().is_ok()
    }
}

/// Statements whose row shapes a connection keeps (past it, it forgets them all).
const SHAPES_KEPT: usize = 512;

/// What a statement's rows are made of: each column's keys (its position, sorting before
/// every name, and its name) in key order, with the column each is of; each column's name;
/// and whether each column is `BOOLEAN`.
struct Shape {
    keys: Vec<(String, usize)>,
    columns: Vec<String>,
    bools: Vec<bool>,
}

impl Shape {
    fn of(stmt: &rusqlite::Statement<'_>) -> Shape {
        let columns = stmt.columns();
        // "\0" is below any character of a name. Of columns with one name, the last counts
        // (a stable sort keeps them in order, and a map built from sorted keys keeps the last).
        let mut keys: Vec<(String, usize)> = (columns.iter().enumerate())
            .flat_map(|(i, c)| [(format!("\0{i:04}"), i), (c.name().to_owned(), i)])
            .collect();
        keys.sort_by(|a, b| a.0.cmp(&b.0));
        Shape {
            keys,
            columns: columns.iter().map(|c| c.name().to_owned()).collect(),
            bools: (columns.iter())
                .map(|c| (c.decl_type()).is_some_and(|t| t.eq_ignore_ascii_case("BOOLEAN")))
                .collect(),
        }
    }
}

/// A connection taken from the pool; given back when dropped (rolled back first if a
/// transaction is still open, closed if even that fails).
pub struct Lease {
    conn: Option<Conn>,
    pool: Arc<Pool>,
    /// A progress handler is set (`watch.rs`).
    watched: bool,
    _permit: OwnedSemaphorePermit,
}

impl std::ops::Deref for Lease {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        &self.conn.as_ref().expect("a lease holds its connection").db
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let Some(mut c) = self.conn.take() else {
            return;
        };
        // A closed pool keeps no connection: this one closes (the last removes the WAL).
        if self.pool.closing.load(Ordering::Acquire) {
            self.pool.opened.fetch_sub(1, Ordering::Relaxed);
            return;
        }
        if self.watched {
            let _ = c.db.progress_handler(0, None::<fn() -> bool>);
        }
        // A snapshot that only read, still open, with nothing committed since it began, is
        // kept (an error may have ended its transaction).
        let kept = c.snapshot.is_some()
            && !c.db.is_autocommit()
            && self.pool.keeping.load(Ordering::Acquire)
            && c.snapshot == self.pool.mark()
            && (c.db.transaction_state(None::<&str>))
                .is_ok_and(|s| s != rusqlite::TransactionState::Write);
        if !kept && !c.end_snapshot() {
            self.pool.opened.fetch_sub(1, Ordering::Relaxed);
            return;
        }
        self.pool.idle.lock().expect("pool lock").push(c);
    }
}

impl Lease {
    /// Its read transaction, if any, is not kept when it is given back.
    pub(crate) fn forget_snapshot(&mut self) {
        if let Some(c) = self.conn.as_mut() {
            c.snapshot = None;
        }
    }

    /// Runs a statement without values or rows (`BEGIN`), prepared once.
    fn run_cached(&self, sql: &str) -> rusqlite::Result<usize> {
        self.prepare_cached(sql)?.execute([])
    }

    /// Runs a statement that reads, and returns its rows.
    pub fn query(&self, s: &Statement) -> Result<Vec<ProxyRow>, DbErr> {
        self.rows(s, |rows, shape| {
            let mut out = Vec::new();
            let mut columns = Vec::with_capacity(shape.bools.len());
            while let Some(row) = rows.next().map_err(err)? {
                columns.clear();
                for (i, boolean) in shape.bools.iter().enumerate() {
                    columns.push(value(row.get_ref(i).map_err(err)?, *boolean));
                }
                // Built from keys in order: no search per key.
                let values: BTreeMap<String, Value> = (shape.keys.iter())
                    .map(|(key, i)| (key.clone(), columns[*i].clone()))
                    .collect();
                out.push(ProxyRow { values });
            }
            Ok(out)
        })
    }

    /// Runs a statement that reads, its rows decoded by `decode` (`read::models`).
    pub(crate) fn decode(
        &self,
        s: &Statement,
        decode: crate::rows::Decode,
    ) -> Result<Box<dyn std::any::Any + Send>, DbErr> {
        self.rows(s, |rows, shape| decode(rows, &shape.columns).map_err(err))
    }

    /// Runs a statement that reads, and hands its rows to `f`.
    fn rows<T>(
        &self,
        s: &Statement,
        f: impl FnOnce(&mut rusqlite::Rows<'_>, &Shape) -> Result<T, DbErr>,
    ) -> Result<T, DbErr> {
        crate::statements::counted(&self.pool.statements);
        let (sql, values) = limit_written(s);
        let mut stmt = self.prepare_cached(&sql).map_err(err)?;
        let shape = self.shape(&sql, &stmt);
        let mut rows = stmt.query(params(values)).map_err(err)?;
        f(&mut rows, &shape)
    }

    /// The shape of the rows of the statement `sql`, read from it once.
    fn shape(&self, sql: &str, stmt: &rusqlite::Statement<'_>) -> Arc<Shape> {
        let conn = self.conn.as_ref().expect("a lease holds its connection");
        let mut shapes = conn.shapes.borrow_mut();
        if let Some(s) = shapes.get(sql) {
            return s.clone();
        }
        if shapes.len() >= SHAPES_KEPT {
            shapes.clear();
        }
        let s = Arc::new(Shape::of(stmt));
        shapes.insert(sql.to_owned(), s.clone());
        s
    }

    /// Sets a progress handler, called every `every` instructions, that interrupts the
    /// statement when it returns `true`; dropped when the connection goes back.
    pub fn watch(
        &mut self,
        every: i32,
        handler: impl FnMut() -> bool + Send + 'static,
    ) -> Result<(), DbErr> {
        self.progress_handler(every, Some(handler)).map_err(err)?;
        self.watched = true;
        Ok(())
    }

    /// Runs a statement and returns each row's first column as an integer and its second,
    /// when there is one, as a float (`watch.rs`).
    pub fn numbers(&self, sql: &str, values: &[Value]) -> Result<Vec<(i64, f64)>, DbErr> {
        crate::statements::counted(&self.pool.statements);
        let (sql, values) = limits_written(sql, values);
        let mut stmt = self.prepare_cached(&sql).map_err(err)?;
        let two = stmt.column_count() > 1;
        let rows = stmt.query_map(params(values), |r| {
            Ok((
                r.get::<_, i64>(0)?,
                if two { r.get::<_, f64>(1)? } else { 0.0 },
            ))
        });
        rows.and_then(|rows| rows.collect()).map_err(err)
    }

    /// Runs a statement and returns its rows, every column as a [`crate::rows::Cell`].
    pub fn cells(&self, sql: &str, values: &[Value]) -> Result<Vec<Vec<crate::rows::Cell>>, DbErr> {
        use crate::rows::Cell;
        crate::statements::counted(&self.pool.statements);
        let (sql, values) = limits_written(sql, values);
        let mut stmt = self.prepare_cached(&sql).map_err(err)?;
        let n = stmt.column_count();
        let rows = stmt.query_map(params(values), |r| {
            (0..n)
                .map(|i| {
                    Ok(match r.get_ref(i)? {
                        ValueRef::Null => Cell::Null,
                        ValueRef::Integer(i) => Cell::Int(i),
                        ValueRef::Real(f) => Cell::Float(f),
                        ValueRef::Text(t) | ValueRef::Blob(t) => {
                            Cell::Text(String::from_utf8_lossy(t).into_owned())
                        }
                    })
                })
                .collect()
        });
        rows.and_then(|rows| rows.collect()).map_err(err)
    }

    /// Runs a statement that writes (several, without values, as the migrations do).
    pub fn execute(&self, s: &Statement) -> Result<ProxyExecResult, DbErr> {
        crate::statements::counted(&self.pool.statements);
        match &s.values {
            None => self.execute_batch(&s.sql).map_err(err)?,
            Some(_) => {
                let (sql, values) = limit_written(s);
                let mut stmt = self.prepare_cached(&sql).map_err(err)?;
                let mut rows = stmt.query(params(values)).map_err(err)?;
                while rows.next().map_err(err)?.is_some() {}
            }
        }
        Ok(ProxyExecResult {
            last_insert_id: self.last_insert_rowid() as u64,
            rows_affected: self.changes(),
        })
    }
}

impl std::fmt::Debug for Lease {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "sqlite::Lease({})", self.pool.path)
    }
}
