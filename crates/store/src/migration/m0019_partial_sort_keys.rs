//! The sort-key indexes of Fields hold only the Fields that have a sort key: a Field whose
//! key is empty (`''`, `0`; most Fields of most items) no longer costs every create a page of
//! each index, one per Field definition (12 of a folder create's 36 pages).

use super::ddl;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "DROP INDEX content_fields_sort_int;
            DROP INDEX content_fields_sort_string;
            CREATE INDEX content_fields_sort_int ON content_fields (field_definition_id, sort_key_int) WHERE sort_key_int <> 0;
            CREATE INDEX content_fields_sort_string ON content_fields (field_definition_id, sort_key_string) WHERE sort_key_string <> ''",
        )
        .await
    }
}
