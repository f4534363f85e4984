//! `users`: the account of a user; `id` is the user's content id.

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "users")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: i64,
        #[sea_orm(unique)]
        pub login: String,
        pub email: String,
        /// An argon2 PHC string.
        pub password_hash: String,
        pub password_updated_at: Option<i64>,
        pub enabled: bool,
        pub max_login: i64,
        /// Counted up when the account is disabled or gets another password: JSON Web Tokens
        /// issued before no longer hold.
        pub token_epoch: i64,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
