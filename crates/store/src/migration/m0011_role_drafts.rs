//! A Role may be changed (through a draft of its own, made and published at once) while an
//! editor's draft of it is open, as in the reference: more than one draft of a Role may exist
//! for a moment, so the uniqueness of `original_id` goes (the index stays, for lookups).

use super::ddl;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "DROP INDEX roles_original;
            CREATE INDEX roles_original_id ON roles (original_id)",
        )
        .await
    }
}
