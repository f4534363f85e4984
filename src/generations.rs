//! The repository's generation as the response cache follows it: the changes committed since
//! the cache last looked, read from the outbox (so a change made through any instance counts
//! the moment it commits) and applied to the cache, one read shared by the requests waiting.

use crate::error::Result;
use cairn_runtime::ResponseCache;
use cairn_store::Reader;
use cairn_store::commits::Mark;
use cairn_store::events;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::{Mutex, watch};

/// Changes read for the cache past this many are taken as one change of anything.
const MAX_READ: u64 = 1_000;

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

    /// The generation, read on `db` (a request's reader) after this call began (or, on
    /// SQLite, known unchanged since a read: no commit since its mark), with the changes up to
    /// it applied to `cache`; and whether this call applied any.
    pub(crate) async fn current(&self, db: &Reader, cache: &ResponseCache) -> Result<(u64, bool)> {
        let mark = db.db().commit_mark();
        if let Some(mark) = mark
            && let Ok(marked) = self.marked.lock()
            && let Some((seen, generation)) = *marked
            && seen == mark
        {
            return Ok((generation, false));
        }
        let arrived = self.begun.load(Ordering::SeqCst);
        let mut done = self.done.subscribe();
        loop {
            let (n, generation) = *done.borrow_and_update();
            if n > arrived {
                return Ok((generation, false));
            }
            if let Ok(lock) = self.reading.try_lock() {
                // Whoever waits is woken when this read ends, however it ends.
                let _reading = Reading {
                    lock: Some(lock),
                    done: &self.done,
                };
                let (n, generation) = *self.done.borrow();
                if n > arrived {
                    return Ok((generation, false));
                }
                let n = self.begun.fetch_add(1, Ordering::SeqCst) + 1;
                // Taken before the read: a commit after it changes the mark.
                let before = db.db().commit_mark();
                let news = apply_changes(db, cache).await?;
                let generation = cache.last();
                if let (Some(before), Ok(mut marked)) = (before, self.marked.lock()) {
                    *marked = Some((before, generation));
                }
                self.done.send_modify(|d| {
                    if n > d.0 {
                        *d = (n, generation);
                    }
                });
                return Ok((generation, news));
            }
            // Another request reads: wait for it, then look again.
            done.changed()
                .await
                .map_err(|_| crate::error::Error::Internal("generation reads ended".into()))?;
        }
    }
}

/// Reads the changes committed after the last one `cache` applied and applies them; whether
/// there were any. Too many at once count as one change of anything.
async fn apply_changes(db: &Reader, cache: &ResponseCache) -> Result<bool> {
    let changes = events::touched_since(db, cache.last(), MAX_READ).await?;
    if changes.len() as u64 >= MAX_READ {
        let last = events::generation(db).await?;
        return Ok(cache.apply(&[(last, None)]));
    }
    let changes: Vec<(u64, Option<Vec<u64>>)> = (changes.into_iter())
        .map(|(id, touched)| {
            (
                id,
                touched.map(|t| t.into_iter().map(|t| t.key()).collect()),
            )
        })
        .collect();
    Ok(cache.apply(&changes))
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
