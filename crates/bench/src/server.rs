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

/// The cairn binary and how its servers start.
#[derive(Debug, Clone)]
pub struct Cairn {
    pub bin: PathBuf,
    /// Further options for every `cairn serve` started (`--server-arg`).
    pub args: Vec<String>,
    /// The CPUs every server started runs on (`taskset -c`, e.g. `0`); all when `None`.
    pub cpus: Option<String>,
}

impl Cairn {
    /// Whether `args` give the option `flag` (`--flag value` or `--flag=value`).
    pub fn given(&self, flag: &str) -> bool {
        (self.args.iter())
            .any(|a| a == flag || a.strip_prefix(flag).is_some_and(|v| v.starts_with('=')))
    }

    /// The same binary and options, its servers on `cpus`.
    pub fn on_cpus(&self, cpus: &str) -> Cairn {
        Cairn {
            cpus: Some(cpus.to_string()),
            ..self.clone()
        }
    }

    /// The same, its servers without the response cache unless `args` set its size.
    pub fn uncached(mut self) -> Cairn {
        if !self.given("--cache-mib") {
            self.args
                .extend(["--cache-mib".to_string(), "0".to_string()]);
        }
        self
    }

    /// `cairn` (its subcommand to add), its settings from the command line alone.
    pub fn command(&self) -> Command {
        scrubbed(&self.bin)
    }

    /// Starts `cairn serve` on a free port with a fresh SQLite database in `dir`.
    pub async fn start(&self, dir: &Path, prefix: &str) -> Result<Server> {
        self.start_on(dir, prefix, None, &[]).await
    }

    /// Starts `cairn serve` without the response cache (what is measured is the query, not a
    /// kept answer) on a fresh database: a fresh schema of the PostgreSQL server `database`
    /// names, else SQLite in `dir`.
    pub async fn start_uncached(
        &self,
        dir: &Path,
        prefix: &str,
        database: Option<&str>,
    ) -> Result<Server> {
        let url = database.map(fresh_schema).transpose()?;
        (self.start_on(dir, prefix, url.as_deref(), &["--cache-mib", "0"])).await
    }

    /// Starts `cairn serve` on a free port over `database_url`, else a fresh SQLite database
    /// in `dir`, with the options `extra` (flag and value pairs) besides `args`; an option
    /// `args` give too is theirs (the server takes each option once).
    pub async fn start_on(
        &self,
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
        let mut command = match &self.cpus {
            Some(cpus) => {
                let mut c = scrubbed(Path::new("taskset"));
                c.arg("-c").arg(cpus).arg(&self.bin);
                c
            }
            None => scrubbed(&self.bin),
        };
        command
            .arg("serve")
            .arg("--listen")
            .arg(addr.to_string())
            .arg("--database-url")
            .arg(db)
            .arg("--log")
            .arg("warn")
            .args(extra.chunks(2).filter(|o| !self.given(o[0])).flatten())
            .args(&self.args);
        Server::spawn("cairn", command, addr, &format!("{prefix}/")).await
    }
}

/// A command running `program` without the `CAIRN_` variables of the environment: a server's
/// or a command's settings come from the command line alone.
fn scrubbed(program: &Path) -> Command {
    let mut command = Command::new(program);
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("CAIRN_") {
            command.env_remove(key);
        }
    }
    command
}

/// A fresh schema `cairn_bench` on the PostgreSQL server `url` names (with `psql`); the URL
/// that works in it.
pub(crate) fn fresh_schema(url: &str) -> Result<String> {
    let status = std::process::Command::new("psql")
        .arg(url)
        .args([
            "-q",
            "-c",
            "DROP SCHEMA IF EXISTS cairn_bench CASCADE; CREATE SCHEMA cairn_bench",
        ])
        .status()
        .context("running psql")?;
    if !status.success() {
        bail!("psql could not create the schema cairn_bench on {url}");
    }
    let sep = if url.contains('?') { '&' } else { '?' };
    Ok(format!("{url}{sep}options[search_path]=cairn_bench"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cairn(args: &[&str]) -> Cairn {
        Cairn {
            bin: PathBuf::from("cairn"),
            args: args.iter().map(|a| a.to_string()).collect(),
            cpus: None,
        }
    }

    #[test]
    fn an_option_the_server_args_give_is_theirs() {
        assert!(cairn(&["--cache-mib", "8"]).given("--cache-mib"));
        assert!(cairn(&["--cache-mib=8"]).given("--cache-mib"));
        assert!(!cairn(&["--cache-mibs=8"]).given("--cache-mib"));
        assert_eq!(cairn(&[]).uncached().args, ["--cache-mib", "0"]);
        assert_eq!(cairn(&["--cache-mib=8"]).uncached().args, ["--cache-mib=8"]);
        assert_eq!(
            cairn(&["--log", "info"]).on_cpus("0").cpus.as_deref(),
            Some("0")
        );
    }
}
