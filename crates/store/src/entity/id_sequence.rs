//! `id_sequences`: the next id of tables whose rows share ids across statuses (content
//! types and Field definitions: a draft has the id of what it changes), and of the events. On
//! PostgreSQL only the events' row is left: the others are sequences (`crate::ids`).

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "id_sequences")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub name: String,
        pub next_id: i64,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
