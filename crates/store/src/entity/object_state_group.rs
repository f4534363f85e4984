//! `object_state_groups`: groups of Object states (one state of each per content item).

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "object_state_groups")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        #[sea_orm(unique)]
        pub identifier: String,
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
