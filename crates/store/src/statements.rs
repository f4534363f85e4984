//! Counting statements: every statement run on a database (`Db`) counts for the process and
//! for the request whose task runs it (what an operation costs, which tests pin).

use std::sync::atomic::{AtomicU64, Ordering};

tokio::task_local! {
    /// Statements run by the task of one request (see [`count_statements`]).
    static REQUEST_STATEMENTS: std::cell::Cell<u64>;
}

/// Runs `f` and counts the statements it runs on any database (`Db`) (a request's cost).
pub async fn count_statements<F: std::future::Future>(f: F) -> (F::Output, u64) {
    REQUEST_STATEMENTS
        .scope(std::cell::Cell::new(0), async {
            let out = f.await;
            (out, REQUEST_STATEMENTS.with(std::cell::Cell::get))
        })
        .await
}

/// Counts one statement, for the process and for the request running it.
pub(crate) fn counted(statements: &AtomicU64) {
    statements.fetch_add(1, Ordering::Relaxed);
    let _ = REQUEST_STATEMENTS.try_with(|n| n.set(n.get() + 1));
}
