//! `content_type_group_links`: which groups a content type (or its draft) belongs to.

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "content_type_group_links")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub content_type_id: i64,
        #[sea_orm(primary_key, auto_increment = false)]
        pub status: i64,
        #[sea_orm(primary_key, auto_increment = false)]
        pub group_id: i64,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
