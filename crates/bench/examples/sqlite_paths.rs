//! Issue 14, point 3: what one unit of reading costs on each SQLite path a server could take.
//! A unit is what a Location read runs: three indexed point queries (the Location, its content
//! item, the count of its children) on a database of 100,000 rows per table. Compared:
//!
//! - `sea-orm over cairn's pool`: the server's path since 2026-11-26, sea-orm's proxy
//!   connection over `cairn_store::sqlite` (rusqlite connections used on the caller's thread);
//!   until then it was sea-orm over sqlx's SQLite driver, which runs every connection on a
//!   worker thread of its own and sends each statement there and back (313 µs a unit here);
//! - `rusqlite, caller's thread`: rusqlite connections from a pool, used on the calling task's
//!   own thread, statements prepared once (`prepare_cached`): no thread crossing at all;
//! - `rusqlite, own thread per connection`: rusqlite on dedicated threads, one crossing there
//!   and back per unit, not per statement (what a driver that runs a whole unit of work on the
//!   database's thread would cost).
//!
//! Each runs sequentially (one task: the latency of a unit) and from 16 tasks at once (the
//! server's pool size: the throughput on this machine). `cargo run --release --example
//! sqlite_paths -p cairn-bench`.

use sea_orm::{ConnectionTrait, DbBackend, Statement};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Instant;

const ROWS: i64 = 100_000;
const UNITS: usize = 20_000;
const TASKS: usize = 16;

const QUERIES: [&str; 3] = [
    "SELECT id, parent_id, content_id, path_string, depth, priority FROM locations WHERE id = ?1",
    "SELECT id, name, type_id, section_id, owner_id, modified FROM contents WHERE id = ?1",
    "SELECT COUNT(*) FROM locations WHERE parent_id = ?1",
];

fn id(n: usize) -> i64 {
    (n as i64 * 7919) % ROWS + 1
}

fn build(path: &str) {
    let c = rusqlite::Connection::open(path).unwrap();
    c.execute_batch(
        "PRAGMA journal_mode=WAL;
         CREATE TABLE contents (id INTEGER PRIMARY KEY, name TEXT, type_id INTEGER,
             section_id INTEGER, owner_id INTEGER, modified INTEGER);
         CREATE TABLE locations (id INTEGER PRIMARY KEY, parent_id INTEGER, content_id INTEGER,
             path_string TEXT, depth INTEGER, priority INTEGER);
         CREATE INDEX locations_parent ON locations (parent_id);
         BEGIN;",
    )
    .unwrap();
    for i in 1..=ROWS {
        c.execute(
            "INSERT INTO contents VALUES (?1, ?2, 1, 1, 14, 0)",
            rusqlite::params![i, format!("Folder {i}")],
        )
        .unwrap();
        c.execute(
            "INSERT INTO locations VALUES (?1, ?2, ?1, ?3, 3, 0)",
            rusqlite::params![i, (i / 10).max(1), format!("/1/2/{i}/")],
        )
        .unwrap();
    }
    c.execute_batch("COMMIT; ANALYZE;").unwrap();
}

/// Units per second and the mean latency of a unit (µs), sequential and with `TASKS` tasks.
fn report(name: &str, sequential: f64, concurrent: f64) {
    println!(
        "| {name} | {:.1} µs | {:.0} | {:.0} |",
        1e6 / sequential,
        sequential,
        concurrent
    );
}

async fn sea_orm_path(path: &str) -> (f64, f64) {
    let statements = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let pool = cairn_store::sqlite::Pool::open(path, TASKS as u32, statements).unwrap();
    let db = cairn_store::sqlite::shared(&pool).await.unwrap();
    let unit = async |db: &sea_orm::DatabaseConnection, n: usize| {
        for q in QUERIES {
            let s = Statement::from_sql_and_values(DbBackend::Sqlite, q, [id(n).into()]);
            db.query_one_raw(s).await.unwrap().unwrap();
        }
    };
    let t = Instant::now();
    for n in 0..UNITS {
        unit(&db, n).await;
    }
    let sequential = UNITS as f64 / t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut tasks = Vec::new();
    for k in 0..TASKS {
        let db = db.clone();
        tasks.push(tokio::spawn(async move {
            for n in (k..UNITS).step_by(TASKS) {
                unit(&db, n).await;
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    (sequential, UNITS as f64 / t.elapsed().as_secs_f64())
}

fn rusqlite_unit(c: &rusqlite::Connection, n: usize) {
    for q in QUERIES {
        let mut s = c.prepare_cached(q).unwrap();
        let mut rows = s.query([id(n)]).unwrap();
        let row = rows.next().unwrap().unwrap();
        let _: i64 = row.get(0).unwrap();
    }
}

async fn rusqlite_inline(path: &str) -> (f64, f64) {
    let pool: Arc<Mutex<Vec<rusqlite::Connection>>> = Arc::new(Mutex::new(
        (0..TASKS)
            .map(|_| rusqlite::Connection::open(path).unwrap())
            .collect(),
    ));
    let unit = |pool: &Mutex<Vec<rusqlite::Connection>>, n: usize| {
        let c = pool.lock().unwrap().pop().unwrap();
        rusqlite_unit(&c, n);
        pool.lock().unwrap().push(c);
    };
    let t = Instant::now();
    for n in 0..UNITS {
        unit(&pool, n);
    }
    let sequential = UNITS as f64 / t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut tasks = Vec::new();
    for k in 0..TASKS {
        let pool = pool.clone();
        tasks.push(tokio::spawn(async move {
            for n in (k..UNITS).step_by(TASKS) {
                unit(&pool, n);
                tokio::task::yield_now().await;
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    (sequential, UNITS as f64 / t.elapsed().as_secs_f64())
}

type Job = (usize, tokio::sync::oneshot::Sender<()>);

async fn rusqlite_threads(path: &str) -> (f64, f64) {
    let senders: Vec<mpsc::Sender<Job>> = (0..TASKS)
        .map(|_| {
            let (tx, rx) = mpsc::channel::<Job>();
            let c = rusqlite::Connection::open(path).unwrap();
            std::thread::spawn(move || {
                for (n, done) in rx {
                    rusqlite_unit(&c, n);
                    let _ = done.send(());
                }
            });
            tx
        })
        .collect();
    let unit = async |s: &mpsc::Sender<Job>, n: usize| {
        let (done, wait) = tokio::sync::oneshot::channel();
        s.send((n, done)).unwrap();
        wait.await.unwrap();
    };
    let t = Instant::now();
    for n in 0..UNITS {
        unit(&senders[0], n).await;
    }
    let sequential = UNITS as f64 / t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut tasks = Vec::new();
    for (k, s) in senders.into_iter().enumerate() {
        tasks.push(tokio::spawn(async move {
            for n in (k..UNITS).step_by(TASKS) {
                unit(&s, n).await;
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    (sequential, UNITS as f64 / t.elapsed().as_secs_f64())
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("paths.db");
    let path = path.to_str().unwrap();
    build(path);
    println!("| path | one unit, sequential | units/s, 1 task | units/s, {TASKS} tasks |");
    println!("| --- | ---: | ---: | ---: |");
    let (s, c) = sea_orm_path(path).await;
    report("sea-orm over cairn's pool (today)", s, c);
    let (s, c) = rusqlite_inline(path).await;
    report("rusqlite, caller's thread", s, c);
    let (s, c) = rusqlite_threads(path).await;
    report("rusqlite, own thread per connection", s, c);
}
