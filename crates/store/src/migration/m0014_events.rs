//! The outbox: one row per committed change, written in the change's own transaction, its
//! id growing in commit order (the repository's generation). On PostgreSQL the id comes from
//! `id_sequences`, whose row stays locked until the writer commits, so no change can become
//! visible after a later one; SQLite has one writer at a time.

use super::ddl;
use sea_orm::{ConnectionTrait, DbBackend};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let id = match manager.get_database_backend() {
            DbBackend::Postgres => "BIGINT PRIMARY KEY",
            _ => "INTEGER PRIMARY KEY AUTOINCREMENT",
        };
        ddl(
            manager,
            &format!(
                "CREATE TABLE events (
                    id {id},
                    at BIGINT NOT NULL,
                    user_id BIGINT,
                    operation TEXT NOT NULL,
                    resource TEXT NOT NULL
                )"
            ),
        )
        .await?;
        if manager.get_database_backend() == DbBackend::Postgres {
            manager
                .get_connection()
                .execute_unprepared("INSERT INTO id_sequences (name, next_id) VALUES ('events', 1)")
                .await?;
        }
        Ok(())
    }
}
