//! The mixed scenario: reads and writes at once on what is read, with stale reads counted.
//! Each of `--connections` connections sends, nine times in ten, a GET of Section 1 (as
//! admin, so answered from the response cache when nothing changed) and otherwise a PATCH
//! renaming it to the next number. Writes go one at a time, in number order; a read notes the
//! last number whose write was answered before the read began, and a read answering an older
//! one is stale (must be 0). With `--mixed-database postgres://…`, two servers share the
//! database (a fresh schema `cairn_bench`): writes go through the first, reads through the
//! second. The hit ratio comes from the reading server's metrics.
//!
//! With `--mixed-items N`, it runs again on content, as front ends read it while editors
//! publish: N folders, read in turn as full Content items (`Content+json`), and a write is an
//! edit of the next one (a new draft, its name set to the next number, published). A
//! publication drops only the kept answers of what it touched, so the reads of the other
//! items stay kept.
//!
//! As `varnish` ([`EDGE`]), it runs on content items read by anonymous front ends through a
//! Varnish of its own in front of the server (`varnish.rs`), which purges it on every change
//! (`--purge-url`); the hit ratio is Varnish's (`X-Cache`).

use crate::bulk::ADMIN;
use crate::client::{Conn, Request};
use crate::scenarios::PREFIX;
use crate::server::Cairn;
use anyhow::{Context, Result, bail};
use hdrhistogram::Histogram;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::Mutex;

/// The scenario's name for `--scenario`.
pub const NAME: &str = "mixed";
/// The scenario through Varnish.
pub const EDGE: &str = "varnish";

/// Writes in every hundred requests.
const WRITES_PER_100: u64 = 10;

/// What a run measured.
pub struct Report {
    pub label: String,
    pub reads: u64,
    pub writes: u64,
    pub stale: u64,
    pub errors: u64,
    pub seconds: f64,
    pub read_p50_us: u64,
    pub read_p99_us: u64,
    pub hits: f64,
    pub misses: f64,
}

/// Runs the scenario on SQLite, or on two servers over `database` (PostgreSQL).
pub async fn run(
    cairn: &Cairn,
    database: Option<&str>,
    connections: usize,
    duration: Duration,
    items: usize,
    edge: Option<&Path>,
) -> Result<Report> {
    let dir = tempfile::tempdir()?;
    let url = database.map(crate::server::fresh_schema).transpose()?;
    let varnish_at = crate::server::free_addr()?;
    let purge = format!("http://{varnish_at}/");
    let extra: &[&str] = match edge {
        Some(_) => &["--purge-url", &purge],
        None => &[],
    };
    let writer = cairn
        .start_on(dir.path(), PREFIX, url.as_deref(), extra)
        .await?;
    let reader = match &url {
        Some(url) => Some(cairn.start_on(dir.path(), PREFIX, Some(url), extra).await?),
        None => None,
    };
    let (write_at, mut read_at) = (writer.addr, reader.as_ref().map_or(writer.addr, |r| r.addr));
    let varnish = match edge {
        Some(vcl) => {
            let ready = format!("{PREFIX}/");
            let v = crate::varnish::start(dir.path(), varnish_at, read_at, vcl, &ready).await?;
            read_at = v.addr;
            Some(v)
        }
        None => None,
    };
    let subject = match items {
        0 if edge.is_some() => bail!("varnish: needs content items (--mixed-items)"),
        0 => Subject::Section,
        n => Subject::Content(folders(write_at, n).await?),
    };
    if edge.is_some() {
        // The purges of the setup, sent while Varnish started, settle.
        tokio::time::sleep(Duration::from_secs(3)).await;
    }
    let before = match edge {
        Some(_) => (0.0, 0.0),
        None => cache_counts(read_at).await?,
    };
    let shared = Arc::new(Shared {
        edge: edge.is_some(),
        hits: AtomicU64::new(0),
        misses: AtomicU64::new(0),
        acked: (0..subject.len()).map(|_| AtomicU64::new(0)).collect(),
        subject,
        next: Mutex::new(0),
        stale: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        reads: AtomicU64::new(0),
        writes: AtomicU64::new(0),
    });
    let end = Instant::now() + duration;
    let mut tasks = Vec::new();
    for n in 0..connections {
        let shared = shared.clone();
        tasks.push(tokio::spawn(async move {
            connection(n as u64, shared, write_at, read_at, end).await
        }));
    }
    let mut latency = Histogram::<u64>::new(3)?;
    for t in tasks {
        latency.add(t.await.context("a mixed connection failed")??)?;
    }
    let after = match edge {
        Some(_) => (
            shared.hits.load(Ordering::Relaxed) as f64,
            shared.misses.load(Ordering::Relaxed) as f64,
        ),
        None => cache_counts(read_at).await?,
    };
    let label = match (database, items) {
        _ if edge.is_some() => format!(
            "varnish, {items} content items read by anonymous through Varnish{}",
            if database.is_some() {
                ", 2 instances (PostgreSQL)"
            } else {
                " (SQLite)"
            }
        ),
        (Some(_), 0) => "mixed, 2 instances (PostgreSQL)".to_string(),
        (None, 0) => "mixed (SQLite)".to_string(),
        (Some(_), n) => format!("mixed, {n} content items, 2 instances (PostgreSQL)"),
        (None, n) => format!("mixed, {n} content items (SQLite)"),
    };
    let report = Report {
        label,
        reads: shared.reads.load(Ordering::Relaxed),
        writes: shared.writes.load(Ordering::Relaxed),
        stale: shared.stale.load(Ordering::Relaxed),
        errors: shared.errors.load(Ordering::Relaxed),
        seconds: duration.as_secs_f64(),
        read_p50_us: latency.value_at_quantile(0.5),
        read_p99_us: latency.value_at_quantile(0.99),
        hits: after.0 - before.0,
        misses: after.1 - before.1,
    };
    drop((varnish, writer, reader));
    Ok(report)
}

/// What is read and written.
enum Subject {
    /// Section 1, renamed.
    Section,
    /// These content items, edited and published.
    Content(Vec<i64>),
}

impl Subject {
    fn len(&self) -> usize {
        match self {
            Subject::Section => 1,
            Subject::Content(ids) => ids.len(),
        }
    }
}

/// Creates and publishes `n` folders named "0" under Location 2; their content ids.
async fn folders(at: SocketAddr, n: usize) -> Result<Vec<i64>> {
    let mut conn = Conn::connect(at).await?;
    let parent = format!("{PREFIX}/content/locations/1/2");
    let mut ids = Vec::with_capacity(n);
    for _ in 0..n {
        let id = crate::bulk::create(&mut conn, &parent, "0").await?;
        crate::bulk::publish(&mut conn, id).await?;
        ids.push(id);
    }
    Ok(ids)
}

struct Shared {
    subject: Subject,
    /// Reads go through Varnish, as anonymous; its `X-Cache` counted.
    edge: bool,
    hits: AtomicU64,
    misses: AtomicU64,
    /// Per item read, the highest number whose write was answered.
    acked: Vec<AtomicU64>,
    /// The last number written; held while a write is under way, so writes go in order.
    next: Mutex<u64>,
    stale: AtomicU64,
    errors: AtomicU64,
    reads: AtomicU64,
    writes: AtomicU64,
}

/// One connection's loop until `end`; the latencies of its reads.
async fn connection(
    n: u64,
    shared: Arc<Shared>,
    write_at: SocketAddr,
    read_at: SocketAddr,
    end: Instant,
) -> Result<Histogram<u64>> {
    let mut reads = Conn::connect(read_at).await?;
    let mut writes = Conn::connect(write_at).await?;
    let mut latency = Histogram::<u64>::new(3)?;
    let mut i = n;
    while Instant::now() < end {
        i += 1;
        if (i * 37) % 100 < WRITES_PER_100 {
            let mut next = shared.next.lock().await;
            let number = *next + 1;
            // Items are written in turn, as they are read.
            let item = number as usize % shared.acked.len();
            match write(&mut writes, &shared.subject, item, number).await {
                Ok(()) => {
                    *next = number;
                    shared.acked[item].fetch_max(number, Ordering::SeqCst);
                    shared.writes.fetch_add(1, Ordering::Relaxed);
                }
                Err(e) => {
                    eprintln!("mixed: a write failed: {e:#}");
                    shared.errors.fetch_add(1, Ordering::Relaxed);
                }
            }
            continue;
        }
        let item = i as usize % shared.acked.len();
        let need = shared.acked[item].load(Ordering::SeqCst);
        let t = Instant::now();
        let resp = reads
            .send(&read_request(&shared.subject, item, shared.edge))
            .await?;
        latency.record(t.elapsed().as_micros() as u64)?;
        shared.reads.fetch_add(1, Ordering::Relaxed);
        if shared.edge {
            let hit = resp.header("x-cache").is_some_and(|v| v.starts_with("HIT"));
            let counter = if hit { &shared.hits } else { &shared.misses };
            counter.fetch_add(1, Ordering::Relaxed);
        }
        if resp.status != 200 {
            shared.errors.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        let json = resp.json()?;
        let name = match shared.subject {
            Subject::Section => &json["Section"]["name"],
            Subject::Content(_) => &json["Content"]["Name"],
        };
        let seen: u64 = name.as_str().unwrap_or("").parse().unwrap_or(0);
        if seen < need {
            shared.stale.fetch_add(1, Ordering::Relaxed);
        }
    }
    Ok(latency)
}

/// The read of `item`, as admin, or as anonymous through Varnish (`edge`).
fn read_request(subject: &Subject, item: usize, edge: bool) -> Request {
    let (path, media) = match subject {
        Subject::Section => (format!("{PREFIX}/content/sections/1"), "Section"),
        Subject::Content(ids) => (format!("{PREFIX}/content/objects/{}", ids[item]), "Content"),
    };
    let req = Request::new("GET", &path)
        .header("Accept", &format!("application/vnd.ibexa.api.{media}+json"));
    match edge {
        true => req,
        false => req.header("Authorization", ADMIN),
    }
}

/// Renames `item` to `number`: the Section at once; a content item by a new draft,
/// published.
async fn write(conn: &mut Conn, subject: &Subject, item: usize, number: u64) -> Result<()> {
    let id = match subject {
        Subject::Section => {
            let req = Request::new("PATCH", &format!("{PREFIX}/content/sections/1"))
                .header("Authorization", ADMIN)
                .header(
                    "Content-Type",
                    "application/vnd.ibexa.api.SectionInput+json",
                )
                .body(format!(r#"{{"SectionInput":{{"name":"{number}"}}}}"#));
            let resp = conn.send(&req).await?;
            if resp.status != 200 {
                bail!("PATCH answered {}: {}", resp.status, resp.excerpt());
            }
            return Ok(());
        }
        Subject::Content(ids) => ids[item],
    };
    let item = format!("{PREFIX}/content/objects/{id}");
    let copy = Request::new("COPY", &format!("{item}/currentversion"))
        .header("Authorization", ADMIN)
        .header("Accept", "application/vnd.ibexa.api.Version+json");
    let resp = conn.send(&copy).await?;
    if resp.status != 201 {
        bail!("COPY answered {}: {}", resp.status, resp.excerpt());
    }
    let no = resp.json()?["Version"]["VersionInfo"]["versionNo"]
        .as_i64()
        .context("the new draft has no versionNo")?;
    let version = format!("{item}/versions/{no}");
    let body = serde_json::json!({"VersionUpdate": {"fields": {"field": [
        {"fieldDefinitionIdentifier": "name", "fieldValue": number.to_string()}]}}});
    let update = Request::new("PATCH", &version)
        .header("Authorization", ADMIN)
        .header(
            "Content-Type",
            "application/vnd.ibexa.api.VersionUpdate+json",
        )
        .body(body.to_string());
    let resp = conn.send(&update).await?;
    if resp.status != 200 {
        bail!("PATCH answered {}: {}", resp.status, resp.excerpt());
    }
    let resp = conn
        .send(&Request::new("PUBLISH", &version).header("Authorization", ADMIN))
        .await?;
    if resp.status != 204 {
        bail!("PUBLISH answered {}: {}", resp.status, resp.excerpt());
    }
    Ok(())
}

/// The response cache's hits and misses so far, from the server's metrics.
async fn cache_counts(addr: SocketAddr) -> Result<(f64, f64)> {
    let resp = Conn::connect(addr)
        .await?
        .send(&Request::new("GET", "/metrics"))
        .await?;
    if resp.status != 200 {
        bail!("/metrics answered {}", resp.status);
    }
    let text = String::from_utf8_lossy(&resp.body);
    let count = |result: &str| {
        text.lines()
            .filter(|l| {
                l.contains("cache=\"responses\"") && l.contains(&format!("result=\"{result}\""))
            })
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum::<f64>()
    };
    Ok((count("hit"), count("miss")))
}

/// The report as a Markdown table row (with its header).
pub fn markdown(reports: &[Report]) -> String {
    let mut out = String::from(
        "| scenario | reads/s | writes/s | read p50 | read p99 | hit ratio | stale reads | errors |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for r in reports {
        let total = r.hits + r.misses;
        out.push_str(&format!(
            "| {} | {:.0} | {:.0} | {:.3} ms | {:.3} ms | {:.2} | {} | {} |\n",
            r.label,
            r.reads as f64 / r.seconds,
            r.writes as f64 / r.seconds,
            r.read_p50_us as f64 / 1000.0,
            r.read_p99_us as f64 / 1000.0,
            if total > 0.0 { r.hits / total } else { 0.0 },
            r.stale,
            r.errors,
        ));
    }
    out
}

/// The reports for `--json`.
pub fn json(reports: &[Report]) -> serde_json::Value {
    (reports.iter())
        .map(|r| {
            serde_json::json!({
                "scenario": r.label,
                "seconds": r.seconds,
                "reads": r.reads,
                "writes": r.writes,
                "stale": r.stale,
                "errors": r.errors,
                "read_p50_us": r.read_p50_us,
                "read_p99_us": r.read_p99_us,
                "hits": r.hits,
                "misses": r.misses,
            })
        })
        .collect()
}
