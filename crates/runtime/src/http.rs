//! The HTTP layer the generated routes run on: one endpoint per path that dispatches on the
//! method (custom verbs included), answers OPTIONS and CORS preflights from the route table,
//! 405 with `Allow`, reads the request ([`Rq`]) and writes the reply ([`Reply`]).

use crate::decode::{Decode, FromScalar, Path, Scalar};
use crate::error::HttpError;
use crate::json::JsonWriter;
use crate::media::{Format, InputType, Negotiation, Wire};
use crate::reply::Reply;
use crate::xml::{XmlElement, XmlWriter};
use bytes::Bytes;
use poem::http::{HeaderValue, Method, StatusCode, header};
use poem::{Endpoint, Request, Response};
use std::future::Future;
use std::hash::{Hash, Hasher};
use std::pin::Pin;
use std::sync::Arc;

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
}

/// 400 for text no database stores: a NUL character (U+0000).
pub fn storable<'a>(text: &'a str, what: &str) -> Result<&'a str, HttpError> {
    if text.contains('\0') {
        return Err(nul_in(what));
    }
    Ok(text)
}

fn nul_in(what: &str) -> HttpError {
    HttpError::bad_request(format!(
        "{what} contains a NUL character (U+0000), which cannot be stored"
    ))
}

/// Whether any string (or key) of a JSON value holds a NUL character.
fn json_has_nul(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::String(s) => s.contains('\0'),
        serde_json::Value::Array(a) => a.iter().any(json_has_nul),
        serde_json::Value::Object(o) => o.iter().any(|(k, v)| k.contains('\0') || json_has_nul(v)),
        _ => false,
    }
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
}

impl Settings {
    fn cors_origin(&self, origin: &str) -> Option<String> {
        self.cors_origins
            .iter()
            .any(|o| o == "*" || o == origin)
            .then(|| origin.to_string())
    }
}

/// A JSON body (`{"<name>": {...}}`) as the input type `T` named `name`, its hrefs read in
/// `wire`'s dialect.
pub fn decode_json<T: Decode>(text: &str, name: &str, wire: &Wire) -> Result<T, HttpError> {
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| HttpError::bad_request(format!("Malformed JSON: {e}")))?;
    if json_has_nul(&value) {
        return Err(nul_in("The request body"));
    }
    // Like the reference, read the first property whatever its name.
    let root = match &value {
        serde_json::Value::Object(o) if !o.is_empty() => o.values().next().unwrap_or(&value),
        _ => {
            return Err(HttpError::bad_request(format!(
                "The body must be a JSON object with one property, {name}"
            )));
        }
    };
    let mut path = Path::new(name, wire);
    Ok(T::decode(root, &mut path)?)
}

/// A request as an operation's generated handler sees it.
pub struct Rq {
    pub http: Request,
    pub body: Bytes,
    pub neg: Negotiation,
    pub settings: Arc<Settings>,
    query: Vec<(String, String)>,
}

impl Rq {
    pub fn wire(&self) -> &Wire {
        &self.settings.wire
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.http.header(name)
    }

    /// A path parameter; the route's pattern guarantees its shape, so a bad one is a 404.
    pub fn path<T: FromScalar>(&self, name: &str) -> Result<T, HttpError> {
        let v = self
            .http
            .raw_path_param(name)
            .ok_or_else(|| HttpError::not_found("No such route"))?;
        storable(v, &format!("The path parameter '{name}'"))?;
        T::from_scalar(&Scalar::Str(v)).ok_or_else(|| HttpError::not_found("No such route"))
    }

    /// A query parameter; `None` when absent, 400 when it does not parse.
    pub fn query<T: FromScalar>(&self, name: &str) -> Result<Option<T>, HttpError> {
        match self.query.iter().find(|(k, _)| k == name) {
            None => Ok(None),
            Some((_, v)) => T::from_scalar(&Scalar::Str(storable(
                v,
                &format!("The query parameter '{name}'"),
            )?))
            .map(Some)
            .ok_or_else(|| {
                HttpError::bad_request(format!(
                    "Query parameter '{name}' is '{v}', expected {}",
                    T::EXPECTED
                ))
            }),
        }
    }

    /// A header's text, when sent; 400 when it holds what no database stores.
    pub fn header_text(&self, name: &str, what: &str) -> Result<Option<String>, HttpError> {
        self.header(name)
            .map(|v| storable(v.trim(), what).map(str::to_string))
            .transpose()
    }

    pub fn if_match(&self) -> Option<IfMatch> {
        self.header("if-match").map(|v| IfMatch(v.to_string()))
    }

    /// The `Destination` header as a path under the prefix.
    pub fn destination(&self) -> Result<Option<String>, HttpError> {
        match self.header("destination") {
            None => Ok(None),
            Some(d) => self
                .wire()
                .strip_prefix(storable(d, "The Destination header")?.trim())
                .map(|p| Some(p.to_string()))
                .ok_or_else(|| {
                    HttpError::bad_request(format!(
                        "Destination '{d}' is not a resource of this API"
                    ))
                }),
        }
    }

    pub fn required_destination(&self) -> Result<String, HttpError> {
        self.destination()?
            .ok_or_else(|| HttpError::bad_request("The Destination header is required"))
    }

    /// The request body as one of the `accepted` input types: 415 for another media type,
    /// 400 when the body does not parse or does not match the type. The raw body is released
    /// as soon as it is parsed (a large upload is not held twice).
    /// The body as the input type `T`, in the format and of the type its Content-Type names
    /// (one of `accepted`).
    pub fn input<T: Decode>(&mut self, accepted: &[&str]) -> Result<T, HttpError> {
        let body = std::mem::take(&mut self.body);
        let ct = self.header("content-type").unwrap_or("");
        let unsupported = || {
            HttpError::unsupported_media_type(format!(
                "Content-Type '{ct}' is not accepted here; send {}",
                accepted
                    .iter()
                    .map(|a| self.wire().media_type(a, Format::Xml) + " or +json")
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        };
        let input = InputType::parse(ct, &self.wire().vendor).ok_or_else(unsupported)?;
        let name = match &input.name {
            Some(n) => accepted
                .iter()
                .find(|a| a.eq_ignore_ascii_case(n))
                .ok_or_else(unsupported)?,
            None => accepted.first().ok_or_else(unsupported)?,
        };
        let text = std::str::from_utf8(&body)
            .map_err(|_| HttpError::bad_request("The request body is not UTF-8"))?;
        let mut path = Path::new(name, self.wire());
        match input.format {
            Format::Xml => {
                let root = XmlElement::parse(text).map_err(HttpError::bad_request)?;
                if root.any_text(&|t| t.contains('\0')) {
                    return Err(nul_in("The request body"));
                }
                Ok(T::decode(&root, &mut path)?)
            }
            Format::Json => decode_json(text, name, self.wire()),
        }
    }

    pub fn reply(&self, status: u16) -> Reply<'_> {
        Reply::new(self, status)
    }
}

pub type HandlerFuture = Pin<Box<dyn Future<Output = Result<Response, HttpError>> + Send>>;
/// A generated handler: one operation, given the parsed request.
pub type Handler = Box<dyn Fn(Rq) -> HandlerFuture + Send + Sync>;
/// Writes an error as an `ErrorMessage` (generated from the spec).
pub type ErrorRenderer = fn(&HttpError, Format, &Wire) -> Response;

/// One route-table path: its operations by method.
pub struct PathEndpoint {
    settings: Arc<Settings>,
    methods: Vec<(Method, &'static Operation, Handler)>,
    allow: String,
    render_error: ErrorRenderer,
}

impl PathEndpoint {
    pub fn new(
        settings: Arc<Settings>,
        methods: Vec<(&'static Operation, Handler)>,
        render_error: ErrorRenderer,
    ) -> PathEndpoint {
        let methods: Vec<(Method, &'static Operation, Handler)> = methods
            .into_iter()
            .map(|(op, h)| {
                let m = Method::from_bytes(op.method.as_bytes()).expect("route table method");
                (m, op, h)
            })
            .collect();
        // The route's own methods, as the reference lists them (HEAD and OPTIONS are answered
        // all the same).
        let allow: Vec<&str> = methods.iter().map(|(m, _, _)| m.as_str()).collect();
        PathEndpoint {
            settings,
            allow: allow.join(","),
            methods,
            render_error,
        }
    }

    fn options(&self, req: &Request) -> Response {
        let mut b = Response::builder()
            .status(StatusCode::OK)
            .header(header::ALLOW, self.allow.as_str())
            .header(header::CONTENT_LENGTH, "0");
        let preflight = req.header("access-control-request-method").is_some();
        if let Some(origin) = req
            .header("origin")
            .and_then(|o| self.settings.cors_origin(o))
            && preflight
        {
            b = b
                .header(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin)
                .header(header::ACCESS_CONTROL_ALLOW_METHODS, self.allow.as_str())
                .header(
                    header::ACCESS_CONTROL_ALLOW_HEADERS,
                    req.header("access-control-request-headers").unwrap_or(
                        "Accept, Content-Type, Authorization, X-CSRF-Token, X-HTTP-Method-Override, Destination, If-Match, If-None-Match, X-Siteaccess",
                    ),
                )
                .header(header::ACCESS_CONTROL_ALLOW_CREDENTIALS, "true")
                .header(header::ACCESS_CONTROL_MAX_AGE, "3600")
                .header(header::VARY, "Origin");
        }
        b.finish()
    }
}

impl Endpoint for PathEndpoint {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        let neg = Negotiation::from_accept(req.header("accept"), &self.settings.wire.vendor);
        let origin = req
            .header("origin")
            .and_then(|o| self.settings.cors_origin(o));
        let method = req.method().clone();
        let head = method == Method::HEAD;
        let found = self
            .methods
            .iter()
            .find(|(m, _, _)| *m == method)
            .or_else(|| {
                head.then(|| self.methods.iter().find(|(m, _, _)| *m == Method::GET))
                    .flatten()
            });
        let mut resp = match found {
            None if method == Method::OPTIONS => self.options(&req),
            None => {
                let err = HttpError::new(
                    StatusCode::METHOD_NOT_ALLOWED,
                    format!(
                        "The resource does not support {method}; it supports {}",
                        self.allow
                    ),
                )
                .with_header("allow", self.allow.clone());
                (self.render_error)(&err, neg.format, &self.settings.wire)
            }
            Some((_, op, handler)) => {
                let op: &'static Operation = op;
                let body = match req
                    .take_body()
                    .into_bytes_limit(self.settings.max_body)
                    .await
                {
                    Ok(b) => Ok(b),
                    Err(poem::error::ReadBodyError::PayloadTooLarge) => Err(HttpError::new(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        format!("The request body exceeds {} bytes", self.settings.max_body),
                    )),
                    Err(e) => Err(HttpError::bad_request(format!(
                        "Cannot read the request body: {e}"
                    ))),
                };
                let format = neg.format;
                let result = match body {
                    Ok(body) => {
                        let query = parse_query(req.uri().query().unwrap_or(""));
                        let rq = Rq {
                            http: req,
                            body,
                            neg,
                            settings: self.settings.clone(),
                            query,
                        };
                        handler(rq).await
                    }
                    Err(e) => Err(e),
                };
                let mut resp = match result {
                    Ok(r) => r,
                    Err(e) => (self.render_error)(&e, format, &self.settings.wire),
                };
                resp.extensions_mut().insert(Called(op));
                resp
            }
        };
        if head {
            let (parts, _) = resp.into_parts();
            resp = Response::from_parts(parts, poem::Body::empty());
        }
        if let Some(origin) = origin {
            let h = resp.headers_mut();
            if let Ok(v) = HeaderValue::from_str(&origin) {
                h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, v);
                h.insert(
                    header::ACCESS_CONTROL_ALLOW_CREDENTIALS,
                    HeaderValue::from_static("true"),
                );
                h.insert(
                    header::ACCESS_CONTROL_EXPOSE_HEADERS,
                    HeaderValue::from_static("Location, ETag, Accept-Patch, Allow"),
                );
                h.append(header::VARY, HeaderValue::from_static("Origin"));
            }
        }
        Ok(resp)
    }
}

/// `a=1&b=x%20y` → pairs, percent- and `+`-decoded.
pub fn parse_query(q: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(q.as_bytes()).into_owned().collect()
}

/// Honours `X-HTTP-Method-Override` on POST before routing (PATCH, COPY, MOVE, SWAP,
/// PUBLISH, DELETE, ...).
pub async fn method_override(mut req: Request) -> poem::Result<Request> {
    if req.method() == Method::POST
        && let Some(m) = req.header("x-http-method-override")
        && let Ok(m) = Method::from_bytes(m.trim().to_ascii_uppercase().as_bytes())
    {
        req.set_method(m);
    }
    Ok(req)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_strings_are_decoded() {
        assert_eq!(
            parse_query("a=1&b=x%20y+z&c&d=%2Fp"),
            vec![
                ("a".into(), "1".into()),
                ("b".into(), "x y z".into()),
                ("c".into(), "".into()),
                ("d".into(), "/p".into())
            ]
        );
        assert_eq!(parse_query("e=%"), vec![("e".into(), "%".into())]);
    }

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
