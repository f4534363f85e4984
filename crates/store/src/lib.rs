//! cairn's storage: sea-orm entities, the migrations that create the schema with the
//! reference's clean-install data, and connecting to SQLite or PostgreSQL.
//!
//! Queries take `&impl Connection` (a request's [`Reader`], sea-orm's connection, or the
//! [`Tx`] of a write), so the same code runs on the pool or inside a write transaction.
//! Nothing here knows HTTP.

pub mod commits;
pub mod db;
pub mod entity;
pub mod events;
pub mod failure;
pub mod ids;
pub mod maintenance;
pub mod migration;
mod nodelay;
pub mod notify;
pub mod password;
pub mod purges;
pub mod read;
pub mod reader;
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
pub use reader::Reader;
pub use tx::Tx;

/// What queries run on: a request's [`Reader`], sea-orm's connection (the pool) or a write's
/// transaction ([`Tx`]). Its type is known at run time ([`std::any::Any`]), so that a read of
/// models on SQLite (`read::models`) runs on the reader's or the transaction's connection
/// directly, its rows decoded straight into the caller's type.
pub trait Connection: sea_orm::ConnectionTrait + std::any::Any {}

impl<C: sea_orm::ConnectionTrait + std::any::Any> Connection for C {}
