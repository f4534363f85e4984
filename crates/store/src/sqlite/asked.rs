//! What a read asked of the statement it runs through sea-orm's connection: its rows decoded
//! straight into the caller's type (`read::models`), which sea-orm's proxy cannot return. The
//! reader sets it around the statement ([`asking`]); the proxy ([`super::proxy`]) takes it,
//! decodes, and leaves the answer.

use crate::rows::Decode;
use sea_orm::DbErr;
use std::any::Any;
use std::cell::RefCell;

/// What the scope around one statement holds.
enum Asked {
    /// Rows wanted decoded so.
    Rows(Decode),
    /// Taken by the proxy, which is running the statement.
    Taken,
    /// The proxy's answer.
    Decoded(Box<dyn Any + Send>),
}

tokio::task_local! {
    static ASKED: RefCell<Asked>;
}

/// Runs `f` (one statement through sea-orm's connection) asking for its rows decoded by
/// `decode`: what the proxy decoded, if it answered (on PostgreSQL nothing does).
pub(crate) async fn asking<T>(
    decode: Decode,
    f: impl Future<Output = Result<T, DbErr>>,
) -> Result<(T, Option<Box<dyn Any + Send>>), DbErr> {
    ASKED
        .scope(RefCell::new(Asked::Rows(decode)), async {
            let out = f.await?;
            match ASKED.with(|a| a.replace(Asked::Taken)) {
                Asked::Decoded(rows) => Ok((out, Some(rows))),
                _ => Ok((out, None)),
            }
        })
        .await
}

/// For the proxy, about to run a statement: how its caller wants the rows decoded, if it asked
/// (taken: a second statement in the same scope is answered with sea-orm's rows).
pub(crate) fn take() -> Option<Decode> {
    ASKED
        .try_with(|a| {
            let mut a = a.borrow_mut();
            match *a {
                Asked::Rows(decode) => {
                    *a = Asked::Taken;
                    Some(decode)
                }
                _ => None,
            }
        })
        .ok()
        .flatten()
}

/// For the proxy: the decoded rows of the statement it took.
pub(crate) fn answer(out: Box<dyn Any + Send>) {
    let _ = ASKED.try_with(|a| *a.borrow_mut() = Asked::Decoded(out));
}
