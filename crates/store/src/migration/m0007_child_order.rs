//! Indexes that give the children of a Location in the order of the common sort fields
//! (PATH, PRIORITY, NODE_ID) without sorting them all: a page at a large offset walks the
//! index.

use super::ddl;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "DROP INDEX locations_parent;
            CREATE INDEX locations_parent_priority ON locations (parent_id, priority, id);
            CREATE INDEX locations_parent_path ON locations (parent_id, path_string)",
        )
        .await
    }
}
