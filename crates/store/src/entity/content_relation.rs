//! `content_relations`: relations from a version to other content items.

use sea_orm::entity::prelude::*;

pub const COMMON: i64 = 1;
pub const EMBED: i64 = 2;
pub const LINK: i64 = 4;
pub const ATTRIBUTE: i64 = 8;
pub const ASSET: i64 = 16;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "content_relations")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub source_content_id: i64,
        pub source_version_no: i64,
        pub destination_content_id: i64,
        pub relation_type: i64,
        /// The Field definition of an ATTRIBUTE or ASSET relation.
        pub source_field_definition_id: Option<i64>,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
