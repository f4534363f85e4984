//! `role_assignments`: a Role assigned to a user or user group (`content_id`), optionally
//! limited (`Section` or `Subtree`, values a JSON array of strings: Section ids, path strings).

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "role_assignments")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub role_id: i64,
        pub content_id: i64,
        pub limitation_identifier: Option<String>,
        pub limitation_values: Option<String>,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
