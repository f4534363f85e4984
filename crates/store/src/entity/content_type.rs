//! `content_types`: a content type is a DEFINED row (`status` 0) and at most one DRAFT row
//! (`status` 1) with the same id.

use sea_orm::entity::prelude::*;

pub const DEFINED: i64 = 0;
pub const DRAFT: i64 = 1;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "content_types")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: i64,
        #[sea_orm(primary_key, auto_increment = false)]
        pub status: i64,
        pub identifier: String,
        pub remote_id: String,
        /// JSON object: language code → name.
        pub names: String,
        /// JSON object: language code → description.
        pub descriptions: String,
        pub name_schema: Option<String>,
        pub url_alias_schema: Option<String>,
        pub is_container: bool,
        pub main_language_code: String,
        pub default_always_available: bool,
        /// `PATH`, `PUBLISHED`, `NAME`, ... as the API names them.
        pub default_sort_field: String,
        /// `ASC` or `DESC`.
        pub default_sort_order: String,
        pub created: i64,
        pub modified: i64,
        pub creator_id: i64,
        pub modifier_id: i64,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
