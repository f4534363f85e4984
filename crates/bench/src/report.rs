//! Results: a Markdown table for people and a JSON file for tools.

use crate::load::{Figures, Load};
use anyhow::{Context, Result};
use serde::Serialize;
use std::path::Path;

/// One scenario measured against its ceiling.
pub struct Outcome {
    pub name: &'static str,
    pub cairn: Figures,
    pub ceiling: Figures,
}

impl Outcome {
    /// Adds a later round of the same scenario (cairn's and the ceiling's runs).
    pub fn combine(&mut self, other: &Outcome) -> anyhow::Result<()> {
        self.cairn.combine(&other.cairn)?;
        self.ceiling.combine(&other.ceiling)
    }
}

/// The figures of one load run, as written to JSON.
#[derive(Serialize)]
struct RunJson {
    requests: u64,
    errors: u64,
    bad_status: u64,
    io_errors: u64,
    reconnects: u64,
    seconds: f64,
    rps: f64,
    p50_us: u64,
    p90_us: u64,
    p99_us: u64,
    max_us: u64,
}

impl From<&Figures> for RunJson {
    fn from(f: &Figures) -> Self {
        RunJson {
            requests: f.requests,
            errors: f.errors(),
            bad_status: f.bad_status,
            io_errors: f.io_errors,
            reconnects: f.reconnects,
            seconds: f.seconds,
            rps: f.rps(),
            p50_us: f.percentile_us(50.0),
            p90_us: f.percentile_us(90.0),
            p99_us: f.percentile_us(99.0),
            max_us: f.latency.max(),
        }
    }
}

impl Outcome {
    /// cairn's req/s over the ceiling's.
    pub fn rps_ratio(&self) -> f64 {
        ratio(self.cairn.rps(), self.ceiling.rps())
    }

    /// cairn's latency percentile over the ceiling's (above 1: slower).
    pub fn latency_ratio(&self, q: f64) -> f64 {
        ratio(
            self.cairn.percentile_us(q) as f64,
            self.ceiling.percentile_us(q) as f64,
        )
    }

    fn flagged(&self) -> bool {
        self.cairn.errors() > 0 || self.ceiling.errors() > 0
    }
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 { a / b } else { f64::NAN }
}

fn ms(us: u64) -> String {
    format!("{:.3} ms", us as f64 / 1000.0)
}

/// The Markdown table.
pub fn markdown(outcomes: &[Outcome], load: Load) -> String {
    let mut out = format!(
        "{} connections, {} s measured after {} s of warm-up, {} CPUs; latency ratios are \
         cairn / ceiling (above 1: slower).\n\n",
        load.connections,
        load.duration.as_secs_f64(),
        load.warmup.as_secs_f64(),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
    );
    out.push_str(
        "| scenario | req/s | p50 | p99 | ceiling req/s | ratio (req/s) | p50 ratio | p99 ratio | errors |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for o in outcomes {
        let flag = if o.flagged() { " ⚠" } else { "" };
        out.push_str(&format!(
            "| {}{flag} | {:.0} | {} | {} | {:.0} | {:.3} | {:.2} | {:.2} | {} |\n",
            o.name,
            o.cairn.rps(),
            ms(o.cairn.percentile_us(50.0)),
            ms(o.cairn.percentile_us(99.0)),
            o.ceiling.rps(),
            o.rps_ratio(),
            o.latency_ratio(50.0),
            o.latency_ratio(99.0),
            o.cairn.errors(),
        ));
    }
    let flagged: Vec<_> = outcomes.iter().filter(|o| o.flagged()).collect();
    if !flagged.is_empty() {
        out.push_str("\n⚠ errors (non-2xx/3xx responses or failed requests):\n");
        for o in flagged {
            out.push_str(&format!(
                "- {}: cairn {} bad status, {} failed; ceiling {} bad status, {} failed\n",
                o.name,
                o.cairn.bad_status,
                o.cairn.io_errors,
                o.ceiling.bad_status,
                o.ceiling.io_errors
            ));
        }
    }
    out
}

/// The same scenarios on a fresh database and on the large repository: what the size costs,
/// as the ratio of their ratios to the ceiling (each measured next to its ceiling, so that
/// the machine's drift between the two cancels out).
pub fn sizes(fresh: &[Outcome], large: &[Outcome]) -> String {
    let mut out = String::from(
        "| scenario | req/s, fresh | ratio, fresh | req/s, large | ratio, large | large / fresh (ratios) |\n\
         | --- | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for (f, l) in fresh.iter().zip(large) {
        out.push_str(&format!(
            "| {} | {:.0} | {:.3} | {:.0} | {:.3} | {:.2} |\n",
            f.name,
            f.cairn.rps(),
            f.rps_ratio(),
            l.cairn.rps(),
            l.rps_ratio(),
            ratio(l.rps_ratio(), f.rps_ratio()),
        ));
    }
    out
}

/// The figures of one load run as JSON.
pub fn figures_json(figures: &Figures) -> serde_json::Value {
    serde_json::json!(RunJson::from(figures))
}

/// The raw figures as JSON.
pub fn json(outcomes: &[Outcome], load: Load) -> serde_json::Value {
    let scenarios: Vec<_> = outcomes
        .iter()
        .map(|o| {
            serde_json::json!({
                "name": o.name,
                "cairn": RunJson::from(&o.cairn),
                "ceiling": RunJson::from(&o.ceiling),
                "ratio_rps": o.rps_ratio(),
                "ratio_p50": o.latency_ratio(50.0),
                "ratio_p99": o.latency_ratio(99.0),
            })
        })
        .collect();
    serde_json::json!({
        "connections": load.connections,
        "warmup_seconds": load.warmup.as_secs_f64(),
        "duration_seconds": load.duration.as_secs_f64(),
        "cpus": std::thread::available_parallelism().map_or(0, |n| n.get()),
        "scenarios": scenarios,
    })
}

/// Writes `doc` to `path`.
pub fn write_json(path: &Path, doc: &serde_json::Value) -> Result<()> {
    let text = serde_json::to_string_pretty(doc)?;
    std::fs::write(path, text + "\n").with_context(|| format!("cannot write {}", path.display()))
}
