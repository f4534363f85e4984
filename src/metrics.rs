//! Prometheus metrics (the `metrics` facade, rendered by `metrics-exporter-prometheus`):
//! requests by operation id and status, their latency and statements, the database pool,
//! the write queue and the permission cache. `/metrics` renders them.

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the process-wide recorder (once; every server of the process shares it).
pub fn install() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| match PrometheusBuilder::new().install_recorder() {
            Ok(h) => Some(h),
            Err(e) => {
                tracing::warn!(error = %e, "metrics are off: no recorder could be installed");
                None
            }
        })
        .as_ref()
}

/// Records one answered request.
pub fn request(operation: &'static str, status: u16, seconds: f64, statements: u64) {
    let status = status.to_string();
    metrics::counter!("cairn_http_requests_total", "operation" => operation, "status" => status)
        .increment(1);
    metrics::histogram!("cairn_http_request_duration_seconds", "operation" => operation)
        .record(seconds);
    metrics::histogram!("cairn_db_statements_per_request", "operation" => operation)
        .record(statements as f64);
}

/// The Prometheus text of every metric, with the pool's gauges taken now.
pub fn render(handle: &PrometheusHandle, db: &cairn_store::Db) -> String {
    let (open, idle) = db.pool_use();
    metrics::gauge!("cairn_db_pool_connections").set(f64::from(open));
    metrics::gauge!("cairn_db_pool_idle_connections").set(idle as f64);
    handle.run_upkeep();
    handle.render()
}
