//! On PostgreSQL the shared ids other than the events' come from sequences (`ids_<name>`,
//! starting where the `id_sequences` row stood, which goes): taking an id then holds no row
//! lock until commit, so writers of content no longer wait for each other's commit
//! (`crate::ids`). SQLite keeps the table: its writers are serialised anyway.

use super::postgres_only;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        postgres_only(
            manager,
            "DO $$
            DECLARE r record;
            BEGIN
                FOR r IN SELECT name, next_id FROM id_sequences WHERE name <> 'events' LOOP
                    EXECUTE format('CREATE SEQUENCE %I START WITH %s', 'ids_' || r.name, r.next_id);
                END LOOP;
                DELETE FROM id_sequences WHERE name <> 'events';
            END $$",
        )
        .await
    }
}
