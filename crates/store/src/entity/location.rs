//! `locations`: the tree of Locations, by materialized path (`/1/2/42/`). Location 1 is the
//! virtual root (content 0, its own parent).

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "locations")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub parent_id: i64,
        pub content_id: i64,
        /// `/1/2/42/`: ids from the root, with leading and trailing slashes.
        pub path_string: String,
        pub depth: i64,
        pub priority: i64,
        /// Hidden by itself.
        pub is_hidden: bool,
        /// Hidden by itself, its content or an ancestor.
        pub is_invisible: bool,
        #[sea_orm(unique)]
        pub remote_id: String,
        /// `PATH`, `PUBLISHED`, `NAME`, ...: how its children sort.
        pub sort_field: String,
        /// `ASC` or `DESC`.
        pub sort_order: String,
        /// The Section of its content, kept with it (`tree::create`, a Section change, a
        /// swap, a restore), for the permission filters of lists of Locations.
        pub section_id: i64,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
