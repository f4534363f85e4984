//! The response cache: rendered answers of GETs and searches, kept per request (path, query,
//! the headers that shape the answer, the body of a search) and per caller, bounded in bytes.
//!
//! Every entry remembers the generation of the repository it was rendered in (the id of the
//! last change seen before its request began) and what it was rendered from: the content
//! items and Locations it shows (`tags`, e.g. a Content item's own representation), or
//! anything (lists, searches and everything else). The changes are applied in commit order
//! ([`ResponseCache::apply`]); an entry is answered only while no change after its
//! generation touched what it was rendered from: a change that names what it touched drops
//! the entries tagged with those and every untagged one; any other drops everything.

use crate::http::Rq;
use crate::reply::Rendered;
use poem::http::header::{self, HeaderName};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

/// Request headers an answer may depend on besides the standard ones.
const X_SITEACCESS: HeaderName = HeaderName::from_static("x-siteaccess");
const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");

/// Most tags whose last change is remembered; past it, a change counts as touching anything.
const MAX_TOUCHED: usize = 100_000;

/// A bounded cache of rendered responses.
pub struct ResponseCache {
    entries: quick_cache::sync::Cache<u128, Entry, Weight>,
    /// What the changes applied so far touched.
    seen: RwLock<Seen>,
    /// The last change applied (a copy of `seen.last`, read without the lock).
    last: AtomicU64,
}

/// The changes applied: the last one, the last one that may have changed anything, and per
/// tag the last one that touched it.
#[derive(Default)]
struct Seen {
    last: u64,
    floor: u64,
    touched: HashMap<u64, u64>,
}

impl Seen {
    /// Whether an entry rendered in `generation` from `tags` (none: anything) is unchanged.
    fn unchanged(&self, generation: u64, tags: Option<&[u64]>) -> bool {
        match tags {
            None => generation >= self.last,
            Some(tags) => {
                generation >= self.floor
                    && (tags.iter()).all(|t| self.touched.get(t).is_none_or(|at| *at <= generation))
            }
        }
    }
}

#[derive(Clone)]
struct Entry {
    generation: u64,
    tags: Option<Arc<[u64]>>,
    page: Arc<Rendered>,
}

#[derive(Clone)]
struct Weight;

impl quick_cache::Weighter<u128, Entry> for Weight {
    fn weight(&self, _key: &u128, e: &Entry) -> u64 {
        e.page.size() as u64 + 32 + 8 * e.tags.as_ref().map_or(0, |t| t.len() as u64)
    }
}

/// What the response cache holds for a request.
pub enum Lookup {
    /// The answer, rendered before for the same request and caller, unchanged since.
    Hit(Arc<Rendered>),
    /// Not held: the answer, once rendered, is kept in this slot.
    Miss(Slot),
    /// Not kept (the cache is off, or the caller's answers are not kept).
    Off,
}

/// Where a request's answer is kept: its key, the generation it was asked in, and what it is
/// rendered from (none: anything).
#[derive(Debug, Clone)]
pub struct Slot {
    key: u128,
    generation: u64,
    tags: Option<Arc<[u64]>>,
}

impl ResponseCache {
    /// A cache of at most `bytes`.
    pub fn new(bytes: u64) -> ResponseCache {
        let items = (bytes / 4096).clamp(16, 1 << 20) as usize;
        ResponseCache {
            entries: quick_cache::sync::Cache::with_weighter(items, bytes, Weight),
            seen: RwLock::new(Seen::default()),
            last: AtomicU64::new(0),
        }
    }

    /// The last change applied.
    pub fn last(&self) -> u64 {
        self.last.load(Ordering::Acquire)
    }

    /// Applies `changes` (id, and the tags it touched; none: anything), in commit order; those
    /// applied before are skipped. Returns whether any was new.
    pub fn apply(&self, changes: &[(u64, Option<Vec<u64>>)]) -> bool {
        let mut seen = self.seen.write().unwrap_or_else(|e| e.into_inner());
        let mut news = false;
        for (id, tags) in changes {
            if *id <= seen.last {
                continue;
            }
            news = true;
            seen.last = *id;
            match tags {
                Some(tags) if seen.touched.len() + tags.len() <= MAX_TOUCHED => {
                    for t in tags {
                        seen.touched.insert(*t, *id);
                    }
                }
                _ => {
                    seen.floor = *id;
                    seen.touched.clear();
                    self.entries.clear();
                }
            }
        }
        self.last.store(seen.last, Ordering::Release);
        news
    }

    /// The slot of `rq` for a caller (`scope`: who asks, as far as it changes the answer),
    /// in `generation`, rendered from `tags` (none: anything): every part of the request an
    /// operation reads is in its key (the request headers the spec lets operations read,
    /// besides those of the caller, are `If-Match` and `Destination`, which no kept request
    /// has, and `Last-Event-ID`).
    pub fn slot(rq: &Rq, scope: &str, generation: u64, tags: Option<Vec<u64>>) -> Slot {
        let uri = &rq.http.uri();
        let headers = rq.http.headers();
        let header = |name: &HeaderName| {
            (headers.get(name))
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
        };
        let parts: [&[u8]; 9] = [
            uri.path().as_bytes(),
            uri.query().unwrap_or("").as_bytes(),
            header(&header::ACCEPT).as_bytes(),
            header(&header::ACCEPT_LANGUAGE).as_bytes(),
            header(&X_SITEACCESS).as_bytes(),
            header(&header::CONTENT_TYPE).as_bytes(),
            header(&LAST_EVENT_ID).as_bytes(),
            scope.as_bytes(),
            &rq.body,
        ];
        Self::slot_of(&parts, generation, tags)
    }

    /// The slot of a request known by `parts` (everything its answer depends on: what it
    /// asks and who asks), in `generation`, rendered from `tags` (none: anything).
    pub fn slot_of(parts: &[&[u8]], generation: u64, tags: Option<Vec<u64>>) -> Slot {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        for part in parts {
            h.update(&(part.len() as u64).to_le_bytes());
            h.update(part);
        }
        Slot {
            key: h.digest128(),
            generation,
            tags: tags.map(Arc::from),
        }
    }

    /// The answer kept for `slot`, if nothing it was rendered from has changed since.
    pub fn get(&self, slot: &Slot) -> Option<Arc<Rendered>> {
        let e = self.entries.get(&slot.key)?;
        if self.fresh(e.generation, e.tags.as_deref()) {
            return Some(e.page);
        }
        self.entries.remove(&slot.key);
        None
    }

    /// Keeps `page` for `slot`, unless what it was rendered from changed since it was asked.
    pub fn put(&self, slot: Slot, page: Arc<Rendered>) {
        if !self.fresh(slot.generation, slot.tags.as_deref()) {
            return;
        }
        self.entries.insert(
            slot.key,
            Entry {
                generation: slot.generation,
                tags: slot.tags,
                page,
            },
        );
    }

    fn fresh(&self, generation: u64, tags: Option<&[u64]>) -> bool {
        // Nothing applied since: fresh without the lock.
        generation >= self.last()
            || (self.seen.read())
                .unwrap_or_else(|e| e.into_inner())
                .unchanged(generation, tags)
    }

    /// Entries and bytes held.
    pub fn usage(&self) -> (usize, u64) {
        (self.entries.len(), self.entries.weight())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(changes: &[(u64, Option<Vec<u64>>)]) -> Seen {
        let cache = ResponseCache::new(1 << 20);
        cache.apply(changes);
        std::mem::take(&mut *cache.seen.write().unwrap())
    }

    #[test]
    fn a_change_drops_what_it_touched_and_everything_untagged() {
        let s = seen(&[(5, Some(vec![2, 3]))]);
        assert!(!s.unchanged(4, Some(&[2])), "touched");
        assert!(s.unchanged(4, Some(&[7])), "not touched");
        assert!(s.unchanged(5, Some(&[2])), "rendered after the change");
        assert!(!s.unchanged(4, None), "untagged");
        assert!(s.unchanged(5, None));
    }

    #[test]
    fn a_change_of_anything_drops_everything_before_it() {
        let s = seen(&[(5, Some(vec![2])), (6, None), (7, Some(vec![9]))]);
        assert!(!s.unchanged(5, Some(&[7])), "before the change of anything");
        assert!(s.unchanged(6, Some(&[2])));
        assert!(!s.unchanged(6, Some(&[9])));
    }
}
