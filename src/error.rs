//! The domain error of every service, and its one mapping to HTTP.
//!
//! Services return [`Error`]; `impl From<Error> for HttpError` below is the only place that
//! picks a status code and decides what a client is told. Database and internal failures are
//! logged there with their cause and answered with the reference's generic 500 text.

use cairn_runtime::{FieldErrors, HttpError};
use poem::http::StatusCode;

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
    NotAcceptable(String),
    /// 409: the resource is in a state that excludes the operation.
    #[error("{0}")]
    Conflict(String),
    /// 429: too many failed logins; try again after `retry_after` seconds.
    #[error("Too many failed logins: try again in {retry_after} seconds")]
    TooManyRequests { retry_after: u64 },
    /// 404 with a message of its own (`Location 5 is not bookmarked`).
    #[error("{0}")]
    Absent(String),
    /// 404 without a body: the caller has no session (`GET /user/sessions/current`).
    #[error("Could not find 'Session' with identifier 'current'")]
    NoSession,
    /// The error, and the session cookie cleared with it (a session that is gone).
    #[error("{error}")]
    ClearingCookie {
        error: Box<Error>,
        set_cookie: String,
    },
    /// 400: field values that did not validate, each field with its errors.
    #[error("{message}")]
    InvalidFields {
        message: String,
        fields: Vec<FieldErrors>,
    },
    /// 410: what was asked for existed once and is gone for good (pruned events).
    #[error("{0}")]
    Gone(String),
    /// 412: the resource changed since the caller loaded it (`If-Match`).
    #[error("{0}")]
    PreconditionFailed(String),
    /// 503: a service the server depends on (the file storage) did not answer.
    #[error("{0}")]
    Unavailable(String),
    /// 501: an operation not implemented (stored views, as in the reference).
    #[error("The operation '{0}' is not implemented")]
    NotImplemented(&'static str),
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
            Error::NotAcceptable(_) => HttpError::new(StatusCode::NOT_ACCEPTABLE, description),
            Error::Conflict(_) => HttpError::conflict(description),
            Error::TooManyRequests { retry_after } => {
                HttpError::new(StatusCode::TOO_MANY_REQUESTS, description)
                    .with_header("retry-after", retry_after.to_string())
            }
            Error::Absent(_) => HttpError::not_found(description),
            Error::NoSession => HttpError::not_found(description).without_body(),
            Error::ClearingCookie { error, set_cookie } => {
                HttpError::from(*error).with_header("set-cookie", set_cookie)
            }
            Error::InvalidFields { fields, .. } => {
                let mut e = HttpError::bad_request(description);
                e.details = fields;
                e
            }
            Error::PreconditionFailed(_) => HttpError::precondition_failed(description),
            Error::Gone(_) => HttpError::new(StatusCode::GONE, description),
            Error::NotImplemented(_) => HttpError::not_implemented(description),
            Error::Unavailable(_) => {
                tracing::error!(error = %description, "a service the server depends on failed");
                HttpError::new(StatusCode::SERVICE_UNAVAILABLE, description)
            }
            Error::Db(ref db) => {
                let text = db.to_string();
                // PostgreSQL's statement_timeout, or SQLite's progress handler (`watch.rs`).
                if text.contains("canceling statement due to statement timeout")
                    || text.contains("interrupted")
                {
                    tracing::warn!(error = %db, "a statement ran past its time limit");
                    return HttpError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "The request took too long and was stopped: ask for less at a time",
                    );
                }
                if text.contains("deadlock detected")
                    || text.contains(cairn_store::sqlite::ABANDONED)
                {
                    // PostgreSQL rolled this write back to let a concurrent one finish, or
                    // SQLite's with a write of its group that failed to roll back alone.
                    tracing::warn!(error = %db, "a write was rolled back for a deadlock");
                    return HttpError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "The write met a concurrent write and was rolled back: send it again",
                    )
                    .with_header("retry-after", "1");
                }
                if cairn_store::sql::unique_violation(db) {
                    // A concurrent writer got there first.
                    return HttpError::forbidden(
                        "The resource was changed concurrently: an identifier is already taken",
                    );
                }
                tracing::error!(error = %db, "database error");
                HttpError::internal()
            }
            Error::Internal(ref m) => {
                tracing::error!(error = %m, "internal error");
                HttpError::internal()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a database failure tells the client: a deadlock that PostgreSQL broke is a write
    /// to send again (503 with Retry-After), a taken identifier a 403, anything else a 500
    /// that names nothing of the database.
    #[test]
    fn database_failures_map_to_what_the_client_can_do() {
        let status = |text: &str| {
            let e = HttpError::from(Error::Db(sea_orm::DbErr::Custom(text.into())));
            (e.status.as_u16(), e.headers)
        };
        let (code, headers) = status("error returned from database: deadlock detected");
        assert_eq!(code, 503);
        assert_eq!(headers, [("retry-after".to_string(), "1".to_string())]);
        assert_eq!(
            status("UNIQUE constraint failed: contents.remote_id").0,
            403
        );
        assert_eq!(status(cairn_store::sqlite::ABANDONED).0, 503);
        assert_eq!(status("no such table: x").0, 500);
    }
}
