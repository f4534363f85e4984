//! The full-text index: SQLite FTS5 (`content_text`, rowid = content id, removed with its
//! content item by a trigger; `content_words`, its vocabulary with document counts) or a PostgreSQL `tsvector` per content item with a GIN index.
//! Documents are written by the server (`src/full_text/`), which also fills in the ones
//! missing at start-up.

use super::ddl;
use sea_orm::{ConnectionTrait, DbBackend};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        match manager.get_database_backend() {
            DbBackend::Postgres => {
                ddl(
                    manager,
                    "CREATE TABLE content_text (
                        content_id BIGINT PRIMARY KEY REFERENCES contents (id) ON DELETE CASCADE,
                        body TSVECTOR NOT NULL
                    );
                    CREATE INDEX content_text_body ON content_text USING GIN (body)",
                )
                .await
            }
            _ => {
                let conn = manager.get_connection();
                conn.execute_unprepared(
                    "CREATE VIRTUAL TABLE content_text USING fts5(body, tokenize = 'unicode61 remove_diacritics 0')",
                )
                .await?;
                conn.execute_unprepared(
                    "CREATE VIRTUAL TABLE content_words USING fts5vocab(content_text, row)",
                )
                .await?;
                conn.execute_unprepared(
                    "CREATE TRIGGER contents_text_delete AFTER DELETE ON contents BEGIN \
                     DELETE FROM content_text WHERE rowid = old.id; END",
                )
                .await?;
                Ok(())
            }
        }
    }
}
