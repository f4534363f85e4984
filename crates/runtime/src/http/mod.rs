//! The HTTP layer the generated routes run on: one endpoint per path that dispatches on the
//! method (custom verbs included), answers OPTIONS and CORS preflights from the route table,
//! 405 with `Allow`, reads the request ([`Rq`]) and writes the reply
//! ([`Reply`](crate::reply::Reply)).
//!
//! This file holds what the route table, the encoders and the replies share: operations,
//! [`Encode`], entity tags and the settings. `request` reads a request, `endpoint` dispatches
//! a path's methods.

mod edge;
mod endpoint;
mod request;

pub use edge::{ALL, ANY, Drained, Edge, EdgeSettings, InFlight, USER_CONTEXT_HASH, vary};
pub use endpoint::{ErrorRenderer, Handler, HandlerFuture, Mount, PathEndpoint, method_override};
pub use request::{Rq, decode_json, parse_query, storable};

use crate::json::JsonWriter;
use crate::media::{Format, Wire};
use crate::xml::XmlWriter;
use std::hash::{Hash, Hasher};

/// Who may call an operation before permissions are checked in detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Public,
    Read,
    Write,
}

/// What the route table knows of an operation.
#[derive(Debug)]
pub struct Operation {
    pub id: &'static str,
    /// The spec file the operation is in (`content`, `roles`).
    pub family: &'static str,
    pub method: &'static str,
    /// The path template under the prefix, e.g. `/content/sections/{sectionId}`.
    pub path: &'static str,
    pub access: Access,
    /// The Policies (`module`, `function`) of which the caller needs one; empty for none.
    pub policies: &'static [(&'static str, &'static str)],
    /// The Policy filters the list the operation returns (no 401 without it).
    pub filters: bool,
    /// Unsafe methods in a session need `X-CSRF-Token`.
    pub csrf: bool,
    /// Accepted input media type names.
    pub inputs: &'static [&'static str],
    /// A GET or a search whose 200 answers the response cache keeps.
    pub cached: bool,
    /// What a kept answer shows, as changes name it: (`content` or `location`, the path
    /// parameter that gives its id).
    pub shows: Option<(&'static str, &'static str)>,
    /// A write whose event names all it changed of what kept answers show.
    pub narrow: bool,
    /// How a shared HTTP cache may keep a GET's answer.
    pub edge: Edge,
    /// The path parameters that tag a GET's answer for shared caches, with their kind (`c`,
    /// `s`, `t`, `tg`, or `path`: a Location path).
    pub tags: &'static [(&'static str, &'static str)],
    /// The path parameters that are numbers: a path whose value is not all digits is no
    /// route (404), checked before anything else runs.
    pub numeric: &'static [&'static str],
}

/// The operation a response answered (a response extension, for logs and metrics).
#[derive(Debug, Clone, Copy)]
pub struct Called(pub &'static Operation);

/// The policy map: each module with its functions, each with the limitations it takes.
pub type PolicyMap = &'static [(
    &'static str,
    &'static [(&'static str, &'static [&'static str])],
)];

/// A representation the generated code can write in both formats.
pub trait Encode {
    /// Media type name of the element (`Section`).
    fn media(&self) -> &'static str;
    /// Root element name.
    fn element(&self) -> &'static str;
    /// Writes the element named `name` with its attributes and content.
    fn write_xml(&self, w: &mut XmlWriter<'_>, name: &str);
    /// Writes the element's object (without the root key).
    fn write_json(&self, w: &mut JsonWriter<'_>);
    /// The element's own href, if it has one.
    fn href(&self) -> Option<&str> {
        None
    }
}

/// Writes a whole document: XML with its declaration, JSON as `{"<Element>": {...}}`.
pub fn encode_document<T: Encode + ?Sized>(value: &T, format: Format, wire: &Wire) -> Vec<u8> {
    match format {
        Format::Xml => {
            let mut w = XmlWriter::new(wire);
            value.write_xml(&mut w, value.element());
            w.finish()
        }
        Format::Json => {
            let mut w = JsonWriter::new(wire);
            w.begin_object();
            w.key(value.element());
            value.write_json(&mut w);
            w.end_object();
            w.finish()
        }
    }
}

/// An entity tag: a stable hash of what a representation holds, the same in both formats.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ETag(String);

impl ETag {
    /// The tag of any hashable model value.
    pub fn of<T: Hash + ?Sized>(value: &T) -> ETag {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        value.hash(&mut h);
        ETag(format!("\"{:016x}\"", h.finish()))
    }

    /// The quoted header value.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn matches(&self, candidate: &str) -> bool {
        let c = candidate.trim();
        c == "*" || c.strip_prefix("W/").unwrap_or(c) == self.0
    }
}

/// A request's `If-Match`: the tags it accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IfMatch(String);

impl IfMatch {
    /// 412 unless `current` is one of the tags (or the header is `*`).
    /// Whether `current` is one of the ETags the header names (or `*`).
    pub fn matches(&self, current: &ETag) -> bool {
        self.0.split(',').any(|t| current.matches(t))
    }
}

/// Settings of the HTTP layer, fixed at start-up.
#[derive(Debug, Clone)]
pub struct Settings {
    pub wire: Wire,
    /// Origins allowed by CORS (`*` for any); empty: CORS off.
    pub cors_origins: Vec<String>,
    /// Largest request body read, in bytes.
    pub max_body: usize,
    /// What shared HTTP caches are told of answers.
    pub edge: EdgeSettings,
}

impl Settings {
    fn cors_origin(&self, origin: &str) -> Option<String> {
        self.cors_origins
            .iter()
            .any(|o| o == "*" || o == origin)
            .then(|| origin.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etags_match_with_and_without_weak_prefix() {
        let t = ETag::of(&("section", 1, "Standard"));
        assert!(IfMatch(t.as_str().to_string()).matches(&t));
        assert!(IfMatch(format!("W/{}", t.as_str())).matches(&t));
        assert!(IfMatch("*".into()).matches(&t));
        assert!(!IfMatch("\"other\"".into()).matches(&t));
        assert_ne!(t, ETag::of(&("section", 1, "Standard2")));
    }
}
