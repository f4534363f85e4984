//! `roles`: published Roles (`status` 0) and Role drafts (`status` 1, `original_id` the
//! published Role they edit, none for a Role created as a draft).

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "roles")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        /// Unique among published Roles.
        pub identifier: String,
        pub status: i64,
        pub original_id: Option<i64>,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
