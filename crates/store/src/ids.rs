//! Ids shared by the rows of several statuses come from `id_sequences`.

use crate::entity::id_sequence;
use crate::sql::stmt;
use sea_orm::{ConnectionTrait, DbErr, EntityTrait};

/// Takes the next id of `name`; call inside the write transaction that uses it.
pub async fn next_id(db: &impl ConnectionTrait, name: &str) -> Result<i64, DbErr> {
    next_ids(db, name, 1).await
}

/// Takes `n` consecutive ids of `name` (two statements whatever `n`); returns the first.
pub async fn next_ids(db: &impl ConnectionTrait, name: &str, n: i64) -> Result<i64, DbErr> {
    let backend = db.get_database_backend();
    db.execute_raw(stmt(
        backend,
        "UPDATE id_sequences SET next_id = next_id + ? WHERE name = ?",
        [n.into(), name.into()],
    ))
    .await?;
    let row = id_sequence::Entity::find_by_id(name.to_string())
        .one(db)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound(format!("id sequence {name}")))?;
    Ok(row.next_id - n)
}
