//! PostgreSQL's full-text index without a pending list (`fastupdate = off`): a publish
//! writes its document into the GIN index at once, so a search never reads a list of
//! pending entries one by one. Such a list grows up to 4 MB and is merged only by (auto)vacuum
//! or when full; with it, a search of a few thousand matches took five times as long.

use sea_orm::{ConnectionTrait, DbBackend};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() != DbBackend::Postgres {
            return Ok(());
        }
        let conn = manager.get_connection();
        conn.execute_unprepared("ALTER INDEX content_text_body SET (fastupdate = off)")
            .await?;
        // What is pending from before goes into the index proper.
        conn.execute_unprepared("SELECT gin_clean_pending_list('content_text_body'::regclass)")
            .await?;
        Ok(())
    }
}
