//! PostgreSQL's planner statistics, kept current by cairn itself. The plans of searches and
//! the full-text counts (stop words, ranking words) come from them, and autovacuum, which
//! would otherwise refresh them, may be off. Every few seconds each of cairn's tables whose
//! rows changed by more than autovacuum's analyze threshold (50 + 10% of its rows) since
//! its last ANALYZE is analyzed again; with autovacuum on, it has usually done so already.

use crate::Db;
use crate::sql::stmt;
use sea_orm::{ConnectionTrait, DbBackend, DbErr};
use std::time::Duration;

/// How often the tables' change counters are looked at (one cheap catalog query).
const EVERY: Duration = Duration::from_secs(5);

/// Runs until the server stops; returns at once on SQLite, whose planner needs no
/// statistics here and whose full-text counts are exact.
pub async fn keep_statistics(db: Db) {
    if db.backend() != DbBackend::Postgres {
        return;
    }
    let mut every = tokio::time::interval(EVERY);
    loop {
        every.tick().await;
        if let Err(e) = analyze_changed(db.conn()).await {
            tracing::warn!(error = %e, "the planner statistics could not be updated");
        }
    }
}

/// Analyzes the tables of the current schema that changed enough; returns their names.
pub async fn analyze_changed(db: &impl ConnectionTrait) -> Result<Vec<String>, DbErr> {
    let sql = "SELECT relname::text FROM pg_stat_user_tables WHERE schemaname = current_schema() \
               AND n_mod_since_analyze > 50 + 0.1 * n_live_tup ORDER BY relname";
    let rows = db.query_all_raw(stmt(DbBackend::Postgres, sql, [])).await?;
    let mut analyzed = Vec::new();
    for row in rows {
        let table: String = row.try_get_by_index(0)?;
        // The name comes from the catalog; quoted as an identifier all the same.
        let quoted = format!("\"{}\"", table.replace('"', "\"\""));
        db.execute_unprepared(&format!("ANALYZE {quoted}")).await?;
        analyzed.push(table);
    }
    if !analyzed.is_empty() {
        tracing::debug!(tables = ?analyzed, "planner statistics updated");
    }
    Ok(analyzed)
}
