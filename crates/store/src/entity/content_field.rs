//! `content_fields`: a field's value in one version and language. A field keeps its id
//! across versions.

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "content_fields")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: i64,
        #[sea_orm(primary_key, auto_increment = false)]
        pub version_no: i64,
        pub content_id: i64,
        pub field_definition_id: i64,
        pub language_code: String,
        /// JSON: the value as its field type stores it.
        pub value: String,
        pub sort_key_string: String,
        pub sort_key_int: i64,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
