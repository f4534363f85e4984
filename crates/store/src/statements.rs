//! Counting statements: every statement run on a database (`Db`) counts for the process
//! (what an operation costs, which tests pin). A request's own count is its
//! [`Reader`](crate::Reader)'s.

use std::sync::atomic::{AtomicU64, Ordering};

/// Counts one statement, for the process.
pub(crate) fn counted(statements: &AtomicU64) {
    statements.fetch_add(1, Ordering::Relaxed);
}
