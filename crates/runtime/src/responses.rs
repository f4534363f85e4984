//! The response cache: rendered answers of GETs and searches, kept per request (path, query,
//! the headers that shape the answer, the body of a search) and per caller, bounded in bytes. Every entry belongs to the
//! generation of the repository it was rendered in (the id of the last change committed
//! before its request began); when a later generation is seen, everything older is dropped
//! at once, and an entry is only ever answered in its own generation.

use crate::http::Rq;
use crate::reply::Rendered;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// A bounded cache of rendered responses.
pub struct ResponseCache {
    entries: quick_cache::sync::Cache<u128, Entry, Weight>,
    generation: AtomicU64,
}

#[derive(Clone)]
struct Entry {
    generation: u64,
    page: Arc<Rendered>,
}

#[derive(Clone)]
struct Weight;

impl quick_cache::Weighter<u128, Entry> for Weight {
    fn weight(&self, _key: &u128, e: &Entry) -> u64 {
        e.page.size() as u64 + 32
    }
}

/// What the response cache holds for a request.
pub enum Lookup {
    /// The answer, rendered before for the same request and caller, in this generation.
    Hit(Arc<Rendered>),
    /// Not held: the answer, once rendered, is kept in this slot.
    Miss(Slot),
    /// Not kept (the cache is off, or the caller's answers are not kept).
    Off,
}

/// Where a request's answer is kept: its key, and the generation it was asked in.
#[derive(Debug, Clone, Copy)]
pub struct Slot {
    key: u128,
    generation: u64,
}

impl ResponseCache {
    /// A cache of at most `bytes`.
    pub fn new(bytes: u64) -> ResponseCache {
        let items = (bytes / 4096).clamp(16, 1 << 20) as usize;
        ResponseCache {
            entries: quick_cache::sync::Cache::with_weighter(items, bytes, Weight),
            generation: AtomicU64::new(0),
        }
    }

    /// The repository is at `generation`: what was rendered before it is dropped. Returns
    /// whether this is news (a change this cache had not seen).
    pub fn observe(&self, generation: u64) -> bool {
        let seen = self.generation.fetch_max(generation, Ordering::AcqRel);
        if generation > seen {
            self.entries.clear();
            return true;
        }
        false
    }

    /// The slot of `rq` for a caller (`scope`: who asks, as far as it changes the answer),
    /// in `generation`: every part of the request an operation reads is in its key (the
    /// request headers the spec lets operations read, besides those of the caller, are
    /// `If-Match` and `Destination`, which no kept request has, and `Last-Event-ID`).
    pub fn slot(rq: &Rq, scope: &str, generation: u64) -> Slot {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        let uri = &rq.http.uri();
        for part in [
            uri.path(),
            uri.query().unwrap_or(""),
            rq.header("accept").unwrap_or(""),
            rq.header("accept-language").unwrap_or(""),
            rq.header("x-siteaccess").unwrap_or(""),
            rq.header("content-type").unwrap_or(""),
            rq.header("last-event-id").unwrap_or(""),
            scope,
        ] {
            h.update(part.as_bytes());
            h.update(&[0xff]);
        }
        h.update(&rq.body);
        Slot {
            key: h.digest128(),
            generation,
        }
    }

    /// The answer kept for `slot`, if it was rendered in the slot's generation.
    pub fn get(&self, slot: &Slot) -> Option<Arc<Rendered>> {
        let e = self.entries.get(&slot.key)?;
        (e.generation == slot.generation).then_some(e.page)
    }

    /// Keeps `page` for `slot`, unless a later generation has been seen since it was asked.
    pub fn put(&self, slot: Slot, page: Arc<Rendered>) {
        if slot.generation < self.generation.load(Ordering::Acquire) {
            return;
        }
        self.entries.insert(
            slot.key,
            Entry {
                generation: slot.generation,
                page,
            },
        );
    }

    /// Entries and bytes held.
    pub fn usage(&self) -> (usize, u64) {
        (self.entries.len(), self.entries.weight())
    }
}
