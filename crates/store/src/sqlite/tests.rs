use super::*;
use sea_orm::ConnectionTrait;

async fn pool(dir: &tempfile::TempDir) -> (Arc<Pool>, DatabaseConnection) {
    let path = dir.path().join("t.db");
    let pool = Pool::open(path.to_str().unwrap(), 4, Default::default()).unwrap();
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
    let t = Transaction::open(&pool, true).await.unwrap();
    let tx = t.part(false).await.unwrap();
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
    let write = async |tx: &crate::Tx| tx.execute_raw(insert()).await;
    pool.write(write).await.unwrap();
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
    let rows = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 5000) \
                INSERT INTO t (n, s) SELECT x, printf('%.200c', 'x') FROM n";
    let write = async |tx: &crate::Tx| tx.execute_unprepared(rows).await;
    pool.write(write).await.unwrap();
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

/// Writes that queue behind one another share commits; each is answered once the commit that
/// holds it is done, and one that fails in the middle of a group is rolled back alone.
#[tokio::test]
async fn queued_writes_share_a_commit_and_fail_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (pool, conn) = pool(&dir).await;
    let tasks: Vec<_> = (1..=8i64)
        .map(|n| {
            let pool = pool.clone();
            tokio::spawn(async move {
                let write = async |tx: &crate::Tx| {
                    let insert = format!("INSERT INTO t (n) VALUES ({n})");
                    tx.execute_unprepared(&insert).await?;
                    // Long enough for the others to queue behind it.
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    if n == 5 {
                        return Err(DbErr::Custom("five fails".into()));
                    }
                    Ok(())
                };
                pool.write(write).await
            })
        })
        .collect();
    let mut failed = Vec::new();
    for (n, task) in (1..=8i64).zip(tasks) {
        if task.await.unwrap().is_err() {
            failed.push(n);
        }
    }
    assert_eq!(failed, [5]);
    let rows = conn
        .query_all_raw(Statement::from_string(
            DbBackend::Sqlite,
            "SELECT n FROM t ORDER BY n",
        ))
        .await
        .unwrap();
    let written: Vec<i64> = rows
        .iter()
        .map(|r| r.try_get_by_index(0).unwrap())
        .collect();
    assert_eq!(written, [1, 2, 3, 4, 6, 7, 8]);
    let commits = pool.commits();
    assert!(commits < 7, "{commits} commits for 7 writes");
    let (open, idle) = pool.size();
    assert_eq!(open as usize, idle, "a connection is still held");
}

/// A commit's WAL frames reach the file in one write before the commit returns: another
/// connection (SQLite's own VFS) reads them at once, a transaction larger than what is
/// gathered in memory too, and the database is whole when opened again.
#[tokio::test]
async fn a_commit_writes_its_wal_frames_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (pool, conn) = pool(&dir).await;
    conn.execute_unprepared("CREATE INDEX t_s ON t (s)")
        .await
        .unwrap();
    let path = dir.path().join("t.db");
    let plain = rusqlite::Connection::open(&path).unwrap();
    let count = |c: &rusqlite::Connection| -> (i64, i64) {
        c.query_row("SELECT COUNT(*), COALESCE(SUM(n), 0) FROM t", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap()
    };
    let insert = |rows: i64, width: i64| {
        format!(
            "WITH RECURSIVE k(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM k WHERE x < {rows}) \
             INSERT INTO t (n, s) SELECT x, printf('%.{width}c', 'a') || x FROM k"
        )
    };
    // About 16 pages (rows and index), written once.
    let before = gather::writes();
    let sql = insert(100, 300);
    let write = async |tx: &crate::Tx| tx.execute_unprepared(&sql).await;
    pool.write(write).await.unwrap();
    assert_eq!(
        gather::writes() - before,
        1,
        "one write for the commit's frames"
    );
    assert_eq!(count(&plain), (100, 100 * 101 / 2));
    // 12 MB: past what a WAL file gathers, so written in parts, and still whole.
    let sql = insert(6000, 2000);
    let write = async |tx: &crate::Tx| tx.execute_unprepared(&sql).await;
    pool.write(write).await.unwrap();
    assert_eq!(count(&plain), (6100, 100 * 101 / 2 + 6000 * 6001 / 2));
    // Rolled back: nothing of it is seen.
    let t = Transaction::open(&pool, true).await.unwrap();
    let tx = t.part(false).await.unwrap();
    tx.execute_unprepared(&insert(3000, 2000)).await.unwrap();
    drop(tx);
    drop(t);
    assert_eq!(count(&plain).0, 6100);
    drop((conn, pool));
    let check: String = plain
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    drop(plain);
    let again = rusqlite::Connection::open(&path).unwrap();
    assert_eq!(count(&again).0, 6100);
}

/// Closing the pool copies the WAL back and closes every connection, so SQLite removes the
/// `-wal` and `-shm` files and the database file holds every commit; a connection still
/// lent out is waited for up to the patience given, reported, and closed when given back.
#[tokio::test]
async fn closing_the_pool_leaves_the_database_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (pool, conn) = pool(&dir).await;
    let insert = Statement::from_string(DbBackend::Sqlite, "INSERT INTO t (n) VALUES (7)");
    conn.execute_raw(insert).await.unwrap();
    let file = |suffix: &str| dir.path().join(format!("t.db{suffix}"));
    assert!(file("-wal").exists() && file("-shm").exists());
    let lent = pool.get().await.unwrap();
    let waited = std::time::Instant::now();
    assert!(!pool.close(Duration::from_millis(200)).await.unwrap());
    assert!(waited.elapsed() >= Duration::from_millis(200));
    assert!(file("-wal").exists(), "removed while a connection is open");
    // Given back late, it is closed, the last: SQLite removes the files then.
    drop(lent);
    assert!(!file("-wal").exists() && !file("-shm").exists());
    drop((pool, conn));
    // A pool whose connections all came back.
    let pool = Pool::open(file("").to_str().unwrap(), 4, Default::default()).unwrap();
    let read = pool.get().await.unwrap();
    let n: i64 = read.query_row("SELECT n FROM t", [], |r| r.get(0)).unwrap();
    assert_eq!(n, 7);
    drop(read);
    assert!(pool.close(Duration::from_secs(5)).await.unwrap());
    assert!(!file("-wal").exists() && !file("-shm").exists());
    let plain = rusqlite::Connection::open(file("")).unwrap();
    let n: i64 = plain
        .query_row("SELECT n FROM t", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 7);
}

/// The planner's statistics (`Pool::optimize`, run as the database opens and every minute
/// after), kept for tables of 10,000 rows and more: an equality on the first column of an
/// index that every row shares is then not taken for a selective one.
#[tokio::test]
async fn the_planners_statistics_are_kept_up() {
    let dir = tempfile::tempdir().unwrap();
    let (pool, conn) = pool(&dir).await;
    let plan = async || {
        let ids: Vec<String> = (1..=10).map(|i| i.to_string()).collect();
        let sql = format!(
            "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM f WHERE status = 1 AND id IN ({})",
            ids.join(", ")
        );
        let rows = conn
            .query_all_raw(Statement::from_string(DbBackend::Sqlite, sql))
            .await
            .unwrap();
        (rows.iter())
            .map(|r| r.try_get_by_index::<String>(3).unwrap())
            .collect::<Vec<_>>()
            .join("; ")
    };
    conn.execute_unprepared(
        "CREATE TABLE f (id INTEGER PRIMARY KEY, status BIGINT, kind BIGINT); \
         CREATE INDEX f_facets ON f (status, kind); \
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) \
         INSERT INTO f (id, status, kind) SELECT i, 1, i % 7 FROM n",
    )
    .await
    .unwrap();
    // Without statistics, the index looks selective.
    let before = plan().await;
    assert!(before.contains("f_facets"), "{before}");
    let optimize = async || {
        let optimizing = pool.clone();
        tokio::task::spawn_blocking(move || optimizing.optimize())
            .await
            .unwrap()
            .unwrap();
    };
    // 5,000 rows: left to SQLite's assumptions.
    optimize().await;
    assert!(plan().await.contains("f_facets"));
    conn.execute_unprepared(
        "WITH RECURSIVE n(i) AS (SELECT 5001 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) \
         INSERT INTO f (id, status, kind) SELECT i, 1, i % 7 FROM n",
    )
    .await
    .unwrap();
    optimize().await;
    // Read by the pool's connections, which SQLite loads them into as they open: those
    // opened before are closed, not used again.
    let after = plan().await;
    assert!(!after.contains("f_facets"), "{after}");
    assert!(after.contains("PRIMARY KEY"), "{after}");
}
