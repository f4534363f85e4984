//! Child processes: the cairn server under test and the ceiling server, each killed when its
//! guard is dropped (at the end, on errors and on ctrl-c alike).

use crate::client::{Conn, Request};
use anyhow::{Context, Result, bail};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running child process, killed and reaped on drop.
pub struct Server {
    name: &'static str,
    child: Child,
    pub addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Spawns `command` (which must listen on `addr`) and waits until `GET ready_path` answers
    /// with anything but a 5xx.
    pub async fn spawn(
        name: &'static str,
        mut command: Command,
        addr: SocketAddr,
        ready_path: &str,
    ) -> Result<Server> {
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start {name} ({command:?})"))?;
        let mut server = Server { name, child, addr };
        server
            .wait_ready(ready_path, Duration::from_secs(60))
            .await?;
        Ok(server)
    }

    async fn wait_ready(&mut self, path: &str, limit: Duration) -> Result<()> {
        let deadline = Instant::now() + limit;
        let req = Request::new("GET", path);
        loop {
            if let Some(status) = self.child.try_wait()? {
                bail!("{} exited before answering: {status}", self.name);
            }
            if let Ok(mut conn) = Conn::connect(self.addr).await
                && let Ok(resp) = conn.send(&req).await
                && resp.status < 500
            {
                return Ok(());
            }
            if Instant::now() > deadline {
                bail!("{} did not answer GET {path} within {limit:?}", self.name);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// A free local address to give a child (the port is released right before it binds).
pub fn free_addr() -> Result<SocketAddr> {
    let listener = TcpListener::bind("127.0.0.1:0").context("cannot find a free port")?;
    Ok(listener.local_addr()?)
}

/// The cairn binary: `explicit`, else `cairn` next to this executable (both live in
/// `target/release` after `cargo build --release -p cairn -p cairn-bench`).
pub fn cairn_binary(explicit: Option<PathBuf>) -> Result<PathBuf> {
    let path = match explicit {
        Some(path) => path,
        None => std::env::current_exe()
            .context("cannot locate the bench executable")?
            .with_file_name(format!("cairn{}", std::env::consts::EXE_SUFFIX)),
    };
    if !path.is_file() {
        bail!(
            "no cairn binary at {}: run `cargo build --release -p cairn` first (or pass --cairn)",
            path.display()
        );
    }
    Ok(path)
}

/// Further `cairn serve` options for every server started (`--server-arg`), set once.
pub static SERVER_ARGS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();

/// The CPUs every server started runs on (`--server-cpus`), set once.
pub static SERVER_CPUS: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();

/// Whether the `--server-arg`s give the option `flag` (`--flag value` or `--flag=value`).
fn given(flag: &str) -> bool {
    (SERVER_ARGS.get().into_iter().flatten())
        .any(|a| a == flag || a.strip_prefix(flag).is_some_and(|v| v.starts_with('=')))
}

/// Starts `cairn serve` on a free port with a fresh SQLite database in `dir`.
pub async fn start_cairn(bin: &Path, dir: &Path, prefix: &str) -> Result<Server> {
    start_cairn_on(bin, dir, prefix, None, &[]).await
}

/// Starts `cairn serve` on a free port over `database_url`, else a fresh SQLite database in
/// `dir`, with the options `extra` (flag and value pairs) besides `--server-arg`s; an option
/// the `--server-arg`s give too is theirs (the server takes each option once).
pub async fn start_cairn_on(
    bin: &Path,
    dir: &Path,
    prefix: &str,
    database_url: Option<&str>,
    extra: &[&str],
) -> Result<Server> {
    let addr = free_addr()?;
    let db = match database_url {
        Some(url) => url.to_string(),
        None => format!("sqlite://{}", dir.join("bench.db").display()),
    };
    let mut command = match SERVER_CPUS.get().cloned().flatten() {
        Some(cpus) => {
            let mut c = Command::new("taskset");
            c.arg("-c").arg(cpus).arg(bin);
            c
        }
        None => Command::new(bin),
    };
    // The server's own settings come from the command line alone.
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("CAIRN_") {
            command.env_remove(key);
        }
    }
    command
        .arg("serve")
        .arg("--listen")
        .arg(addr.to_string())
        .arg("--database-url")
        .arg(db)
        .arg("--log")
        .arg("warn")
        .args(extra.chunks(2).filter(|o| !given(o[0])).flatten())
        .args(SERVER_ARGS.get().into_iter().flatten());
    Server::spawn("cairn", command, addr, &format!("{prefix}/")).await
}
