//! `policy_limitations`: a limitation of a Policy (`Class`, `Section`, ...) and its values
//! (a JSON array of strings).

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "policy_limitations")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub policy_id: i64,
        pub identifier: String,
        pub limitation_values: String,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
