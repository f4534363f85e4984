//! Telling the other server instances on the same PostgreSQL database (and schema) that
//! something they keep in memory changed (LISTEN/NOTIFY). SQLite is one process's database:
//! nothing to tell.
//!
//! A notification names the instance that sent it, which acts on its own changes at once
//! and ignores their echo; channels are per schema, as notifications are per database.

use crate::Db;
use crate::sql::stmt;
use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, DbErr};
use std::time::Duration;

/// The schema the connection works in (PostgreSQL), or "" (SQLite).
pub(crate) async fn schema_of(conn: &DatabaseConnection) -> Result<String, DbErr> {
    if conn.get_database_backend() != DbBackend::Postgres {
        return Ok(String::new());
    }
    let row = conn
        .query_one_raw(stmt(DbBackend::Postgres, "SELECT current_schema()", []))
        .await?;
    Ok(row
        .and_then(|r| r.try_get_by_index::<String>(0).ok())
        .unwrap_or_default())
}

impl Db {
    fn channel(&self, name: &str) -> String {
        format!("{name}:{}", self.schema)
    }

    /// Notifies the other instances listening on `channel`.
    pub async fn notify(&self, channel: &str) -> Result<(), DbErr> {
        if self.backend() == DbBackend::Postgres {
            self.conn()
                .execute_raw(stmt(
                    DbBackend::Postgres,
                    "SELECT pg_notify(?, ?)",
                    [
                        self.channel(channel).into(),
                        self.instance.to_string().into(),
                    ],
                ))
                .await?;
        }
        Ok(())
    }

    /// Calls `on_change` for every notification on `channel` from another instance, and
    /// whenever the listening connection was lost (notifications may have been missed),
    /// until the process ends.
    pub fn listen(&self, channel: &'static str, on_change: impl Fn() + Send + Sync + 'static) {
        if self.backend() != DbBackend::Postgres {
            return;
        }
        let pool = self.conn().get_postgres_connection_pool().clone();
        let (channel, instance) = (self.channel(channel), self.instance.clone());
        tokio::spawn(async move {
            use sea_orm::sqlx::postgres::PgListener;
            loop {
                let listener = async {
                    let mut l = PgListener::connect_with(&pool).await?;
                    l.listen(&channel).await?;
                    Ok::<_, sea_orm::sqlx::Error>(l)
                };
                let mut listener = match listener.await {
                    Ok(l) => l,
                    Err(e) => {
                        tracing::warn!(error = %e, %channel, "cannot listen for changes; retrying");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        continue;
                    }
                };
                on_change();
                loop {
                    match listener.try_recv().await {
                        Ok(Some(n)) if n.payload() == &*instance => {}
                        Ok(Some(_)) => on_change(),
                        // The connection was lost: what was sent meanwhile is gone.
                        Ok(None) => on_change(),
                        Err(e) => {
                            tracing::warn!(error = %e, %channel, "listening for changes failed");
                            on_change();
                            break;
                        }
                    }
                }
            }
        });
    }
}
