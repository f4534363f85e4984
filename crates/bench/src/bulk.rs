//! The bulk-content scenario: creates N folders and publishes each (`POST /content/objects`,
//! then `PUBLISH …/versions/1`), from a few connections, and checks that the rate stays
//! steady as the repository grows. Each run starts its own cairn on a fresh database.
//!
//! The items are numbered by completion; every window of W consecutive items gets a rate
//! (W / the time between the end of the previous window and its own end), and the ratio of
//! the last window's rate to the first's says whether the rate held (1: steady).

use crate::client::{Conn, Request};
use crate::scenarios::PREFIX;
use crate::server::Cairn;
use anyhow::{Context, Result, bail};
use serde::Serialize;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The scenario's name for `--scenario`.
pub const NAME: &str = "bulk-content";

/// Below this last/first rate ratio (the last window more than 25% slower per item) a run is
/// flagged as slowing down.
const SLOWDOWN: f64 = 1.0 / 1.25;

/// `Authorization` for admin:publish.
pub const ADMIN: &str = "Basic YWRtaW46cHVibGlzaA==";

/// What to run.
#[derive(Debug, Clone)]
pub struct Bulk {
    pub items: usize,
    pub concurrency: usize,
    pub window: usize,
    /// One run per entry: the items are spread over that many new folders, or all go
    /// directly under Location 2 for 1.
    pub parents: Vec<usize>,
    /// A PostgreSQL server to run on (a fresh schema each run) instead of SQLite.
    pub database: Option<String>,
    /// Each item in one request, `POST /content/objects?publish=true` (cairn's extension),
    /// instead of POST then PUBLISH.
    pub at_once: bool,
}

/// Items per window: `given`, else 1,000, or a tenth of `items` if that is smaller.
pub fn window(items: usize, given: Option<usize>) -> usize {
    given.unwrap_or((items / 10).clamp(1, 1000))
}

/// One item, created and published.
#[derive(Debug, Clone, Copy)]
struct Item {
    /// When its publish answered, since the start of the run.
    done: Duration,
    create_us: u64,
    publish_us: u64,
    failed: bool,
}

/// Figures for a window of items (or for all of them).
#[derive(Debug, Serialize)]
pub struct Window {
    /// Items `from..=to`, 1-based, in completion order.
    pub from: usize,
    pub to: usize,
    pub seconds: f64,
    pub items_per_s: f64,
    pub create_p50_us: u64,
    pub create_p99_us: u64,
    pub publish_p50_us: u64,
    pub publish_p99_us: u64,
    pub errors: usize,
}

/// One run.
#[derive(Debug, Serialize)]
pub struct Outcome {
    pub label: String,
    pub parents: usize,
    pub total: Window,
    pub windows: Vec<Window>,
    /// The last window's rate over the first's.
    pub last_over_first: f64,
    pub slowdown: bool,
}

impl Outcome {
    fn flags(&self) -> String {
        let mut flags = String::new();
        if self.slowdown {
            flags.push_str(" ⚠ slowdown");
        }
        if self.total.errors > 0 {
            flags.push_str(" ⚠ errors");
        }
        flags
    }
}

/// Runs every layout of `bulk`, each on a fresh server.
pub async fn run(cairn: &Cairn, bulk: &Bulk) -> Result<Vec<Outcome>> {
    let mut outcomes = Vec::new();
    for &parents in &bulk.parents {
        let dir = tempfile::tempdir()?;
        let url = (bulk.database.as_deref())
            .map(crate::server::fresh_schema)
            .transpose()?;
        let server = cairn
            .start_on(dir.path(), PREFIX, url.as_deref(), &[])
            .await?;
        let mut label = if parents == 1 {
            "one parent (Location 2)".to_string()
        } else {
            format!("{parents} parent folders")
        };
        if url.is_some() {
            label.push_str(", PostgreSQL");
        }
        if bulk.at_once {
            label.push_str(", POST ?publish=true");
        }
        eprintln!("{NAME}: {} items under {label}", bulk.items);
        let outcome = run_one(server.addr, bulk, parents, label).await?;
        eprintln!(
            "{NAME}: {:.0} items/s, last/first window {:.2}, errors {}",
            outcome.total.items_per_s, outcome.last_over_first, outcome.total.errors
        );
        outcomes.push(outcome);
    }
    Ok(outcomes)
}

/// One run: the parent folders first (not measured), then the items from every connection.
async fn run_one(addr: SocketAddr, bulk: &Bulk, parents: usize, label: String) -> Result<Outcome> {
    let parent_hrefs = if parents == 1 {
        vec![format!("{PREFIX}/content/locations/1/2")]
    } else {
        let mut conn = Conn::connect(addr).await?;
        let mut hrefs = Vec::new();
        for n in 1..=parents {
            hrefs.push(create_parent(&mut conn, n).await?);
        }
        hrefs
    };
    let shared = Arc::new(Shared {
        parents: parent_hrefs,
        total: bulk.items,
        window: bulk.window,
        at_once: bulk.at_once,
        next: AtomicUsize::new(0),
        items: Mutex::new(Vec::with_capacity(bulk.items)),
        start: Instant::now(),
    });
    let mut tasks = Vec::new();
    for _ in 0..bulk.concurrency {
        let conn = Conn::connect(addr).await?;
        tasks.push(tokio::spawn(worker(conn, addr, shared.clone())));
    }
    for task in tasks {
        task.await.context("a bulk worker failed")??;
    }
    let mut items = std::mem::take(&mut *shared.items.lock().unwrap());
    items.sort_by_key(|i| i.done);
    Ok(summarize(label, parents, &items, bulk.window))
}

/// What the connections of a run share.
struct Shared {
    /// The hrefs of the parent Locations; item n goes under `parents[n % len]`.
    parents: Vec<String>,
    total: usize,
    window: usize,
    /// Each item in one request (`Bulk::at_once`).
    at_once: bool,
    /// The next item number to take.
    next: AtomicUsize,
    /// The items done, roughly in completion order.
    items: Mutex<Vec<Item>>,
    start: Instant,
}

/// One connection: takes the next item number until all are taken. A failed item is counted
/// (the first failure of each connection is printed) and the connection opened again.
async fn worker(mut conn: Conn, addr: SocketAddr, shared: Arc<Shared>) -> Result<()> {
    let mut reported = false;
    loop {
        let n = shared.next.fetch_add(1, Ordering::Relaxed);
        if n >= shared.total {
            return Ok(());
        }
        let parent = &shared.parents[n % shared.parents.len()];
        let outcome = create_and_publish(&mut conn, parent, n + 1, shared.at_once).await;
        let done = shared.start.elapsed();
        let (create_us, publish_us, failed) = match outcome {
            Ok((create_us, publish_us)) => (create_us, publish_us, false),
            Err(e) => {
                if !reported {
                    eprintln!("{NAME}: item {} failed: {e:#}", n + 1);
                    reported = true;
                }
                conn = Conn::connect(addr).await?;
                (0, 0, true)
            }
        };
        let mut items = shared.items.lock().unwrap();
        items.push(Item {
            done,
            create_us,
            publish_us,
            failed,
        });
        let (count, window) = (items.len(), shared.window);
        if count % window == 0 {
            let before = count
                .checked_sub(window + 1)
                .map_or(Duration::ZERO, |i| items[i].done);
            let rate = window as f64 / (done - before).as_secs_f64();
            eprintln!("{NAME}: {count:>7} items   {rate:>7.0} items/s in the last {window}");
        }
    }
}

/// Creates folder `n` under `parent_href` and publishes it, in the same request when
/// `at_once`; returns the latencies of both requests in microseconds (the second 0 when
/// `at_once`).
pub async fn create_and_publish(
    conn: &mut Conn,
    parent_href: &str,
    n: usize,
    at_once: bool,
) -> Result<(u64, u64)> {
    let (name, t0) = (format!("Folder {n}"), Instant::now());
    if at_once {
        post(conn, "?publish=true", parent_href, &name).await?;
        return Ok((micros(t0.elapsed()), 0));
    }
    let id = create(conn, parent_href, &name).await?;
    let t1 = Instant::now();
    publish(conn, id).await?;
    Ok((micros(t1 - t0), micros(t1.elapsed())))
}

/// Creates a folder called `name` under the Location at `parent_href`; returns its id.
pub async fn create(conn: &mut Conn, parent_href: &str, name: &str) -> Result<i64> {
    post(conn, "", parent_href, name).await
}

/// `POST /content/objects{query}` of a folder called `name` under `parent_href`; its id.
async fn post(conn: &mut Conn, query: &str, parent_href: &str, name: &str) -> Result<i64> {
    let body = folder(parent_href, name);
    let req = Request::new("POST", &format!("{PREFIX}/content/objects{query}"))
        .header("Authorization", ADMIN)
        .header(
            "Content-Type",
            "application/vnd.ibexa.api.ContentCreate+json",
        )
        .header("Accept", "application/vnd.ibexa.api.ContentInfo+json")
        .body(body.to_string());
    let resp = conn.send(&req).await?;
    match resp.json().ok().and_then(|j| j["Content"]["_id"].as_i64()) {
        Some(id) if resp.status == 201 => Ok(id),
        _ => bail!("create answered {}: {}", resp.status, resp.excerpt()),
    }
}

/// The `ContentCreate` body (JSON) of a folder called `name` under the Location at
/// `parent_href`.
pub fn folder(parent_href: &str, name: &str) -> serde_json::Value {
    serde_json::json!({"ContentCreate": {
        "ContentType": {"_href": format!("{PREFIX}/content/types/1")},
        "mainLanguageCode": "eng-GB",
        "LocationCreate": {"ParentLocation": {"_href": parent_href}},
        "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": name}]},
    }})
}

/// Publishes version 1 of content item `id` (a `PUBLISH` request, as the spec has it).
pub async fn publish(conn: &mut Conn, id: i64) -> Result<()> {
    let req = Request::new(
        "PUBLISH",
        &format!("{PREFIX}/content/objects/{id}/versions/1"),
    )
    .header("Authorization", ADMIN);
    let resp = conn.send(&req).await?;
    if resp.status != 204 {
        bail!(
            "publish of {id} answered {}: {}",
            resp.status,
            resp.excerpt()
        );
    }
    Ok(())
}

/// Copies the subtree at the Location `from` under the Location `to` (`COPY`, as admin).
pub async fn copy_subtree(conn: &mut Conn, from: &str, to: &str) -> Result<()> {
    let req = Request::new("COPY", from)
        .header("Authorization", ADMIN)
        .header("Destination", to);
    let resp = conn.send(&req).await?;
    if resp.status != 201 {
        bail!("COPY answered {}: {}", resp.status, resp.excerpt());
    }
    Ok(())
}

/// Creates and publishes parent folder `n` under Location 2; returns its main Location's href.
async fn create_parent(conn: &mut Conn, n: usize) -> Result<String> {
    let root = format!("{PREFIX}/content/locations/1/2");
    create_folder(conn, &root, &format!("Bulk parent {n}")).await
}

/// Creates and publishes a folder called `name` under `parent_href`; returns its main
/// Location's href.
pub async fn create_folder(conn: &mut Conn, parent_href: &str, name: &str) -> Result<String> {
    let id = create(conn, parent_href, name).await?;
    publish(conn, id).await?;
    let info = Request::new("GET", &format!("{PREFIX}/content/objects/{id}"))
        .header("Authorization", ADMIN)
        .header("Accept", "application/vnd.ibexa.api.ContentInfo+json");
    let resp = conn.send(&info).await?;
    resp.json()?["Content"]["MainLocation"]["_href"]
        .as_str()
        .map(str::to_string)
        .with_context(|| format!("parent folder {id} has no MainLocation: {}", resp.excerpt()))
}

fn micros(d: Duration) -> u64 {
    d.as_micros().max(1) as u64
}

/// The figures of `items` (sorted by completion) per window and overall.
fn summarize(label: String, parents: usize, items: &[Item], window: usize) -> Outcome {
    let mut windows = Vec::new();
    let mut prev_end = Duration::ZERO;
    for (k, chunk) in items.chunks(window).enumerate() {
        windows.push(figures(chunk, k * window, prev_end));
        prev_end = chunk.last().map_or(prev_end, |i| i.done);
    }
    let total = figures(items, 0, Duration::ZERO);
    let last_over_first = match (windows.first(), windows.last()) {
        (Some(first), Some(last)) if first.items_per_s > 0.0 => {
            last.items_per_s / first.items_per_s
        }
        _ => f64::NAN,
    };
    Outcome {
        label,
        parents,
        total,
        windows,
        last_over_first,
        slowdown: last_over_first < SLOWDOWN,
    }
}

/// Figures for `items`, the first of which is item `offset` + 1, done since `since`.
fn figures(items: &[Item], offset: usize, since: Duration) -> Window {
    let seconds = items.last().map_or(0.0, |i| (i.done - since).as_secs_f64());
    let ok: Vec<_> = items.iter().filter(|i| !i.failed).collect();
    let mut create: Vec<u64> = ok.iter().map(|i| i.create_us).collect();
    let mut publish: Vec<u64> = ok.iter().map(|i| i.publish_us).collect();
    Window {
        from: offset + 1,
        to: offset + items.len(),
        seconds,
        items_per_s: if seconds > 0.0 {
            items.len() as f64 / seconds
        } else {
            0.0
        },
        create_p50_us: percentile(&mut create, 50.0),
        create_p99_us: percentile(&mut create, 99.0),
        publish_p50_us: percentile(&mut publish, 50.0),
        publish_p99_us: percentile(&mut publish, 99.0),
        errors: items.len() - ok.len(),
    }
}

/// The nearest-rank percentile (0–100) of `values`; 0 when empty.
fn percentile(values: &mut [u64], q: f64) -> u64 {
    if values.is_empty() {
        return 0;
    }
    values.sort_unstable();
    let rank = ((q / 100.0) * values.len() as f64).ceil() as usize;
    values[rank.clamp(1, values.len()) - 1]
}

fn ms(us: u64) -> String {
    format!("{:.2} ms", us as f64 / 1000.0)
}

/// The Markdown tables: one line per run, then each run's windows.
pub fn markdown(outcomes: &[Outcome], bulk: &Bulk) -> String {
    let mut out = format!(
        "## {NAME}\n\n{} folders created and published per run ({}), {} \
         connections, windows of {} items, a fresh database per run. ⚠ slowdown: the last \
         window is more than 25% slower per item than the first (last/first < {SLOWDOWN:.2}).\n\n\
         | run | items/s | first window | last window | last/first | create p50 | create p99 \
         | publish p50 | publish p99 | errors |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
        bulk.items,
        match bulk.at_once {
            true => "POST ?publish=true: one request each, its latency under create",
            false => "POST, then PUBLISH",
        },
        bulk.concurrency,
        bulk.window,
    );
    for o in outcomes {
        let rate = |w: Option<&Window>| w.map_or(0.0, |w| w.items_per_s);
        out.push_str(&format!(
            "| {}{} | {:.0} | {:.0} | {:.0} | {:.2} | {} | {} | {} | {} | {} |\n",
            o.label,
            o.flags(),
            o.total.items_per_s,
            rate(o.windows.first()),
            rate(o.windows.last()),
            o.last_over_first,
            ms(o.total.create_p50_us),
            ms(o.total.create_p99_us),
            ms(o.total.publish_p50_us),
            ms(o.total.publish_p99_us),
            o.total.errors,
        ));
    }
    for o in outcomes {
        out.push_str(&format!(
            "\n{}, per window:\n\n\
             | items | items/s | create p50 | create p99 | publish p50 | publish p99 | errors |\n\
             | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
            o.label
        ));
        for w in &o.windows {
            out.push_str(&format!(
                "| {}–{} | {:.0} | {} | {} | {} | {} | {} |\n",
                w.from,
                w.to,
                w.items_per_s,
                ms(w.create_p50_us),
                ms(w.create_p99_us),
                ms(w.publish_p50_us),
                ms(w.publish_p99_us),
                w.errors,
            ));
        }
    }
    out
}

/// The figures as JSON, for `--json`.
pub fn json(outcomes: &[Outcome], bulk: &Bulk) -> serde_json::Value {
    serde_json::json!({
        "items": bulk.items,
        "concurrency": bulk.concurrency,
        "window": bulk.window,
        "slowdown_below": SLOWDOWN,
        "runs": outcomes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(ms: u64) -> Item {
        Item {
            done: Duration::from_millis(ms),
            create_us: ms,
            publish_us: 2 * ms,
            failed: false,
        }
    }

    #[test]
    fn windows_rate_and_ratio() {
        // 4 items in 1 s, then 4 in 2 s: the second window is twice as slow.
        let items: Vec<_> = [250, 500, 750, 1000, 1500, 2000, 2500, 3000]
            .into_iter()
            .map(item)
            .collect();
        let o = summarize("t".into(), 1, &items, 4);
        assert_eq!(o.windows.len(), 2);
        assert_eq!((o.windows[1].from, o.windows[1].to), (5, 8));
        assert!((o.windows[0].items_per_s - 4.0).abs() < 1e-9);
        assert!((o.windows[1].items_per_s - 2.0).abs() < 1e-9);
        assert!((o.last_over_first - 0.5).abs() < 1e-9);
        assert!(o.slowdown);
        assert_eq!(o.windows[0].create_p50_us, 500);
        assert_eq!(o.windows[0].publish_p99_us, 2000);
    }

    #[test]
    fn nearest_rank_percentile() {
        let mut v: Vec<u64> = (1..=100).rev().collect();
        assert_eq!(percentile(&mut v, 50.0), 50);
        assert_eq!(percentile(&mut v, 99.0), 99);
        assert_eq!(percentile(&mut v, 100.0), 100);
        assert_eq!(percentile(&mut [], 50.0), 0);
    }
}
