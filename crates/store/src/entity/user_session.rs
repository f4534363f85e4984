//! `user_sessions`: logged-in sessions, shared by every server instance.

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "user_sessions")]
    pub struct Model {
        /// The session id: the cookie's value.
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: String,
        pub user_id: i64,
        pub csrf_token: String,
        pub created_at: i64,
        /// Refreshed at most once a minute; a session idle longer than the timeout is gone.
        pub last_seen_at: i64,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
