//! The response cache's side in the service: which generation of the repository a cached
//! GET is answered in (read from the outbox, so a change made through any instance counts
//! the moment it commits), and who the answer is for (the caller's user: Policies, owner and
//! group limitations all follow the user, and any change to them is a change).

use crate::auth::Caller;
use crate::error::Result;
use crate::service::Service;
use cairn_runtime::ResponseCache;
use cairn_runtime::http::{Operation, Rq};
use cairn_runtime::responses::Lookup;
use cairn_store::Db;
use cairn_store::commits::Mark;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::{Mutex, watch};

/// Reads of the repository's generation, shared by the requests waiting for one. A request
/// needs a read that began after it arrived (a change committed before it must count); while
/// a read runs, the requests that arrive wait for it to end and then share the next one. Under
/// load, one statement serves many requests; alone, a request reads once.
pub(crate) struct Generations {
    /// Reads begun so far: a read's number is its position.
    begun: AtomicU64,
    /// The last read done: its number and the generation it found.
    done: watch::Sender<(u64, u64)>,
    /// Held by the request that reads.
    reading: Mutex<()>,
    /// SQLite: the commit mark taken before a read began, and the generation that read found.
    /// While the mark is the same, nothing has committed since, and that generation is now's.
    marked: std::sync::Mutex<Option<(Mark, u64)>>,
}

impl Generations {
    pub(crate) fn new() -> Generations {
        Generations {
            begun: AtomicU64::new(0),
            done: watch::Sender::new((0, 0)),
            reading: Mutex::new(()),
            marked: std::sync::Mutex::new(None),
        }
    }

    /// The generation, read after this call began (or, on SQLite, known unchanged since a
    /// read: no commit since its mark).
    pub(crate) async fn current(&self, db: &Db) -> Result<u64> {
        let mark = db.commit_mark();
        if let Some(mark) = mark
            && let Ok(marked) = self.marked.lock()
            && let Some((seen, generation)) = *marked
            && seen == mark
        {
            return Ok(generation);
        }
        let arrived = self.begun.load(Ordering::SeqCst);
        let mut done = self.done.subscribe();
        loop {
            let (n, generation) = *done.borrow_and_update();
            if n > arrived {
                return Ok(generation);
            }
            if let Ok(lock) = self.reading.try_lock() {
                // Whoever waits is woken when this read ends, however it ends.
                let _reading = Reading {
                    lock: Some(lock),
                    done: &self.done,
                };
                let (n, generation) = *self.done.borrow();
                if n > arrived {
                    return Ok(generation);
                }
                let n = self.begun.fetch_add(1, Ordering::SeqCst) + 1;
                // Taken before the read: a commit after it changes the mark.
                let before = db.commit_mark();
                let generation = cairn_store::events::generation(db.conn()).await?;
                if let (Some(before), Ok(mut marked)) = (before, self.marked.lock()) {
                    *marked = Some((before, generation));
                }
                self.done.send_modify(|d| {
                    if n > d.0 {
                        *d = (n, generation);
                    }
                });
                return Ok(generation);
            }
            // Another request reads: wait for it, then look again.
            done.changed()
                .await
                .map_err(|_| crate::error::Error::Internal("generation reads ended".into()))?;
        }
    }
}

/// The read in progress: when it ends (done, failed or cancelled), the lock is released and
/// then the waiters are woken, so that one of them can take it.
struct Reading<'a> {
    lock: Option<tokio::sync::MutexGuard<'a, ()>>,
    done: &'a watch::Sender<(u64, u64)>,
}

impl Drop for Reading<'_> {
    fn drop(&mut self) {
        self.lock.take();
        self.done.send_modify(|_| {});
    }
}

impl Service {
    /// For a cached GET with the cache on: the repository's generation now. A change not
    /// seen before also drops the caches of Policies and content types, which another
    /// instance may have made stale.
    pub(crate) async fn generation_for(&self, op: &Operation) -> Result<Option<u64>> {
        let Some(responses) = self.responses.as_ref().filter(|_| op.cached) else {
            return Ok(None);
        };
        let generation = self.generations.current(&self.db).await?;
        if responses.observe(generation) {
            self.changed_elsewhere();
        }
        Ok(Some(generation))
    }

    /// The answer kept for `cx`'s request, or where to keep it.
    pub(crate) fn lookup(&self, cx: &Caller, request: &Rq) -> Lookup {
        let (Some(responses), Some(generation)) = (&self.responses, cx.generation) else {
            return Lookup::Off;
        };
        let slot = ResponseCache::slot(request, &cx.user_id.to_string(), generation);
        let found = responses.get(&slot);
        crate::metrics::cache_lookup("responses", found.is_some());
        match found {
            Some(page) => Lookup::Hit(page),
            None => Lookup::Miss(slot),
        }
    }
}
