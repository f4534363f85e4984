//! Each Location carries its content's Section (`locations.section_id`), so that a page of
//! children that a Section limitation filters (the anonymous user's read) is walked in the
//! index of the parent's children alone, without the content row of every child it skips.

use super::ddl;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "ALTER TABLE locations ADD COLUMN section_id BIGINT NOT NULL DEFAULT 1;
            UPDATE locations SET section_id = COALESCE((SELECT c.section_id FROM contents c WHERE c.id = locations.content_id), 1);
            DROP INDEX locations_parent_priority;
            DROP INDEX locations_parent_path;
            CREATE INDEX locations_parent_priority ON locations (parent_id, priority, id, section_id);
            CREATE INDEX locations_parent_path ON locations (parent_id, path_string, section_id)",
        )
        .await
    }
}
