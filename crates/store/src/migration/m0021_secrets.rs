//! Secrets the server makes for itself and every instance on the database shares: the key that
//! signs JSON Web Tokens when `--jwt-key-file` names none.

use super::ddl;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "CREATE TABLE secrets (
                name TEXT NOT NULL PRIMARY KEY,
                value TEXT NOT NULL
            )",
        )
        .await
    }
}
