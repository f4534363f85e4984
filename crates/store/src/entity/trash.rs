//! `trash`: the Locations of trashed subtrees, with their ids and paths as they were. A trash
//! item is a row whose `root_id` is its own id; the rest of its subtree shares its `root_id`.

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "trash")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: i64,
        pub root_id: i64,
        pub parent_id: i64,
        pub content_id: i64,
        pub path_string: String,
        pub depth: i64,
        pub priority: i64,
        pub is_hidden: bool,
        pub is_invisible: bool,
        pub remote_id: String,
        pub sort_field: String,
        pub sort_order: String,
        pub trashed: i64,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
