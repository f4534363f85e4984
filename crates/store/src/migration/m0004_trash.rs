//! The Trash: the Locations of trashed subtrees, kept until restored or deleted.

use super::ddl;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "CREATE TABLE trash (
                id BIGINT NOT NULL PRIMARY KEY,
                root_id BIGINT NOT NULL,
                parent_id BIGINT NOT NULL,
                content_id BIGINT NOT NULL,
                path_string {path} NOT NULL,
                depth BIGINT NOT NULL,
                priority BIGINT NOT NULL,
                is_hidden BOOLEAN NOT NULL,
                is_invisible BOOLEAN NOT NULL,
                remote_id TEXT NOT NULL,
                sort_field TEXT NOT NULL,
                sort_order TEXT NOT NULL,
                trashed BIGINT NOT NULL
            );
            CREATE INDEX trash_root ON trash (root_id);
            CREATE INDEX trash_content ON trash (content_id)",
        )
        .await
    }
}
