//! The columns a search filters, counts and aggregates its content items by most often (the
//! status, content type and Section; the dates of its ranges and sort) in one index, so that
//! the count of a search and its term and date aggregations over many items read the index
//! alone, not each item's row (issue 45: 100,000 matches counted and aggregated).

use super::ddl;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "CREATE INDEX contents_facets ON contents (status, content_type_id, section_id, published, modified)",
        )
        .await
    }
}
