//! PostgreSQL's full-text index without a pending list (`fastupdate = off`): a publish
//! writes its document into the GIN index at once, so a search never reads a list of
//! pending entries one by one. Such a list grows up to 4 MB and is merged only by (auto)vacuum
//! or when full; with it, a search of a few thousand matches took five times as long.

use super::postgres_only;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        postgres_only(
            manager,
            // What is pending from before goes into the index proper.
            "ALTER INDEX content_text_body SET (fastupdate = off);
            SELECT gin_clean_pending_list('content_text_body'::regclass)",
        )
        .await
    }
}
