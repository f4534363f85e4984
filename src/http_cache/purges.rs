//! Purges of shared HTTP caches, from the change feed's outbox: each committed change becomes
//! the purge of the tags it touched (`c<id>` and `l<id>` of a change that names them, and
//! `cairn-any`, which answers that may show anything carry; `ez-all`, every answer, for any
//! other), sent to every `--purge-url` in commit order, retried with backoff until the cache
//! takes it. Where each cache stands is kept in the database (`cairn_store::purges`): a purge
//! outlives a restart of cairn or of the cache, and of several instances on PostgreSQL one
//! sends each purge. `/metrics` shows each cache's lag and failures.
//!
//! A write answers once every cache that takes purges has its own ([`Progress`], at most
//! [`WAIT`]): the next read through the cache, by anyone, sees it.

use crate::feed::Signal;
use cairn_runtime::http::{ALL, ANY, Drained, InFlight};
use cairn_store::Db;
use cairn_store::events::{self, Pending};
use poem::http::HeaderName;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::watch;

/// Changes read and purged at once.
const BATCH: u64 = 500;
/// Longest tag header of one purge request (Varnish takes 8 KiB per header by default).
const MAX_HEADER: usize = 7_500;
/// How long a purge request may take before it counts as failed.
const TIMEOUT: Duration = Duration::from_secs(5);
/// How often a purger looks for changes when no commit wakes it (another instance's).
const POLL: Duration = Duration::from_secs(1);
/// How soon a purger looks again when another instance holds its cache's cursor.
const HELD: Duration = Duration::from_millis(20);
/// The longest a purge waits for the public answers begun before it to go out.
const DRAIN: Duration = Duration::from_secs(1);
/// After they went out, how long a cache may take to hold them (they went out as bytes on a
/// socket; the cache reads them a moment later, later still on a busy machine). Waited only
/// when a public answer went out that recently.
const SETTLE: Duration = Duration::from_millis(10);
/// The longest a write waits for its purges before it answers.
pub const WAIT: Duration = Duration::from_secs(2);
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// Where and how purges are sent.
#[derive(Debug, Clone)]
pub struct PurgeSettings {
    /// The public answers this instance is rendering: a purge waits until those begun before
    /// it have gone out.
    pub in_flight: Arc<InFlight>,
    /// The caches: each gets every purge.
    pub urls: Vec<String>,
    /// `PURGEKEYS` for Varnish with the reference's VCL.
    pub method: String,
    /// The header that carries the tags: `xkey-purge` (or `xkey-softpurge`) for Varnish.
    pub header: HeaderName,
}

/// How far each cache has its purges: the last change purged there, and whether its
/// purges fail (then nobody waits for it).
#[derive(Default)]
pub struct Progress {
    caches: Vec<CacheProgress>,
    moved: watch::Sender<()>,
}

#[derive(Default)]
struct CacheProgress {
    through: AtomicU64,
    failing: AtomicBool,
}

impl Progress {
    /// Whether there is a cache to wait for.
    pub fn any(&self) -> bool {
        !self.caches.is_empty()
    }

    /// Waits until every cache whose purges do not fail has the changes up to `id`, at most
    /// `limit`; whether they all have.
    pub async fn wait_for(&self, id: u64, limit: Duration) -> bool {
        let mut moved = self.moved.subscribe();
        let done = || {
            (self.caches.iter()).all(|c| {
                c.failing.load(Ordering::Acquire) || c.through.load(Ordering::Acquire) >= id
            })
        };
        let deadline = tokio::time::Instant::now() + limit;
        while !done() {
            if tokio::time::timeout_at(deadline, moved.changed())
                .await
                .is_err()
            {
                return false;
            }
        }
        true
    }

    fn set(&self, cache: usize, through: u64, failing: bool) {
        let c = &self.caches[cache];
        c.through.fetch_max(through, Ordering::AcqRel);
        c.failing.store(failing, Ordering::Release);
        self.moved.send_modify(|_| {});
    }
}

/// Starts one purger per cache, each until the server stops; a cache named for the first
/// time starts at the last change committed before. What writes wait for.
pub async fn spawn(
    db: Db,
    feed: watch::Receiver<Signal>,
    settings: PurgeSettings,
) -> anyhow::Result<Arc<Progress>> {
    if settings.urls.is_empty() {
        return Ok(Arc::default());
    }
    let method = reqwest::Method::from_bytes(settings.method.as_bytes())
        .map_err(|_| anyhow::anyhow!("--purge-method: `{}` is no method", settings.method))?;
    let client = reqwest::Client::builder().timeout(TIMEOUT).build()?;
    let progress = Arc::new(Progress {
        caches: settings
            .urls
            .iter()
            .map(|_| CacheProgress::default())
            .collect(),
        moved: watch::Sender::new(()),
    });
    for (index, url) in settings.urls.iter().enumerate() {
        reqwest::Url::parse(url).map_err(|e| anyhow::anyhow!("--purge-url {url}: {e}"))?;
        cairn_store::purges::start(db.conn(), url).await?;
        let purger = Purger {
            db: db.clone(),
            cache: url.clone(),
            index,
            progress: progress.clone(),
            in_flight: settings.in_flight.clone(),
            seen: AtomicU64::new(u64::MAX),
            client: client.clone(),
            method: method.clone(),
            header: settings.header.clone(),
        };
        tokio::spawn(purger.run(feed.clone()));
    }
    Ok(progress)
}

/// Sends one cache its purges.
struct Purger {
    db: Db,
    cache: String,
    /// Its place in `progress`.
    index: usize,
    progress: Arc<Progress>,
    in_flight: Arc<InFlight>,
    /// The cursor as this purger last saw it (`u64::MAX` before its first round).
    seen: AtomicU64,
    client: reqwest::Client,
    method: reqwest::Method,
    header: HeaderName,
}

/// How a round of purges ended.
enum Round {
    /// Another instance holds the cache's cursor: it purges.
    Held,
    /// This many changes purged; the cache has every change up to the id.
    Through(usize, u64),
}

/// Why a round of purges did not end.
#[derive(Debug, thiserror::Error)]
enum Failure {
    #[error("database: {0}")]
    Db(#[from] sea_orm::DbErr),
    #[error("{0}")]
    Cache(String),
}

impl Purger {
    async fn run(self, mut wake: watch::Receiver<Signal>) {
        let mut backoff = FIRST_BACKOFF;
        loop {
            if wake.borrow_and_update().stopping {
                return;
            }
            match self.round().await {
                Ok(Round::Held) => {
                    tokio::time::sleep(HELD).await;
                    continue;
                }
                Ok(Round::Through(n, through)) => {
                    backoff = FIRST_BACKOFF;
                    self.progress.set(self.index, through, false);
                    if n as u64 >= BATCH {
                        continue;
                    }
                }
                Err(e) => {
                    self.progress.set(self.index, 0, true);
                    metrics::counter!("cairn_purge_failures_total", "cache" => self.cache.clone())
                        .increment(1);
                    tracing::warn!(cache = %self.cache, error = %e, retry_in_ms = backoff.as_millis() as u64, "purge failed");
                    tokio::select! {
                        _ = tokio::time::sleep(backoff) => {}
                        _ = wake.wait_for(|s| s.stopping) => return,
                    }
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                    continue;
                }
            }
            tokio::select! {
                changed = wake.changed() => {
                    // The feed is gone with the server.
                    if changed.is_err() {
                        return;
                    }
                }
                _ = tokio::time::sleep(POLL) => {}
            }
        }
    }

    /// Sends the changes after the cache's cursor (one batch) and moves it past them. On
    /// PostgreSQL the cursor stays claimed while the purge is sent.
    async fn round(&self) -> Result<Round, Failure> {
        if self.db.backend() == sea_orm::DbBackend::Postgres {
            return self
                .db
                .write_untracked(async |tx| {
                    let Some(cursor) = cairn_store::purges::claim(tx, &self.cache).await? else {
                        return Ok(Round::Held);
                    };
                    self.purge_after(tx, cursor).await
                })
                .await;
        }
        let db = self.db.conn();
        let Some(cursor) = cairn_store::purges::claim(db, &self.cache).await? else {
            return Ok(Round::Held);
        };
        self.purge_after(db, cursor).await
    }

    /// Purges the changes after `cursor` and records it, reading and writing on `db`.
    async fn purge_after(
        &self,
        db: &impl cairn_store::Connection,
        cursor: u64,
    ) -> Result<Round, Failure> {
        let seen = self.seen.swap(cursor, Ordering::AcqRel);
        if seen < cursor && self.in_flight.busy() {
            self.purge_late(db, seen, cursor).await?;
        }
        let pending = events::pending_since(db, cursor, BATCH).await?;
        let now = now();
        let label = self.cache.clone();
        let Some(last) = pending.last().map(|p| p.id) else {
            metrics::gauge!("cairn_purge_lag_changes", "cache" => label.clone()).set(0.0);
            metrics::gauge!("cairn_purge_lag_seconds", "cache" => label).set(0.0);
            return Ok(Round::Through(0, cursor));
        };
        metrics::gauge!("cairn_purge_lag_seconds", "cache" => label.clone())
            .set((now - pending[0].at).max(0) as f64);
        // Changes pruned from the outbox before they were purged: anything may have changed.
        let lost = pending[0].id > cursor + 1
            && cairn_store::purges::oldest_kept(db)
                .await?
                .is_some_and(|o| o > cursor + 1);
        let tags = tags_of(&pending, lost);
        // An answer rendered before these changes and still going out would reach the cache
        // after the purge, and stay.
        self.drain().await;
        for chunk in chunks(&tags) {
            self.send(&chunk).await?;
        }
        cairn_store::purges::advance(db, &self.cache, last, now).await?;
        self.seen.store(last, Ordering::Release);
        metrics::counter!("cairn_purged_changes_total", "cache" => label.clone())
            .increment(pending.len() as u64);
        let behind = events::generation(db).await?.saturating_sub(last);
        metrics::gauge!("cairn_purge_lag_changes", "cache" => label).set(behind as f64);
        Ok(Round::Through(pending.len(), last))
    }

    /// Another instance purged the changes after `seen` up to `cursor` while this one was
    /// rendering public answers, which may have begun before them: once those are out, purges
    /// the changes again, so that a cache that kept one of them drops it.
    async fn purge_late(
        &self,
        db: &impl cairn_store::Connection,
        seen: u64,
        cursor: u64,
    ) -> Result<(), Failure> {
        let late: Vec<Pending> = (events::pending_since(db, seen, BATCH).await?)
            .into_iter()
            .filter(|p| p.id <= cursor)
            .collect();
        let lost = cursor - seen > late.len() as u64;
        let tags = tags_of(&late, lost);
        self.drain().await;
        for chunk in chunks(&tags) {
            self.send(&chunk).await?;
        }
        Ok(())
    }

    /// Waits until the public answers begun before now have gone out, and the cache has had
    /// a moment to hold them.
    async fn drain(&self) {
        if self.in_flight.drain(DRAIN).await == Drained::Late {
            tracing::warn!(cache = %self.cache, "purging while answers begun before are still out");
        }
        self.in_flight.settle(SETTLE).await;
    }

    /// One purge request; a cache that does not answer 2xx has not taken it.
    async fn send(&self, tags: &str) -> Result<(), Failure> {
        let resp = self
            .client
            .request(self.method.clone(), &self.cache)
            .header(self.header.as_str(), tags)
            .send()
            .await
            .map_err(|e| Failure::Cache(e.to_string()))?;
        metrics::counter!("cairn_purges_total", "cache" => self.cache.clone()).increment(1);
        match resp.status() {
            s if s.is_success() => Ok(()),
            s => Err(Failure::Cache(format!("the cache answered {s}"))),
        }
    }
}

/// The tags to purge for `changes`: `ez-all` alone when one of them may have changed
/// anything (or changes were lost), else what they name and `cairn-any`.
fn tags_of(changes: &[Pending], lost: bool) -> Vec<String> {
    if lost || changes.iter().any(|c| c.touched.is_none()) {
        return vec![ALL.to_string()];
    }
    let mut tags = std::collections::BTreeSet::new();
    for touched in changes.iter().filter_map(|c| c.touched.as_ref()) {
        tags.extend(touched.iter().map(|t| t.text()));
    }
    let mut out = vec![ANY.to_string()];
    out.extend(tags);
    out
}

/// `tags` as header values of at most [`MAX_HEADER`] bytes, space-separated.
fn chunks(tags: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for tag in tags {
        match out.last_mut() {
            Some(last) if last.len() + 1 + tag.len() <= MAX_HEADER => {
                last.push(' ');
                last.push_str(tag);
            }
            _ => out.push(tag.clone()),
        }
    }
    out
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairn_store::events::Touched;

    fn change(id: u64, touched: Option<Vec<Touched>>) -> Pending {
        Pending { id, at: 0, touched }
    }

    #[test]
    fn narrow_changes_purge_what_they_name_and_broad_ones_everything() {
        let narrow = [
            change(1, Some(vec![Touched::Content(57), Touched::Location(59)])),
            change(2, Some(vec![Touched::Content(57)])),
        ];
        assert_eq!(tags_of(&narrow, false), ["cairn-any", "c57", "l59"]);
        assert_eq!(tags_of(&narrow, true), ["ez-all"]);
        let broad = [change(1, Some(vec![Touched::Content(1)])), change(2, None)];
        assert_eq!(tags_of(&broad, false), ["ez-all"]);
    }

    #[test]
    fn long_purges_are_split_in_headers_varnish_takes() {
        let tags: Vec<String> = (0..3_000).map(|i| format!("c{i}")).collect();
        let chunks = chunks(&tags);
        assert!(chunks.len() > 1);
        assert!(chunks.iter().all(|c| c.len() <= MAX_HEADER));
        let back: Vec<&str> = chunks.iter().flat_map(|c| c.split(' ')).collect();
        assert_eq!(back.len(), 3_000);
    }
}
