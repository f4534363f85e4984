//! Raw SQL written once for both backends: `?` placeholders, rewritten to `$1, $2, ...` for
//! PostgreSQL. For the statements the query builder cannot say well (set operations on the
//! tree of Locations, counters).

use crate::Connection;
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

/// Runs a raw statement (`?` placeholders); the number of rows it touched. It reads no rows,
/// so it takes any of sea-orm's connections (the migrations' too).
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
    db: &impl Connection,
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

/// `alias."column" AS "<pre>column"` for every column of `E`, comma-separated: one of several
/// models in a row of a join, read back by sea-orm's prefix or `rows::prefixed`.
pub fn columns_as<E: sea_orm::EntityTrait>(alias: &str, pre: &str) -> String {
    use sea_orm::{IdenStatic, Iterable};
    let columns: Vec<String> = (E::Column::iter())
        .map(|c| format!("{alias}.\"{0}\" AS \"{pre}{0}\"", c.as_str()))
        .collect();
    columns.join(", ")
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
