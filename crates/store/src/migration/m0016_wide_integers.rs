//! Every integer column is 64-bit, as the entities read them: SQLite's rows carry no narrower
//! integer (`crate::sqlite`), so the status and relation type columns, `INTEGER` on
//! PostgreSQL in databases made before this migration, become `BIGINT` there (migrations 2
//! and 3 now make them so). SQLite's `INTEGER` already holds 64 bits.

use super::postgres_only;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        postgres_only(
            manager,
            "ALTER TABLE contents ALTER COLUMN status TYPE BIGINT;
            ALTER TABLE content_versions ALTER COLUMN status TYPE BIGINT;
            ALTER TABLE content_types ALTER COLUMN status TYPE BIGINT;
            ALTER TABLE content_type_group_links ALTER COLUMN status TYPE BIGINT;
            ALTER TABLE field_definitions ALTER COLUMN status TYPE BIGINT;
            ALTER TABLE content_relations ALTER COLUMN relation_type TYPE BIGINT",
        )
        .await
    }
}
