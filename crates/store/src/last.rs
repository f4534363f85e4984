//! Statements a write runs last, just before it commits: those of SQLite's full-text index.
//! FTS5 keeps the documents written in a transaction in memory, but a later statement that may
//! need to undo only itself (any write with `RETURNING`, or a constraint to check) makes it
//! write them out as a new segment of the index first. Written last, a transaction's documents
//! make one segment, where a batch of a hundred items written in turn made a hundred.

use sea_orm::Statement;

/// Puts `s` off until the write it is part of ends; gives it back when no write of
/// [`crate::Db::write`] is running (the caller runs it then).
pub fn last(s: Statement) -> Option<Statement> {
    let mut s = Some(s);
    let _ = crate::events::NAMED.try_with(|n| n.borrow_mut().last.extend(s.take()));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use sea_orm::DbBackend;

    fn statement(sql: &str) -> Statement {
        Statement::from_string(DbBackend::Sqlite, sql)
    }

    #[tokio::test]
    async fn statements_are_put_off_in_order_only_inside_a_write() {
        assert!(last(statement("SELECT 0")).is_some());
        let ((), named) = crate::events::naming(async {
            assert!(last(statement("SELECT 1")).is_none());
            assert!(last(statement("SELECT 2")).is_none());
        })
        .await;
        let sql: Vec<&str> = named.last.iter().map(|s| s.sql.as_str()).collect();
        assert_eq!(sql, ["SELECT 1", "SELECT 2"]);
    }
}
