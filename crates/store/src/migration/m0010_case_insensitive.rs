//! Indexes for the lookups the reference makes without regard to case (its MySQL collation):
//! remote ids of content items and Locations.

use super::ddl;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "CREATE INDEX contents_remote_id_lower ON contents (LOWER(remote_id));
            CREATE INDEX locations_remote_id_lower ON locations (LOWER(remote_id))",
        )
        .await
    }
}
