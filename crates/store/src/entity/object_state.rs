//! `object_states`: the states of an Object state group, ordered by priority.

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "object_states")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub group_id: i64,
        pub identifier: String,
        pub priority: i64,
        pub default_language_code: String,
        /// JSON object: language code → name.
        pub names: String,
        /// JSON object: language code → description.
        pub descriptions: String,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
