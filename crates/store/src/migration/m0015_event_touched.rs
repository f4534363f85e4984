//! What a change touched, for caches: the content items and Locations whose own
//! representations it changed (`c12 l45`), when the change names them; none when it may have
//! changed anything.

use super::ddl;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(manager, "ALTER TABLE events ADD COLUMN touched TEXT").await
    }
}
