//! `content_versions`: the versions of a content item.

use sea_orm::entity::prelude::*;

pub const DRAFT: i64 = 0;
pub const PUBLISHED: i64 = 1;
pub const ARCHIVED: i64 = 3;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "content_versions")]
    pub struct Model {
        /// The version record's own id.
        #[sea_orm(primary_key)]
        pub id: i64,
        pub content_id: i64,
        pub version_no: i64,
        pub status: i64,
        pub creator_id: i64,
        pub created: i64,
        pub modified: i64,
        pub initial_language_code: String,
        /// Comma-separated language codes, in the order they were added.
        pub language_codes: String,
        /// JSON object: language code → name.
        pub names: String,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
