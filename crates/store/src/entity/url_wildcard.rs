//! `url_wildcards`: URL patterns (`/source/*`) rewritten or redirected to a destination
//! (`/destination/{1}`).

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "url_wildcards")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        #[sea_orm(unique)]
        pub source_url: String,
        pub destination_url: String,
        /// Redirect instead of rewriting in place.
        pub forward: bool,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
