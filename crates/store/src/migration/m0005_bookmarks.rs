//! Bookmarks: the Locations each user has marked. A user's bookmarks go with the user; the
//! bookmarks of a Location are removed by the service before the Location is deleted or
//! trashed.

use super::ddl;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "CREATE TABLE bookmarks (
                user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                location_id BIGINT NOT NULL,
                created BIGINT NOT NULL,
                PRIMARY KEY (user_id, location_id)
            );
            CREATE INDEX bookmarks_location ON bookmarks (location_id);
            CREATE INDEX bookmarks_user_created ON bookmarks (user_id, created)",
        )
        .await
    }
}
