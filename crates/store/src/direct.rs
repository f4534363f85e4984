//! Models read straight from SQLite's rows, for the reads that take whole models (`sql::by_id`,
//! `sql::Kept`, `sql::models`). Through sea-orm's proxy every row is first a map of each value
//! under its column's name (and its position), which sea-orm then reads back a value at a time,
//! cloning each: for an uncached Content read that was a sixth of the server's time, more than
//! SQLite's own stepping (`crates/bench/README.md`, "Models straight from SQLite's rows").
//!
//! A read on the pool's connection inside a request runs in the request's read transaction
//! directly (`snapshot::with_shared`): sea-orm's connection would box and move futures of
//! kilobytes for each statement, a tenth of an uncached Location read. Any other statement
//! (a write's transaction, or outside a request) still goes through sea-orm's connection, so
//! it runs where it would; [`models`] asks, in a task-local scope around it, that our proxy
//! (`sqlite/`) decode its rows into the caller's type, and takes them from the scope
//! afterwards. On PostgreSQL nothing answers the request and the rows are read as sea-orm
//! reads them. A model is declared with [`from_row!`], which
//! keeps its struct as written and reads each field from the column of the field's name.

use crate::Connection;
use sea_orm::{DbErr, FromQueryResult, Statement};
use std::any::Any;
use std::cell::RefCell;

pub use rusqlite::Result as RowResult;
pub use rusqlite::Row;

/// A type read from one row of SQLite, each field from the column of its name.
pub trait FromRow: Sized + Send + 'static {
    /// `columns` are the statement's column names, by position.
    fn from_row<S: AsRef<str>>(row: &Row<'_>, columns: &[S]) -> RowResult<Self>;
}

/// The value of the column `name` (the last of that name, as sea-orm's rows keep it).
pub fn column<T: rusqlite::types::FromSql, S: AsRef<str>>(
    row: &Row<'_>,
    columns: &[S],
    name: &str,
) -> RowResult<T> {
    let i = (columns.iter().rposition(|c| c.as_ref() == name))
        .ok_or_else(|| rusqlite::Error::InvalidColumnName(name.to_owned()))?;
    row.get(i)
}

/// A model read from the columns named `pre` followed by its fields' names: one of several
/// models in a row of a join (see [`crate::sql::columns_as`]).
pub fn prefixed<M: FromRow, S: AsRef<str>>(
    row: &Row<'_>,
    columns: &[S],
    pre: &str,
) -> RowResult<M> {
    let names: Vec<&str> = (columns.iter())
        .map(|c| c.as_ref().strip_prefix(pre).unwrap_or_default())
        .collect();
    M::from_row(row, &names)
}

/// Declares a struct (a sea-orm model, or a row of a query) with its [`FromRow`] reading.
#[macro_export]
macro_rules! from_row {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$fmeta:meta])* $fvis:vis $field:ident : $ty:ty),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $($(#[$fmeta])* $fvis $field : $ty),*
        }

        impl $crate::direct::FromRow for $name {
            fn from_row<S: AsRef<str>>(
                row: &$crate::direct::Row<'_>,
                columns: &[S],
            ) -> $crate::direct::RowResult<Self> {
                Ok($name {
                    $($field: $crate::direct::column(row, columns, stringify!($field))?),*
                })
            }
        }
    };
}

/// Reads every row of a statement into a `Vec` of one [`FromRow`] type.
pub(crate) type Decode = fn(&mut rusqlite::Rows<'_>, &[String]) -> RowResult<Box<dyn Any + Send>>;

fn decode_all<M: FromRow>(
    rows: &mut rusqlite::Rows<'_>,
    columns: &[String],
) -> RowResult<Box<dyn Any + Send>> {
    let mut out = Vec::<M>::new();
    while let Some(row) = rows.next()? {
        out.push(M::from_row(row, columns)?);
    }
    Ok(Box::new(out))
}

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

/// Every row of `s`, as `M`: decoded by SQLite's proxy straight from its rows, or else (on
/// PostgreSQL) read from sea-orm's.
pub async fn models<M: FromRow + FromQueryResult>(
    db: &impl Connection,
    s: Statement,
) -> Result<Vec<M>, DbErr> {
    let shared = (db as &dyn Any).downcast_ref::<sea_orm::DatabaseConnection>();
    if let Some(out) =
        shared.and_then(|c| crate::snapshot::with_shared(c, |l| l.decode(&s, decode_all::<M>)))
    {
        #[cfg(test)]
        SHARED_READS.with(|n| n.set(n.get() + 1));
        return out.and_then(downcast);
    }
    let asked = RefCell::new(Asked::Rows(decode_all::<M>));
    ASKED
        .scope(asked, async {
            let rows = db.query_all_raw(s).await?;
            match ASKED.with(|a| a.replace(Asked::Taken)) {
                Asked::Decoded(out) => downcast(out),
                _ => {
                    // Every SQLite connection here is the proxy, which answers.
                    debug_assert_ne!(db.get_database_backend(), sea_orm::DbBackend::Sqlite);
                    rows.iter().map(|r| M::from_query_result(r, "")).collect()
                }
            }
        })
        .await
}

#[cfg(test)]
thread_local! {
    /// Reads [`models`] ran in the snapshot directly, on this thread (tests).
    pub(crate) static SHARED_READS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn downcast<M: 'static>(out: Box<dyn Any + Send>) -> Result<Vec<M>, DbErr> {
    (out.downcast::<Vec<M>>())
        .map(|out| *out)
        .map_err(|_| DbErr::Custom("rows decoded as another type".into()))
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
