//! The HTTP application: the generated routes under the prefix, the OpenAPI document, method
//! overrides, request logs with a request id, and `ErrorMessage` bodies for unknown routes and
//! panics (which are logged, never shown).

use crate::api::routes::{render_error, routes};
use crate::service::Service;
use cairn_runtime::http::{Settings, method_override};
use cairn_runtime::media::Wire;
use cairn_runtime::{HttpError, Negotiation};
use futures_util::FutureExt;
use poem::http::HeaderValue;
use poem::{Endpoint, EndpointExt, IntoResponse, Request, Response, Route};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The OpenAPI document for this server's vendor and prefix.
pub fn openapi_document(vendor: &str, prefix: &str) -> String {
    crate::api::OPENAPI
        .replace(
            "application/vnd.ibexa.api.",
            &format!("application/vnd.{vendor}.api."),
        )
        .replace(
            "\"url\": \"/api/ibexa/v2\"",
            &format!("\"url\": \"{prefix}\""),
        )
}

/// Builds the whole application around `service`.
pub fn app(service: Arc<Service>, settings: Arc<Settings>) -> impl Endpoint<Output = Response> {
    let wire = settings.wire.clone();
    let service_storage = (
        service.settings.storage_dir.clone(),
        service.settings.storage_uri.clone(),
    );
    let openapi = Arc::new(openapi_document(&wire.vendor, &wire.prefix));
    let api = routes(service, settings.clone()).at(
        "/openapi.json",
        poem::endpoint::make_sync(move |_| {
            Response::builder()
                .content_type("application/json")
                .body(openapi.as_str().to_string())
        }),
    );
    let prefix = wire.prefix.clone();
    // Uploaded files are content-addressed: a path never changes content.
    let files = poem::endpoint::StaticFilesEndpoint::new(&service_storage.0).with(
        poem::middleware::SetHeader::new().overriding(
            poem::http::header::CACHE_CONTROL,
            "public, max-age=31536000, immutable",
        ),
    );
    let app = Route::new()
        .nest(
            if prefix.is_empty() {
                "/".to_string()
            } else {
                prefix
            },
            api,
        )
        .nest(service_storage.1, files);
    let wire = Arc::new(wire);
    let next_id = Arc::new(AtomicU64::new(1));
    app.before(method_override).around(move |ep, req| {
        let wire = wire.clone();
        let id = next_id.fetch_add(1, Ordering::Relaxed);
        async move { Ok(serve(ep, req, &wire, id).await) }
    })
}

/// Runs one request: logs it, turns unknown routes and panics into `ErrorMessage` bodies.
async fn serve<E: Endpoint>(ep: Arc<E>, req: Request, wire: &Wire, id: u64) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let format = Negotiation::from_accept(req.header("accept"), &wire.vendor).format;
    let outcome = AssertUnwindSafe(ep.call(req)).catch_unwind().await;
    let mut resp = match outcome {
        Ok(Ok(r)) => r.into_response(),
        Ok(Err(e)) if e.status() == poem::http::StatusCode::NOT_FOUND => {
            render_error(&HttpError::not_found("No such route"), format, wire)
        }
        Ok(Err(e)) => render_error(&HttpError::new(e.status(), e.to_string()), format, wire),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            tracing::error!(request_id = id, %method, %path, panic = %msg, "handler panicked");
            render_error(&HttpError::internal(), format, wire)
        }
    };
    if let Ok(v) = HeaderValue::from_str(&id.to_string()) {
        resp.headers_mut().insert("x-request-id", v);
    }
    tracing::info!(
        request_id = id,
        %method,
        %path,
        status = resp.status().as_u16(),
        micros = start.elapsed().as_micros() as u64,
        "request"
    );
    resp
}
