//! Ids shared by the rows of several statuses (content fields, URL alias elements, Policies,
//! content types and Field definitions). On SQLite they come from `id_sequences`, whose
//! writers are serialised anyway. On PostgreSQL each has a sequence `ids_<name>`
//! (migration 17): `nextval` holds no lock until commit, where an `UPDATE` of an
//! `id_sequences` row made every concurrent writer wait for the one before it. The events'
//! ids stay in `id_sequences` on purpose (`events.rs`).

use crate::Connection;
use crate::sql::stmt;
use sea_orm::{DbBackend, DbErr};

/// PostgreSQL: the expression that takes the next id of `name` inside the statement that
/// writes it (`INSERT … VALUES (nextval('ids_<name>'), …)`), where [`next_ids`] would cost a
/// statement of its own. SQLite has no such sequence: take the ids with [`next_ids`].
pub fn next_id_in_statement(name: &str) -> String {
    format!("nextval('{}')", sequence(name))
}

/// The PostgreSQL sequence of `name`'s ids (migration 17).
fn sequence(name: &str) -> String {
    format!("ids_{name}")
}

/// Takes the next id of `name`; call inside the write transaction that uses it.
pub async fn next_id(db: &impl Connection, name: &str) -> Result<i64, DbErr> {
    let ids = next_ids(db, name, 1).await?;
    ids.first()
        .copied()
        .ok_or_else(|| DbErr::RecordNotFound(format!("id sequence {name}")))
}

/// Takes `n` ids of `name` in one statement, ascending: consecutive on SQLite, possibly
/// interleaved with a concurrent writer's on PostgreSQL.
pub async fn next_ids(db: &impl Connection, name: &str, n: i64) -> Result<Vec<i64>, DbErr> {
    if n <= 0 {
        return Ok(Vec::new());
    }
    let backend = db.get_database_backend();
    if backend == DbBackend::Postgres {
        let rows = db
            .query_all_raw(stmt(
                backend,
                "SELECT nextval(CAST(? AS regclass)) FROM generate_series(1, ?) ORDER BY 1",
                [sequence(name).into(), n.into()],
            ))
            .await?;
        return rows.iter().map(|r| r.try_get_by_index(0)).collect();
    }
    let row = db
        .query_one_raw(stmt(
            backend,
            "UPDATE id_sequences SET next_id = next_id + ? WHERE name = ? RETURNING next_id",
            [n.into(), name.into()],
        ))
        .await?
        .ok_or_else(|| DbErr::RecordNotFound(format!("id sequence {name}")))?;
    let next: i64 = row.try_get_by_index(0)?;
    Ok((next - n..next).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::CleanDb;
    use sea_orm::TransactionTrait;

    /// Ids come ascending and never twice; on PostgreSQL a writer takes them while another
    /// writer that took some has not committed yet.
    #[tokio::test]
    async fn ids_are_taken_without_waiting_for_other_writers() {
        let t = CleanDb::new().await;
        let db = t.db.conn();
        let first = next_ids(db, "content_fields", 3).await.unwrap();
        assert_eq!(first.len(), 3);
        assert!(first.windows(2).all(|w| w[0] < w[1]));
        assert!(next_ids(db, "content_fields", 0).await.unwrap().is_empty());
        let open = db.begin().await.unwrap();
        let held = next_ids(&open, "content_fields", 2).await.unwrap();
        if db.get_database_backend() == DbBackend::Postgres {
            let meanwhile = tokio::time::timeout(
                std::time::Duration::from_secs(5),
                next_id(db, "content_fields"),
            )
            .await
            .expect("no wait for the open transaction")
            .unwrap();
            assert!(!held.contains(&meanwhile) && meanwhile > first[2]);
        }
        open.commit().await.unwrap();
        let after = next_id(db, "content_fields").await.unwrap();
        assert!(held.iter().all(|h| *h > first[2] && *h < after));
        assert!(matches!(
            next_id(db, "nothing").await,
            Err(DbErr::RecordNotFound(_)) | Err(DbErr::Query(_)) | Err(DbErr::Exec(_))
        ));
    }
}
