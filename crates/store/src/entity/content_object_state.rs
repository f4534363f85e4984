//! `content_object_states`: the state a content item has in each Object state group.

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "content_object_states")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub content_id: i64,
        #[sea_orm(primary_key, auto_increment = false)]
        pub group_id: i64,
        pub state_id: i64,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
