//! The aggregations scenario (issue 45): a repository of `--aggregation-items` folders, a
//! third of them in the media Section, then a content search with criteria (folders of the
//! standard or media Section), a sort (newest first) and three aggregations (by content
//! type, by Section, by publication date in three ranges) over all of them, as anonymous,
//! measured against its ceiling, one query at a time (`--connections 1`). The targets: p50
//! within 20 ms and p99 within 60 ms on SQLite, 30 and 100 ms on PostgreSQL; the run fails
//! over them.
//!
//! The build: `--aggregation-distinct` folders created and published over HTTP under one
//! folder (every third then moved to the media Section), which is copied (COPY: the copies
//! keep their Sections) until the total is reached. `--aggregation-database` runs it on
//! PostgreSQL (a fresh schema `cairn_bench` there). The server runs without its response
//! cache, which would answer the repeated query.

use crate::bulk::{ADMIN, copy_subtree, create, create_folder, publish};
use crate::client::{Conn, Request};
use crate::load::Load;
use crate::report::Outcome;
use crate::scenarios::PREFIX;
use crate::server::Cairn;
use anyhow::{Context, Result, bail};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The scenario's name for `--scenario`.
pub const NAME: &str = "aggregations";

/// The latencies the issue sets for the query: (p50, p99) in ms, on SQLite and PostgreSQL.
pub const TARGET_SQLITE_MS: (f64, f64) = (20.0, 60.0);
pub const TARGET_POSTGRES_MS: (f64, f64) = (30.0, 100.0);

/// What to build.
#[derive(Debug, Clone)]
pub struct Aggregations {
    pub items: usize,
    pub distinct: usize,
    pub concurrency: usize,
    /// `postgres://…` to run on PostgreSQL; SQLite otherwise.
    pub database: Option<String>,
}

impl Aggregations {
    /// The targets of the database it runs on.
    pub fn target(&self) -> (f64, f64) {
        match self.database {
            Some(_) => TARGET_POSTGRES_MS,
            None => TARGET_SQLITE_MS,
        }
    }
}

/// The measured search.
fn query() -> serde_json::Value {
    serde_json::json!({"ViewInput": {"identifier": "aggregations", "ContentQuery": {
    "Filter": {
        "ContentTypeIdentifierCriterion": "folder",
        "SectionIdentifierCriterion": "standard,media",
    },
    "SortClauses": {"DatePublished": "descending"},
    "limit": 10,
    "Aggregations": [
        {"ContentTypeTermAggregation": {"name": "types"}},
        {"SectionTermAggregation": {"name": "sections"}},
        {"DateMetadataRangeAggregation": {"name": "published", "type": "published",
            "ranges": [
                {"from": null, "to": "2020-01-01T00:00:00+00:00"},
                {"from": "2020-01-01T00:00:00+00:00", "to": "2026-01-01T00:00:00+00:00"},
                {"from": "2026-01-01T00:00:00+00:00", "to": null}]}},
    ]}}})
}

/// Builds the repository on a fresh server, then measures the query.
pub async fn run(cairn: &Cairn, a: &Aggregations, load: Load) -> Result<Outcome> {
    let dir = tempfile::tempdir()?;
    let server = cairn
        .start_uncached(dir.path(), PREFIX, a.database.as_deref())
        .await?;
    let addr = server.addr;
    let mut conn = Conn::connect(addr).await?;
    let root = format!("{PREFIX}/content/locations/1/2");
    let top = create_folder(&mut conn, &root, "Aggregations").await?;
    let t = Instant::now();
    fill(addr, &top, a).await?;
    eprintln!(
        "{NAME}: {} items created and published in {:.1} s",
        a.distinct,
        t.elapsed().as_secs_f64()
    );
    let copies = a.items.div_ceil(a.distinct).saturating_sub(1);
    let t = Instant::now();
    for n in 1..=copies {
        copy_subtree(&mut conn, &top, &root).await?;
        if n % 10 == 0 || n == copies {
            eprintln!("{NAME}: copy {n} of {copies}");
        }
    }
    eprintln!(
        "{NAME}: {} items in all after {:.1} s of copies",
        (copies + 1) * a.distinct,
        t.elapsed().as_secs_f64()
    );
    let req = Request::new("POST", &format!("{PREFIX}/views"))
        .header(
            "Content-Type",
            "application/vnd.ibexa.api.ViewInput+json; version=1.1",
        )
        .header("Accept", "application/vnd.ibexa.api.View+json")
        .body(query().to_string());
    let t = Instant::now();
    let check = conn.send(&req).await?;
    let view = check.json()?;
    let hits = view["View"]["Result"]["count"].as_i64().unwrap_or(0);
    let sections = &view["View"]["Result"]["aggregations"][1]["entries"];
    eprintln!(
        "{NAME}: the query matches {hits} items ({:.1} ms); by Section: {}",
        t.elapsed().as_secs_f64() * 1000.0,
        sections
            .as_array()
            .map(|e| e
                .iter()
                .map(|e| format!("{} {}", e["key"]["Section"]["identifier"], e["count"]))
                .collect::<Vec<_>>()
                .join(", "))
            .unwrap_or_default()
    );
    if hits == 0 {
        bail!("the query found nothing: {}", check.excerpt());
    }
    let label = match &a.database {
        Some(_) => "search, 3 aggregations (PostgreSQL)",
        None => "search, 3 aggregations (SQLite)",
    };
    crate::measure(label, addr, &req, dir.path(), load).await
}

/// Creates and publishes `a.distinct` folders under `parent`, every third in the media
/// Section.
async fn fill(addr: SocketAddr, parent: &str, a: &Aggregations) -> Result<()> {
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..a.concurrency {
        let (next, parent, total) = (next.clone(), parent.to_string(), a.distinct);
        let mut conn = Conn::connect(addr).await?;
        tasks.push(tokio::spawn(async move {
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= total {
                    return Ok::<_, anyhow::Error>(());
                }
                let id = create(&mut conn, &parent, &format!("Item {n}")).await?;
                publish(&mut conn, id).await?;
                if n % 3 == 2 {
                    to_media(&mut conn, id).await?;
                }
                if (n + 1) % 1000 == 0 {
                    eprintln!("{NAME}: {} of {total} items", n + 1);
                }
            }
        }));
    }
    for task in tasks {
        task.await.context("an aggregations worker failed")??;
    }
    Ok(())
}

/// Moves content item `id` to the media Section (3).
async fn to_media(conn: &mut Conn, id: i64) -> Result<()> {
    let body = serde_json::json!({"ContentUpdate": {
        "Section": {"_href": format!("{PREFIX}/content/sections/3")}}});
    let req = Request::new("PATCH", &format!("{PREFIX}/content/objects/{id}"))
        .header("Authorization", ADMIN)
        .header(
            "Content-Type",
            "application/vnd.ibexa.api.ContentUpdate+json",
        )
        .body(body.to_string());
    let resp = conn.send(&req).await?;
    if resp.status != 200 {
        bail!(
            "the Section of {id} answered {}: {}",
            resp.status,
            resp.excerpt()
        );
    }
    Ok(())
}
