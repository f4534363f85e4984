//! A user's token epoch: counted up when its account is disabled or gets another password, it
//! is part of what a JSON Web Token vouches for, so tokens issued before end, also once the
//! account is enabled again.

use super::ddl;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "ALTER TABLE users ADD COLUMN token_epoch BIGINT NOT NULL DEFAULT 0",
        )
        .await
    }
}
