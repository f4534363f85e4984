//! `--scenario targets`: issue 14's targets from one run of the benchmark, ending with one
//! table of each target, the figure measured, its goal and whether it is met. Every server
//! runs without the response cache (unless the `--server-arg`s size it).
//!
//! The parts, in order: uncached reads on a fresh database and on the large repository (ratios
//! to the ceiling, and the large one's over the fresh one's); bulk-content on SQLite and, given
//! `--bulk-database`, on PostgreSQL; `cairn import` of a file of folders; the peer rows (each
//! server on one core, absolute figures). A missed target is reported, not an error; failed
//! requests are errors (after the tables).

use crate::bulk::{self, Bulk};
use crate::import;
use crate::large;
use crate::load::Load;
use crate::peer::{self, Peer};
use crate::report::{self, Outcome};
use crate::scenarios;
use crate::server::Cairn;
use anyhow::{Result, bail};
use std::path::PathBuf;
use std::time::Instant;

/// The mode's name for `--scenario`.
pub const NAME: &str = "targets";

/// The uncached reads and their goals: cairn's req/s over the ceiling's, at least.
const READS: [(&str, f64); 3] = [
    ("location-json", 0.25),
    ("content-json", 0.2),
    ("user-json", 0.12),
];
/// The large repository's ratio over the fresh database's, at least (within 10%).
const SIZE: f64 = 0.9;
/// Rounds of each read on the fresh and the large repository in turn (each a third of
/// `--duration`): the machine drifts by a tenth or more within a minute, and in turn the drift
/// falls on both alike rather than on the size.
const ROUNDS: usize = 3;
/// bulk-content on SQLite, items/s, and its last window's rate over its first's.
const BULK: f64 = 1_000.0;
const BULK_FLAT: f64 = 0.8;
/// bulk-content on PostgreSQL, items/s.
const POSTGRES: f64 = 500.0;
/// `cairn import`, items/s.
const IMPORT: f64 = 5_000.0;
/// The peer rows: 5× the tuned headless CMS (and the poem + SQLite figure of the last page).
const ONE_BY_ONE: f64 = 1_165.0;
const GET: f64 = 4_310.0;
const FIRST_PAGE_P50_MS: f64 = 0.294;
const LAST_PAGE_P50_MS: f64 = 0.544;
const LAST_PAGE_POEM_P50_MS: f64 = 1.48;
const LAST_PAGE: f64 = 1_765.0;

/// What to run.
pub struct Targets {
    /// The large repository's items; 0: its rows are not run.
    pub large_items: usize,
    pub large_snapshot: Option<PathBuf>,
    /// bulk-content on SQLite.
    pub bulk: Bulk,
    /// bulk-content on PostgreSQL, given `--bulk-database`.
    pub postgres: Option<Bulk>,
    pub import_items: usize,
    pub peer: Peer,
    pub json: Option<PathBuf>,
}

/// Where a figure must be.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Goal {
    AtLeast(f64),
    AtMost(f64),
    /// Reported only.
    None,
}

/// What a figure counts.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Unit {
    Ratio,
    ItemsPerS,
    ReqPerS,
    Ms,
}

/// One row of the table.
#[derive(Debug)]
struct Target {
    name: String,
    /// `None`: not run, for the reason in `note`.
    measured: Option<f64>,
    unit: Unit,
    goal: Goal,
    /// Failed requests in the runs of the figure.
    errors: u64,
    note: String,
}

impl Target {
    fn new(name: impl Into<String>, measured: f64, unit: Unit, goal: Goal, errors: u64) -> Self {
        Target {
            name: name.into(),
            measured: Some(measured),
            unit,
            goal,
            errors,
            note: String::new(),
        }
    }

    fn not_run(name: impl Into<String>, unit: Unit, goal: Goal, why: &str) -> Self {
        Target {
            measured: None,
            note: format!("not run ({why})"),
            ..Target::new(name, 0.0, unit, goal, 0)
        }
    }

    /// Whether the figure meets its goal (not with failed requests); `None` without a goal or
    /// a figure.
    fn met(&self) -> Option<bool> {
        let m = self.measured?;
        let within = match self.goal {
            Goal::AtLeast(g) => m >= g,
            Goal::AtMost(g) => m <= g,
            Goal::None => return None,
        };
        Some(within && self.errors == 0)
    }

    fn measured_text(&self) -> String {
        match self.measured {
            Some(m) => figure(m, self.unit),
            None => self.note.clone(),
        }
    }

    fn goal_text(&self) -> String {
        let (sign, g) = match self.goal {
            Goal::AtLeast(g) => ("≥", g),
            Goal::AtMost(g) => ("≤", g),
            Goal::None => return "–".to_string(),
        };
        format!("{sign} {}{}", thousands(&g.to_string()), suffix(self.unit))
    }

    fn met_text(&self) -> String {
        let mark = match self.met() {
            Some(true) => "✓",
            Some(false) => "✗",
            None => "–",
        };
        match self.errors {
            0 => mark.to_string(),
            n => format!("{mark} ({n} errors)"),
        }
    }
}

/// `m` as the table shows it.
fn figure(m: f64, unit: Unit) -> String {
    match unit {
        Unit::Ratio | Unit::Ms => format!("{m:.3}{}", suffix(unit)),
        Unit::ItemsPerS | Unit::ReqPerS => {
            format!("{}{}", thousands(&format!("{m:.0}")), suffix(unit))
        }
    }
}

fn suffix(unit: Unit) -> &'static str {
    match unit {
        Unit::Ratio => "",
        Unit::ItemsPerS => " items/s",
        Unit::ReqPerS => " req/s",
        Unit::Ms => " ms",
    }
}

/// A number with commas between the thousands of its whole part: `19975.5` → `19,975.5`.
fn thousands(number: &str) -> String {
    let (whole, rest) = number.split_at(number.find('.').unwrap_or(number.len()));
    let (sign, digits) = whole.split_at(usize::from(whole.starts_with('-')));
    let mut out = String::from(sign);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out + rest
}

/// The mean rate of the last ten windows over the first ten's; none under twenty windows.
fn tenths(windows: &[bulk::Window]) -> Option<f64> {
    if windows.len() < 20 {
        return None;
    }
    let mean = |w: &[bulk::Window]| w.iter().map(|w| w.items_per_s).sum::<f64>() / 10.0;
    Some(mean(&windows[windows.len() - 10..]) / mean(&windows[..10]))
}

/// The final table.
fn markdown(targets: &[Target], minutes: f64) -> String {
    let mut out = format!(
        "## Issue 14's targets\n\nOne run of `cairn-bench --scenario {NAME}` ({minutes:.1} \
         minutes), the response cache off.\n\n\
         | target | measured | goal | met |\n| --- | ---: | ---: | :---: |\n"
    );
    for t in targets {
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            t.name,
            t.measured_text(),
            t.goal_text(),
            t.met_text()
        ));
    }
    let count = |f: &dyn Fn(&Target) -> bool| targets.iter().filter(|t| f(t)).count();
    let met = count(&|t| t.met() == Some(true));
    let goals = count(&|t| t.goal != Goal::None);
    let not_run = count(&|t| t.goal != Goal::None && t.measured.is_none());
    out.push_str(&format!(
        "\n{met} of {goals} targets met ({not_run} not run).\n"
    ));
    out
}

/// The table as JSON.
fn json(targets: &[Target]) -> serde_json::Value {
    (targets.iter())
        .map(|t| {
            serde_json::json!({
                "name": t.name,
                "measured": t.measured,
                "unit": match t.unit {
                    Unit::Ratio => "ratio",
                    unit => suffix(unit).trim(),
                },
                "goal": t.goal_text(),
                "met": t.met(),
                "errors": t.errors,
                "note": t.note,
            })
        })
        .collect()
}

/// Runs every part, printing each one's tables as it ends, then the targets' table.
pub async fn run(cairn: &Cairn, targets: &Targets, load: Load) -> Result<()> {
    let cairn = cairn.clone().uncached();
    let started = Instant::now();
    let mut rows = Vec::new();

    let names: Vec<String> = READS.iter().map(|(n, _)| n.to_string()).collect();
    let scenarios = scenarios::select(&names)?;
    let snapshot = match targets.large_items {
        0 => None,
        items => Some(large::snapshot(&cairn, items, targets.large_snapshot.clone()).await?),
    };
    let large = snapshot.as_deref().map(|s| (s, targets.large_items));
    let (fresh, sized) = crate::run_scenarios(&cairn, &scenarios, load, large, ROUNDS).await?;
    println!("{}", report::markdown(&fresh, load));
    let mut doc = report::json(&fresh, load);
    if !sized.is_empty() {
        println!("{}", report::markdown(&sized, load));
        println!("{}", report::sizes(&fresh, &sized));
        doc["large"] = report::json(&sized, load);
    }
    rows.extend(read_rows(&fresh, &sized, targets.large_items));

    let sqlite = bulk::run(&cairn, &targets.bulk).await?;
    println!("{}", bulk::markdown(&sqlite, &targets.bulk));
    doc["bulk"] = bulk::json(&sqlite, &targets.bulk);
    rows.extend(bulk_rows(
        "SQLite",
        &targets.bulk,
        &sqlite,
        Goal::AtLeast(BULK),
    ));
    // The rate stays flat over the items (SQLite's run is the long one).
    for o in &sqlite {
        let errors = o.total.errors as u64;
        rows.push(Target::new(
            format!(
                "bulk-content SQLite, last / first window of {} items",
                targets.bulk.window
            ),
            o.last_over_first,
            Unit::Ratio,
            Goal::AtLeast(BULK_FLAT),
            errors,
        ));
        // One window of the first 1,000 items on an empty database is the fastest and the
        // noisiest: the trend in means of ten, reported beside the goal's own measure.
        if let Some(ratio) = tenths(&o.windows) {
            rows.push(Target::new(
                "bulk-content SQLite, mean of the last 10 windows / of the first 10",
                ratio,
                Unit::Ratio,
                Goal::None,
                errors,
            ));
        }
    }

    let goal = Goal::AtLeast(POSTGRES);
    match &targets.postgres {
        Some(b) => {
            let outcomes = bulk::run(&cairn, b).await?;
            println!("{}", bulk::markdown(&outcomes, b));
            doc["bulk_postgres"] = bulk::json(&outcomes, b);
            rows.extend(bulk_rows("PostgreSQL", b, &outcomes, goal));
        }
        None => {
            let why = "no --bulk-database";
            rows.push(Target::not_run(
                "bulk-content PostgreSQL",
                Unit::ItemsPerS,
                goal,
                why,
            ));
        }
    }

    let imported = import::run(&cairn, targets.import_items).await?;
    println!("{}", import::markdown(&imported));
    doc["import"] = serde_json::json!(imported);
    rows.push(Target::new(
        format!(
            "cairn import, {} folders, SQLite (items/s of the command)",
            thousands(&imported.items.to_string())
        ),
        imported.items_per_s,
        Unit::ItemsPerS,
        Goal::AtLeast(IMPORT),
        0,
    ));

    let p = targets.peer;
    let report = peer::run(&cairn, p, load).await?;
    println!("{}", peer::markdown(&report, p, load));
    doc["peer"] = peer::json(&report, p);
    rows.extend(peer_rows(&report, p, load.connections));

    let minutes = started.elapsed().as_secs_f64() / 60.0;
    println!("{}", markdown(&rows, minutes));
    if let Some(path) = &targets.json {
        doc["targets"] = json(&rows);
        report::write_json(path, &doc)?;
        eprintln!("wrote {}", path.display());
    }
    no_errors(&rows)
}

/// The rate of each run of bulk-content on `database`.
fn bulk_rows(database: &str, b: &Bulk, outcomes: &[bulk::Outcome], goal: Goal) -> Vec<Target> {
    (outcomes.iter())
        .map(|o| {
            let name = format!(
                "bulk-content {database}, {} items, {} parents, {} connections",
                thousands(&b.items.to_string()),
                o.parents,
                b.concurrency
            );
            let errors = o.total.errors as u64;
            Target::new(name, o.total.items_per_s, Unit::ItemsPerS, goal, errors)
        })
        .collect()
}

/// Fails when requests failed in the runs of a row.
fn no_errors(rows: &[Target]) -> Result<()> {
    let failed: Vec<_> = (rows.iter().filter(|t| t.errors > 0))
        .map(|t| format!("{} ({} errors)", t.name, t.errors))
        .collect();
    if !failed.is_empty() {
        bail!("requests failed: {}", failed.join("; "));
    }
    Ok(())
}

/// The rows of the reads: each on the fresh database, on the large repository, and the ratio
/// of the two.
fn read_rows(fresh: &[Outcome], sized: &[Outcome], items: usize) -> Vec<Target> {
    let errors = |o: &Outcome| o.cairn.errors() + o.ceiling.errors();
    let items = match items {
        0 => "large repository".to_string(),
        n => format!("{} items", thousands(&n.to_string())),
    };
    let mut rows = Vec::new();
    for (name, goal) in READS {
        let index = fresh.iter().position(|o| o.name == name);
        let Some(f) = index.map(|i| &fresh[i]) else {
            continue;
        };
        let (ratio, at_least) = (Unit::Ratio, Goal::AtLeast(goal));
        rows.push(Target::new(
            format!("{name} uncached, fresh (ratio to the ceiling)"),
            f.rps_ratio(),
            ratio,
            at_least,
            errors(f),
        ));
        let large_name = format!("{name} uncached, {items} (ratio to the ceiling)");
        let sizes_name = format!("{name} uncached, {items} / fresh (ratios)");
        match index.and_then(|i| sized.get(i)) {
            Some(l) => {
                rows.push(Target::new(
                    large_name,
                    l.rps_ratio(),
                    ratio,
                    at_least,
                    errors(l),
                ));
                rows.push(Target::new(
                    sizes_name,
                    l.rps_ratio() / f.rps_ratio(),
                    ratio,
                    Goal::AtLeast(SIZE),
                    errors(f) + errors(l),
                ));
            }
            None => {
                let why = "--large-items 0";
                rows.push(Target::not_run(large_name, ratio, at_least, why));
                rows.push(Target::not_run(sizes_name, ratio, Goal::AtLeast(SIZE), why));
            }
        }
    }
    rows
}

/// The rows of the peer comparison.
fn peer_rows(report: &peer::Report, p: Peer, connections: usize) -> Vec<Target> {
    let mut rows = vec![
        Target::new(
            format!(
                "create one by one (POST, then PUBLISH), 1 connection, {} items under Location 2",
                thousands(&peer::ONE_BY_ONE.to_string())
            ),
            report.create.total.items_per_s,
            Unit::ItemsPerS,
            Goal::AtLeast(ONE_BY_ONE),
            report.create.total.errors as u64,
        ),
        Target::new(
            format!(
                "create one by one (POST ?publish=true), 1 connection, {} items under Location 2",
                thousands(&peer::ONE_BY_ONE.to_string())
            ),
            report.create_at_once.total.items_per_s,
            Unit::ItemsPerS,
            Goal::AtLeast(ONE_BY_ONE),
            report.create_at_once.total.errors as u64,
        ),
        Target::new(
            format!("GET one item (content-json), {connections} connections"),
            report.get.figures.rps(),
            Unit::ReqPerS,
            Goal::AtLeast(GET),
            report.get.figures.errors(),
        ),
    ];
    let last = p.deep.last_page();
    let pages = [
        (0, 1, ", p50", Goal::AtMost(FIRST_PAGE_P50_MS)),
        (last, 1, ", p50", Goal::AtMost(LAST_PAGE_P50_MS)),
        (
            last,
            1,
            ", p50 (poem + SQLite)",
            Goal::AtMost(LAST_PAGE_POEM_P50_MS),
        ),
        (last, connections, "", Goal::AtLeast(LAST_PAGE)),
        (0, connections, "", Goal::None),
    ];
    for (offset, n, what, goal) in pages {
        let Some(run) = report.page(offset, n) else {
            continue;
        };
        let f = &run.figures;
        let (measured, unit) = match goal {
            Goal::AtMost(_) => (f.percentile_us(50.0) as f64 / 1000.0, Unit::Ms),
            _ => (f.rps(), Unit::ReqPerS),
        };
        let connections = match n {
            1 => "1 connection".to_string(),
            n => format!("{n} connections"),
        };
        rows.push(Target::new(
            format!(
                "list 25 of {} at offset {}, {connections}{what}",
                thousands(&p.deep.width.to_string()),
                thousands(&offset.to_string())
            ),
            measured,
            unit,
            goal,
            f.errors(),
        ));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_goal_is_met_within_it_and_without_errors() {
        let at_least = Target::new("a", 0.25, Unit::Ratio, Goal::AtLeast(0.25), 0);
        assert_eq!(at_least.met(), Some(true));
        let short = Target::new("a", 0.249, Unit::Ratio, Goal::AtLeast(0.25), 0);
        assert_eq!(short.met(), Some(false));
        let at_most = Target::new("a", 0.5, Unit::Ms, Goal::AtMost(0.544), 0);
        assert_eq!(at_most.met(), Some(true));
        let over = Target::new("a", 0.6, Unit::Ms, Goal::AtMost(0.544), 0);
        assert_eq!(over.met(), Some(false));
        let failing = Target::new("a", 2_000.0, Unit::ReqPerS, Goal::AtLeast(1_765.0), 3);
        assert_eq!(
            (failing.met(), failing.met_text().as_str()),
            (Some(false), "✗ (3 errors)")
        );
        let e = no_errors(&[short, failing]).unwrap_err().to_string();
        assert_eq!(e, "requests failed: a (3 errors)");
        let reported = Target::new("a", 9.0, Unit::ReqPerS, Goal::None, 0);
        assert_eq!(reported.met(), None);
        let not_run = Target::not_run("a", Unit::ItemsPerS, Goal::AtLeast(500.0), "no --x");
        assert_eq!(not_run.met(), None);
    }

    #[test]
    fn the_trend_is_the_mean_of_ten_windows_over_the_first_ten() {
        let window = |items_per_s| bulk::Window {
            from: 0,
            to: 0,
            seconds: 0.0,
            items_per_s,
            create_p50_us: 0,
            create_p99_us: 0,
            publish_p50_us: 0,
            publish_p99_us: 0,
            errors: 0,
        };
        let rates = [4_000.0, 2_000.0, 2_000.0, 2_000.0, 2_000.0];
        let windows: Vec<_> = (0..25).map(|i| window(rates[i % 5])).collect();
        assert_eq!(tenths(&windows[..19]), None);
        // The first ten hold two of the 4,000s, and so do the last ten.
        assert_eq!(tenths(&windows), Some(1.0));
        let slowing: Vec<_> = (0..20)
            .map(|i| window(if i < 10 { 2_000.0 } else { 1_500.0 }))
            .collect();
        assert_eq!(tenths(&slowing), Some(0.75));
    }

    #[test]
    fn the_table_has_a_row_per_target() {
        let rows = [
            Target::new("location-json", 0.27, Unit::Ratio, Goal::AtLeast(0.25), 0),
            Target::new("bulk", 1_234.4, Unit::ItemsPerS, Goal::AtLeast(1_000.0), 0),
            Target::new("page", 0.61, Unit::Ms, Goal::AtMost(0.544), 0),
            Target::new("page 16", 7_849.0, Unit::ReqPerS, Goal::None, 0),
            Target::not_run("postgres", Unit::ItemsPerS, Goal::AtLeast(500.0), "no --y"),
        ];
        let table = markdown(&rows, 1.5);
        let lines: Vec<_> = table.lines().filter(|l| l.starts_with("| ")).collect();
        assert_eq!(
            lines,
            [
                "| target | measured | goal | met |",
                "| --- | ---: | ---: | :---: |",
                "| location-json | 0.270 | ≥ 0.25 | ✓ |",
                "| bulk | 1,234 items/s | ≥ 1,000 items/s | ✓ |",
                "| page | 0.610 ms | ≤ 0.544 ms | ✗ |",
                "| page 16 | 7,849 req/s | – | – |",
                "| postgres | not run (no --y) | ≥ 500 items/s | – |",
            ]
        );
        assert!(table.contains("2 of 4 targets met (1 not run)."));
        let doc = json(&rows);
        assert_eq!(doc[0]["met"], true);
        assert_eq!(doc[2]["goal"], "≤ 0.544 ms");
        assert_eq!(doc[4]["measured"], serde_json::Value::Null);
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands("19975"), "19,975");
        assert_eq!(thousands("1000000.25"), "1,000,000.25");
        assert_eq!(thousands("999"), "999");
        assert_eq!(thousands("-1165"), "-1,165");
        assert_eq!(thousands("0.294"), "0.294");
    }
}
