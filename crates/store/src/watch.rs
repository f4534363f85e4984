//! Bounds on running statements.
//!
//! - **Time limit.** PostgreSQL has `statement_timeout` on every statement. On SQLite the
//!   statements whose cost the caller decides, those of searches, run on a connection of
//!   their own ([`Watched`]), on the blocking pool (not the thread of other requests), whose
//!   progress handler interrupts one past the limit; the caller gets an "interrupted" error. (Other statements are bounded by paging and indexes; a
//!   handler on every connection would also stop the long writes of large subtrees.)
//! - **Clients that go.** When the request of a watched connection is dropped before the
//!   search ends (the client disconnected), the connection is closed instead of going back to
//!   the pool. On SQLite the handler sees the request gone and interrupts the statement, and
//!   the connection goes back.
//!   PostgreSQL notices the closed socket within a second (`client_connection_check_interval`)
//!   and cancels the query.

use crate::rows::Cell;
use crate::sql::placeholders;
use sea_orm::sqlx::pool::PoolConnection;
use sea_orm::sqlx::{self, Postgres, Row};
use sea_orm::{DbBackend, DbErr, Value};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Binds a sea-orm value to an sqlx query.
macro_rules! bind {
    ($q:expr, $v:expr) => {
        match $v {
            Value::Bool(b) => $q.bind(b),
            Value::TinyInt(i) => $q.bind(i.map(i64::from)),
            Value::SmallInt(i) => $q.bind(i.map(i64::from)),
            Value::Int(i) => $q.bind(i.map(i64::from)),
            Value::BigInt(i) => $q.bind(i),
            Value::TinyUnsigned(i) => $q.bind(i.map(i64::from)),
            Value::SmallUnsigned(i) => $q.bind(i.map(i64::from)),
            Value::Unsigned(i) => $q.bind(i.map(i64::from)),
            Value::BigUnsigned(i) => $q.bind(i.map(|i| i as i64)),
            Value::Float(f) => $q.bind(f.map(f64::from)),
            Value::Double(f) => $q.bind(f),
            Value::String(s) => $q.bind(s),
            other => return Err(DbErr::Custom(format!("cannot bind {other:?}"))),
        }
    };
}

/// Virtual machine instructions between two calls of the progress handler.
const EVERY: i32 = 1000;

/// When the running statement started, and whether its request has gone.
struct Progress {
    base: Instant,
    /// Microseconds after `base`.
    started: AtomicU64,
    gone: AtomicBool,
}

/// The progress handler of a watched SQLite connection: interrupts the statement once it has
/// run past `limit`, or once its request has gone.
fn handler(
    progress: Arc<Progress>,
    limit: Option<Duration>,
) -> impl FnMut() -> bool + Send + 'static {
    // `true` interrupts the statement.
    move || {
        let started = progress.started.load(Ordering::Relaxed);
        let late = limit.is_some_and(|l| {
            progress.base.elapsed().as_micros() as u64 > started + l.as_micros() as u64
        });
        late || progress.gone.load(Ordering::Relaxed)
    }
}

enum Conn {
    /// None while a statement runs on the blocking pool.
    Sqlite(Option<Box<crate::sqlite::Lease>>),
    Postgres(PoolConnection<Postgres>),
}

/// Which index scans serve a statement that reads a full-text index on PostgreSQL
/// ([`Watched::numbers_by_index`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexPlan {
    /// Any: a statement over few matches, whose rows are looked up one by one by id.
    Lookups,
    /// Bitmaps only (`enable_indexscan = off`): a statement over many matches, such as a
    /// count, whose condition is one `@@` a word, OR'ed. Each word's GIN scan makes a
    /// bitmap, the bitmaps are OR'ed (cheap), and the tables join by hash; otherwise the
    /// planner reads the whole primary key index and checks every row's document against
    /// every word.
    Bitmaps,
}

/// A connection of the pool for one search, closed if the search is dropped before it ends.
pub struct Watched {
    conn: Conn,
    statements: Arc<AtomicU64>,
    /// The request's count, when a reader took it (`Reader::watched`).
    request: Option<Arc<AtomicU64>>,
    progress: Arc<Progress>,
    done: bool,
}

impl Watched {
    pub(crate) async fn acquire(
        sqlite: Option<&Arc<crate::sqlite::Pool>>,
        postgres: &sea_orm::DatabaseConnection,
        limit: Option<Duration>,
        statements: Arc<AtomicU64>,
    ) -> Result<Watched, DbErr> {
        let progress = Arc::new(Progress {
            base: Instant::now(),
            started: AtomicU64::new(0),
            gone: AtomicBool::new(false),
        });
        let conn = match sqlite {
            None => Conn::Postgres(
                (postgres.get_postgres_connection_pool().acquire().await).map_err(err)?,
            ),
            Some(pool) => {
                let mut lease = pool.get().await?;
                lease.watch(EVERY, handler(progress.clone(), limit))?;
                Conn::Sqlite(Some(Box::new(lease)))
            }
        };
        Ok(Watched {
            conn,
            statements,
            request: None,
            progress,
            done: false,
        })
    }

    /// Counts its statements for a request too (its [`crate::Reader`]'s count).
    pub(crate) fn count_for(&mut self, request: Arc<AtomicU64>) {
        self.request = Some(request);
    }

    /// Counts one statement for the request that took it, if one did.
    fn counted_for_request(&self) {
        if let Some(n) = &self.request {
            n.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Runs `sql` (`?` placeholders; built by the server from fixed fragments, every value
    /// bound) and returns each row's first column as an integer and
    /// its second, when there is one, as a float.
    pub async fn numbers(
        &mut self,
        sql: &str,
        values: Vec<Value>,
    ) -> Result<Vec<(i64, f64)>, DbErr> {
        self.counted_for_request();
        let p = &self.progress;
        (p.started).store(p.base.elapsed().as_micros() as u64, Ordering::Relaxed);
        let pair = |first: Result<i64, sqlx::Error>, second: Option<Result<f64, sqlx::Error>>| {
            Ok::<_, DbErr>((
                first.map_err(err)?,
                second.transpose().map_err(err)?.unwrap_or(0.0),
            ))
        };
        // The same statement for either driver: only the connection's type differs.
        macro_rules! fetch {
            ($db:ty, $c:expr, $sql:expr) => {{
                let mut q = sqlx::query::<$db>(sqlx::AssertSqlSafe($sql));
                for v in values {
                    q = bind!(q, v);
                }
                let rows = q.fetch_all(&mut **$c).await.map_err(err)?;
                rows.iter()
                    .map(|r| pair(r.try_get(0), (r.len() > 1).then(|| r.try_get(1))))
                    .collect()
            }};
        }
        match &mut self.conn {
            Conn::Sqlite(slot) => {
                let sql = sql.to_owned();
                on_lease(slot, move |lease| lease.numbers(&sql, &values)).await
            }
            Conn::Postgres(c) => {
                // (A SQLite lease counts its statements itself.)
                crate::statements::counted(&self.statements);
                fetch!(Postgres, c, placeholders(DbBackend::Postgres, sql))
            }
        }
    }

    /// Runs `sql` (as [`Watched::numbers`]) and returns its rows, each column as a [`Cell`]:
    /// on PostgreSQL an integer, float, boolean or text column (cast others).
    pub async fn cells(&mut self, sql: &str, values: Vec<Value>) -> Result<Vec<Vec<Cell>>, DbErr> {
        self.counted_for_request();
        let p = &self.progress;
        (p.started).store(p.base.elapsed().as_micros() as u64, Ordering::Relaxed);
        match &mut self.conn {
            Conn::Sqlite(slot) => {
                let sql = sql.to_owned();
                on_lease(slot, move |lease| lease.cells(&sql, &values)).await
            }
            Conn::Postgres(c) => {
                // (A SQLite lease counts its statements itself.)
                crate::statements::counted(&self.statements);
                let sql = placeholders(DbBackend::Postgres, sql);
                let mut q = sqlx::query::<Postgres>(sqlx::AssertSqlSafe(sql));
                for v in values {
                    q = bind!(q, v);
                }
                let rows = q.fetch_all(&mut **c).await.map_err(err)?;
                rows.iter()
                    .map(|r| (0..r.len()).map(|i| postgres_cell(r, i)).collect())
                    .collect()
            }
        }
    }

    /// As [`Watched::numbers`], for a statement that reads a full-text index: on PostgreSQL
    /// it runs in a read-only transaction that reads tables through an index wherever one
    /// serves (`enable_seqscan = off`), since the planner prices a many-word `@@` as one
    /// comparison and would scan the whole table instead of the GIN index; without parallel
    /// workers (starting them costs more than the few thousand index entries a narrow
    /// statement reads, and a count, on 2 cores beside the page's statement, was no faster
    /// with one or two); and planned for its values (`force_custom_plan`: how common its
    /// words are, which only the values tell, decides the plan, and a generic plan, made
    /// for no values, prices each word's `to_tsquery` once a row, past the JIT's
    /// threshold). `plan` says which index scans serve (see [`IndexPlan`]). On SQLite, FTS5
    /// always reads its index: the same as `numbers`.
    pub async fn numbers_by_index(
        &mut self,
        sql: &str,
        values: Vec<Value>,
        plan: IndexPlan,
    ) -> Result<Vec<(i64, f64)>, DbErr> {
        if !matches!(self.conn, Conn::Postgres(_)) {
            return self.numbers(sql, values).await;
        }
        self.postgres(match plan {
            IndexPlan::Lookups => {
                "BEGIN READ ONLY; SET LOCAL enable_seqscan = off; \
                 SET LOCAL max_parallel_workers_per_gather = 0; \
                 SET LOCAL plan_cache_mode = force_custom_plan"
            }
            IndexPlan::Bitmaps => {
                "BEGIN READ ONLY; SET LOCAL enable_seqscan = off; \
                 SET LOCAL enable_indexscan = off; \
                 SET LOCAL max_parallel_workers_per_gather = 0; \
                 SET LOCAL plan_cache_mode = force_custom_plan"
            }
        })
        .await?;
        // On an error the transaction stays open: the caller drops this connection
        // unreleased, which closes it.
        let rows = self.numbers(sql, values).await?;
        self.postgres("COMMIT").await?;
        Ok(rows)
    }

    /// Runs fixed statements (no values) on a PostgreSQL connection; nothing on SQLite.
    async fn postgres(&mut self, sql: &'static str) -> Result<(), DbErr> {
        if let Conn::Postgres(c) = &mut self.conn {
            sqlx::raw_sql(sql).execute(&mut **c).await.map_err(err)?;
        }
        Ok(())
    }

    /// Gives the connection back to the pool, without its handler.
    pub async fn release(mut self) -> Result<(), DbErr> {
        // A SQLite lease drops its handler when it goes back.
        self.done = true;
        Ok(())
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        if !self.done {
            self.progress.gone.store(true, Ordering::Relaxed);
            if let Conn::Postgres(c) = &mut self.conn {
                c.close_on_drop();
            }
        }
    }
}

/// Runs `run` on the SQLite lease in `slot`, on the blocking pool, and puts the lease back.
async fn on_lease<T: Send + 'static>(
    slot: &mut Option<Box<crate::sqlite::Lease>>,
    run: impl FnOnce(&crate::sqlite::Lease) -> Result<T, DbErr> + Send + 'static,
) -> Result<T, DbErr> {
    let lease = slot
        .take()
        .ok_or_else(|| DbErr::Custom("a search is running".into()))?;
    let (lease, out) = tokio::task::spawn_blocking(move || {
        let out = run(&lease);
        (lease, out)
    })
    .await
    .map_err(|e| DbErr::Custom(format!("a search failed: {e}")))?;
    *slot = Some(lease);
    out
}

/// Column `i` of a PostgreSQL row, by its type.
fn postgres_cell(r: &sqlx::postgres::PgRow, i: usize) -> Result<Cell, DbErr> {
    use sqlx::{Column, TypeInfo};
    let ty = r.columns()[i].type_info().name().to_owned();
    let cell = match ty.as_str() {
        "INT2" => (r.try_get::<Option<i16>, _>(i)).map(|v| v.map(|n| Cell::Int(n.into()))),
        "INT4" => (r.try_get::<Option<i32>, _>(i)).map(|v| v.map(|n| Cell::Int(n.into()))),
        "INT8" => r.try_get::<Option<i64>, _>(i).map(|v| v.map(Cell::Int)),
        "FLOAT4" | "FLOAT8" => r.try_get::<Option<f64>, _>(i).map(|v| v.map(Cell::Float)),
        "BOOL" => r
            .try_get::<Option<bool>, _>(i)
            .map(|v| v.map(|b| Cell::Int(b.into()))),
        _ => r.try_get::<Option<String>, _>(i).map(|v| v.map(Cell::Text)),
    };
    Ok(cell.map_err(err)?.unwrap_or(Cell::Null))
}

fn err(e: sqlx::Error) -> DbErr {
    DbErr::Query(sea_orm::RuntimeErr::SqlxError(Arc::new(e)))
}
