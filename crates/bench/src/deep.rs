//! The deep-tree scenario: builds a tree of over 100,000 Locations on a fresh cairn, then
//! measures what a large tree makes expensive: a page of children at a large offset (load,
//! against its ceiling), moving a whole subtree, and trashing and restoring it (single
//! requests, timed).
//!
//! The tree: `Deep tree` under Location 2 holds `Wide 0` with `--deep-width` folders created
//! and published over HTTP, and `--deep-copies` copies of `Wide 0` made with `COPY` (each a
//! new content item per node, as the API defines a copy).

use crate::bulk::{ADMIN, create_and_publish, create_folder};
use crate::client::{Conn, Request};
use crate::load::Load;
use crate::report::Outcome;
use crate::scenarios::PREFIX;
use crate::server::Cairn;
use anyhow::{Context, Result, bail};
use serde::Serialize;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The scenario's name for `--scenario`.
pub const NAME: &str = "deep-tree";

/// What to build.
#[derive(Debug, Clone, Copy)]
pub struct Deep {
    /// Children of each wide folder.
    pub width: usize,
    /// Copies of the first wide folder.
    pub copies: usize,
    /// Connections creating the first wide folder's children.
    pub concurrency: usize,
}

impl Deep {
    /// Locations in a wide folder's subtree.
    fn subtree(&self) -> usize {
        self.width + 1
    }

    /// The offset of the last page of 25 children of a wide folder.
    pub fn last_page(&self) -> usize {
        self.width.saturating_sub(25)
    }

    /// Locations the build adds (the `Deep tree` folder and the wide subtrees).
    pub fn locations(&self) -> usize {
        1 + (self.copies + 1) * self.subtree()
    }
}

/// One timed request.
#[derive(Debug, Serialize)]
pub struct Step {
    pub what: String,
    pub ms: f64,
}

/// What a run measured.
pub struct Report {
    pub build: Vec<Step>,
    pub listing: Vec<Outcome>,
    pub operations: Vec<Step>,
}

/// Builds the tree on a fresh server, then measures.
pub async fn run(cairn: &Cairn, deep: Deep, load: Load) -> Result<Report> {
    let dir = tempfile::tempdir()?;
    let server = cairn.start(dir.path(), PREFIX).await?;
    let addr = server.addr;
    let mut conn = Conn::connect(addr).await?;
    let mut build = Vec::new();

    let (top, wide0, filled) = build_wide(addr, &mut conn, deep).await?;
    build.push(filled);
    let mut wides = vec![wide0.clone()];
    let t = Instant::now();
    for n in 1..=deep.copies {
        let (href, spent) = timed_move(&mut conn, "COPY", &wide0, &top, 201).await?;
        eprintln!(
            "{NAME}: copy {n} of {} ({} nodes) in {:.1} s",
            deep.copies,
            deep.subtree(),
            spent.as_secs_f64()
        );
        wides.push(href.context("COPY answered no Location")?);
    }
    build.push(step(
        format!(
            "{} copies of a {}-node subtree",
            deep.copies,
            deep.subtree()
        ),
        t.elapsed(),
    ));
    let total = deep.locations();
    eprintln!("{NAME}: {total} Locations added");

    // A page of children at the start and at the end of the first wide folder.
    let mut listing = Vec::new();
    for (name, offset) in [
        ("children, offset 0", 0),
        ("children, last page", deep.last_page()),
    ] {
        let req = page(&wide0, offset);
        listing.push(crate::measure(name, addr, &req, dir.path(), load).await?);
    }

    // Move a wide subtree under another and back, trash it and restore it.
    let mut operations = Vec::new();
    let nodes = deep.subtree();
    let (mover, target) = (&wides[wides.len() - 1], &wides[wides.len() - 2]);
    let (moved, spent) = timed_move(&mut conn, "MOVE", mover, target, 201).await?;
    operations.push(step(format!("move a {nodes}-node subtree"), spent));
    let moved = moved.context("MOVE answered no Location")?;
    let (back, spent) = timed_move(&mut conn, "MOVE", &moved, &top, 201).await?;
    operations.push(step("move it back".to_string(), spent));
    let back = back.context("MOVE answered no Location")?;
    let trash = format!("{PREFIX}/content/trash");
    let (item, spent) = timed_move(&mut conn, "MOVE", &back, &trash, 201).await?;
    operations.push(step(format!("trash a {nodes}-node subtree"), spent));
    let item = item.context("trashing answered no Location")?;
    let t = Instant::now();
    let resp = conn
        .send(&Request::new("MOVE", &item).header("Authorization", ADMIN))
        .await?;
    let spent = t.elapsed();
    if resp.status != 201 {
        bail!("restore answered {}: {}", resp.status, resp.excerpt());
    }
    operations.push(step("restore it".to_string(), spent));
    let restored = resp
        .header("location")
        .context("restore answered no Location")?
        .to_string();
    check_children(&mut conn, &restored, deep.width).await?;
    Ok(Report {
        build,
        listing,
        operations,
    })
}

/// Builds `Deep tree` under Location 2 and `Wide 0` in it, filled with `deep.width` folders
/// from `deep.concurrency` connections; returns both hrefs and the filling's step.
pub async fn build_wide(
    addr: SocketAddr,
    conn: &mut Conn,
    deep: Deep,
) -> Result<(String, String, Step)> {
    let root = format!("{PREFIX}/content/locations/1/2");
    let top = create_folder(conn, &root, "Deep tree").await?;
    let wide0 = create_folder(conn, &top, "Wide 0").await?;
    let t = Instant::now();
    fill(addr, &wide0, deep).await?;
    let filled = step(
        format!(
            "create and publish {} folders ({} connections)",
            deep.width, deep.concurrency
        ),
        t.elapsed(),
    );
    Ok((top, wide0, filled))
}

/// The request of a page of 25 children of the Location at `href` from `offset` (anonymous,
/// JSON).
pub fn page(href: &str, offset: usize) -> Request {
    Request::new("GET", &format!("{href}/children?offset={offset}&limit=25"))
        .header("Accept", "application/vnd.ibexa.api.LocationList+json")
}

fn step(what: String, spent: Duration) -> Step {
    eprintln!("{NAME}: {what}: {:.0} ms", spent.as_secs_f64() * 1000.0);
    Step {
        what,
        ms: spent.as_secs_f64() * 1000.0,
    }
}

/// Creates `deep.width` folders under `parent` from `deep.concurrency` connections.
async fn fill(addr: SocketAddr, parent: &str, deep: Deep) -> Result<()> {
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..deep.concurrency {
        let (next, parent) = (next.clone(), parent.to_string());
        let mut conn = Conn::connect(addr).await?;
        tasks.push(tokio::spawn(async move {
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= deep.width {
                    return Ok::<_, anyhow::Error>(());
                }
                create_and_publish(&mut conn, &parent, n + 1, false).await?;
                if (n + 1) % 1000 == 0 {
                    eprintln!("{NAME}: {} of {} folders", n + 1, deep.width);
                }
            }
        }));
    }
    for task in tasks {
        task.await.context("a deep-tree worker failed")??;
    }
    Ok(())
}

/// Sends `method` (COPY or MOVE) to the Location at `href` with `destination`; fails unless
/// it answers `status`. Returns the Location header and the time taken.
async fn timed_move(
    conn: &mut Conn,
    method: &str,
    href: &str,
    destination: &str,
    status: u16,
) -> Result<(Option<String>, Duration)> {
    let req = Request::new(method, href)
        .header("Authorization", ADMIN)
        .header("Destination", destination);
    let t = Instant::now();
    let resp = conn.send(&req).await?;
    let spent = t.elapsed();
    if resp.status != status {
        bail!(
            "{method} {href} to {destination} answered {}: {}",
            resp.status,
            resp.excerpt()
        );
    }
    Ok((resp.header("location").map(str::to_string), spent))
}

/// The restored subtree's root still has all its children.
async fn check_children(conn: &mut Conn, href: &str, width: usize) -> Result<()> {
    let resp = conn
        .send(
            &Request::new("GET", href).header("Accept", "application/vnd.ibexa.api.Location+json"),
        )
        .await?;
    let count = resp.json()?["Location"]["childCount"].as_u64();
    if count != Some(width as u64) {
        bail!("the restored subtree has {count:?} children, not {width}");
    }
    Ok(())
}

/// The Markdown tables.
pub fn markdown(report: &Report, deep: Deep, load: Load) -> String {
    let mut out = format!(
        "## {NAME}\n\n{} Locations added to a fresh database: `Wide 0` with {} children, and {} \
         copies of it.\n\n| build step | seconds |\n| --- | ---: |\n",
        deep.locations(),
        deep.width,
        deep.copies
    );
    for s in &report.build {
        out.push_str(&format!("| {} | {:.1} |\n", s.what, s.ms / 1000.0));
    }
    out.push_str("\nA page of 25 children of `Wide 0` (JSON), against its ceiling:\n\n");
    out.push_str(&crate::report::markdown(&report.listing, load));
    out.push_str("\nSingle requests on the full tree:\n\n| operation | ms |\n| --- | ---: |\n");
    for s in &report.operations {
        out.push_str(&format!("| {} | {:.0} |\n", s.what, s.ms));
    }
    out
}

/// The figures as JSON, for `--json`.
pub fn json(report: &Report, deep: Deep, load: Load) -> serde_json::Value {
    serde_json::json!({
        "locations": deep.locations(),
        "width": deep.width,
        "copies": deep.copies,
        "build": report.build,
        "listing": crate::report::json(&report.listing, load),
        "operations": report.operations,
    })
}
