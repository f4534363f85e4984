//! Indexes for the criteria and sort clauses of search views: dates and names of content
//! items, and Field sort keys by Field definition.

use super::ddl;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "CREATE INDEX contents_modified ON contents (modified);
            CREATE INDEX contents_published ON contents (published);
            CREATE INDEX contents_name ON contents (name);
            DROP INDEX content_fields_definition;
            CREATE INDEX content_fields_sort_int ON content_fields (field_definition_id, sort_key_int);
            CREATE INDEX content_fields_sort_string ON content_fields (field_definition_id, sort_key_string)",
        )
        .await
    }
}
