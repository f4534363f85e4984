//! The peer rows of issue 14 (the comparison with a Node.js headless CMS): each cairn server
//! on one core (`taskset -c`), the bench's own threads on the other cores meanwhile, SQLite:
//! creating items one by one, a GET of a full Content item, and pages of 25 children of a
//! folder of `--deep-width` children at offset 0 and at the last page. Absolute figures, no
//! ceiling runs.

use crate::affinity::{self, Pinned};
use crate::bulk::{self, Bulk};
use crate::client::Conn;
use crate::deep::{self, Deep, Step};
use crate::load::{self, Figures, Load};
use crate::scenarios::{self, PREFIX};
use crate::server::Cairn;
use anyhow::Result;
use std::net::SocketAddr;

/// Items created one by one.
pub const ONE_BY_ONE: usize = 2_000;

/// What to run.
#[derive(Debug, Clone, Copy)]
pub struct Peer {
    /// The CPU of the servers.
    pub cpu: usize,
    /// The wide folder of the pages (its copies are not made).
    pub deep: Deep,
}

/// One load run of a request.
pub struct Run {
    pub name: String,
    pub connections: usize,
    pub figures: Figures,
}

/// What the rows measured.
pub struct Report {
    /// The bench's CPUs meanwhile; `None` when it had no CPU but the servers'.
    pub bench_cpus: Option<String>,
    /// POST then PUBLISH.
    pub create: bulk::Outcome,
    /// `POST ?publish=true`, one request an item.
    pub create_at_once: bulk::Outcome,
    pub get: Run,
    pub build: Step,
    /// Offset 0 and the last page, each with one connection, then with `--connections`.
    pub pages: Vec<Run>,
}

/// Runs the rows with the bench's threads off the servers' CPU, then gives them back their CPUs.
pub async fn run(cairn: &Cairn, peer: Peer, load: Load) -> Result<Report> {
    let others: Vec<usize> = (affinity::allowed()?.into_iter())
        .filter(|&c| c != peer.cpu)
        .collect();
    let pinned = if others.is_empty() {
        eprintln!(
            "peer rows: no CPU but {} for the bench; its threads are not pinned",
            peer.cpu
        );
        None
    } else {
        let pinned = Pinned::new(&others)?;
        eprintln!(
            "peer rows: servers on CPU {}, the bench's threads on {:?}",
            peer.cpu,
            affinity::threads()?
        );
        Some(pinned)
    };
    let report = rows(&cairn.on_cpus(&peer.cpu.to_string()), peer, load).await?;
    if let Some(pinned) = pinned {
        let cpus = pinned.restore()?;
        eprintln!("peer rows: the bench's threads back on CPUs {cpus}");
    }
    Ok(Report {
        bench_cpus: (!others.is_empty()).then(|| affinity::format(&others)),
        ..report
    })
}

async fn rows(cairn: &Cairn, peer: Peer, load: Load) -> Result<Report> {
    let create = bulk::run(cairn, &one_by_one(false)).await?.remove(0);
    let create_at_once = bulk::run(cairn, &one_by_one(true)).await?.remove(0);

    let get = {
        let dir = tempfile::tempdir()?;
        let server = cairn.start(dir.path(), PREFIX).await?;
        let scenario = scenarios::select(&["content-json".to_string()])?[0];
        let req = scenario.request(&scenario.prepare(server.addr).await?);
        crate::answer(scenario.name, server.addr, &req).await?;
        let name = format!("GET one item ({})", scenario.name);
        run_load(name, server.addr, &req, load).await?
    };

    let dir = tempfile::tempdir()?;
    let server = cairn.start(dir.path(), PREFIX).await?;
    let mut conn = Conn::connect(server.addr).await?;
    let (_, wide, build) = deep::build_wide(server.addr, &mut conn, peer.deep).await?;
    let last = peer.deep.last_page();
    let mut pages = Vec::new();
    for connections in [1, load.connections] {
        for offset in [0, last] {
            let req = deep::page(&wide, offset);
            let name = format!("list 25 at offset {offset}");
            crate::answer(&name, server.addr, &req).await?;
            let load = Load {
                connections,
                ..load
            };
            pages.push(run_load(name, server.addr, &req, load).await?);
        }
    }
    Ok(Report {
        bench_cpus: None,
        create,
        create_at_once,
        get,
        build,
        pages,
    })
}

/// Drives the server at `addr` with `req` under `load`.
async fn run_load(
    name: String,
    addr: SocketAddr,
    req: &crate::client::Request,
    load: Load,
) -> Result<Run> {
    let figures = load::run(addr, req.wire(addr), load).await?;
    eprintln!(
        "{name:<32} connections {:>2} {:>9.0} req/s   p50 {:.3} ms   errors {}",
        load.connections,
        figures.rps(),
        figures.percentile_us(50.0) as f64 / 1000.0,
        figures.errors()
    );
    Ok(Run {
        name,
        connections: load.connections,
        figures,
    })
}

impl Report {
    /// The page at `offset` with `connections`.
    pub fn page(&self, offset: usize, connections: usize) -> Option<&Run> {
        let name = format!("list 25 at offset {offset}");
        (self.pages.iter()).find(|r| r.name == name && r.connections == connections)
    }
}

/// The Markdown tables.
pub fn markdown(report: &Report, peer: Peer, load: Load) -> String {
    let bench = match &report.bench_cpus {
        Some(cpus) => format!("the bench's threads on CPUs {cpus}"),
        None => "the bench's threads not pinned (no other CPU)".to_string(),
    };
    let mut out = format!(
        "## Peer rows\n\nEach server on CPU {}, {bench}; SQLite, a fresh database each, cache \
         off. {} s measured after {} s of warm-up.\n\nCreate one by one:\n\n{}\n",
        peer.cpu,
        load.duration.as_secs_f64(),
        load.warmup.as_secs_f64(),
        bulk::markdown(std::slice::from_ref(&report.create), &one_by_one(false)),
    );
    out.push_str(&format!(
        "\nIn one request an item:\n\n{}\n",
        bulk::markdown(
            std::slice::from_ref(&report.create_at_once),
            &one_by_one(true)
        )
    ));
    out.push_str(&format!(
        "Pages of `Wide 0` ({} children; {}: {:.1} s):\n\n\
         | request | connections | req/s | p50 | p99 | errors |\n\
         | --- | ---: | ---: | ---: | ---: | ---: |\n",
        peer.deep.width,
        report.build.what,
        report.build.ms / 1000.0
    ));
    for r in std::iter::once(&report.get).chain(&report.pages) {
        let f = &r.figures;
        out.push_str(&format!(
            "| {} | {} | {:.0} | {:.3} ms | {:.3} ms | {} |\n",
            r.name,
            r.connections,
            f.rps(),
            f.percentile_us(50.0) as f64 / 1000.0,
            f.percentile_us(99.0) as f64 / 1000.0,
            f.errors()
        ));
    }
    out
}

/// Creating items one by one: with one connection, all under Location 2; each in one request
/// when `at_once`.
fn one_by_one(at_once: bool) -> Bulk {
    Bulk {
        items: ONE_BY_ONE,
        concurrency: 1,
        window: bulk::window(ONE_BY_ONE, None),
        parents: vec![1],
        database: None,
        at_once,
    }
}

/// The figures as JSON, for `--json`.
pub fn json(report: &Report, peer: Peer) -> serde_json::Value {
    let runs: Vec<_> = (std::iter::once(&report.get).chain(&report.pages))
        .map(|r| {
            serde_json::json!({
                "name": r.name,
                "connections": r.connections,
                "figures": crate::report::figures_json(&r.figures),
            })
        })
        .collect();
    serde_json::json!({
        "server_cpu": peer.cpu,
        "bench_cpus": report.bench_cpus,
        "width": peer.deep.width,
        "create_one_by_one": bulk::json(std::slice::from_ref(&report.create), &one_by_one(false)),
        "create_one_by_one_at_once": bulk::json(
            std::slice::from_ref(&report.create_at_once),
            &one_by_one(true)
        ),
        "build": report.build,
        "runs": runs,
    })
}
