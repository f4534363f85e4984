//! Ids shared by the rows of several statuses come from `id_sequences`.

use crate::sql::stmt;
use sea_orm::{ConnectionTrait, DbErr};

/// Takes the next id of `name`; call inside the write transaction that uses it.
pub async fn next_id(db: &impl ConnectionTrait, name: &str) -> Result<i64, DbErr> {
    next_ids(db, name, 1).await
}

/// Takes `n` consecutive ids of `name` (one statement whatever `n`); returns the first.
pub async fn next_ids(db: &impl ConnectionTrait, name: &str, n: i64) -> Result<i64, DbErr> {
    let row = db
        .query_one_raw(stmt(
            db.get_database_backend(),
            "UPDATE id_sequences SET next_id = next_id + ? WHERE name = ? RETURNING next_id",
            [n.into(), name.into()],
        ))
        .await?
        .ok_or_else(|| DbErr::RecordNotFound(format!("id sequence {name}")))?;
    let next: i64 = row.try_get_by_index(0)?;
    Ok(next - n)
}
