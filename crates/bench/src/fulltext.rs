//! The full-text scenario: a repository of `--fulltext-items` content items whose names are
//! words drawn from a Zipf-distributed vocabulary (as in real text: a few words everywhere,
//! most rare), then a ranked 50-word `FullTextCriterion` search as anonymous, measured against
//! its ceiling. The target is a p50 within 100 ms at 100,000 items, for one query at a time
//! (`--connections 1`: the latency of a query, not of a queue of them); the run fails over it.
//!
//! The build: `--fulltext-distinct` folders created and published over HTTP under one folder,
//! which is then copied (COPY, one new content item per node) until the total is reached.
//! `--fulltext-database` runs it on PostgreSQL (a fresh schema `cairn_bench` there). The
//! server runs without its response cache, which would answer the repeated query.

use crate::bulk::{copy_subtree, create, create_folder, publish};
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
pub const NAME: &str = "full-text";

/// Words in the vocabulary, and words per item name.
const VOCABULARY: usize = 5_000;
const NAME_WORDS: usize = 12;
/// Words of the measured query.
const QUERY_WORDS: usize = 50;
/// The latency the issue sets for the query (p50).
pub const TARGET_MS: f64 = 100.0;

/// What to build.
#[derive(Debug, Clone)]
pub struct FullText {
    pub items: usize,
    pub distinct: usize,
    pub concurrency: usize,
    /// `postgres://…` to run on PostgreSQL; SQLite otherwise.
    pub database: Option<String>,
}

/// Builds the repository on a fresh server, then measures the query.
pub async fn run(cairn: &Cairn, ft: &FullText, load: Load) -> Result<Outcome> {
    let dir = tempfile::tempdir()?;
    let server = cairn
        .start_uncached(dir.path(), PREFIX, ft.database.as_deref())
        .await?;
    let addr = server.addr;
    let mut conn = Conn::connect(addr).await?;
    let root = format!("{PREFIX}/content/locations/1/2");
    let top = create_folder(&mut conn, &root, "Full text").await?;
    let words = Words::new();
    let t = Instant::now();
    fill(addr, &top, ft, &words).await?;
    eprintln!(
        "{NAME}: {} items created and published in {:.1} s",
        ft.distinct,
        t.elapsed().as_secs_f64()
    );
    let copies = ft.items.div_ceil(ft.distinct).saturating_sub(1);
    let t = Instant::now();
    for n in 1..=copies {
        copy_subtree(&mut conn, &top, &root).await?;
        eprintln!("{NAME}: copy {n} of {copies}");
    }
    eprintln!(
        "{NAME}: {} items in all after {:.1} s of copies",
        (copies + 1) * ft.distinct,
        t.elapsed().as_secs_f64()
    );
    let mut rng = Rng(0x5eed_f00d);
    let mut query = Vec::new();
    while query.len() < QUERY_WORDS {
        let w = words.sample(&mut rng);
        if !query.contains(&w) {
            query.push(w);
        }
    }
    let body = serde_json::json!({"ViewInput": {"identifier": "fulltext", "ContentQuery": {
        "Query": {"FullTextCriterion": query.join(" ")}, "limit": 10}}});
    let req = Request::new("POST", &format!("{PREFIX}/views"))
        .header(
            "Content-Type",
            "application/vnd.ibexa.api.ViewInput+json; version=1.1",
        )
        .header("Accept", "application/vnd.ibexa.api.View+json")
        .body(body.to_string());
    let t = Instant::now();
    let check = conn.send(&req).await?;
    let hits = check.json()?["View"]["Result"]["count"]
        .as_i64()
        .unwrap_or(0);
    eprintln!(
        "{NAME}: the 50-word query matches {hits} items ({:.1} ms)",
        t.elapsed().as_secs_f64() * 1000.0
    );
    if hits == 0 {
        bail!("the query found nothing: {}", check.excerpt());
    }
    let label = match &ft.database {
        Some(_) => "full-text, 50 words (PostgreSQL)",
        None => "full-text, 50 words (SQLite)",
    };
    crate::measure(label, addr, &req, dir.path(), load).await
}

/// Creates and publishes `ft.distinct` folders with Zipf-drawn names under `parent`.
async fn fill(addr: SocketAddr, parent: &str, ft: &FullText, words: &Words) -> Result<()> {
    let next = Arc::new(AtomicUsize::new(0));
    let names: Arc<Vec<String>> = Arc::new({
        let mut rng = Rng(42);
        (0..ft.distinct)
            .map(|_| {
                (0..NAME_WORDS)
                    .map(|_| words.sample(&mut rng))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    });
    let mut tasks = Vec::new();
    for _ in 0..ft.concurrency {
        let (next, parent, names) = (next.clone(), parent.to_string(), names.clone());
        let mut conn = Conn::connect(addr).await?;
        tasks.push(tokio::spawn(async move {
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                let Some(name) = names.get(n) else {
                    return Ok::<_, anyhow::Error>(());
                };
                let id = create(&mut conn, &parent, name).await?;
                publish(&mut conn, id).await?;
                if (n + 1) % 1000 == 0 {
                    eprintln!("{NAME}: {} of {} items", n + 1, names.len());
                }
            }
        }));
    }
    for task in tasks {
        task.await.context("a full-text worker failed")??;
    }
    Ok(())
}

/// The vocabulary: made-up words, drawn with Zipf weights (the n-th word 1/n as likely as the
/// first).
struct Words {
    words: Vec<String>,
    cumulative: Vec<f64>,
}

impl Words {
    fn new() -> Words {
        const SYLLABLES: [&str; 16] = [
            "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "bu", "da", "fe", "go", "hi",
            "ju", "pe",
        ];
        let words = (0..VOCABULARY)
            .map(|i| {
                let mut n = i + 16;
                let mut w = String::new();
                while n > 0 {
                    w.push_str(SYLLABLES[n % 16]);
                    n /= 16;
                }
                w
            })
            .collect();
        let mut total = 0.0;
        let cumulative = (1..=VOCABULARY)
            .map(|rank| {
                total += 1.0 / rank as f64;
                total
            })
            .collect();
        Words { words, cumulative }
    }

    fn sample(&self, rng: &mut Rng) -> String {
        let x = rng.unit() * self.cumulative[VOCABULARY - 1];
        let i = self.cumulative.partition_point(|c| *c < x);
        self.words[i.min(VOCABULARY - 1)].clone()
    }
}

/// A small deterministic generator (xorshift64*), so every run builds the same repository.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
}
