//! `cairn-bench`: starts the release cairn server on a fresh database, drives each scenario over
//! HTTP with many keep-alive connections, and compares it with a trivial poem server answering
//! the same bytes (the ceiling), measured in the same run right before it.
//!
//! Build first: `cargo build --release -p cairn -p cairn-bench`, then run
//! `target/release/cairn-bench`. See README.md.

mod affinity;
mod aggregations;
mod bulk;
mod ceiling;
mod client;
mod deep;
mod fulltext;
mod images;
mod import;
mod large;
mod load;
mod migrate;
mod mixed;
mod peer;
mod report;
mod scenarios;
mod server;
mod targets;
mod varnish;

use anyhow::{Result, anyhow, bail};
use clap::{Args, Parser, Subcommand};
use client::{Conn, Request, Response};
use load::Load;
use report::Outcome;
use scenarios::{PREFIX, SCENARIOS, Scenario};
use server::Cairn;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Debug, Parser)]
#[command(
    name = "cairn-bench",
    about = "Measures cairn's requests/s and latency per scenario, as ratios to a trivial poem \
             handler answering the same bytes",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    bench: BenchArgs,
}

#[derive(Debug, Subcommand)]
enum Cmd {
    /// Runs the ceiling server (started by the bench itself).
    #[command(hide = true)]
    Ceiling(ceiling::CeilingArgs),
}

#[derive(Debug, Args)]
struct BenchArgs {
    /// Seconds measured per run (each scenario runs twice: ceiling, then cairn).
    #[arg(long, default_value_t = 10.0)]
    duration: f64,
    /// Seconds of warm-up before each measurement.
    #[arg(long, default_value_t = 1.0)]
    warmup: f64,
    /// Concurrent keep-alive connections.
    #[arg(long, default_value_t = 16)]
    connections: usize,
    /// Run only this scenario (repeatable; `bulk-content` is the bulk import; `targets` runs
    /// issue 14's targets alone); default: all but `targets`.
    #[arg(long = "scenario", value_name = "NAME")]
    scenarios: Vec<String>,
    /// Also write the raw figures to this file as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// The cairn binary [default: `cairn` next to this executable].
    #[arg(long, value_name = "PATH")]
    cairn: Option<PathBuf>,
    /// bulk-content: folders created and published per run [default: 10000; with `--scenario
    /// targets` 100000 on SQLite, 10000 on PostgreSQL].
    #[arg(long)]
    bulk_items: Option<usize>,
    /// bulk-content: each item in one request, `POST /content/objects?publish=true` (cairn's
    /// extension), instead of POST then PUBLISH.
    #[arg(long)]
    bulk_at_once: bool,
    /// bulk-content: concurrent connections.
    #[arg(long, default_value_t = 4)]
    bulk_concurrency: usize,
    /// bulk-content: items per window [default: 1000, or a tenth of --bulk-items if smaller].
    #[arg(long)]
    bulk_window: Option<usize>,
    /// bulk-content: spread the items over this many new folders, 1 meaning all directly under
    /// Location 2; one run each, on a fresh database.
    #[arg(long, value_delimiter = ',', default_values_t = [10, 1])]
    bulk_parents: Vec<usize>,
    /// bulk-content: run on this PostgreSQL server (`postgres://…`, a fresh schema
    /// `cairn_bench` there for each run) instead of SQLite.
    #[arg(long, value_name = "URL")]
    bulk_database: Option<String>,
    /// deep-tree: children of each wide folder (the subtree moved and trashed has one more
    /// Location) [default: 10000; 20000 with `--scenario targets`].
    #[arg(long)]
    deep_width: Option<usize>,
    /// deep-tree: copies of the first wide folder (the tree holds (copies + 1) × (width + 1)
    /// Locations more than a fresh install).
    #[arg(long, default_value_t = 9)]
    deep_copies: usize,
    /// full-text: content items in the repository searched.
    #[arg(long, default_value_t = 100_000)]
    fulltext_items: usize,
    /// full-text: items created over HTTP; the rest are copies of them.
    #[arg(long, default_value_t = 10_000)]
    fulltext_distinct: usize,
    /// full-text: run on this PostgreSQL server (`postgres://…`, a fresh schema `cairn_bench`
    /// there) instead of SQLite.
    #[arg(long, value_name = "URL")]
    fulltext_database: Option<String>,
    /// aggregations: content items in the repository searched.
    #[arg(long, default_value_t = 100_000)]
    aggregation_items: usize,
    /// aggregations: items created over HTTP; the rest are copies of them.
    #[arg(long, default_value_t = 2_000)]
    aggregation_distinct: usize,
    /// aggregations: run on this PostgreSQL server (`postgres://…`, a fresh schema
    /// `cairn_bench` there) instead of SQLite.
    #[arg(long, value_name = "URL")]
    aggregation_database: Option<String>,
    /// The read scenarios run again on a repository of this many content items (built once
    /// into a snapshot, then reused); 0 runs them on a fresh database only.
    #[arg(long, default_value_t = 100_000)]
    large_items: usize,
    /// The snapshot of the large repository [default: `bench-repository-<items>.db` beside
    /// `target/release`]; built when missing.
    #[arg(long, value_name = "FILE")]
    large_snapshot: Option<PathBuf>,
    /// mixed: also run it with two servers on this PostgreSQL database (`postgres://…`, a
    /// fresh schema `cairn_bench` there), writing through one and reading through the other.
    #[arg(long, value_name = "URL")]
    mixed_database: Option<String>,
    /// mixed: also run it on this many content items, read in turn and edited in turn (a new
    /// draft published); 0: only on Section 1.
    #[arg(long, default_value_t = 20)]
    mixed_items: usize,
    /// varnish: the VCL Varnish runs [default: docs/varnish/cairn.vcl]; the reference's
    /// `varnish7.vcl` works too (its parameters file is written for it).
    #[arg(long, value_name = "FILE")]
    vcl: Option<PathBuf>,
    /// images: 12-megapixel JPEGs whose `small` is rendered (one request each, timed).
    #[arg(long, default_value_t = 10)]
    image_renders: usize,
    /// A further option for every `cairn serve` started (repeatable), e.g.
    /// `--server-arg=--cache-mib --server-arg=0` to measure reads without the response cache.
    #[arg(long = "server-arg", value_name = "ARG", allow_hyphen_values = true)]
    server_args: Vec<String>,
    /// Run every `cairn serve` on these CPUs only (`taskset -c`, e.g. `0`), as the peer
    /// comparisons of issue 14 do: one core for the server; run the bench itself on the others
    /// (`taskset -c 1 cairn-bench …`). The peer rows of `--scenario targets` take `--peer-cpu`.
    #[arg(long, value_name = "LIST")]
    server_cpus: Option<String>,
    /// targets: folders in the file timed with `cairn import`.
    #[arg(long, default_value_t = 10_000)]
    import_items: usize,
    /// targets: the CPU each server of the peer rows runs on (`taskset -c`); the bench's own
    /// threads run on the others meanwhile.
    #[arg(long, default_value_t = 0)]
    peer_cpu: usize,
    /// migrate: content items of the generated source database.
    #[arg(long, default_value_t = 100_000)]
    migrate_items: usize,
    /// migrate: the server the source database is made on (`mysql://…` or `postgres://…`).
    #[arg(long, default_value = "mysql://root@127.0.0.1:3306")]
    migrate_source: String,
    /// migrate: a PostgreSQL server to migrate into as well (a database of its own is made).
    #[arg(long)]
    migrate_postgres: Option<String>,
    /// migrate: keep the generated source database (its URL is printed), to run
    /// `cairn migrate --from` it by hand.
    #[arg(long)]
    migrate_keep_source: bool,
    /// migrate: the reference's schema and clean data (`schema.yaml`, `cleandata.*.sql`).
    #[arg(long, default_value = "../shared/reference/ibexa-core-4.6")]
    reference: PathBuf,
    /// List the scenarios and exit.
    #[arg(long)]
    list: bool,
}

#[tokio::main]
async fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Cmd::Ceiling(args)) => ceiling::serve(args).await,
        // On ctrl-c the bench future is dropped, and with it the guards of the child servers.
        None => tokio::select! {
            result = bench(cli.bench) => result,
            _ = tokio::signal::ctrl_c() => bail!("interrupted"),
        },
    }
}

async fn bench(args: BenchArgs) -> Result<()> {
    if args.list {
        for s in SCENARIOS {
            println!("{:<24} {} {}", s.name, s.method, s.path);
        }
        println!(
            "{:<24} POST /content/objects, then PUBLISH, N times",
            bulk::NAME
        );
        println!(
            "{:<24} a tree of 100,000+ Locations: children at a large offset, MOVE, trash, restore",
            deep::NAME
        );
        println!(
            "{:<24} a ranked 50-word full-text search over 100,000 items",
            fulltext::NAME
        );
        println!(
            "{:<24} a search with criteria, a sort and three aggregations over 100,000 items",
            aggregations::NAME
        );
        println!(
            "{:<24} reads and writes of one Section at once, stale reads counted",
            mixed::NAME
        );
        println!(
            "{:<24} small rendered from 12-megapixel JPEGs; a kept variation and a file served",
            images::NAME
        );
        println!(
            "{:<24} content read by anonymous through Varnish while it is edited (alone)",
            mixed::EDGE
        );
        println!(
            "{:<24} issue 14's targets in one run (alone; not part of the full run)",
            targets::NAME
        );
        println!(
            "{:<24} cairn migrate of a generated Ibexa repository (alone; not part of the full run)",
            migrate::NAME
        );
        return Ok(());
    }
    if !(args.duration > 0.0 && args.warmup >= 0.0 && args.connections > 0) {
        bail!("--duration and --connections must be positive, --warmup not negative");
    }
    let load = Load {
        connections: args.connections,
        warmup: Duration::from_secs_f64(args.warmup),
        duration: Duration::from_secs_f64(args.duration),
    };
    if cfg!(debug_assertions) {
        eprintln!("warning: this is a debug build of cairn-bench; use --release for real figures");
    }
    let cairn = Cairn {
        bin: server::cairn_binary(args.cairn.clone())?,
        args: args.server_args.clone(),
        cpus: args.server_cpus.clone(),
    };
    if args.scenarios.iter().any(|n| n == migrate::NAME) {
        if args.scenarios.len() > 1 {
            bail!("--scenario {} runs alone", migrate::NAME);
        }
        let outcomes = migrate::run(
            &cairn,
            &args.migrate_source,
            args.migrate_postgres.as_deref(),
            &args.reference,
            args.migrate_items,
            args.migrate_keep_source,
        )
        .await?;
        println!("{}", migrate::markdown(&outcomes));
        return Ok(());
    }
    if args.scenarios.iter().any(|n| n == targets::NAME) {
        if args.scenarios.len() > 1 {
            bail!("--scenario {} runs alone", targets::NAME);
        }
        return targets::run(&cairn, &targets_settings(&args)?, load).await;
    }
    let bulk = bulk_settings(&args)?;
    let deep = deep_settings(&args)?;
    let full_text = full_text_settings(&args)?;
    let aggregation = aggregation_settings(&args)?;
    let alone = [
        bulk::NAME,
        deep::NAME,
        fulltext::NAME,
        aggregations::NAME,
        mixed::NAME,
        mixed::EDGE,
        images::NAME,
    ];
    let names: Vec<String> = (args.scenarios.iter())
        .filter(|n| !alone.contains(&n.as_str()))
        .cloned()
        .collect();
    let scenarios = if names.is_empty() && !args.scenarios.is_empty() {
        Vec::new() // bulk-content, deep-tree or full-text alone
    } else {
        scenarios::select(&names).map_err(|e| {
            let more = [
                bulk::NAME,
                deep::NAME,
                fulltext::NAME,
                aggregations::NAME,
                mixed::NAME,
                mixed::EDGE,
                images::NAME,
                targets::NAME,
            ];
            anyhow!("{e}, {}", more.join(", "))
        })?
    };
    let snapshot = if scenarios.is_empty() || args.large_items == 0 {
        None
    } else {
        Some(large::snapshot(&cairn, args.large_items, args.large_snapshot.clone()).await?)
    };
    let large = snapshot.as_deref().map(|s| (s, args.large_items));
    let (outcomes, large_outcomes) = run_scenarios(&cairn, &scenarios, load, large, 1).await?;
    let bulk_outcomes = match &bulk {
        Some(bulk) => bulk::run(&cairn, bulk).await?,
        None => Vec::new(),
    };
    let deep_report = match deep {
        Some(deep) => Some(deep::run(&cairn, deep, load).await?),
        None => None,
    };
    let full_text_outcome = match &full_text {
        Some(ft) => Some(fulltext::run(&cairn, ft, load).await?),
        None => None,
    };
    let aggregation_outcome = match &aggregation {
        Some(a) => Some(aggregations::run(&cairn, a, load).await?),
        None => None,
    };
    let image_report =
        if args.scenarios.is_empty() || args.scenarios.iter().any(|n| n == images::NAME) {
            Some(images::run(&cairn, args.image_renders, load).await?)
        } else {
            None
        };
    let mut mixed_reports = Vec::new();
    if args.scenarios.is_empty() || args.scenarios.iter().any(|n| n == mixed::NAME) {
        let (n, d) = (load.connections, load.duration);
        let mut subjects = vec![0];
        if args.mixed_items > 0 {
            subjects.push(args.mixed_items);
        }
        for items in subjects {
            mixed_reports.push(mixed::run(&cairn, None, n, d, items, None).await?);
            if let Some(url) = &args.mixed_database {
                mixed_reports.push(mixed::run(&cairn, Some(url), n, d, items, None).await?);
            }
        }
    }
    if args.scenarios.iter().any(|n| n == mixed::EDGE) {
        let (n, d, items) = (load.connections, load.duration, args.mixed_items);
        let vcl = args.vcl.clone().unwrap_or_else(varnish::default_vcl);
        mixed_reports.push(mixed::run(&cairn, None, n, d, items, Some(&vcl)).await?);
        if let Some(url) = &args.mixed_database {
            mixed_reports.push(mixed::run(&cairn, Some(url), n, d, items, Some(&vcl)).await?);
        }
    }

    if !outcomes.is_empty() {
        println!("{}", report::markdown(&outcomes, load));
    }
    if !large_outcomes.is_empty() {
        println!("{}", report::markdown(&large_outcomes, load));
        println!("{}", report::sizes(&outcomes, &large_outcomes));
    }
    if let Some(bulk) = &bulk {
        println!("{}", bulk::markdown(&bulk_outcomes, bulk));
    }
    if let (Some(deep), Some(report)) = (deep, &deep_report) {
        println!("{}", deep::markdown(report, deep, load));
    }
    if let Some(outcome) = &full_text_outcome {
        println!("{}", report::markdown(std::slice::from_ref(outcome), load));
        let p50 = outcome.cairn.percentile_us(50.0) as f64 / 1000.0;
        if outcome.cairn.errors() > 0 {
            bail!("full-text: {} requests failed", outcome.cairn.errors());
        }
        if p50 > fulltext::TARGET_MS {
            bail!(
                "full-text p50 {p50:.1} ms: over the {} ms target",
                fulltext::TARGET_MS
            );
        }
        println!(
            "full-text p50 {p50:.1} ms: within the {} ms target\n",
            fulltext::TARGET_MS
        );
    }
    if let (Some(a), Some(outcome)) = (&aggregation, &aggregation_outcome) {
        println!("{}", report::markdown(std::slice::from_ref(outcome), load));
        let ms = |p: f64| outcome.cairn.percentile_us(p) as f64 / 1000.0;
        let ((p50, p99), (t50, t99)) = ((ms(50.0), ms(99.0)), a.target());
        if outcome.cairn.errors() > 0 {
            bail!("aggregations: {} requests failed", outcome.cairn.errors());
        }
        if p50 > t50 || p99 > t99 {
            bail!(
                "aggregations p50 {p50:.1} ms, p99 {p99:.1} ms: over the {t50} / {t99} ms targets"
            );
        }
        println!(
            "aggregations p50 {p50:.1} ms, p99 {p99:.1} ms: within the {t50} / {t99} ms targets\n"
        );
    }
    if let Some(report) = &image_report {
        println!("{}", images::markdown(report, load));
    }
    if !mixed_reports.is_empty() {
        println!("{}", mixed::markdown(&mixed_reports));
        let stale: u64 = mixed_reports.iter().map(|r| r.stale).sum();
        if stale > 0 {
            bail!("mixed: {stale} stale reads");
        }
    }
    if let Some(path) = &args.json {
        let mut doc = report::json(&outcomes, load);
        if !large_outcomes.is_empty() {
            doc["large"] = report::json(&large_outcomes, load);
        }
        if let Some(bulk) = &bulk {
            doc["bulk"] = bulk::json(&bulk_outcomes, bulk);
        }
        if let (Some(deep), Some(report)) = (deep, &deep_report) {
            doc["deep"] = deep::json(report, deep, load);
        }
        if let Some(outcome) = &full_text_outcome {
            doc["full_text"] = report::json(std::slice::from_ref(outcome), load);
        }
        if let Some(outcome) = &aggregation_outcome {
            doc["aggregations"] = report::json(std::slice::from_ref(outcome), load);
        }
        if let Some(report) = &image_report {
            doc["images"] = images::json(report, load);
        }
        if !mixed_reports.is_empty() {
            doc["mixed"] = mixed::json(&mixed_reports);
        }
        report::write_json(path, &doc)?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

/// Measures each scenario (and its ceiling) on a server with a fresh database and, given a
/// `large` repository's snapshot (its file, its size), right after on a server over a copy of
/// it: each pair is measured close in time, so that the machine's drift does not pass for a
/// cost of the size. With `rounds` above 1, the pair is measured that many times in turn (the
/// large one first every other round), each for a share of the load's duration, and each
/// side's rounds are added up.
async fn run_scenarios(
    cairn: &Cairn,
    scenarios: &[&Scenario],
    load: Load,
    large: Option<(&Path, usize)>,
    rounds: usize,
) -> Result<(Vec<Outcome>, Vec<Outcome>)> {
    if scenarios.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let dir = tempfile::tempdir()?;
    eprintln!("starting {} on a fresh database", cairn.bin.display());
    let server = cairn.start(dir.path(), PREFIX).await?;
    let large_dir = tempfile::tempdir()?;
    let large_cairn = match large {
        Some((snapshot, items)) => {
            std::fs::copy(snapshot, large_dir.path().join("bench.db"))?;
            eprintln!("starting {} on {items} items", cairn.bin.display());
            Some((cairn.start(large_dir.path(), PREFIX).await?, items))
        }
        None => None,
    };
    let rounds = rounds.max(1);
    let round = Load {
        duration: load.duration / rounds as u32,
        ..load
    };
    let (mut fresh, mut sized) = (Vec::new(), Vec::new());
    for scenario in scenarios {
        let req = scenario.request(&scenario.prepare(server.addr).await?);
        let on_large = match &large_cairn {
            Some((large, items)) => {
                let req = scenario.request(&scenario.prepare(large.addr).await?);
                let name: &'static str =
                    Box::leak(format!("{} @ {items} items", scenario.name).into_boxed_str());
                Some((large.addr, req, name))
            }
            None => None,
        };
        let (mut f, mut l): (Option<Outcome>, Option<Outcome>) = (None, None);
        for r in 0..rounds {
            // In rounds, the large one goes first every other round: neither side always
            // follows the other.
            let large_first = r % 2 == 1;
            if !large_first {
                let o = measure(scenario.name, server.addr, &req, dir.path(), round).await?;
                added(&mut f, o)?;
            }
            if let Some((addr, req, name)) = &on_large {
                let o = measure(name, *addr, req, large_dir.path(), round).await?;
                added(&mut l, o)?;
            }
            if large_first {
                let o = measure(scenario.name, server.addr, &req, dir.path(), round).await?;
                added(&mut f, o)?;
            }
        }
        fresh.extend(f);
        sized.extend(l);
    }
    Ok((fresh, sized))
}

/// `o` added to the rounds in `sum`.
fn added(sum: &mut Option<Outcome>, o: Outcome) -> Result<()> {
    match sum {
        Some(s) => s.combine(&o),
        None => {
            *sum = Some(o);
            Ok(())
        }
    }
}

/// Measures `req` on cairn at `addr`, and on a ceiling server (its files in `dir`) answering
/// what cairn answered to it first.
async fn measure(
    name: &'static str,
    addr: SocketAddr,
    req: &Request,
    dir: &Path,
    load: Load,
) -> Result<Outcome> {
    let reference = answer(name, addr, req).await?;
    let ceiling = {
        let server = ceiling::start(&reference, dir).await?;
        load::run(server.addr, req.wire(server.addr), load).await?
    };
    let measured = load::run(addr, req.wire(addr), load).await?;
    eprintln!(
        "{name:<24} {:>9.0} req/s   ceiling {:>9.0} req/s   errors {}",
        measured.rps(),
        ceiling.rps(),
        measured.errors()
    );
    Ok(Outcome {
        name,
        cairn: measured,
        ceiling,
    })
}

/// What cairn at `addr` answers to `req` (of the scenario `name`); fails unless 2xx or 3xx.
async fn answer(name: &str, addr: SocketAddr, req: &Request) -> Result<Response> {
    let answer = Conn::connect(addr).await?.send(req).await?;
    if !answer.is_success() {
        bail!(
            "scenario {name}: {} {} answered {}: {}",
            req.method,
            req.path,
            answer.status,
            answer.excerpt()
        );
    }
    Ok(answer)
}

/// The bulk-content settings, when it runs (by default, or when named).
fn bulk_settings(args: &BenchArgs) -> Result<Option<bulk::Bulk>> {
    if !(args.scenarios.is_empty() || args.scenarios.iter().any(|n| n == bulk::NAME)) {
        return Ok(None);
    }
    let items = args.bulk_items.unwrap_or(10_000);
    let window = bulk::window(items, args.bulk_window);
    if items == 0 || args.bulk_concurrency == 0 || window == 0 {
        bail!("--bulk-items, --bulk-concurrency and --bulk-window must be positive");
    }
    if args.bulk_parents.is_empty() || args.bulk_parents.contains(&0) {
        bail!("--bulk-parents must be positive");
    }
    Ok(Some(bulk::Bulk {
        items,
        concurrency: args.bulk_concurrency,
        window,
        parents: args.bulk_parents.clone(),
        database: args.bulk_database.clone(),
        at_once: args.bulk_at_once,
    }))
}

/// The deep-tree settings, when it runs (by default, or when named).
fn deep_settings(args: &BenchArgs) -> Result<Option<deep::Deep>> {
    if !(args.scenarios.is_empty() || args.scenarios.iter().any(|n| n == deep::NAME)) {
        return Ok(None);
    }
    let width = args.deep_width.unwrap_or(10_000);
    if width < 25 || args.deep_copies == 0 || args.bulk_concurrency == 0 {
        bail!("--deep-width must be at least 25, --deep-copies and --bulk-concurrency positive");
    }
    Ok(Some(deep::Deep {
        width,
        copies: args.deep_copies,
        concurrency: args.bulk_concurrency,
    }))
}

/// The full-text settings, when it runs (by default, or when named).
fn full_text_settings(args: &BenchArgs) -> Result<Option<fulltext::FullText>> {
    if !(args.scenarios.is_empty() || args.scenarios.iter().any(|n| n == fulltext::NAME)) {
        return Ok(None);
    }
    if args.fulltext_distinct == 0 || args.fulltext_items < args.fulltext_distinct {
        bail!("--fulltext-distinct must be positive and at most --fulltext-items");
    }
    Ok(Some(fulltext::FullText {
        items: args.fulltext_items,
        distinct: args.fulltext_distinct,
        concurrency: args.bulk_concurrency.max(1),
        database: args.fulltext_database.clone(),
    }))
}

fn aggregation_settings(args: &BenchArgs) -> Result<Option<aggregations::Aggregations>> {
    if !(args.scenarios.is_empty() || args.scenarios.iter().any(|n| n == aggregations::NAME)) {
        return Ok(None);
    }
    if args.aggregation_distinct == 0 || args.aggregation_items < args.aggregation_distinct {
        bail!("--aggregation-distinct must be positive and at most --aggregation-items");
    }
    Ok(Some(aggregations::Aggregations {
        items: args.aggregation_items,
        distinct: args.aggregation_distinct,
        concurrency: args.bulk_concurrency.max(1),
        database: args.aggregation_database.clone(),
    }))
}

/// The settings of `--scenario targets`.
fn targets_settings(args: &BenchArgs) -> Result<targets::Targets> {
    let width = args.deep_width.unwrap_or(20_000);
    if width < 25 {
        bail!("--deep-width must be at least 25");
    }
    let items = args.bulk_items.unwrap_or(100_000);
    let postgres_items = args.bulk_items.unwrap_or(10_000);
    if items == 0 || args.bulk_concurrency == 0 || args.bulk_window == Some(0) {
        bail!("--bulk-items, --bulk-concurrency and --bulk-window must be positive");
    }
    if args.import_items == 0 {
        bail!("--import-items must be positive");
    }
    let bulk = |items, database: Option<&String>| bulk::Bulk {
        items,
        concurrency: args.bulk_concurrency,
        window: bulk::window(items, args.bulk_window),
        parents: vec![10],
        database: database.cloned(),
        at_once: false,
    };
    Ok(targets::Targets {
        large_items: args.large_items,
        large_snapshot: args.large_snapshot.clone(),
        bulk: bulk(items, None),
        postgres: (args.bulk_database.as_ref()).map(|url| bulk(postgres_items, Some(url))),
        import_items: args.import_items,
        peer: peer::Peer {
            cpu: args.peer_cpu,
            deep: deep::Deep {
                width,
                copies: 0,
                concurrency: args.bulk_concurrency,
            },
        },
        json: args.json.clone(),
    })
}
