//! The domain error of every service, and its one mapping to HTTP.
//!
//! Services return [`Error`], which names what happened; `impl From<Error> for HttpError`
//! below is the only place that picks a status code and headers and decides what a client is
//! told. A database error is read by its code (`cairn_store::failure`): a database that is
//! away (unreachable, out of connections or disk) is a 503 with `Retry-After` that says which;
//! one not understood, and internal failures, are logged with their cause and answered with
//! the reference's generic 500 text.

use cairn_runtime::{FieldErrors, HttpError};
use cairn_store::failure::Failure;
use poem::http::StatusCode;

/// What went wrong, named by its condition. The first ones take the names of the reference's
/// own exceptions (`NotFound`, `BadRequest`, `Unauthorized`, `Forbidden`, `InvalidArgument`,
/// `BadState`); the status each answers with is chosen in [`HttpError::from`], nowhere else.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// 404: `Could not find '<what>' with identifier '<id>'`.
    #[error("Could not find '{what}' with identifier '{id}'")]
    NotFound { what: &'static str, id: String },
    /// 400: the input is malformed or invalid.
    #[error("{0}")]
    BadRequest(String),
    /// 401: not authenticated as a user allowed to do this, or bad credentials.
    #[error("{0}")]
    Unauthorized(String),
    /// 403: the operation conflicts with the resource's state (duplicate identifier, ...).
    #[error("{0}")]
    Forbidden(String),
    /// 406: an argument names something the resource does not have (a translation).
    #[error("{0}")]
    InvalidArgument(String),
    /// 409: the resource is in a state that excludes the operation.
    #[error("{0}")]
    BadState(String),
    /// 429: failed logins for this login or address make the caller wait `wait_secs` seconds.
    #[error("Too many failed logins: try again in {wait_secs} seconds")]
    LoginsThrottled { wait_secs: u64 },
    /// 404 with a message of its own (`Location 5 is not bookmarked`).
    #[error("{0}")]
    Absent(String),
    /// 404 without a body: the caller has no session (`GET /user/sessions/current`).
    #[error("Could not find 'Session' with identifier 'current'")]
    NoSession,
    /// 404: the session `id` is not the caller's (it ended, or never was); the caller's
    /// session cookie is forgotten with `clear_cookie` (a `Set-Cookie` value).
    #[error("Could not find 'Session' with identifier '{id}'")]
    SessionGone { id: String, clear_cookie: String },
    /// 400: field values that did not validate, each field with its errors.
    #[error("{message}")]
    InvalidFields {
        message: String,
        fields: Vec<FieldErrors>,
    },
    /// 410: what was asked for existed once and was pruned for good (events).
    #[error("{0}")]
    Pruned(String),
    /// 412: the resource changed since the caller loaded it (`If-Match`).
    #[error("{0}")]
    Stale(String),
    /// 503 with `Retry-After`: too much work is waiting (image variations to render).
    #[error("{0}")]
    Busy(String),
    /// 503: the file storage failed to keep or give a file.
    #[error("{0}")]
    StorageFailed(String),
    /// 501: an operation not implemented (stored views, as in the reference).
    #[error("The operation '{0}' is not implemented")]
    NotImplemented(&'static str),
    /// A database error, read by its code ([`Failure`]).
    #[error("database error: {0}")]
    Db(#[from] sea_orm::DbErr),
    #[error("internal error: {0}")]
    Internal(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn not_found(what: &'static str, id: impl ToString) -> Error {
        Error::NotFound {
            what,
            id: id.to_string(),
        }
    }

    /// The error of an operation not implemented.
    pub fn not_implemented(operation: &'static str) -> Error {
        Error::NotImplemented(operation)
    }
}

impl From<Error> for HttpError {
    fn from(e: Error) -> HttpError {
        let description = e.to_string();
        match e {
            Error::NotFound { .. } => HttpError::not_found(description),
            Error::BadRequest(_) => HttpError::bad_request(description),
            Error::Unauthorized(_) => HttpError::unauthorized(description),
            Error::Forbidden(_) => HttpError::forbidden(description),
            Error::InvalidArgument(_) => HttpError::new(StatusCode::NOT_ACCEPTABLE, description),
            Error::BadState(_) => HttpError::conflict(description),
            Error::LoginsThrottled { wait_secs } => {
                HttpError::new(StatusCode::TOO_MANY_REQUESTS, description)
                    .with_header("retry-after", wait_secs.to_string())
            }
            Error::Absent(_) => HttpError::not_found(description),
            Error::NoSession => HttpError::not_found(description).without_body(),
            Error::SessionGone { clear_cookie, .. } => {
                HttpError::not_found(description).with_header("set-cookie", clear_cookie)
            }
            Error::InvalidFields { fields, .. } => {
                let mut e = HttpError::bad_request(description);
                e.details = fields;
                e
            }
            Error::Stale(_) => HttpError::precondition_failed(description),
            Error::Pruned(_) => HttpError::new(StatusCode::GONE, description),
            Error::NotImplemented(_) => HttpError::not_implemented(description),
            Error::Busy(_) => unavailable(description, 1),
            Error::StorageFailed(_) => {
                tracing::error!(error = %description, "the file storage failed");
                unavailable(description, STORAGE_RETRY)
            }
            Error::Db(ref db) => database(db),
            Error::Internal(ref m) => {
                tracing::error!(error = %m, "internal error");
                HttpError::internal()
            }
        }
    }
}

/// Seconds a client is told to wait before it tries again (`Retry-After`): after a write
/// rolled back for a concurrent one, or while every connection of the pool is in use.
const BUSY_RETRY: u64 = 1;
/// ... while the database cannot be reached, takes no writes or fails its I/O (a restart, a
/// failover).
const AWAY_RETRY: u64 = 5;
/// ... while the database's disk is full (someone has to make room).
const FULL_RETRY: u64 = 30;
/// ... after the file storage failed.
const STORAGE_RETRY: u64 = 5;

/// A 503 saying `description`, with `Retry-After: retry`, so that clients and load balancers
/// try again.
fn unavailable(description: impl Into<String>, retry: u64) -> HttpError {
    HttpError::new(StatusCode::SERVICE_UNAVAILABLE, description)
        .with_header("retry-after", retry.to_string())
}

/// What a database error tells the client, by what its code means ([`Failure`]).
fn database(db: &sea_orm::DbErr) -> HttpError {
    let failure = Failure::of(db);
    if failure.is_unavailable() {
        tracing::warn!(error = %db, ?failure, "the database is unavailable");
    }
    match failure {
        // A concurrent writer got there first.
        Failure::UniqueViolation => HttpError::forbidden(
            "The resource was changed concurrently: an identifier is already taken",
        ),
        Failure::TimedOut => {
            // PostgreSQL's statement_timeout, or SQLite's progress handler (`watch.rs`).
            tracing::warn!(error = %db, "a statement ran past its time limit");
            HttpError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "The request took too long and was stopped: ask for less at a time",
            )
        }
        Failure::Contention => {
            // PostgreSQL rolled this write back to let a concurrent one finish, or SQLite's
            // with a write of its group that failed.
            tracing::warn!(error = %db, "a write was rolled back for a concurrent one");
            unavailable(
                "The write met a concurrent write and was rolled back: send it again",
                BUSY_RETRY,
            )
        }
        Failure::Unreachable => unavailable(
            "The database cannot be reached: try again shortly",
            AWAY_RETRY,
        ),
        Failure::PoolExhausted => unavailable(
            "No connection to the database could be had in time (every one in use, or none \
             accepted): try again shortly",
            BUSY_RETRY,
        ),
        Failure::DiskFull => unavailable(
            "The database's disk is full: nothing was written; try again later",
            FULL_RETRY,
        ),
        Failure::ReadOnly => unavailable(
            "The database takes no writes at the moment: try again shortly",
            AWAY_RETRY,
        ),
        Failure::Io => unavailable(
            "The database's storage failed to read or write: try again shortly",
            AWAY_RETRY,
        ),
        Failure::Other => {
            tracing::error!(error = %db, "database error");
            HttpError::internal()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairn_store::failure::SqliteError;
    use sea_orm::DbErr;

    fn answer(e: DbErr) -> (u16, String, Vec<(String, String)>) {
        let e = HttpError::from(Error::Db(e));
        (e.status.as_u16(), e.description, e.headers)
    }

    fn retry(after: &str) -> Vec<(String, String)> {
        vec![("retry-after".to_string(), after.to_string())]
    }

    /// What a database failure tells the client, by its code: a write rolled back for a
    /// concurrent one is to be sent again (503 with Retry-After), a taken identifier a 403, a
    /// database away a 503 with Retry-After that says which, anything else a 500 that names
    /// nothing of the database, whatever its message says.
    #[test]
    fn database_failures_map_to_what_the_client_can_do() {
        // SQLite's extended result codes (https://sqlite.org/rescode.html).
        mod ffi {
            pub const SQLITE_ERROR: i32 = 1;
            pub const SQLITE_BUSY: i32 = 5;
            pub const SQLITE_FULL: i32 = 13;
            pub const SQLITE_ABORT_ROLLBACK: i32 = 516;
            pub const SQLITE_CONSTRAINT_UNIQUE: i32 = 2067;
        }
        let sqlite = |code| SqliteError::db_err(code, "deadlock detected".into());
        let (status, _, headers) = answer(sqlite(ffi::SQLITE_BUSY));
        assert_eq!((status, headers), (503, retry("1")));
        assert_eq!(answer(sqlite(ffi::SQLITE_CONSTRAINT_UNIQUE)).0, 403);
        assert_eq!(answer(sqlite(ffi::SQLITE_ABORT_ROLLBACK)).0, 503);
        let (status, text, headers) = answer(sqlite(ffi::SQLITE_FULL));
        assert_eq!((status, headers), (503, retry("30")));
        assert!(text.contains("disk is full"), "{text}");
        let acquire = DbErr::ConnectionAcquire(sea_orm::ConnAcquireErr::Timeout);
        let (status, text, headers) = answer(acquire);
        assert_eq!((status, headers), (503, retry("1")));
        assert!(text.contains("No connection"), "{text}");
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        let refused = sea_orm::sqlx::Error::Io(refused);
        let (status, text, headers) = answer(DbErr::Conn(sea_orm::RuntimeErr::SqlxError(
            std::sync::Arc::new(refused),
        )));
        assert_eq!((status, headers), (503, retry("5")));
        assert!(text.contains("cannot be reached"), "{text}");
        // Text is never read: a message that reads like a deadlock is still a 500.
        let (status, text, _) = answer(DbErr::Custom("deadlock detected".into()));
        assert_eq!(status, 500);
        assert!(!text.contains("deadlock"), "{text}");
        assert_eq!(answer(sqlite(ffi::SQLITE_ERROR)).0, 500);
    }
}
