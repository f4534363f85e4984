//! The HTTP side of an error: a status and what the client is told. Services map their own
//! domain errors into this type in one place; the generated code writes it as an
//! `ErrorMessage` body in the negotiated format.

use poem::http::StatusCode;
use std::fmt;

/// What the `ErrorMessage` of a 500 says instead of the internal cause (which is logged).
pub const INTERNAL_DESCRIPTION: &str =
    "An error has occurred. Please try again later or contact your Administrator.";

#[derive(Debug, Clone, PartialEq)]
pub struct HttpError {
    pub status: StatusCode,
    pub description: String,
    /// Per-field validation failures (400 on content fields).
    pub details: Vec<FieldErrors>,
    /// Headers to send with the error (`Allow` on 405, `Set-Cookie`).
    pub headers: Vec<(String, String)>,
    /// Sent without an `ErrorMessage` body (where the reference sends none).
    pub bare: bool,
}

/// The validation failures of one field, keyed by its Field definition id.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldErrors {
    pub field_definition_id: i64,
    /// (type, message) pairs.
    pub errors: Vec<(String, String)>,
}

impl HttpError {
    pub fn new(status: StatusCode, description: impl Into<String>) -> HttpError {
        HttpError {
            status,
            description: description.into(),
            details: Vec::new(),
            headers: Vec::new(),
            bare: false,
        }
    }

    /// The error without a body.
    pub fn without_body(mut self) -> HttpError {
        self.bare = true;
        self
    }

    pub fn bad_request(d: impl Into<String>) -> HttpError {
        Self::new(StatusCode::BAD_REQUEST, d)
    }
    pub fn unauthorized(d: impl Into<String>) -> HttpError {
        Self::new(StatusCode::UNAUTHORIZED, d)
    }
    pub fn forbidden(d: impl Into<String>) -> HttpError {
        Self::new(StatusCode::FORBIDDEN, d)
    }
    pub fn not_found(d: impl Into<String>) -> HttpError {
        Self::new(StatusCode::NOT_FOUND, d)
    }
    pub fn conflict(d: impl Into<String>) -> HttpError {
        Self::new(StatusCode::CONFLICT, d)
    }
    pub fn precondition_failed(d: impl Into<String>) -> HttpError {
        Self::new(StatusCode::PRECONDITION_FAILED, d)
    }
    pub fn unsupported_media_type(d: impl Into<String>) -> HttpError {
        Self::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, d)
    }
    pub fn not_implemented(d: impl Into<String>) -> HttpError {
        Self::new(StatusCode::NOT_IMPLEMENTED, d)
    }
    /// A 500; the cause must already be logged, it is not sent.
    pub fn internal() -> HttpError {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, INTERNAL_DESCRIPTION)
    }

    pub fn with_header(mut self, name: &str, value: impl Into<String>) -> HttpError {
        self.headers.push((name.to_string(), value.into()));
        self
    }

    /// The reason phrase the reference sends as `errorMessage`.
    pub fn reason(&self) -> &'static str {
        self.status.canonical_reason().unwrap_or("Error")
    }
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.status.as_u16(), self.description)
    }
}

impl std::error::Error for HttpError {}

impl From<crate::decode::DecodeError> for HttpError {
    fn from(e: crate::decode::DecodeError) -> HttpError {
        HttpError::bad_request(e.to_string())
    }
}
