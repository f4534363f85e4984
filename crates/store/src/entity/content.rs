//! `contents`: a content item's version-independent metadata.

use sea_orm::entity::prelude::*;

/// Never published: only drafts exist.
pub const DRAFT: i64 = 0;
pub const PUBLISHED: i64 = 1;
/// Its last Location went to the Trash.
pub const TRASHED: i64 = 2;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "contents")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub content_type_id: i64,
        pub section_id: i64,
        pub owner_id: i64,
        #[sea_orm(unique)]
        pub remote_id: String,
        pub main_language_code: String,
        pub always_available: bool,
        /// The published version's number (1 while only the first draft exists).
        pub current_version: i64,
        pub status: i64,
        /// First publication (0 before).
        pub published: i64,
        pub modified: i64,
        pub is_hidden: bool,
        pub main_location_id: Option<i64>,
        /// The current version's name in the main language.
        pub name: String,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
