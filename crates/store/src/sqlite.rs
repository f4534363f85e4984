//! SQLite, run on the calling thread. sqlx runs each SQLite connection on a thread of its own
//! and crosses to it and back for every statement, which cost about 100 µs here against 3 µs
//! for the statement itself (`crates/bench/README.md`). This is a pool of rusqlite
//! connections whose statements run where they are called, behind sea-orm's proxy connection,
//! so that the services keep one code path for both databases.
//!
//! - [`shared`]: the pool as one connection, for reads; each statement takes an idle
//!   connection and gives it back, or, in a request, runs in the request's read transaction
//!   (`snapshot.rs`).
//! - [`Transaction`]: one connection held from `BEGIN` to `COMMIT`, for writes (`Db::write`)
//!   and migrations; its commit's failure is reported (the proxy's own commit cannot be).
//! - Rows: every integer is `i64` (the entities declare no narrower one; migration 16),
//!   `BOOLEAN` columns are `bool`, text is `String`, blobs are bytes. Each value is keyed by
//!   its column's name and by its position, since sea-orm reads models by name and tuples by
//!   position (its proxy row finds the n-th value in key order). The reads that take whole
//!   models have their rows decoded straight into them instead (`direct.rs`).
//! - Statements are prepared once per connection (an LRU of 256).
//! - A statement blocks the thread that runs it: those whose cost the caller decides
//!   (searches, `watch.rs`) run on the blocking pool instead.

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

/// How long a connection waits for another process's writer.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// How often the WAL is copied back into the database.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(250);

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
fn checkpoints(
    pool: std::sync::Weak<Pool>,
    writers: Arc<tokio::sync::Mutex<()>>,
) -> Result<(), DbErr> {
    let path = pool.upgrade().map(|p| p.path.clone()).unwrap_or_default();
    let c = Connection::open(&path).map_err(err)?;
    c.busy_timeout(RESTART_PATIENCE).map_err(err)?;
    let checkpoint = move |mode: &str| {
        // (busy, frames in the WAL, frames copied back)
        c.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |r| {
            r.get::<_, i64>(1)
        })
    };
    std::thread::Builder::new()
        .name("sqlite-checkpoint".into())
        .spawn(move || {
            while pool.strong_count() > 0 {
                std::thread::sleep(CHECKPOINT_EVERY);
                let done = match checkpoint("PASSIVE") {
                    Ok(frames) if frames > WAL_RESTART_FRAMES => {
                        let _turn = writers.blocking_lock();
                        checkpoint("RESTART")
                    }
                    other => other,
                };
                if let Err(e) = done {
                    tracing::warn!(error = %e, "the WAL checkpoint failed");
                }
            }
        })
        .map(|_| ())
        .map_err(|e| DbErr::Custom(format!("cannot start the checkpoint thread: {e}")))
}

/// Connections to one SQLite file, opened as needed up to a size.
pub struct Pool {
    path: String,
    idle: Mutex<Vec<Conn>>,
    permits: Arc<Semaphore>,
    /// Connections held by requests' read snapshots (`snapshot.rs`), counted apart: a request
    /// holding one never keeps a statement waiting for a connection.
    snapshots: Arc<Semaphore>,
    opened: AtomicU32,
    statements: Arc<AtomicU64>,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "sqlite::Pool({})", self.path)
    }
}

impl Pool {
    /// Opens the file `path` (created when missing) in WAL mode; at most `size` connections.
    /// `writers`: the queue this process's writers take their turn in, which a checkpoint that
    /// must wait for the writers joins.
    pub fn open(
        path: &str,
        size: u32,
        statements: Arc<AtomicU64>,
        writers: Arc<tokio::sync::Mutex<()>>,
    ) -> Result<Arc<Pool>, DbErr> {
        let pool = Arc::new(Pool {
            path: path.to_owned(),
            idle: Mutex::new(Vec::new()),
            permits: Arc::new(Semaphore::new(size.max(1) as usize)),
            snapshots: Arc::new(Semaphore::new(size.max(1) as usize)),
            opened: AtomicU32::new(0),
            statements,
        });
        let first = pool.connect()?;
        (first.db)
            .pragma_update(None, "journal_mode", "WAL")
            .map_err(err)?;
        pool.idle.lock().expect("pool lock").push(first);
        checkpoints(Arc::downgrade(&pool), writers)?;
        Ok(pool)
    }

    fn connect(&self) -> Result<Conn, DbErr> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI;
        let c = Connection::open_with_flags(&self.path, flags).map_err(err)?;
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
        self.opened.fetch_add(1, Ordering::Relaxed);
        Ok(Conn {
            db: c,
            shapes: Default::default(),
        })
    }

    /// A connection, once one is free.
    pub async fn get(self: &Arc<Self>) -> Result<Lease, DbErr> {
        let permit = (self.permits.clone().acquire_owned().await)
            .map_err(|_| DbErr::ConnectionAcquire(sea_orm::ConnAcquireErr::ConnectionClosed))?;
        let idle = self.idle.lock().expect("pool lock").pop();
        let conn = match idle {
            Some(c) => c,
            None => self.connect()?,
        };
        Ok(Lease {
            conn: Some(conn),
            pool: self.clone(),
            watched: false,
            _permit: permit,
        })
    }

    /// A connection in a read transaction (`BEGIN`; SQLite takes the snapshot at its first
    /// read), if one can be had without waiting.
    pub(crate) fn try_snapshot(self: &Arc<Self>) -> Option<Lease> {
        let permit = self.snapshots.clone().try_acquire_owned().ok()?;
        let idle = self.idle.lock().expect("pool lock").pop();
        let conn = match idle {
            Some(c) => c,
            None => self.connect().ok()?,
        };
        let lease = Lease {
            conn: Some(conn),
            pool: self.clone(),
            watched: false,
            _permit: permit,
        };
        lease.run_cached("BEGIN").ok()?;
        Some(lease)
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
    shapes: std::cell::RefCell<std::collections::HashMap<String, Arc<Shape>>>,
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
        let Some(c) = self.conn.take() else { return };
        if self.watched {
            let _ = c.db.progress_handler(0, None::<fn() -> bool>);
        }
        let rollback = || (c.db.prepare_cached("ROLLBACK")).and_then(|mut s| s.execute([]));
        if !c.db.is_autocommit() && rollback().is_err() {
            self.pool.opened.fetch_sub(1, Ordering::Relaxed);
            return;
        }
        self.pool.idle.lock().expect("pool lock").push(c);
    }
}

impl Lease {
    /// Whether it is a connection of `pool`.
    pub(crate) fn of(&self, pool: &Arc<Pool>) -> bool {
        Arc::ptr_eq(&self.pool, pool)
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

    /// Runs a statement that reads, its rows decoded by `decode` (`direct.rs`).
    pub(crate) fn decode(
        &self,
        s: &Statement,
        decode: crate::direct::Decode,
    ) -> Result<Box<dyn std::any::Any + Send>, DbErr> {
        self.rows(s, |rows, shape| decode(rows, &shape.columns).map_err(err))
    }

    /// Runs a statement that reads, and hands its rows to `f`.
    fn rows<T>(
        &self,
        s: &Statement,
        f: impl FnOnce(&mut rusqlite::Rows<'_>, &Shape) -> Result<T, DbErr>,
    ) -> Result<T, DbErr> {
        crate::db::counted(&self.pool.statements);
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
        crate::db::counted(&self.pool.statements);
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

    /// Runs a statement that writes (several, without values, as the migrations do).
    pub fn execute(&self, s: &Statement) -> Result<ProxyExecResult, DbErr> {
        crate::db::counted(&self.pool.statements);
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

fn params<'a>(
    (values, written): (&'a [Value], Vec<usize>),
) -> rusqlite::ParamsFromIter<impl Iterator<Item = Param<'a>>> {
    let bound = (values.iter().enumerate()).filter(move |(i, _)| !written.contains(i));
    rusqlite::params_from_iter(bound.map(|(_, v)| Param(v)))
}

/// The statement's text with every bound `LIMIT ?` written into it as the integer it is
/// bound to, and its values with the positions of those written, which are then not bound:
/// SQLite's planner reads a bound limit's value, so a statement whose limit is bound is
/// compiled again every time it runs (`sqlite3Reprepare`), which costs more than running it.
/// (sea-orm ends its statements with `LIMIT ?`, and pages have one.) Offsets stay bound.
fn limit_written(s: &Statement) -> (std::borrow::Cow<'_, str>, (&[Value], Vec<usize>)) {
    let values = s.values.as_ref().map_or(&[][..], |v| &v.0[..]);
    limits_written(&s.sql, values)
}

/// `s` with its bound limits written into its text and their values dropped: for statements
/// built once and run many times (`sql::Kept`, `sql::by_id`), so that no run rewrites them.
pub(crate) fn limits_fixed(s: Statement) -> Statement {
    let (sql, (values, written)) = limit_written(&s);
    if written.is_empty() {
        return s;
    }
    let kept = (values.iter().enumerate())
        .filter(|(i, _)| !written.contains(i))
        .map(|(_, v)| v.clone());
    Statement::from_sql_and_values(s.db_backend, sql.into_owned(), kept)
}

/// [`limit_written`] of a statement's text and values.
fn limits_written<'a>(
    text: &'a str,
    values: &'a [Value],
) -> (std::borrow::Cow<'a, str>, (&'a [Value], Vec<usize>)) {
    if !text.contains("LIMIT ?") {
        return (text.into(), (values, Vec::new()));
    }
    let mut sql = String::with_capacity(text.len() + 8);
    let mut written = Vec::new();
    let (mut n, mut quoted, mut from) = (0, false, 0);
    // Whole runs of text between quotes and placeholders are copied at once.
    for (at, c) in text.match_indices(['\'', '?']) {
        if c == "'" {
            quoted = !quoted;
            continue;
        }
        if quoted {
            continue;
        }
        let limit = match values.get(n) {
            Some(Value::BigInt(Some(v))) => Some(*v),
            Some(Value::BigUnsigned(Some(v))) => i64::try_from(*v).ok(),
            Some(Value::Int(Some(v))) => Some(i64::from(*v)),
            Some(Value::Unsigned(Some(v))) => Some(i64::from(*v)),
            _ => None,
        };
        n += 1;
        if let Some(limit) = limit.filter(|_| text[..at].ends_with("LIMIT ")) {
            sql.push_str(&text[from..at]);
            sql.push_str(&limit.to_string());
            written.push(n - 1);
            from = at + 1;
        }
    }
    sql.push_str(&text[from..]);
    (sql.into(), (values, written))
}

/// A value of a row, typed as the entities read it.
fn value(v: ValueRef<'_>, boolean: bool) -> Value {
    match v {
        ValueRef::Null => Value::BigInt(None),
        ValueRef::Integer(i) if boolean => Value::Bool(Some(i != 0)),
        ValueRef::Integer(i) => Value::BigInt(Some(i)),
        ValueRef::Real(f) => Value::Double(Some(f)),
        ValueRef::Text(t) => Value::String(Some(String::from_utf8_lossy(t).into_owned())),
        ValueRef::Blob(b) => Value::Bytes(Some(b.to_vec())),
    }
}

/// A sea-query value bound to a statement.
struct Param<'a>(&'a Value);

impl ToSql for Param<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        use rusqlite::types::Value as V;
        let int = |i: Option<i64>| i.map_or(V::Null, V::Integer);
        let owned = match self.0 {
            Value::String(Some(s)) => {
                return Ok(ToSqlOutput::Borrowed(ValueRef::Text(s.as_bytes())));
            }
            Value::Bytes(Some(b)) => return Ok(ToSqlOutput::Borrowed(ValueRef::Blob(b))),
            Value::Bool(b) => int(b.map(i64::from)),
            Value::TinyInt(i) => int(i.map(i64::from)),
            Value::SmallInt(i) => int(i.map(i64::from)),
            Value::Int(i) => int(i.map(i64::from)),
            Value::BigInt(i) => int(*i),
            Value::TinyUnsigned(i) => int(i.map(i64::from)),
            Value::SmallUnsigned(i) => int(i.map(i64::from)),
            Value::Unsigned(i) => int(i.map(i64::from)),
            Value::BigUnsigned(i) => int(i.map(|i| i as i64)),
            Value::Float(f) => f.map_or(V::Null, |f| V::Real(f.into())),
            Value::Double(f) => f.map_or(V::Null, V::Real),
            Value::Char(c) => c.map_or(V::Null, |c| V::Text(c.to_string())),
            Value::Json(j) => j.as_ref().map_or(V::Null, |j| V::Text(j.to_string())),
            Value::String(None) | Value::Bytes(None) => V::Null,
            other => {
                return Err(rusqlite::Error::ToSqlConversionFailure(
                    format!("cannot bind {other:?}").into(),
                ));
            }
        };
        Ok(ToSqlOutput::Owned(owned))
    }
}

/// A rusqlite error as sea-orm's (the text keeps SQLite's message, e.g. "UNIQUE constraint
/// failed", which `sql::unique_violation` looks for).
pub(crate) fn err(e: rusqlite::Error) -> DbErr {
    DbErr::Query(RuntimeErr::Internal(e.to_string()))
}

/// Runs a read for sea-orm: its rows decoded straight into the caller's type when it asked
/// for that (`direct.rs`; sea-orm then gets no rows), else as proxy rows.
fn read(lease: &Lease, s: &Statement) -> Result<Vec<ProxyRow>, DbErr> {
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

impl std::fmt::Debug for Lease {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "sqlite::Lease({})", self.pool.path)
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use sea_orm::ConnectionTrait;

    async fn pool(dir: &tempfile::TempDir) -> (Arc<Pool>, DatabaseConnection) {
        let path = dir.path().join("t.db");
        let pool = Pool::open(
            path.to_str().unwrap(),
            4,
            Default::default(),
            Default::default(),
        )
        .unwrap();
        let conn = shared(&pool).await.unwrap();
        conn.execute_unprepared(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, n BIGINT, b BOOLEAN, s TEXT, f REAL)",
        )
        .await
        .unwrap();
        (pool, conn)
    }

    /// Values come back as the entities read them, by name and by position.
    #[tokio::test]
    async fn rows_are_typed_and_keyed_by_name_and_position() {
        let dir = tempfile::tempdir().unwrap();
        let (_pool, conn) = pool(&dir).await;
        let insert = Statement::from_sql_and_values(
            DbBackend::Sqlite,
            "INSERT INTO t (n, b, s, f) VALUES (?, ?, ?, ?)",
            [5i64.into(), true.into(), "x".into(), 1.5f64.into()],
        );
        let done = conn.execute_raw(insert).await.unwrap();
        assert_eq!((done.last_insert_id(), done.rows_affected()), (1, 1));
        let row = conn
            .query_one_raw(Statement::from_string(
                DbBackend::Sqlite,
                "SELECT s, n, b, f, id, NULL AS z FROM t",
            ))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.try_get::<String>("", "s").unwrap(), "x");
        assert_eq!(row.try_get::<i64>("", "n").unwrap(), 5);
        assert!(row.try_get::<bool>("", "b").unwrap());
        assert_eq!(row.try_get::<f64>("", "f").unwrap(), 1.5);
        assert_eq!(row.try_get::<Option<String>>("", "z").unwrap(), None);
        assert_eq!(row.try_get_by_index::<String>(0).unwrap(), "x");
        assert_eq!(row.try_get_by_index::<i64>(4).unwrap(), 1);
    }

    /// A transaction dropped before its commit (a request that went away) leaves nothing
    /// behind, and its connection serves again; a committed one reports its commit.
    #[tokio::test]
    async fn a_dropped_transaction_rolls_back_and_gives_its_connection_back() {
        let dir = tempfile::tempdir().unwrap();
        let (pool, conn) = pool(&dir).await;
        let insert = || Statement::from_string(DbBackend::Sqlite, "INSERT INTO t (n) VALUES (1)");
        let (tx, t) = Transaction::begin(&pool, true).await.unwrap();
        tx.execute_raw(insert()).await.unwrap();
        drop(tx);
        drop(t);
        let count = "SELECT COUNT(*) AS c FROM t";
        let n = |conn: &DatabaseConnection| {
            let conn = conn.clone();
            async move {
                let row = conn
                    .query_one_raw(Statement::from_string(DbBackend::Sqlite, count))
                    .await
                    .unwrap()
                    .unwrap();
                row.try_get::<i64>("", "c").unwrap()
            }
        };
        assert_eq!(n(&conn).await, 0);
        let (open, idle) = pool.size();
        assert_eq!(open as usize, idle);
        let (tx, t) = Transaction::begin(&pool, true).await.unwrap();
        tx.execute_raw(insert()).await.unwrap();
        tx.commit().await.unwrap();
        t.committed().unwrap();
        assert_eq!(n(&conn).await, 1);
    }

    /// Commits leave their pages in the WAL; the checkpoint thread, not a commit, copies them
    /// into the database file soon after.
    #[tokio::test]
    async fn the_wal_is_copied_back_by_the_checkpoint_thread() {
        let dir = tempfile::tempdir().unwrap();
        let (pool, conn) = pool(&dir).await;
        let file = dir.path().join("t.db");
        std::thread::sleep(CHECKPOINT_EVERY * 3);
        let before = std::fs::metadata(&file).unwrap().len();
        let (tx, t) = Transaction::begin(&pool, true).await.unwrap();
        let rows = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 5000) \
                    INSERT INTO t (n, s) SELECT x, printf('%.200c', 'x') FROM n";
        tx.execute_unprepared(rows).await.unwrap();
        tx.commit().await.unwrap();
        t.committed().unwrap();
        assert_eq!(
            std::fs::metadata(&file).unwrap().len(),
            before,
            "the commit copied"
        );
        std::thread::sleep(CHECKPOINT_EVERY * 4);
        assert!(std::fs::metadata(&file).unwrap().len() > before + 1_000_000);
        drop(conn);
    }

    /// A statement with a bound limit is compiled once, not every time it runs; its other
    /// values stay bound in their places.
    #[tokio::test]
    async fn a_bound_limit_is_written_into_the_statement() {
        let dir = tempfile::tempdir().unwrap();
        let (pool, conn) = pool(&dir).await;
        for n in 1..=5i64 {
            let s = format!("INSERT INTO t (n, s) VALUES ({n}, 'a?')");
            conn.execute_unprepared(&s).await.unwrap();
        }
        let sql = "SELECT n FROM t WHERE s = 'a?' AND n > ? ORDER BY n LIMIT ? OFFSET ?";
        let page = |after: i64, limit: i64, offset: i64| {
            Statement::from_sql_and_values(
                DbBackend::Sqlite,
                sql,
                [after.into(), limit.into(), offset.into()],
            )
        };
        let lease = pool.get().await.unwrap();
        let first = lease.query(&page(1, 2, 1)).unwrap();
        let ns: Vec<i64> = (first.iter())
            .map(|r| match r.values.get("n") {
                Some(Value::BigInt(Some(n))) => *n,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(ns, [3, 4]);
        lease.query(&page(0, 2, 0)).unwrap();
        let again = page(0, 2, 0);
        let (text, (_, written)) = limit_written(&again);
        assert_eq!(written, [1]);
        assert_eq!(
            text,
            "SELECT n FROM t WHERE s = 'a?' AND n > ? ORDER BY n LIMIT 2 OFFSET ?"
        );
        let stmt = lease.prepare_cached(&text).unwrap();
        assert_eq!(stmt.get_status(rusqlite::StatementStatus::RePrepare), 0);
        // Written once into a statement kept built: its runs bind the rest.
        let fixed = limits_fixed(page(1, 2, 1));
        assert_eq!(fixed.sql, text);
        assert_eq!(
            fixed.values.map(|v| v.0),
            Some(vec![1i64.into(), 1i64.into()])
        );
    }
}
