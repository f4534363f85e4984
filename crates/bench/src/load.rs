//! The load generator: N persistent connections, each sending the same request back to back
//! (closed loop, like wrk). After a warm-up, every request that starts and ends inside the
//! measured window is counted and its latency recorded.

use crate::client::{Conn, is_success};
use anyhow::{Context, Result};
use hdrhistogram::Histogram;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::{Instant, timeout_at};

/// How hard and how long to drive a server.
#[derive(Debug, Clone, Copy)]
pub struct Load {
    pub connections: usize,
    pub warmup: Duration,
    pub duration: Duration,
}

/// What one run measured.
#[derive(Debug, Clone)]
pub struct Figures {
    /// Requests completed in the measured window (errors included).
    pub requests: u64,
    /// Responses with a status other than 2xx or 3xx.
    pub bad_status: u64,
    /// Requests that failed on the connection (reset, closed, malformed response).
    pub io_errors: u64,
    /// Connections opened again after the server closed one.
    pub reconnects: u64,
    /// The measured window in seconds.
    pub seconds: f64,
    /// Latencies in microseconds.
    pub latency: Histogram<u64>,
}

impl Figures {
    fn empty(seconds: f64) -> Result<Figures> {
        Ok(Figures {
            requests: 0,
            bad_status: 0,
            io_errors: 0,
            reconnects: 0,
            seconds,
            // 1 µs to 60 s, 3 significant digits.
            latency: Histogram::new_with_bounds(1, 60_000_000, 3)?,
        })
    }

    fn merge(&mut self, other: &Figures) -> Result<()> {
        self.requests += other.requests;
        self.bad_status += other.bad_status;
        self.io_errors += other.io_errors;
        self.reconnects += other.reconnects;
        self.latency.add(&other.latency)?;
        Ok(())
    }

    /// Adds a later run of the same request: its requests, errors, latencies and time.
    pub fn combine(&mut self, other: &Figures) -> Result<()> {
        self.merge(other)?;
        self.seconds += other.seconds;
        Ok(())
    }

    pub fn errors(&self) -> u64 {
        self.bad_status + self.io_errors
    }

    pub fn rps(&self) -> f64 {
        self.requests as f64 / self.seconds
    }

    /// A latency percentile (0–100) in microseconds.
    pub fn percentile_us(&self, q: f64) -> u64 {
        self.latency.value_at_quantile(q / 100.0)
    }
}

/// Drives the server at `addr` with `wire` (a rendered request) and returns the figures.
pub async fn run(addr: SocketAddr, wire: Vec<u8>, load: Load) -> Result<Figures> {
    let wire: Arc<[u8]> = wire.into();
    let mut conns = Vec::with_capacity(load.connections);
    for _ in 0..load.connections {
        conns.push(Conn::connect(addr).await?);
    }
    let measure_from = Instant::now() + load.warmup;
    let until = measure_from + load.duration;
    let tasks: Vec<_> = conns
        .into_iter()
        .map(|conn| {
            let wire = wire.clone();
            tokio::spawn(drive(conn, addr, wire, load, measure_from, until))
        })
        .collect();
    let mut total = Figures::empty(load.duration.as_secs_f64())?;
    for task in tasks {
        total.merge(&task.await.context("a load task failed")??)?;
    }
    Ok(total)
}

/// One connection's loop.
async fn drive(
    mut conn: Conn,
    addr: SocketAddr,
    wire: Arc<[u8]>,
    load: Load,
    measure_from: Instant,
    until: Instant,
) -> Result<Figures> {
    let mut figures = Figures::empty(load.duration.as_secs_f64())?;
    loop {
        let start = Instant::now();
        if start >= until {
            break;
        }
        let measured = start >= measure_from;
        let Ok(outcome) = timeout_at(until, conn.send_wire(&wire)).await else {
            break;
        };
        let done = Instant::now();
        match outcome {
            Ok(status) => {
                if measured && done <= until {
                    figures.requests += 1;
                    if !is_success(status) {
                        figures.bad_status += 1;
                    }
                    let micros = (done - start).as_micros().max(1) as u64;
                    figures.latency.saturating_record(micros);
                }
                if conn.is_closed() {
                    figures.reconnects += 1;
                    let Some(fresh) = reconnect(addr, until).await else {
                        break;
                    };
                    conn = fresh;
                }
            }
            Err(_) => {
                if measured {
                    figures.io_errors += 1;
                }
                let Some(fresh) = reconnect(addr, until).await else {
                    break;
                };
                conn = fresh;
            }
        }
    }
    Ok(figures)
}

/// Opens a new connection, retrying until it works; `None` once time is up.
async fn reconnect(addr: SocketAddr, until: Instant) -> Option<Conn> {
    while Instant::now() < until {
        if let Ok(Ok(conn)) = timeout_at(until, Conn::connect(addr)).await {
            return Some(conn);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    None
}
