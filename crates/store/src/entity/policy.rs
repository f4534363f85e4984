//! `policies`: what a Role (or Role draft) allows, `module`/`function` (`*` for any);
//! `original_id` names the published Policy a draft's Policy was copied from.

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "policies")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: i64,
        pub role_id: i64,
        pub module: String,
        pub function: String,
        pub original_id: Option<i64>,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
