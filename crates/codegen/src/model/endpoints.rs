//! The model of an operation: method, path, parameters, access, responses and errors.

use super::{ParamKind, Ty};

/// Methods the reference defines beyond the standard ones; clients may also send them as
/// `POST` with `X-HTTP-Method-Override`.
pub const CUSTOM_METHODS: &[&str] = &["COPY", "MOVE", "SWAP", "PUBLISH"];

#[derive(Debug, Clone)]
pub struct Endpoint {
    pub id: String,
    pub rust: String,
    pub doc: String,
    pub family: String,
    pub method: String,
    pub path: String,
    pub path_params: Vec<(String, ParamKind)>,
    pub query: Vec<QueryParam>,
    pub headers: Vec<RequestHeader>,
    pub inputs: Vec<String>,
    pub access: Access,
    /// The Policies (`module`, `function`) of which the caller needs one; empty for none.
    pub policies: Vec<(String, String)>,
    /// The Policy filters the list the operation returns (no 401 without it).
    pub filters: bool,
    pub csrf: bool,
    /// A GET whose 200 response the response cache keeps.
    pub cached: bool,
    /// What a kept answer shows (kind, path parameter): see `spec/README.md`.
    pub shows: Option<(String, String)>,
    /// A write whose event names all it changed of what kept answers show.
    pub narrow: bool,
    /// How a shared HTTP cache may keep a GET's answer: `Public`, `Private` or `NoStore`.
    pub edge: &'static str,
    /// The path parameters that tag the answer for the shared HTTP cache, with their kind
    /// (api.yaml `tags`).
    pub tags: Vec<(String, String)>,
    /// The type streamed as Server-Sent Events, when the GET also answers
    /// `text/event-stream`.
    pub stream: Option<String>,
    pub responses: Vec<Response>,
    pub errors: Vec<u16>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone, also without credentials (login, logout).
    Public,
    /// Reads: the anonymous user may.
    Read,
    /// Changes: an authenticated user with permission.
    Write,
}

#[derive(Debug, Clone)]
pub struct QueryParam {
    pub wire: String,
    pub rust: String,
    pub ty: Ty,
    pub default: Option<String>,
    pub optional: bool,
}

#[derive(Debug, Clone)]
pub struct RequestHeader {
    pub name: String,
    pub rust: String,
    pub required: bool,
}

#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub bodies: Vec<String>,
    pub etag: bool,
    pub location: bool,
    pub accept_patch: Option<String>,
    pub headers: Vec<String>,
    pub doc: Option<String>,
}

impl Endpoint {
    pub fn is_custom_method(&self) -> bool {
        CUSTOM_METHODS.contains(&self.method.as_str())
    }
}
