//! Tests behind a real Varnish: the application served over TCP (`Served`, stoppable and
//! started again on the same port, as cairn restarted), a varnishd of the test's own in front
//! of it (`Varnish`, with `docs/varnish/cairn.vcl` or the VCL `CAIRN_VCL` names), and a small
//! HTTP/1.1 client that speaks to it (`Varnish::req`).

use super::{TestApp, free_addr};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A `TestApp` served over TCP on a port of the loopback that stays the same across
/// restarts.
pub struct Served {
    /// Where it listens (when started).
    pub addr: SocketAddr,
    running: Option<Running>,
}

/// A served app: its server's stop signal and task, and the app (to tell it it stops).
struct Running {
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
    app: Arc<TestApp>,
}

/// The application as a poem endpoint that can be shared with the server's connections.
struct Shared(Arc<TestApp>);

impl poem::Endpoint for Shared {
    type Output = poem::Response;

    async fn call(&self, req: poem::Request) -> poem::Result<poem::Response> {
        Ok(self.0.endpoint.get_response(req).await)
    }
}

impl Served {
    /// A free port of the loopback, nothing listening on it yet.
    pub fn reserve() -> Served {
        Served {
            addr: free_addr(),
            running: None,
        }
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The app served now (for changes made through it in process).
    pub fn app(&self) -> Arc<TestApp> {
        self.running.as_ref().expect("an app served").app.clone()
    }

    /// Serves `app` on the port (stopping what was served there first).
    pub async fn start(&mut self, app: TestApp) {
        self.stop().await;
        // Bound here, so that a request sent once `start` returns finds it listening.
        let listener = tokio::net::TcpListener::bind(self.addr)
            .await
            .expect("the served port");
        let acceptor = poem::listener::TcpAcceptor::from_tokio(listener).expect("an acceptor");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = poem::Server::new_with_acceptor(acceptor);
        let app = Arc::new(app);
        let endpoint = Shared(app.clone());
        let task = tokio::spawn(async move {
            let _ = server
                .run_with_graceful_shutdown(
                    endpoint,
                    async move {
                        let _ = stopped.await;
                    },
                    Some(Duration::from_secs(2)),
                )
                .await;
        });
        self.running = Some(Running { stop, task, app });
    }

    /// Stops serving as `cairn serve` stops on SIGTERM: the app is told it stops (its change
    /// feed's streams and background senders end), nothing listens on the port any more, its
    /// connections (Varnish's pooled ones too) are closed, and the app is dropped.
    pub async fn stop(&mut self) {
        if let Some(Running { stop, task, app }) = self.running.take() {
            app.service.feed.stop();
            let _ = stop.send(());
            let _ = task.await;
        }
    }
}

/// A varnishd of its own, in the foreground as a child process, in front of a backend on the
/// loopback; killed when dropped.
pub struct Varnish {
    /// Where it listens (HTTP).
    pub port: u16,
    child: Child,
    dir: tempfile::TempDir,
}

impl Varnish {
    /// Varnish in front of `127.0.0.1:backend_port`, with the project's VCL
    /// (`docs/varnish/cairn.vcl`) or the one `CAIRN_VCL` names (the reference's `varnish7.vcl`,
    /// whose `include "/etc/varnish/parameters.vcl"` is pointed at a parameters file written
    /// here). `None`, with a warning, when varnishd or its xkey vmod is missing, unless
    /// `CAIRN_REQUIRE_VARNISH` is set (as in CI): then it panics.
    pub fn start(backend_port: u16) -> Option<Varnish> {
        let Some(varnishd) = varnishd() else {
            return no_varnish("no varnishd (Debian: varnish; .ci/varnish installs it)");
        };
        let dir = tempfile::tempdir().expect("a temporary directory");
        let vcl = write_vcl(dir.path(), backend_port);
        let work = dir.path().join("work");

        // Compiled first: a missing vmod says so here, before anything listens.
        let compiled = Command::new(&varnishd)
            .arg("-C")
            .arg("-f")
            .arg(&vcl)
            .arg("-n")
            .arg(&work)
            .output()
            .expect("varnishd -C");
        if !compiled.status.success() {
            let why = String::from_utf8_lossy(&compiled.stderr);
            if let Some(line) = why.lines().find(|l| l.contains("xkey")) {
                return no_varnish(&format!(
                    "the xkey vmod is missing (Debian: varnish-modules): {}",
                    line.trim()
                ));
            }
            panic!("{} does not compile: {why}", vcl.display());
        }

        let port = free_addr().port();
        let log = std::fs::File::create(dir.path().join("varnishd.log")).expect("a log file");
        // As root varnishd drops to its own users (the unix jail, `varnish` and `vcache`,
        // which Debian's package creates); as anyone else it runs as that user.
        let child = Command::new(&varnishd)
            .arg("-F")
            .arg("-n")
            .arg(&work)
            .arg("-a")
            .arg(format!("127.0.0.1:{port}"))
            .arg("-T")
            .arg("127.0.0.1:0")
            .arg("-f")
            .arg(&vcl)
            .arg("-s")
            .arg("malloc,64m")
            // A refused connection (cairn stopped) holds the backend off for 0.25 s by
            // default: a test that starts cairn again reads at once.
            .arg("-p")
            .arg("backend_remote_error_holddown=0")
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("the log file"))
            .stderr(log)
            .spawn()
            .expect("varnishd started");
        let mut varnish = Varnish { port, child, dir };
        for _ in 0..100 {
            if let Ok(Some(status)) = varnish.child.try_wait() {
                panic!("varnishd ended ({status}): {}", varnish.log());
            }
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Some(varnish);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("varnishd does not listen on {port}: {}", varnish.log());
    }

    /// What varnishd wrote so far (its management process and the child's start).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("varnishd.log")).unwrap_or_default()
    }

    /// The URL cairn purges (`--purge-url`).
    pub fn purge_url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// A request through Varnish to exactly `path` (`/api/ibexa/v2/content/locations/1/2`).
    pub fn req(&self, method: &str, path: &str) -> EdgeReq {
        EdgeReq {
            port: self.port,
            method: method.to_string(),
            path: path.to_string(),
            headers: Vec::new(),
        }
    }

    /// A GET of `path` under the API prefix through Varnish, as anonymous.
    pub fn get(&self, path: &str) -> EdgeReq {
        self.req("GET", &format!("{}{path}", super::PREFIX))
    }
}

impl Drop for Varnish {
    fn drop(&mut self) {
        // SIGTERM first: the manager stops its child (the cache process) and ends.
        let _ = Command::new("kill")
            .arg(self.child.id().to_string())
            .stderr(Stdio::null())
            .status();
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// varnishd on the PATH or where Debian puts it (`/usr/sbin`, not on every user's PATH).
fn varnishd() -> Option<String> {
    let on_path = Command::new("varnishd")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if on_path {
        Some("varnishd".into())
    } else if Path::new("/usr/sbin/varnishd").exists() {
        Some("/usr/sbin/varnishd".into())
    } else {
        None
    }
}

fn no_varnish(why: &str) -> Option<Varnish> {
    if std::env::var_os("CAIRN_REQUIRE_VARNISH").is_some() {
        panic!("no Varnish for the tests behind it: {why}");
    }
    eprintln!("!! tests behind Varnish skipped: {why}");
    None
}

/// The VCL to run, written into `dir` with the backend filled in; its path.
fn write_vcl(dir: &Path, backend_port: u16) -> std::path::PathBuf {
    let (source, text) = match std::env::var("CAIRN_VCL") {
        Ok(file) => {
            let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
            (file, text)
        }
        Err(_) => {
            let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/varnish/cairn.vcl");
            let text = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            (file.display().to_string(), text)
        }
    };
    let backend = format!("{{ .host = \"127.0.0.1\"; .port = \"{backend_port}\"; }}");
    let reference_include = "include \"/etc/varnish/parameters.vcl\";";
    let text = if text.contains(reference_include) {
        // The reference's VCL: its backend and ACLs are in parameters.vcl.
        let parameters = dir.join("parameters.vcl");
        std::fs::write(
            &parameters,
            format!(
                "backend ezplatform {backend}\n\
                 acl invalidators {{ \"127.0.0.1\"; }}\n\
                 acl debuggers {{ \"127.0.0.1\"; }}\n"
            ),
        )
        .expect("parameters.vcl written");
        text.replace(
            reference_include,
            &format!("include \"{}\";", parameters.display()),
        )
    } else {
        // cairn's VCL: the one line that starts with `backend cairn `.
        let mut found = false;
        let lines: Vec<String> = text
            .lines()
            .map(|line| {
                if line.starts_with("backend cairn ") {
                    found = true;
                    format!("backend cairn {backend}")
                } else {
                    line.to_string()
                }
            })
            .collect();
        assert!(
            found,
            "{source}: neither a line `backend cairn {{ ... }}` nor the reference's {reference_include}"
        );
        lines.join("\n") + "\n"
    };
    let vcl = dir.join("cairn.vcl");
    std::fs::write(&vcl, text).expect("the VCL written");
    vcl
}

/// A request through Varnish under construction.
pub struct EdgeReq {
    port: u16,
    method: String,
    path: String,
    headers: Vec<(String, String)>,
}

impl EdgeReq {
    pub fn header(mut self, k: &str, v: &str) -> Self {
        self.headers.push((k.to_string(), v.to_string()));
        self
    }

    /// `Accept: application/vnd.ibexa.api.<media>` (e.g. `Location+json`).
    pub fn accept(self, media: &str) -> Self {
        self.header("accept", &format!("application/vnd.ibexa.api.{media}"))
    }

    /// A session cookie (`name=value`, as `TestApp::login_as` returns it).
    pub fn cookie(self, pair: &str) -> Self {
        self.header("cookie", pair)
    }

    /// HTTP Basic credentials.
    pub fn basic(self, login: &str, password: &str) -> Self {
        use base64::Engine;
        let v = base64::engine::general_purpose::STANDARD.encode(format!("{login}:{password}"));
        self.header("authorization", &format!("Basic {v}"))
    }

    pub fn admin(self) -> Self {
        self.basic(super::ADMIN.0, super::ADMIN.1)
    }

    /// Sends it on a connection of its own (`Connection: close`) and reads the whole answer.
    pub async fn send(self) -> EdgeResp {
        let mut conn = tokio::net::TcpStream::connect(("127.0.0.1", self.port))
            .await
            .expect("Varnish");
        let mut head = format!(
            "{} {} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nContent-Length: 0\r\n",
            self.method, self.path, self.port,
        );
        for (k, v) in &self.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        conn.write_all(head.as_bytes()).await.expect("request sent");
        let mut raw = Vec::new();
        tokio::time::timeout(Duration::from_secs(30), conn.read_to_end(&mut raw))
            .await
            .unwrap_or_else(|_| panic!("no answer within 30 s: {} {}", self.method, self.path))
            .expect("the answer");
        EdgeResp::parse(&raw, &self.method)
    }
}

/// An answer through Varnish.
#[derive(Debug)]
pub struct EdgeResp {
    pub status: u16,
    /// Names in lower case, in the order received.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl EdgeResp {
    fn parse(raw: &[u8], method: &str) -> EdgeResp {
        let end = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or_else(|| panic!("no head: {}", String::from_utf8_lossy(raw)));
        let head = String::from_utf8_lossy(&raw[..end]).into_owned();
        let mut lines = head.split("\r\n");
        let status_line = lines.next().unwrap_or_default();
        let status = status_line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("status line {status_line:?}"));
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let rest = &raw[end + 4..];
        let chunked = headers
            .iter()
            .any(|(k, v)| k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
        let body = if method == "HEAD" {
            Vec::new()
        } else if chunked {
            dechunk(rest)
        } else {
            rest.to_vec()
        };
        EdgeResp {
            status,
            headers,
            body: String::from_utf8_lossy(&body).into_owned(),
        }
    }

    /// The first value of header `name`.
    pub fn header(&self, name: &str) -> Option<String> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.clone())
    }

    /// Asserts the status, showing the answer when it differs.
    pub fn assert(&self, status: u16) -> &Self {
        assert_eq!(self.status, status, "unexpected status: {self:?}");
        self
    }

    /// `X-Cache` (`HIT` or `MISS`, shown to debuggers such as the tests).
    pub fn x_cache(&self) -> String {
        self.header("x-cache").unwrap_or_default()
    }

    pub fn hit(&self) -> bool {
        self.x_cache() == "HIT"
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {self:?}"))
    }
}

/// A chunked body put together.
fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") else {
            return body;
        };
        let size = String::from_utf8_lossy(&rest[..eol]);
        let size = size.split(';').next().unwrap_or("0").trim();
        let size = usize::from_str_radix(size, 16).unwrap_or(0);
        if size == 0 {
            return body;
        }
        let start = eol + 2;
        let end = (start + size).min(rest.len());
        body.extend_from_slice(&rest[start..end]);
        rest = rest.get(end + 2..).unwrap_or_default();
    }
}
