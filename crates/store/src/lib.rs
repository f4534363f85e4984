//! cairn's storage: sea-orm entities, the migrations that create the schema with the
//! reference's clean-install data, and connecting to SQLite or PostgreSQL.
//!
//! Queries take `&impl Connection` (sea-orm's connection or one of its transactions), so the
//! same code runs on the pool or inside a write transaction. Nothing here knows HTTP.

pub mod commits;
pub mod db;
pub mod direct;
pub mod entity;
pub mod events;
pub mod ids;
pub mod last;
pub mod maintenance;
pub mod migration;
pub mod notify;
pub mod password;
#[cfg(any(test, feature = "testing"))]
pub mod scratch;
pub mod snapshot;
pub mod sql;
pub mod sqlite;
pub mod watch;
pub mod write;

pub use db::{Db, DbOptions, count_statements};

/// What queries run on: sea-orm's connection (the pool) or a transaction of it. Its type is
/// known at run time ([`std::any::Any`]), so that a read on the SQLite pool runs in the
/// request's snapshot directly, without sea-orm's connection in between (`direct::models`).
pub trait Connection: sea_orm::ConnectionTrait + std::any::Any {}

impl<C: sea_orm::ConnectionTrait + std::any::Any> Connection for C {}
