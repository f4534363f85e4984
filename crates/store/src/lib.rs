//! cairn's storage: sea-orm entities, the migrations that create the schema with the
//! reference's clean-install data, and connecting to SQLite or PostgreSQL.
//!
//! Queries take `&impl ConnectionTrait`, so the same code runs on the pool or inside a write
//! transaction. Nothing here knows HTTP.

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
pub use snapshot::reading;
