//! A version's Fields are read in the order of their ids from the index that finds them, not
//! sorted after: SQLite sorted each read's rows, rich text and all, in a temporary tree.

use super::ddl;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "DROP INDEX content_fields_version;
            CREATE INDEX content_fields_version ON content_fields (content_id, version_no, id)",
        )
        .await
    }
}
