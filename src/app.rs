//! The HTTP application: the generated routes under the prefix, the OpenAPI document, method
//! overrides, request logs with a request id, metrics, `ErrorMessage` bodies for unknown routes
//! and panics (which are logged, never shown), and the operator's `/health`, `/ready` and
//! `/metrics` outside the prefix.

use crate::api::routes::{render_error, routes};
use crate::field_types::files::Uploads;
use crate::mount::Services;
use cairn_runtime::http::{Called, Settings, method_override};
use cairn_runtime::media::Wire;
use cairn_runtime::{HttpError, Negotiation};
use futures_util::FutureExt;
use poem::http::{HeaderValue, StatusCode};
use poem::{Endpoint, EndpointExt, IntoResponse, Request, Response, Route};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The OpenAPI document of a dialect: its media types and prefix (in the server's URL and in
/// every href of the examples, which the spec writes for `/api/ibexa/v2`).
pub fn openapi_document(wire: &Wire) -> String {
    crate::api::OPENAPI
        .replace("application/vnd.ibexa.api.", wire.media_prefix())
        .replace("/api/ibexa/v2", &wire.prefix)
}

/// Builds the whole application around `service`: the API in each of the `dialects` (the
/// first one foremost), under its own prefix, over the one service.
pub fn app(
    service: Arc<Services>,
    dialects: Vec<Arc<Settings>>,
) -> impl Endpoint<Output = Response> {
    let files = crate::storage::endpoint(service.files.store());
    // One route table for every dialect (each under its own prefix) and the operator's paths.
    let mut app = Route::new();
    for settings in &dialects {
        let openapi = Arc::new(openapi_document(&settings.wire));
        app = routes(app, service.clone(), settings.clone())
            .endpoint(
                "/openapi.json",
                poem::endpoint::make_sync(move |_| {
                    Response::builder()
                        .content_type("application/json")
                        .body(openapi.as_str().to_string())
                }),
            )
            .route();
    }
    let mut app = app
        .at(
            crate::http_cache::context_hash::PATH,
            crate::http_cache::context_hash_endpoint(service.shared.clone(), dialects[0].clone()),
        )
        .at(
            // In the site's sub-folder, as the reference's (`/graphql` without one).
            format!(
                "{}{}",
                service.settings.cookie_path.trim_end_matches('/'),
                crate::graphql::PATH
            ),
            crate::graphql::endpoint(service.clone(), dialects[0].clone()),
        )
        .nest(service.settings.storage_uri.clone(), files)
        .at("/health", poem::endpoint::make_sync(|_| health()))
        .at("/ready", ready(service.clone()));
    let wires: Arc<Vec<Wire>> = Arc::new(dialects.iter().map(|d| d.wire.clone()).collect());
    // The pages for people, unless the API itself is served at the root.
    if wires.iter().all(|w| !w.prefix.is_empty()) {
        app = crate::front::mount(app, wires.clone());
    }
    if service.settings.metrics_here {
        app = app.at("/metrics", metrics(service.clone()));
    }
    let next_id = Arc::new(AtomicU64::new(1));
    app.before(method_override).around(move |ep, mut req| {
        let (wires, service) = (wires.clone(), service.clone());
        let id = next_id.fetch_add(1, Ordering::Relaxed);
        async move {
            let wire = dialect_of(&wires, req.uri().path());
            let uploads = Arc::new(Uploads::default());
            req.extensions_mut().insert(uploads.clone());
            let resp = Box::pin(serve(ep, req, wire, &service.db, id)).await;
            if !resp.status().is_success() && !resp.status().is_redirection() {
                let (db, files) = (service.db.conn(), service.files.as_ref());
                uploads.remove_unreferenced(db, files).await;
            }
            Ok(resp)
        }
    })
}

/// `GET /health`: the process answers (liveness).
fn health() -> Response {
    Response::builder()
        .content_type("application/json")
        .body(r#"{"status":"ok"}"#)
}

/// `GET /ready`: the database answers and every migration is applied (503 otherwise).
pub fn ready(service: Arc<Services>) -> impl Endpoint<Output = Response> {
    poem::endpoint::make(move |_| {
        let service = service.clone();
        async move {
            let (status, body) = match service.db.ready().await {
                Ok(()) => (StatusCode::OK, serde_json::json!({"status": "ready"})),
                Err(why) => (
                    StatusCode::SERVICE_UNAVAILABLE,
                    serde_json::json!({"status": "unavailable", "reason": why}),
                ),
            };
            Response::builder()
                .status(status)
                .content_type("application/json")
                .body(body.to_string())
        }
    })
}

/// `GET /metrics`: every metric in the Prometheus text format.
pub fn metrics(service: Arc<Services>) -> impl Endpoint<Output = Response> {
    poem::endpoint::make_sync(move |_| match crate::metrics::install() {
        Some(handle) => Response::builder()
            .content_type("text/plain; version=0.0.4")
            .body(crate::metrics::render(
                handle,
                &service.db,
                service.responses.as_ref(),
            )),
        None => Response::builder()
            .status(StatusCode::NOT_FOUND)
            .body("metrics are off"),
    })
}

/// The dialect whose prefix `path` is under (the longest), else the first: what answers an
/// unknown route or a panic.
fn dialect_of<'a>(wires: &'a [Wire], path: &str) -> &'a Wire {
    wires
        .iter()
        .filter(|w| {
            path.strip_prefix(w.prefix.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
        .max_by_key(|w| w.prefix.len())
        .unwrap_or(&wires[0])
}

const X_REQUEST_ID: poem::http::HeaderName = poem::http::HeaderName::from_static("x-request-id");

/// Runs one request, its reads in one SQLite snapshot: logs and measures it, turns unknown
/// routes and panics into `ErrorMessage` bodies.
async fn serve<E: Endpoint>(
    ep: Arc<E>,
    req: Request,
    wire: &Wire,
    db: &cairn_store::Db,
    id: u64,
) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    // Only an error written here needs the format: most requests never negotiate it twice.
    let accept = req.headers().get("accept").cloned();
    let format = || {
        let accept = accept.as_ref().and_then(|a| a.to_str().ok());
        Negotiation::from_accept(accept, &wire.vendor).format
    };
    // Its reads in one snapshot, its statements counted: the caller reads on it (`mount.rs`).
    let reader = Arc::new(db.reader());
    let mut req = req;
    req.extensions_mut().insert(reader.clone());
    let outcome = AssertUnwindSafe(Box::pin(ep.call(req)))
        .catch_unwind()
        .await;
    let statements = reader.finish();
    let mut resp = match outcome {
        Ok(Ok(r)) => r.into_response(),
        Ok(Err(e)) if e.status() == poem::http::StatusCode::NOT_FOUND => {
            render_error(&HttpError::not_found("No such route"), format(), wire)
        }
        Ok(Err(e)) => render_error(&HttpError::new(e.status(), e.to_string()), format(), wire),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            tracing::error!(request_id = id, %method, %path, panic = %msg, "handler panicked");
            render_error(&HttpError::internal(), format(), wire)
        }
    };
    resp.headers_mut()
        .insert(X_REQUEST_ID, HeaderValue::from(id));
    // What no operation described (an unknown route, a page, an error written here) is
    // nothing a shared cache keeps.
    if (method == poem::http::Method::GET || method == poem::http::Method::HEAD)
        && !resp
            .headers()
            .contains_key(poem::http::header::CACHE_CONTROL)
    {
        resp.headers_mut().insert(
            poem::http::header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-cache"),
        );
    }
    let operation = resp.extensions().get::<Called>().map_or("-", |c| c.0.id);
    let elapsed = start.elapsed();
    crate::metrics::request(
        operation,
        resp.status().as_u16(),
        elapsed.as_secs_f64(),
        statements,
    );
    tracing::info!(
        request_id = id,
        %method,
        %path,
        operation,
        status = resp.status().as_u16(),
        statements,
        micros = elapsed.as_micros() as u64,
        "request"
    );
    resp
}
