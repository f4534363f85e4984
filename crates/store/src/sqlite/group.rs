//! Group commit. SQLite has one writer at a time, so this process's writers take turns. A
//! writer that ends its work while others wait for their turn leaves its transaction open
//! for them: each later one runs in a savepoint of it, and the last of the group commits it
//! for all. One commit then writes each page the group touched once (a table's last leaf,
//! each index's, the full-text segment), where a commit per write wrote it once per write.
//!
//! Nothing acknowledged is at risk: a write returns only once the transaction that holds it
//! has committed, and with the commit's error if it failed. A write that fails rolls back to
//! its savepoint; the others of its group keep theirs. A writer waiting for its group's
//! commit also queues for the turn, so that a group whose last writer went away (its request
//! dropped) is still committed, by the first of it to get the turn back.

use super::*;
use std::sync::atomic::AtomicUsize;

/// The most writes one transaction holds: a bound on how long the first waits for its answer.
const MOST_PER_GROUP: usize = 32;

/// This process's writers: their turns, and the transaction a group of them shares.
#[derive(Debug, Default)]
pub(super) struct Writers {
    turn: tokio::sync::Mutex<()>,
    /// The transaction left open for the writers waiting for their turn.
    open: Mutex<Option<Group>>,
    /// Writers waiting for their turn to write (not those waiting for a commit).
    waiting: AtomicUsize,
    groups: AtomicU64,
    commits: AtomicU64,
}

/// A transaction shared by writes that came one after another.
#[derive(Debug)]
struct Group {
    id: u64,
    t: Arc<Transaction>,
    writes: usize,
    /// The commit's outcome, for the writes of the group that wait for it; dropped unsent (so
    /// that they fail) when the group is dropped before its commit.
    outcome: tokio::sync::watch::Sender<Option<Result<(), DbErr>>>,
}

/// Counts a writer as waiting for its turn while it lives.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Writers {
    /// The turn, for a checkpoint that must wait for the writers (from a thread of its own):
    /// `None` while a group's transaction is open, which the checkpoint would wait for in vain.
    pub(crate) fn blocking_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        let turn = self.turn.blocking_lock();
        let open = self.open.lock().expect("writers lock").is_some();
        (!open).then_some(turn)
    }

    /// Runs `work` as a write: in a transaction of its own, or in a savepoint of the one
    /// the writes before it left open, and answers once that transaction has committed.
    pub(super) async fn write<T, E>(
        &self,
        pool: &Arc<Pool>,
        work: impl AsyncFnOnce(&crate::Tx) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<DbErr>,
    {
        self.waiting.fetch_add(1, Ordering::AcqRel);
        let waiting = Waiting(&self.waiting);
        let started = std::time::Instant::now();
        let turn = self.turn.lock().await;
        drop(waiting);
        metrics::histogram!("cairn_db_write_queue_wait_seconds")
            .record(started.elapsed().as_secs_f64());
        let open = self.open.lock().expect("writers lock").take();
        let (mut group, nested) = match open {
            Some(g) => (g, true),
            None => (self.begin(pool).await?, false),
        };
        let tx = crate::Tx::new(group.t.part(nested).await?, Some(group.t.clone()));
        let done = work(&tx).await;
        let (tx, _) = tx.into_parts();
        // This write's own outcome, once it holds (the savepoint released or rolled back).
        let mine: Result<T, E> = match done {
            Ok(v) => {
                tx.commit().await?;
                // A savepoint that did not release: the transaction is not to be committed.
                group.t.committed()?;
                Ok(v)
            }
            Err(e) => {
                tx.rollback().await?;
                if !nested || !group.t.is_open() {
                    // The group was this write alone, or its savepoint could not be rolled
                    // back alone: the whole is rolled back (the others of the group are told).
                    return Err(e);
                }
                Err(e)
            }
        };
        group.writes += 1;
        let outcome = if self.waiting.load(Ordering::Acquire) > 0 && group.writes < MOST_PER_GROUP {
            let id = group.id;
            let mut told = group.outcome.subscribe();
            *self.open.lock().expect("writers lock") = Some(group);
            drop(turn);
            loop {
                tokio::select! {
                    biased;
                    heard = told.wait_for(Option::is_some) => {
                        break match heard {
                            Ok(o) => o.clone().unwrap_or(Ok(())),
                            Err(_) => Err(abandoned()),
                        };
                    }
                    _turn = self.turn.lock() => {
                        let left = self.open.lock().expect("writers lock").take_if(|g| g.id == id);
                        if let Some(g) = left {
                            break self.commit(g);
                        }
                    }
                }
            }
        } else {
            let o = self.commit(group);
            drop(turn);
            o
        };
        match outcome {
            Ok(()) => mine,
            Err(e) => Err(e.into()),
        }
    }

    async fn begin(&self, pool: &Arc<Pool>) -> Result<Group, DbErr> {
        Ok(Group {
            id: self.groups.fetch_add(1, Ordering::Relaxed),
            // IMMEDIATE takes the write lock at once, so a write that reads first cannot fail
            // to upgrade; another process's writer is waited for up to the busy timeout.
            t: Transaction::open(pool, true).await?,
            writes: 0,
            outcome: tokio::sync::watch::Sender::new(None),
        })
    }
}

/// What the writes of a group that was dropped before its commit answer: SQLite's code for
/// a transaction rolled back under a statement (`SQLITE_ABORT_ROLLBACK`), so that it reads
/// as a write to send again (`crate::failure`).
pub(crate) fn abandoned() -> DbErr {
    crate::failure::SqliteError::db_err(
        rusqlite::ffi::SQLITE_ABORT_ROLLBACK,
        "the write was rolled back with the writes it shared a transaction with".into(),
    )
}

impl Writers {
    /// Commits a group's transaction and tells its writes.
    fn commit(&self, group: Group) -> Result<(), DbErr> {
        let outcome = group.t.commit();
        self.commits.fetch_add(1, Ordering::Relaxed);
        metrics::histogram!("cairn_db_writes_per_commit").record(group.writes as f64);
        group.outcome.send_replace(Some(outcome.clone()));
        outcome
    }

    /// Commits made since start-up.
    pub(super) fn commits(&self) -> u64 {
        self.commits.load(Ordering::Relaxed)
    }
}
