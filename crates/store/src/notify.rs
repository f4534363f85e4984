//! Telling the other server instances on the same PostgreSQL database that something they
//! keep in memory changed (LISTEN/NOTIFY). SQLite is one process's database: nothing to tell.

use crate::Db;
use sea_orm::{ConnectionTrait, DbBackend, DbErr};
use std::time::Duration;

impl Db {
    /// Notifies every instance listening on `channel` (this one included).
    pub async fn notify(&self, channel: &str) -> Result<(), DbErr> {
        if self.backend() == DbBackend::Postgres {
            self.conn()
                .execute_unprepared(&format!("NOTIFY {channel}"))
                .await?;
        }
        Ok(())
    }

    /// Calls `on_change` for every notification on `channel`, and whenever the listening
    /// connection was lost (notifications may have been missed), until the process ends.
    pub fn listen(&self, channel: &'static str, on_change: impl Fn() + Send + Sync + 'static) {
        if self.backend() != DbBackend::Postgres {
            return;
        }
        let pool = self.conn().get_postgres_connection_pool().clone();
        tokio::spawn(async move {
            use sea_orm::sqlx::postgres::PgListener;
            loop {
                let listener = async {
                    let mut l = PgListener::connect_with(&pool).await?;
                    l.listen(channel).await?;
                    Ok::<_, sea_orm::sqlx::Error>(l)
                };
                let mut listener = match listener.await {
                    Ok(l) => l,
                    Err(e) => {
                        tracing::warn!(error = %e, channel, "cannot listen for changes; retrying");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        continue;
                    }
                };
                on_change();
                loop {
                    match listener.try_recv().await {
                        Ok(Some(_)) => on_change(),
                        // The connection was lost: what was sent meanwhile is gone.
                        Ok(None) => on_change(),
                        Err(e) => {
                            tracing::warn!(error = %e, channel, "listening for changes failed");
                            on_change();
                            break;
                        }
                    }
                }
            }
        });
    }
}
