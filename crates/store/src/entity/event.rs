//! `events`: the outbox, one row per committed change (see `events.rs`).

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "events")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: i64,
        /// Unix seconds of the change.
        pub at: i64,
        /// Who made it; none for a command run on the server.
        pub user_id: Option<i64>,
        /// What was done: the API operation (`publishVersion`) or the command (`import`).
        pub operation: String,
        /// What it was done to: the request's path under the API prefix.
        pub resource: String,
        /// What it touched, for caches (`c12 l45`); none when it may have changed anything.
        pub touched: Option<String>,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
