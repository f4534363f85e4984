//! Where each shared HTTP cache's purges stand in the outbox (`purge_cursors`): the last
//! change purged there. On PostgreSQL a purger claims its cache's row for the length of a
//! purge (`FOR UPDATE SKIP LOCKED`): of several instances, one sends each purge; the others
//! skip that round.

use crate::Connection;
use crate::sql::{exec, stmt};
use sea_orm::{DbBackend, DbErr};

/// Makes sure `cache` has a cursor: a cache named for the first time starts at the last
/// change (what was committed before it was named is not its purger's to send). (`WHERE
/// true`: SQLite would read `ON CONFLICT` after a bare `FROM` as a join's `ON`.)
pub async fn start(db: &impl Connection, cache: &str) -> Result<(), DbErr> {
    exec(
        db,
        "INSERT INTO purge_cursors (cache, last_id) \
         SELECT ?, COALESCE(MAX(id), 0) FROM events WHERE true \
         ON CONFLICT (cache) DO NOTHING",
        [cache.into()],
    )
    .await?;
    Ok(())
}

/// The last change purged from `cache`; on PostgreSQL the row stays locked until the
/// transaction `db` ends, and `None` when another instance holds it.
pub async fn claim(db: &impl Connection, cache: &str) -> Result<Option<u64>, DbErr> {
    let backend = db.get_database_backend();
    let sql = match backend {
        DbBackend::Postgres => {
            "SELECT last_id FROM purge_cursors WHERE cache = ? FOR UPDATE SKIP LOCKED"
        }
        _ => "SELECT last_id FROM purge_cursors WHERE cache = ?",
    };
    let row = db.query_one_raw(stmt(backend, sql, [cache.into()])).await?;
    match row {
        Some(r) => Ok(Some(r.try_get_by_index::<i64>(0)?.max(0) as u64)),
        None => Ok(None),
    }
}

/// Records that `cache` has every change up to `last_id`, at `now` (Unix seconds).
pub async fn advance(
    db: &impl Connection,
    cache: &str,
    last_id: u64,
    now: i64,
) -> Result<(), DbErr> {
    exec(
        db,
        "UPDATE purge_cursors SET last_id = ?, purged_at = ? WHERE cache = ? AND last_id < ?",
        [
            (last_id as i64).into(),
            now.into(),
            cache.into(),
            (last_id as i64).into(),
        ],
    )
    .await?;
    Ok(())
}

/// The id of the oldest change the outbox still holds (older ones were pruned).
pub async fn oldest_kept(db: &impl Connection) -> Result<Option<u64>, DbErr> {
    let row = db
        .query_one_raw(stmt(
            db.get_database_backend(),
            "SELECT MIN(id) FROM events",
            [],
        ))
        .await?;
    Ok(row
        .and_then(|r| r.try_get_by_index::<Option<i64>>(0).ok().flatten())
        .map(|id| id.max(0) as u64))
}
