//! `languages`: the languages content can be translated into. Ids are bit flags (2, 4, 8, ...).

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "languages")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: i64,
        #[sea_orm(unique)]
        pub language_code: String,
        pub name: String,
        pub enabled: bool,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
