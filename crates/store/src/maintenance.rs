//! PostgreSQL's upkeep of cairn's tables, done by cairn itself where autovacuum does not.
//! The plans of searches and the full-text counts (stop words, ranking words) come from the
//! planner statistics, and a table full of dead rows is slow to read. A statement's plan,
//! once made, is kept by each connection until the table's statistics change (the foreign
//! keys' checks' too): made while a fresh repository's tables were small, it reads them
//! whole, at a cost that grows with every row an import adds, until autovacuum (which looks
//! once a minute) analyzes them. Every second each
//! table of cairn's schema whose rows changed by more than autovacuum's analyze threshold
//! (50 + 10% of its rows) since its last ANALYZE is analyzed again (with autovacuum on, it
//! has usually done so already); when autovacuum is off, tables past its vacuum thresholds
//! (dead rows over 50 + 20%, or rows inserted since the last VACUUM over 1,000 + 20%) are
//! vacuumed as well, which also marks pages all-visible for index-only reads.
//!
//! It works on a connection of its own, outside the pool: it takes no request's connection,
//! its statements are not counted as a request's, and it has no statement time limit.

use crate::Db;
use sea_orm::sqlx::{self, Connection, PgConnection};
use sea_orm::{DbBackend, DbErr};
use std::time::Duration;

/// How often the tables' change counters are looked at (one cheap catalog query).
const EVERY: Duration = Duration::from_secs(1);

/// Runs until the server stops; returns at once on SQLite, whose statistics the pool keeps
/// up itself (`sqlite::checkpoints`) and whose full-text counts are exact.
pub async fn keep_up(db: Db) {
    if db.backend() != DbBackend::Postgres {
        return;
    }
    let mut every = tokio::time::interval(EVERY);
    let mut conn = None;
    loop {
        every.tick().await;
        if conn.is_none() {
            match connect(&db).await {
                Ok(c) => conn = Some(c),
                Err(e) => tracing::warn!(error = %e, "no connection for the tables' upkeep"),
            }
        }
        let Some(c) = conn.as_mut() else {
            continue;
        };
        let done = async {
            analyze_changed(c).await?;
            vacuum_if_no_autovacuum(c).await
        };
        if let Err(e) = done.await {
            tracing::warn!(error = %e, "the tables' upkeep failed");
            conn = None; // a new connection next time
        }
    }
}

/// A connection of its own to `db`'s PostgreSQL database and schema, without a time limit.
pub async fn connect(db: &Db) -> Result<PgConnection, DbErr> {
    let options = db.conn().get_postgres_connection_pool().connect_options();
    let mut c = PgConnection::connect_with(&options).await.map_err(err)?;
    crate::nodelay::no_delay(&mut c).await;
    sqlx::raw_sql("SET statement_timeout = 0")
        .execute(&mut c)
        .await
        .map_err(err)?;
    Ok(c)
}

/// Analyzes the tables of the current schema that changed enough; returns their names.
pub async fn analyze_changed(c: &mut PgConnection) -> Result<Vec<String>, DbErr> {
    let sql = "SELECT relname::text FROM pg_stat_user_tables WHERE schemaname = current_schema() \
               AND n_mod_since_analyze > 50 + 0.1 * n_live_tup ORDER BY relname";
    run_on_each(c, sql, "ANALYZE").await
}

/// Vacuums the tables of the current schema past autovacuum's thresholds, when autovacuum
/// is off; returns their names.
pub async fn vacuum_if_no_autovacuum(c: &mut PgConnection) -> Result<Vec<String>, DbErr> {
    let sql = "SELECT relname::text FROM pg_stat_user_tables WHERE schemaname = current_schema() \
               AND current_setting('autovacuum') = 'off' \
               AND (n_dead_tup > 50 + 0.2 * n_live_tup \
                    OR n_ins_since_vacuum > 1000 + 0.2 * n_live_tup) ORDER BY relname";
    // Without giving back the empty pages at a table's end: that needs the table alone, which
    // VACUUM waits for (up to 5 s) while writers use it, and the next rows reuse them.
    run_on_each(c, sql, "VACUUM (TRUNCATE false)").await
}

/// Runs `command` on each table `tables` selects; returns their names.
async fn run_on_each(
    c: &mut PgConnection,
    tables: &'static str,
    command: &str,
) -> Result<Vec<String>, DbErr> {
    let names: Vec<String> = sqlx::query_scalar(tables)
        .fetch_all(&mut *c)
        .await
        .map_err(err)?;
    for table in &names {
        // A name from the catalog, quoted as an identifier all the same.
        let sql = format!("{command} \"{}\"", table.replace('"', "\"\""));
        sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
            .execute(&mut *c)
            .await
            .map_err(err)?;
    }
    if !names.is_empty() {
        tracing::debug!(tables = ?names, command, "tables kept up");
    }
    Ok(names)
}

fn err(e: sqlx::Error) -> DbErr {
    DbErr::Conn(sea_orm::RuntimeErr::SqlxError(std::sync::Arc::new(e)))
}
