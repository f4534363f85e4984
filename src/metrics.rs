//! Prometheus metrics (the `metrics` facade, rendered by `metrics-exporter-prometheus`):
//! requests by operation id and status, their latency and statements, the database pool,
//! the write queue and the caches. `/metrics` renders them.
//!
//! What every request records goes through handles kept per thread (a registry lookup hashes
//! the metric's name and labels each time), and the recorder's samples are folded into its
//! histograms every few seconds, whether or not anyone scrapes: unscraped, they would pile up.

use metrics::{Counter, Histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::Duration;

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// How often recorded samples are folded into the histograms.
const UPKEEP: Duration = Duration::from_secs(5);

/// Buckets of request latencies (seconds) and of statements per request.
const SECONDS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];
const STATEMENTS: &[f64] = &[0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0];

/// Installs the process-wide recorder (once; every server of the process shares it) and the
/// thread that keeps its samples bounded.
pub fn install() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| match recorder() {
            Ok(h) => {
                let upkeep = h.clone();
                let spawned = std::thread::Builder::new()
                    .name("metrics-upkeep".into())
                    .spawn(move || {
                        loop {
                            std::thread::sleep(UPKEEP);
                            upkeep.run_upkeep();
                        }
                    });
                if let Err(e) = spawned {
                    tracing::warn!(error = %e, "metrics: no upkeep thread");
                }
                Some(h)
            }
            Err(e) => {
                tracing::warn!(error = %e, "metrics are off: no recorder could be installed");
                None
            }
        })
        .as_ref()
}

fn recorder() -> Result<PrometheusHandle, metrics_exporter_prometheus::BuildError> {
    PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), SECONDS)?
        .set_buckets_for_metric(
            Matcher::Full("cairn_db_statements_per_request".into()),
            STATEMENTS,
        )?
        .install_recorder()
}

/// Whether a recorder is installed: only then are handles worth keeping (one taken before
/// would record nothing, ever).
fn installed() -> bool {
    HANDLE.get().is_some_and(Option::is_some)
}

/// The handles of one operation's requests with one status.
struct RequestHandles {
    requests: Counter,
    duration: Histogram,
    statements: Histogram,
}

thread_local! {
    static REQUESTS: RefCell<HashMap<(&'static str, u16), RequestHandles>> =
        RefCell::new(HashMap::new());
    static CACHES: RefCell<HashMap<(&'static str, bool), Counter>> = RefCell::new(HashMap::new());
}

fn request_handles(operation: &'static str, status: u16) -> RequestHandles {
    RequestHandles {
        requests: metrics::counter!("cairn_http_requests_total",
            "operation" => operation, "status" => status.to_string()),
        duration: metrics::histogram!("cairn_http_request_duration_seconds",
            "operation" => operation),
        statements: metrics::histogram!("cairn_db_statements_per_request",
            "operation" => operation),
    }
}

/// Records one answered request.
pub fn request(operation: &'static str, status: u16, seconds: f64, statements: u64) {
    let record = |h: &RequestHandles| {
        h.requests.increment(1);
        h.duration.record(seconds);
        h.statements.record(statements as f64);
    };
    if !installed() {
        return record(&request_handles(operation, status));
    }
    REQUESTS.with_borrow_mut(|handles| {
        record(
            handles
                .entry((operation, status))
                .or_insert_with(|| request_handles(operation, status)),
        )
    });
}

/// Counts one lookup in the cache named `cache`: a hit or a miss.
pub fn cache_lookup(cache: &'static str, hit: bool) {
    let counter = || {
        let result = if hit { "hit" } else { "miss" };
        metrics::counter!("cairn_cache_total", "cache" => cache, "result" => result)
    };
    if !installed() {
        return counter().increment(1);
    }
    CACHES.with_borrow_mut(|c| c.entry((cache, hit)).or_insert_with(counter).increment(1));
}

/// The Prometheus text of every metric, with the gauges of the pool and of the response
/// cache taken now.
pub fn render(
    handle: &PrometheusHandle,
    db: &cairn_store::Db,
    responses: Option<&cairn_runtime::ResponseCache>,
) -> String {
    let (open, idle) = db.pool_use();
    metrics::gauge!("cairn_db_pool_connections").set(f64::from(open));
    metrics::gauge!("cairn_db_pool_idle_connections").set(idle as f64);
    if let Some(responses) = responses {
        metrics::gauge!("cairn_response_cache_bytes").set(responses.usage().1 as f64);
    }
    handle.run_upkeep();
    handle.render()
}
