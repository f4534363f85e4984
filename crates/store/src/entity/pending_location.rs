//! `pending_locations`: where a never-published content item goes when its first version is
//! published.

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "pending_locations")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub content_id: i64,
        #[sea_orm(primary_key, auto_increment = false)]
        pub parent_id: i64,
        pub priority: i64,
        pub is_hidden: bool,
        pub remote_id: Option<String>,
        pub sort_field: Option<String>,
        pub sort_order: Option<String>,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
