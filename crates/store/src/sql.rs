//! Raw SQL written once for both backends: `?` placeholders, rewritten to `$1, $2, ...` for
//! PostgreSQL. For the statements the query builder cannot say well (set operations on the
//! tree of Locations, counters).

use sea_orm::{ConnectionTrait, DbBackend, DbErr, Statement, Value};

/// A statement for `backend` from SQL with `?` placeholders (none inside string literals).
pub fn stmt(backend: DbBackend, sql: &str, values: impl IntoIterator<Item = Value>) -> Statement {
    Statement::from_sql_and_values(backend, placeholders(backend, sql), values)
}

/// SQL with `?` placeholders as `backend` takes them: `$1, $2, ...` for PostgreSQL.
pub fn placeholders(backend: DbBackend, sql: &str) -> String {
    match backend {
        DbBackend::Postgres => {
            let mut out = String::with_capacity(sql.len() + 8);
            let mut n = 0;
            for c in sql.chars() {
                if c == '?' {
                    n += 1;
                    out.push('$');
                    out.push_str(&n.to_string());
                } else {
                    out.push(c);
                }
            }
            out
        }
        _ => sql.to_string(),
    }
}

/// Runs a raw statement (`?` placeholders); the number of rows it touched.
pub async fn exec(
    db: &impl ConnectionTrait,
    sql: &str,
    values: impl IntoIterator<Item = Value>,
) -> Result<u64, DbErr> {
    Ok(db
        .execute_raw(stmt(db.get_database_backend(), sql, values))
        .await?
        .rows_affected())
}

/// The first column of every row of a raw `SELECT <id> ...` (`?` placeholders).
pub async fn ids(
    db: &impl ConnectionTrait,
    sql: &str,
    values: impl IntoIterator<Item = Value>,
) -> Result<Vec<i64>, DbErr> {
    let rows = db
        .query_all_raw(stmt(db.get_database_backend(), sql, values))
        .await?;
    Ok(rows
        .iter()
        .filter_map(|r| r.try_get_by_index::<i64>(0).ok())
        .collect())
}

/// Serialises writers that check-then-insert under the same `key` (a uniqueness rule the
/// schema cannot express) until the transaction ends. SQLite writers are serialised already.
pub async fn lock(db: &impl ConnectionTrait, key: &str) -> Result<(), DbErr> {
    if db.get_database_backend() == DbBackend::Postgres {
        db.execute_raw(stmt(
            DbBackend::Postgres,
            "SELECT pg_advisory_xact_lock(hashtext(?))",
            [key.into()],
        ))
        .await?;
    }
    Ok(())
}

/// Whether `e` is a unique constraint's violation: PostgreSQL's error code, SQLite's message
/// (its errors arrive as text, `sqlite.rs`).
pub fn unique_violation(e: &sea_orm::DbErr) -> bool {
    matches!(
        e.sql_err(),
        Some(sea_orm::SqlErr::UniqueConstraintViolation(_))
    ) || e.to_string().contains("UNIQUE constraint failed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_for_postgres() {
        let s = stmt(
            DbBackend::Postgres,
            "UPDATE t SET a = ? WHERE b = ?",
            [1i64.into(), 2i64.into()],
        );
        assert_eq!(s.sql, "UPDATE t SET a = $1 WHERE b = $2");
        let s = stmt(DbBackend::Sqlite, "UPDATE t SET a = ?", [1i64.into()]);
        assert_eq!(s.sql, "UPDATE t SET a = ?");
    }
}
