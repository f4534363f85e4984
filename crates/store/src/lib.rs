//! cairn's storage: sea-orm entities, the migrations that create the schema with the
//! reference's clean-install data, and connecting to SQLite or PostgreSQL.
//!
//! Queries take `&impl Connection` (sea-orm's connection, or the [`Tx`] of a write), so the
//! same code runs on the pool or inside a write transaction. Nothing here knows HTTP.

pub mod commits;
pub mod db;
pub mod entity;
pub mod events;
pub mod failure;
pub mod ids;
pub mod maintenance;
pub mod migration;
pub mod notify;
pub mod password;
pub mod read;
pub mod rows;
#[cfg(any(test, feature = "testing"))]
pub mod scratch;
pub mod sql;
pub mod sqlite;
pub mod statements;
pub mod tx;
pub mod watch;
pub mod write;

pub use db::{Db, DbOptions};
pub use statements::count_statements;
pub use tx::Tx;

/// What queries run on: sea-orm's connection (the pool) or a transaction of it. Its type is
/// known at run time ([`std::any::Any`]), so that a read on the SQLite pool runs in the
/// request's snapshot directly, without sea-orm's connection in between (`read::models`).
pub trait Connection: sea_orm::ConnectionTrait + std::any::Any {}

impl<C: sea_orm::ConnectionTrait + std::any::Any> Connection for C {}
