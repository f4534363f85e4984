//! Server-Sent Events: an operation that declares `stream` in the spec also answers
//! `Accept: text/event-stream`, with its items as they come, each its JSON document in `data`
//! and its id as the event's `id` (which a reconnecting client sends back as `Last-Event-ID`).

use crate::http::{Encode, Rq, encode_document};
use crate::media::{Format, Wire};
use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use poem::web::sse::{Event, SSE};
use poem::{IntoResponse, Response};
use std::time::Duration;

/// The items an operation streams; the stream ends when the operation has no more to send
/// (the client reconnects), and is dropped when the client goes.
pub type Items<T> = BoxStream<'static, T>;

/// Seconds between the comments that keep an idle stream's connection open through proxies.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Milliseconds a client waits before it reconnects after the stream ended (`retry:`).
const RETRY_MS: u64 = 1_000;

/// Whether the request asks for Server-Sent Events: its `Accept` names `text/event-stream`
/// (with a `q` above 0).
pub fn wanted(rq: &Rq) -> bool {
    rq.header("accept").is_some_and(|accept| {
        accept.split(',').any(|range| {
            let mut parts = range.split(';');
            let media = parts.next().unwrap_or("").trim();
            let refused = parts.any(|p| {
                p.trim()
                    .strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            media.eq_ignore_ascii_case("text/event-stream") && !refused
        })
    })
}

/// The `text/event-stream` response of `items`, each written as its JSON document in `wire`'s
/// dialect with `id_of` as its id.
pub fn respond<T: Encode + Send + 'static>(
    items: Items<T>,
    id_of: fn(&T) -> String,
    wire: &Wire,
) -> Response {
    let wire = wire.clone();
    let events = items.map(move |item| {
        let data =
            String::from_utf8_lossy(&encode_document(&item, Format::Json, &wire)).into_owned();
        Event::message(data).id(id_of(&item))
    });
    let first = futures_util::stream::once(async { Event::retry(RETRY_MS) });
    let mut response = SSE::new(first.chain(events))
        .keep_alive(KEEP_ALIVE)
        .into_response();
    // Proxies that buffer (nginx) pass the stream through at once.
    response.headers_mut().insert(
        "x-accel-buffering",
        poem::http::HeaderValue::from_static("no"),
    );
    response
}
