//! One route-table path as a poem endpoint: dispatch on the method, OPTIONS and CORS
//! preflights, 405 with `Allow`, HEAD without a body, and `X-HTTP-Method-Override`.

use super::request::{Rq, parse_query};
use super::{Called, Operation, Settings};
use crate::error::HttpError;
use crate::media::{Format, Negotiation, Wire};
use poem::http::{HeaderValue, Method, StatusCode, header};
use poem::{Endpoint, Request, Response};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

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

    /// Whether the path's numeric parameters are all digits (the operations of one path
    /// share its parameters); a path where they are not is no route.
    fn numbers_are_digits(&self, req: &Request) -> bool {
        let numeric = self
            .methods
            .first()
            .map_or(&[][..], |(_, op, _)| op.numeric);
        numeric.iter().all(|name| {
            req.raw_path_param(name)
                .is_some_and(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
        })
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
        if !self.numbers_are_digits(&req) {
            return Err(poem::error::NotFoundError.into());
        }
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
                let asked = (op.method == "GET").then(|| super::edge::Asked::of(op, &req));
                // A public answer, which a cache may keep, counts until it has gone out.
                let _flying = (self.settings.edge.in_flight.as_ref())
                    .filter(|_| op.edge == super::Edge::Public)
                    .map(|f| f.begin());
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
                if let Some(asked) = asked {
                    asked.describe(&mut resp, op, &self.settings.edge);
                }
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

/// A dialect's route-table paths, each added to one route table under the dialect's prefix
/// (one table for every dialect and the operator's paths: a request is matched once).
pub struct Mount {
    route: poem::Route,
    prefix: String,
}

impl Mount {
    pub fn new(route: poem::Route, prefix: &str) -> Mount {
        Mount {
            route,
            prefix: prefix.trim_end_matches('/').to_string(),
        }
    }

    /// Adds `path` (under the prefix); the root answers with and without its slash.
    pub fn at(self, path: &str, ep: PathEndpoint) -> Mount {
        let Mount { route, prefix } = self;
        let route = match path {
            "/" if !prefix.is_empty() => {
                let ep = Arc::new(ep);
                route.at(&prefix, ep.clone()).at(format!("{prefix}/"), ep)
            }
            _ => route.at(format!("{prefix}{path}"), ep),
        };
        Mount { route, prefix }
    }

    /// Adds any other endpoint at `path` under the prefix.
    pub fn endpoint<E>(self, path: &str, ep: E) -> Mount
    where
        E: poem::IntoEndpoint,
        E::Endpoint: 'static,
    {
        let Mount { route, prefix } = self;
        let route = route.at(format!("{prefix}{path}"), ep);
        Mount { route, prefix }
    }

    pub fn route(self) -> poem::Route {
        self.route
    }
}
