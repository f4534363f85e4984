//! What a shared HTTP cache in front (Varnish, a CDN) is told of a GET's answer, as the
//! reference (ibexa/rest's `CachedValue`, ibexa/http-cache, FOSHttpCache's user context) tells
//! it: `Cache-Control` (public answers for the TTL, private ones never, sessions and
//! credentials not even kept), `Vary` on what shapes the answer and on who asks (the user
//! context hash when the cache sent one, else the session cookie and the credentials), the
//! tags of what the answer shows, and `X-Location-Id`.
//!
//! An answer's tags come from its path (the spec's `tags` of api.yaml). Every answer carries
//! `ez-all`; one whose operation does not say what it shows (`shows`) also carries [`ANY`],
//! which every change purges.

use super::Operation;
use poem::http::header::{self, HeaderName};
use poem::http::{HeaderMap, HeaderValue, StatusCode};
use poem::{Request, Response};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// The tag every answer carries; a change that may have changed anything purges it.
pub const ALL: &str = "ez-all";
/// The tag of answers that may show anything a change touches: every change purges it.
pub const ANY: &str = "cairn-any";
/// The request header of the user context hash (FOSHttpCache's).
pub const USER_CONTEXT_HASH: HeaderName = HeaderName::from_static("x-user-context-hash");
const X_LOCATION_ID: HeaderName = HeaderName::from_static("x-location-id");
/// Longest tag header written: Varnish takes 8 KiB per header by default. Past it, the answer
/// carries only the tags every change (or every broad change) purges.
const MAX_TAGS_LEN: usize = 7_500;

/// How a shared cache may keep an operation's answer (the spec's `edge`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    /// Kept for the TTL, varying on who asks: the reference's `CachedValue`.
    Public,
    /// `private, no-cache`: as the reference answers everything else.
    Private,
    /// Never kept: sessions and credentials.
    NoStore,
}

/// How answers are told to shared caches, fixed at start-up.
#[derive(Debug, Clone)]
pub struct EdgeSettings {
    /// How long a shared cache may keep a public answer (`s-maxage`), in seconds.
    pub ttl: u32,
    /// The header the tags are written in: `xkey` (Varnish), `Surrogate-Key` (Fastly),
    /// `Cache-Tag` (Cloudflare, comma-separated).
    pub tag_header: HeaderName,
    /// The public answers being rendered (one count for every dialect), counted when caches
    /// in front are purged (`--purge-url`): purges wait for them.
    pub in_flight: Option<Arc<InFlight>>,
}

impl Default for EdgeSettings {
    fn default() -> EdgeSettings {
        EdgeSettings {
            ttl: 60,
            tag_header: HeaderName::from_static("xkey"),
            in_flight: None,
        }
    }
}

/// The public answers being rendered, by the round in which they began. A purge is sent only
/// once the answers begun before it was decided have gone out: a cache that fetched one of
/// them (and made the readers that came meanwhile wait for it) has it before the purge, which
/// then drops it; sent earlier, the purge would find nothing and the old answer would be kept.
#[derive(Debug, Default)]
pub struct InFlight {
    state: Mutex<Rounds>,
    done: tokio::sync::Notify,
}

/// The answers in flight, by round.
#[derive(Debug, Default)]
struct Rounds {
    /// The round answers begun now count in.
    current: u64,
    /// Answers in flight per round that has any.
    open: BTreeMap<u64, usize>,
    /// When the last answer went out.
    last_out: Option<tokio::time::Instant>,
}

/// One answer in flight, counted until dropped.
pub(crate) struct Flying<'a> {
    in_flight: &'a InFlight,
    round: u64,
}

impl InFlight {
    pub(crate) fn begin(&self) -> Flying<'_> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let round = state.current;
        *state.open.entry(round).or_default() += 1;
        Flying {
            in_flight: self,
            round,
        }
    }

    /// Waits until `settle` has passed since the last answer went out: it left as bytes on
    /// a socket, and the cache that asked holds it only a moment later.
    pub async fn settle(&self, settle: std::time::Duration) {
        let last = (self.state.lock().unwrap_or_else(|e| e.into_inner())).last_out;
        if let Some(last) = last {
            tokio::time::sleep_until(last + settle).await;
        }
    }

    /// Whether any answer is in flight.
    pub fn busy(&self) -> bool {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        !state.open.is_empty()
    }

    /// Waits until every answer begun before this call has gone out, at most `limit`.
    pub async fn drain(&self, limit: std::time::Duration) -> Drained {
        let round = {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            state.current += 1;
            state.current
        };
        let deadline = tokio::time::Instant::now() + limit;
        let mut waited = false;
        loop {
            let done = self.done.notified();
            tokio::pin!(done);
            done.as_mut().enable();
            let pending = {
                let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
                state.open.range(..round).next().is_some()
            };
            match (pending, waited) {
                (false, false) => return Drained::Idle,
                (false, true) => return Drained::Out,
                _ => {}
            }
            if tokio::time::timeout_at(deadline, done).await.is_err() {
                return Drained::Late;
            }
            waited = true;
        }
    }
}

/// What a drain found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drained {
    /// No answer begun before it was in flight.
    Idle,
    /// Those in flight have gone out.
    Out,
    /// Some were still out when the time was up.
    Late,
}

impl Drop for Flying<'_> {
    fn drop(&mut self) {
        let mut state = (self.in_flight.state.lock()).unwrap_or_else(|e| e.into_inner());
        state.last_out = Some(tokio::time::Instant::now());
        if let Some(n) = state.open.get_mut(&self.round) {
            *n -= 1;
            if *n == 0 {
                state.open.remove(&self.round);
                self.in_flight.done.notify_waiters();
            }
        }
    }
}

impl EdgeSettings {
    /// `tags` as the tag header's value: space-separated, comma-separated for `Cache-Tag`.
    pub fn tag_value(&self, tags: &[String]) -> Option<HeaderValue> {
        let sep = if self.tag_header.as_str() == "cache-tag" {
            ","
        } else {
            " "
        };
        let mut value = tags.join(sep);
        if value.len() > MAX_TAGS_LEN {
            value = [ALL, ANY].join(sep);
        }
        HeaderValue::from_str(&value).ok()
    }
}

/// What a GET's answer will be described with, read from its request before the handler
/// takes it: the tags of its path, the Location it names and its `Vary`.
pub(crate) struct Asked {
    tags: Vec<String>,
    location: Option<i64>,
    vary: HeaderValue,
}

impl Asked {
    pub(crate) fn of(op: &Operation, req: &Request) -> Asked {
        let (tags, location) = path_tags(op, req);
        Asked {
            tags,
            location,
            vary: vary(req.headers()),
        }
    }

    /// Writes `Cache-Control`, `Vary`, the tags and `X-Location-Id` on the answer of `op`,
    /// unless the answer already says how it may be kept.
    pub(crate) fn describe(self, resp: &mut Response, op: &Operation, edge: &EdgeSettings) {
        if resp.headers().contains_key(header::CACHE_CONTROL) {
            return;
        }
        write(resp, op.edge, &self.tags, self.location, self.vary, edge);
    }
}

/// Writes how an answer of an operation of `kind` may be kept, with its tags and Location.
fn write(
    resp: &mut Response,
    kind: Edge,
    tags: &[String],
    location: Option<i64>,
    vary: HeaderValue,
    edge: &EdgeSettings,
) {
    let status = resp.status();
    let kept = status == StatusCode::OK || status == StatusCode::NOT_MODIFIED;
    let h = resp.headers_mut();
    let control = match kind {
        Edge::NoStore => "no-store, private".to_string(),
        Edge::Public if kept => format!("public, s-maxage={}", edge.ttl),
        _ => "private, no-cache".to_string(),
    };
    if let Ok(v) = HeaderValue::from_str(&control) {
        h.insert(header::CACHE_CONTROL, v);
    }
    h.append(header::VARY, vary);
    if kind == Edge::NoStore {
        return;
    }
    if let Some(v) = edge.tag_value(tags) {
        h.insert(edge.tag_header.clone(), v);
    }
    if kind == Edge::Public
        && kept
        && let Some(id) = location
    {
        h.insert(X_LOCATION_ID, HeaderValue::from(id));
    }
}

/// The `Vary` of an answer: what shapes it (format, languages, siteaccess) and who asks: the
/// user context hash when the request carries one (a cache asked for it), else the session
/// cookie and the credentials (FOSHttpCache's rule).
pub fn vary(request: &HeaderMap) -> HeaderValue {
    HeaderValue::from_static(if request.contains_key(USER_CONTEXT_HASH) {
        "Accept, Accept-Language, X-Siteaccess, X-User-Context-Hash"
    } else {
        "Accept, Accept-Language, X-Siteaccess, Cookie, Authorization"
    })
}

/// The tags of the path of a request to `op`, and the Location it names: `ez-all`, those of
/// the path parameters, `cairn-any` unless the operation says what it shows.
fn path_tags(op: &Operation, req: &Request) -> (Vec<String>, Option<i64>) {
    let mut tags = vec![ALL.to_string()];
    if op.shows.is_none() {
        tags.push(ANY.to_string());
    }
    let mut location = None;
    for (param, kind) in op.tags {
        let Some(value) = req.raw_path_param(param) else {
            continue;
        };
        if *kind != "path" {
            tags.push(format!("{kind}{value}"));
            continue;
        }
        let ids: Vec<&str> = value.split('/').filter(|s| !s.is_empty()).collect();
        if let Some((last, parents)) = ids.split_last() {
            tags.push(format!("l{last}"));
            if let Some(parent) = parents.last() {
                tags.push(format!("pl{parent}"));
            }
            tags.extend(ids.iter().map(|id| format!("p{id}")));
            location = last.parse().ok();
        }
    }
    (tags, location)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_drain_waits_for_the_answers_begun_before_it_only() {
        let in_flight = Arc::new(InFlight::default());
        let early = in_flight.begin();
        let waiting = {
            let in_flight = in_flight.clone();
            tokio::spawn(async move { in_flight.drain(std::time::Duration::from_secs(5)).await })
        };
        tokio::task::yield_now().await;
        // Begun after the drain: not waited for.
        let late = in_flight.begin();
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        assert!(!waiting.is_finished());
        drop(early);
        assert_eq!(waiting.await.unwrap(), Drained::Out);
        let stuck = in_flight.begin();
        let limit = std::time::Duration::from_millis(10);
        assert_eq!(in_flight.drain(limit).await, Drained::Late);
        drop((stuck, late));
        assert_eq!(in_flight.drain(limit).await, Drained::Idle);
    }

    #[test]
    fn long_tag_lists_fall_back_to_the_tags_every_change_purges() {
        let edge = EdgeSettings::default();
        let many: Vec<String> = (0..2_000).map(|i| format!("c{i}")).collect();
        assert_eq!(edge.tag_value(&many).unwrap(), "ez-all cairn-any");
        let few = vec!["ez-all".to_string(), "c1".to_string()];
        assert_eq!(edge.tag_value(&few).unwrap(), "ez-all c1");
        let cloudflare = EdgeSettings {
            tag_header: HeaderName::from_static("cache-tag"),
            ..EdgeSettings::default()
        };
        assert_eq!(cloudflare.tag_value(&few).unwrap(), "ez-all,c1");
    }

    #[test]
    fn vary_names_the_user_context_hash_only_when_a_cache_sent_one() {
        let mut h = HeaderMap::new();
        assert!(
            vary(&h)
                .to_str()
                .unwrap()
                .ends_with("Cookie, Authorization")
        );
        h.insert(USER_CONTEXT_HASH, HeaderValue::from_static("abc"));
        assert!(vary(&h).to_str().unwrap().ends_with("X-User-Context-Hash"));
    }
}
