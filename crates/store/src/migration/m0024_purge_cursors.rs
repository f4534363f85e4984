//! Where each shared HTTP cache's purges stand: the last change of the outbox purged there.
//! Kept in the database so that a purge outlives a restart, and claimed row by row so that
//! of several instances on PostgreSQL one sends each purge.

use super::ddl;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "CREATE TABLE purge_cursors (\
             cache TEXT NOT NULL PRIMARY KEY, \
             last_id BIGINT NOT NULL, \
             purged_at BIGINT NOT NULL DEFAULT 0)",
        )
        .await
    }
}
