//! Telling the other server instances on the same PostgreSQL database (and schema) that
//! something they keep in memory changed (LISTEN/NOTIFY). SQLite is one process's database:
//! nothing to tell.
//!
//! A notification names the instance that sent it, which acts on its own changes at once
//! and ignores their echo; channels are per schema, as notifications are per database.

use crate::Db;
use crate::sql::stmt;
use sea_orm::{ConnectionTrait, DbBackend, DbErr};
use std::time::Duration;

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
    /// until the pool is closed. The first connection is made before this returns, so that no
    /// change is missed from the start.
    pub async fn listen(
        &self,
        channel: &'static str,
        on_change: impl Fn() + Send + Sync + 'static,
    ) -> Result<(), DbErr> {
        if self.backend() != DbBackend::Postgres {
            return Ok(());
        }
        let pool = self.conn().get_postgres_connection_pool().clone();
        let (channel, instance) = (self.channel(channel), self.instance.clone());
        let mut listener = listener_on(&pool, &channel)
            .await
            .map_err(|e| DbErr::Custom(format!("cannot listen on {channel}: {e}")))?;
        tokio::spawn(async move {
            let closing = pool.close_event();
            tokio::pin!(closing);
            loop {
                // Closing the pool waits for every connection: this one goes at once.
                let received = tokio::select! {
                    r = listener.try_recv() => r,
                    _ = &mut closing => return,
                };
                match received {
                    Ok(Some(n)) if n.payload() == &*instance => {}
                    Ok(Some(_)) => on_change(),
                    // The connection was lost (and is made again): what was sent meanwhile
                    // is gone.
                    Ok(None) => on_change(),
                    Err(e) => {
                        tracing::warn!(error = %e, %channel, "listening for changes failed; listening again");
                        on_change();
                        loop {
                            if pool.is_closed() {
                                return;
                            }
                            match listener_on(&pool, &channel).await {
                                Ok(l) => {
                                    listener = l;
                                    break;
                                }
                                Err(e) => {
                                    tracing::warn!(error = %e, %channel, "cannot listen for changes; retrying");
                                    tokio::time::sleep(Duration::from_secs(1)).await;
                                }
                            }
                        }
                        on_change();
                    }
                }
            }
        });
        Ok(())
    }
}

/// A connection listening on `channel`.
async fn listener_on(
    pool: &sea_orm::sqlx::PgPool,
    channel: &str,
) -> Result<sea_orm::sqlx::postgres::PgListener, sea_orm::sqlx::Error> {
    let mut l = sea_orm::sqlx::postgres::PgListener::connect_with(pool).await?;
    l.listen(channel).await?;
    Ok(l)
}
