//! `GET /_fos_user_context_hash`, as FOSHttpCache answers it for the reference: the hash of
//! the caller's Policies and limitations in `X-User-Context-Hash`, which a cache in front asks
//! for before every GET and then keeps, per session cookie and credentials, for ten minutes
//! (tagged `ez-user-context-hash`, and `ez-all`: a change of Roles, Policies, assignments or
//! groups purges it). Answers vary on it, so users with the same rights share them.

use crate::shared::Shared;
use cairn_runtime::http::{ALL, Access, Edge, Operation, Settings};
use poem::http::{HeaderValue, StatusCode, header};
use poem::{Endpoint, Request, Response};
use std::sync::Arc;

/// The path of the lookup, outside every API prefix (FOSHttpCache's).
pub const PATH: &str = "/_fos_user_context_hash";
/// How long a cache keeps a user's hash (FOSHttpCache's `hash_cache_ttl` in the reference).
const TTL: u32 = 600;
const MEDIA_TYPE: &str = "application/vnd.fos.user-context-hash";

/// The lookup as an operation: open to anyone, no Policy needed (authentication decides who
/// asks: a session cookie, credentials, or the anonymous user).
static LOOKUP: Operation = Operation {
    id: "userContextHash",
    family: "users",
    method: "GET",
    path: PATH,
    access: Access::Public,
    policies: &[],
    filters: false,
    csrf: false,
    inputs: &[],
    cached: false,
    shows: None,
    narrow: false,
    edge: Edge::Private,
    tags: &[],
    numeric: &[],
};

/// The endpoint, authenticating as the API does (the first dialect's settings).
pub fn endpoint(service: Arc<Shared>, dialect: Arc<Settings>) -> impl Endpoint<Output = Response> {
    poem::endpoint::make(move |req: Request| {
        let (service, dialect) = (service.clone(), dialect.clone());
        async move { answer(&service, dialect, &req).await }
    })
}

async fn answer(service: &Shared, dialect: Arc<Settings>, req: &Request) -> Response {
    let reader = (req.extensions().get::<Arc<cairn_store::Reader>>())
        .cloned()
        .unwrap_or_else(|| Arc::new(service.db.plain_reader()));
    let peer = req.remote_addr().as_socket_addr().map(|a| a.ip());
    let tag_header = dialect.edge.tag_header.clone();
    let caller = service
        .authenticate(req.headers(), peer, &LOOKUP, dialect.clone(), None, reader)
        .await;
    let hash = match caller {
        Ok(cx) => cx.grants.context_hash(),
        Err(e) => {
            let err = cairn_runtime::HttpError::from(e);
            let format =
                cairn_runtime::Negotiation::from_accept(req.header("accept"), &dialect.wire.vendor)
                    .format;
            let mut resp = crate::api::routes::render_error(&err, format, &dialect.wire);
            resp.headers_mut().insert(
                header::CACHE_CONTROL,
                HeaderValue::from_static("private, no-cache"),
            );
            return resp;
        }
    };
    let tags = format!("ez-user-context-hash {ALL}");
    Response::builder()
        .status(StatusCode::OK)
        .header("x-user-context-hash", hash)
        .header(header::CONTENT_TYPE, MEDIA_TYPE)
        .header(header::CACHE_CONTROL, format!("max-age={TTL}, public"))
        .header(header::VARY, "Cookie, Authorization, X-Siteaccess")
        .header(tag_header, tags)
        .header(header::CONTENT_LENGTH, "0")
        .finish()
}
