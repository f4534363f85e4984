//! The large repository (issue 14, realistic sizes): the read scenarios run a second time on a
//! repository of `--large-items` content items, so that a cost that grows with the repository
//! shows as the ratio between the two runs (the goal: within 10%).
//!
//! The repository is built once into a SQLite snapshot and reused by later runs (each starts
//! on a copy): a folder `Large` under the root folder holding parts of 1,000 published items
//! each (folders, two levels below the root folder); the first part is created over HTTP, the
//! others are COPYs of it. The snapshot is written by `cairn backup` (one consistent file),
//! under its final name only once complete.

use crate::bulk::{copy_subtree, create, create_folder, publish};
use crate::client::Conn;
use crate::scenarios::PREFIX;
use crate::server::Cairn;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Items per part (the copied subtree).
const PART: usize = 1_000;
/// Connections creating the first part.
const WRITERS: usize = 4;

/// The snapshot of a repository of `items` content items at `path` (default
/// `target/bench-repository-<items>.db`, beside the bench's own `target/release`), built when
/// missing.
pub async fn snapshot(cairn: &Cairn, items: usize, path: Option<PathBuf>) -> Result<PathBuf> {
    let path = match path {
        Some(path) => path,
        None => (std::env::current_exe()?.parent())
            .and_then(Path::parent)
            .unwrap_or(Path::new("."))
            .join(format!("bench-repository-{items}.db")),
    };
    if path.is_file() {
        eprintln!("large repository: reusing {}", path.display());
        return Ok(path);
    }
    let started = Instant::now();
    let dir = tempfile::tempdir()?;
    let server = (cairn.start_on(dir.path(), PREFIX, None, &["--cache-mib", "0"])).await?;
    let addr = server.addr;
    let mut conn = Conn::connect(addr).await?;
    let root = format!("{PREFIX}/content/locations/1/2");
    let top = create_folder(&mut conn, &root, "Large").await?;
    let part = create_folder(&mut conn, &top, "Part 1").await?;
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..WRITERS {
        let (next, part) = (next.clone(), part.clone());
        let mut conn = Conn::connect(addr).await?;
        tasks.push(tokio::spawn(async move {
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= PART {
                    return Ok::<_, anyhow::Error>(());
                }
                let id = create(&mut conn, &part, &format!("Item {n}")).await?;
                publish(&mut conn, id).await?;
            }
        }));
    }
    for task in tasks {
        task.await
            .context("a writer of the large repository failed")??;
    }
    let parts = items.div_ceil(PART + 1).max(1);
    for n in 2..=parts {
        copy_subtree(&mut conn, &part, &top).await?;
        if n % 10 == 0 {
            eprintln!("large repository: {n} of {parts} parts");
        }
    }
    drop(server);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let partial = path.with_extension("partial");
    let _ = std::fs::remove_file(&partial);
    let status = (cairn.command())
        .arg("backup")
        .arg(&partial)
        .arg("--database-url")
        .arg(format!(
            "sqlite://{}",
            dir.path().join("bench.db").display()
        ))
        .status()
        .context("running cairn backup")?;
    if !status.success() {
        bail!("cairn backup of the large repository failed");
    }
    std::fs::rename(&partial, &path)?;
    eprintln!(
        "large repository: {} items in {} parts built in {:.0} s into {}",
        parts * (PART + 1) + 1,
        parts,
        started.elapsed().as_secs_f64(),
        path.display()
    );
    Ok(path)
}
