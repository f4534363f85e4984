//! The test harness: a fresh database per test (SQLite in a temporary directory, or a fresh
//! schema of the PostgreSQL server named by `CAIRN_TEST_DATABASE_URL`), the whole HTTP
//! application over it, and a small client that speaks to it in XML or JSON. Server-Sent
//! Events are read in `stream`, the database straight in `db` (and through a proxy that can
//! stop, `proxy`), the storage tests' S3 server
//! lives in `s3`, Varnish and the app served over TCP for the tests behind it in `varnish`,
//! and table-driven request checks in `tables`; all of it is reachable as
//! `crate::support::*`.

mod db;
mod proxy;
mod s3;
mod stream;
mod tables;
mod varnish;

pub use proxy::*;
pub use s3::*;
// `Streamed` is named by no test today, only returned by `Req::open`.
#[allow(unused_imports)]
pub use stream::*;
pub use tables::*;
pub use varnish::*;

use cairn::config::{Cli, Command};
use cairn_runtime::xml::XmlElement;
use cairn_store::scratch::ScratchDb;
use clap::Parser;
use poem::http::{HeaderMap, Method, StatusCode};
use poem::{Endpoint, EndpointExt, Request};
use serde_json::Value;

pub const PREFIX: &str = "/api/ibexa/v2";
pub const ADMIN: (&str, &str) = ("admin", "publish");

/// A request body of the reference's examples, copied into `tests/http/examples/` under the
/// reference's own path (`user/roles/POST/RoleInput.xml.example`).
pub fn reference_example(path: &str) -> String {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/http/examples")
        .join(path);
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// The application under test over its own database.
pub struct TestApp {
    endpoint: poem::endpoint::BoxEndpoint<'static, poem::Response>,
    /// The service under the app, for tests that set up or inspect data directly.
    pub service: std::sync::Arc<cairn::mount::Services>,
    /// The scratch database, owned by the first instance over it.
    db: Option<ScratchDb>,
    url: String,
}

pub use cairn_store::scratch::backend;

/// A free address on the loopback for a server a test starts, bound later. Below the range the
/// system takes the ports of outgoing connections from (32768 and up on Linux), so that none
/// of the suite's own connections takes it in between (a port the system chose, let go, was
/// once taken by one before the test bound it); each handed out once in a run, and checked
/// free by binding it (a server of the machine may hold it).
pub fn free_addr() -> std::net::SocketAddr {
    use std::sync::atomic::{AtomicU32, Ordering};
    const FIRST: u32 = 20_000;
    const PORTS: u32 = 12_000;
    static NEXT: AtomicU32 = AtomicU32::new(0);
    // Runs of the suite side by side (each its own process) start at different ports.
    let start = std::process::id().wrapping_mul(7919);
    for _ in 0..PORTS {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let port = FIRST + start.wrapping_add(n) % PORTS;
        if let Ok(addr) =
            std::net::TcpListener::bind(("127.0.0.1", port as u16)).and_then(|l| l.local_addr())
        {
            return addr;
        }
    }
    panic!("no free port from {FIRST} to {}", FIRST + PORTS - 1);
}

/// A statement SQLite's commit mark saves (the generation of a kept answer, a known login's
/// account): one on PostgreSQL, none on SQLite while no commit has changed the mark.
pub fn marked_cost() -> u64 {
    match backend() {
        "postgres" => 1,
        _ => 0,
    }
}

impl TestApp {
    pub async fn new() -> TestApp {
        Self::with_args(&[]).await
    }

    /// The app with extra `cairn serve` options.
    pub async fn with_args(extra: &[&str]) -> TestApp {
        let db = ScratchDb::new().await;
        let mut app = Self::over(&db.url, extra).await;
        app.db = Some(db);
        app
    }

    /// The app over a scratch database a test prepared first (a migration's target).
    pub async fn over_scratch(db: ScratchDb, extra: &[&str]) -> TestApp {
        let mut app = Self::over(&db.url, extra).await;
        app.db = Some(db);
        app
    }

    /// A second server instance over the same database (as behind a load balancer).
    pub async fn another_instance(&self) -> TestApp {
        Self::over(&self.url, &[]).await
    }

    /// Another instance over the same database, with extra `cairn serve` options.
    pub async fn another_instance_with(&self, extra: &[&str]) -> TestApp {
        Self::over(&self.url, extra).await
    }

    /// Another instance over the same database reached at `url` (a proxy's), with extra
    /// `cairn serve` options.
    pub async fn another_instance_at(&self, url: &str, extra: &[&str]) -> TestApp {
        Self::over(url, extra).await
    }

    /// The URL of its database.
    pub fn url(&self) -> &str {
        &self.url
    }

    async fn over(url: &str, extra: &[&str]) -> TestApp {
        let mut args = vec!["cairn", "serve", "--database-url", url];
        if !extra.contains(&"--db-pool") {
            args.extend(["--db-pool", "4"]);
        }
        args.extend_from_slice(extra);
        let Command::Serve(serve) = Cli::parse_from(args).command else {
            unreachable!()
        };
        let (service, settings) = cairn::setup(&serve).await.expect("setup");
        TestApp {
            endpoint: cairn::app::app(service.clone(), settings).boxed(),
            service,
            db: None,
            url: url.to_string(),
        }
    }

    /// A request to `path` under the prefix (or an absolute path starting with the prefix).
    pub fn req(&self, method: &str, path: &str) -> Req<'_> {
        self.abs(method, &format!("{PREFIX}{path}"))
    }

    /// Puts content item `id` in Section `section` (a metadata PATCH as admin; 200).
    pub async fn set_section(&self, id: i64, section: i64) {
        let to = format!("{PREFIX}/content/sections/{section}");
        (self.req("PATCH", &format!("/content/objects/{id}")).admin())
            .json_body(
                "ContentUpdate",
                serde_json::json!({"Section": {"_href": to}}),
            )
            .send()
            .await
            .assert(200);
    }

    /// `MOVE` of the Location at path `a` (`1/2/54`) under the one at `b`, as admin.
    pub fn move_to(&self, a: &str, b: &str) -> Req<'_> {
        self.req("MOVE", &format!("/content/locations/{a}"))
            .admin()
            .header("destination", &format!("{PREFIX}/content/locations/{b}"))
    }

    /// A SWAP, as admin, of the Locations at `a` and `b` (paths such as `1/2/54`).
    pub fn swap(&self, a: &str, b: &str) -> Req<'_> {
        self.req("SWAP", &format!("/content/locations/{a}"))
            .admin()
            .header("destination", &format!("{PREFIX}/content/locations/{b}"))
    }

    /// A request to exactly `uri` (outside the default prefix).
    pub fn abs(&self, method: &str, uri: &str) -> Req<'_> {
        let uri = uri.to_string();
        Req {
            app: self,
            method: Method::from_bytes(method.as_bytes()).expect("method"),
            uri,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    pub fn get(&self, path: &str) -> Req<'_> {
        self.req("GET", path)
    }

    /// Logs in as admin and returns (cookie header value, CSRF token).
    pub async fn login(&self) -> (String, String) {
        self.login_as(ADMIN.0, ADMIN.1).await
    }

    /// Logs in as `login` (201) and returns (cookie header value, CSRF token).
    pub async fn login_as(&self, login: &str, password: &str) -> (String, String) {
        let r = self
            .req("POST", "/user/sessions")
            .json_body(
                "SessionInput",
                serde_json::json!({"login": login, "password": password}),
            )
            .accept("Session+json")
            .send()
            .await;
        r.assert(201);
        let cookie = r.header("set-cookie").expect("cookie");
        let pair = cookie.split(';').next().unwrap().to_string();
        let token = r.json()["Session"]["csrfToken"]
            .as_str()
            .unwrap()
            .to_string();
        (pair, token)
    }
}

impl TestApp {
    /// A JSON Web Token for `login` (`POST /user/token/jwt`, 200).
    pub async fn token_as(&self, login: &str, password: &str) -> String {
        let r = self
            .req("POST", "/user/token/jwt")
            .json_body(
                "JWTInput",
                serde_json::json!({"username": login, "password": password}),
            )
            .accept("JWT+json")
            .send()
            .await;
        r.assert(200);
        r.json()["JWT"]["token"].as_str().unwrap().to_string()
    }
}

/// A request under construction.
pub struct Req<'a> {
    app: &'a TestApp,
    method: Method,
    uri: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Req<'_> {
    pub fn header(mut self, k: &str, v: &str) -> Self {
        self.headers.push((k.to_string(), v.to_string()));
        self
    }

    /// `Accept: application/vnd.ibexa.api.<media>` (e.g. `Section+json`).
    pub fn accept(self, media: &str) -> Self {
        self.header("accept", &format!("application/vnd.ibexa.api.{media}"))
    }

    pub fn admin(self) -> Self {
        self.basic(ADMIN.0, ADMIN.1)
    }

    /// HTTP Basic credentials.
    pub fn basic(self, login: &str, password: &str) -> Self {
        use base64::Engine;
        let v = base64::engine::general_purpose::STANDARD.encode(format!("{login}:{password}"));
        self.header("authorization", &format!("Basic {v}"))
    }

    /// `Authorization: Bearer <token>` (a JSON Web Token).
    pub fn bearer(self, token: &str) -> Self {
        self.header("authorization", &format!("Bearer {token}"))
    }

    /// A JSON body `{"<input>": value}` with the input's content type.
    pub fn json_body(mut self, input: &str, value: Value) -> Self {
        self.body = serde_json::to_vec(&serde_json::json!({ input: value })).unwrap();
        self.header(
            "content-type",
            &format!("application/vnd.ibexa.api.{input}+json"),
        )
    }

    /// An XML body with the input's content type.
    pub fn xml_body(mut self, input: &str, xml: &str) -> Self {
        self.body = xml.as_bytes().to_vec();
        self.header(
            "content-type",
            &format!("application/vnd.ibexa.api.{input}+xml"),
        )
    }

    pub fn raw_body(self, content_type: &str, body: &str) -> Self {
        self.bytes_body(content_type, body.as_bytes().to_vec())
    }

    pub fn bytes_body(mut self, content_type: &str, body: Vec<u8>) -> Self {
        self.body = body;
        self.header("content-type", content_type)
    }

    pub async fn send(self) -> Resp {
        let mut b = Request::builder().method(self.method).uri_str(&self.uri);
        for (k, v) in &self.headers {
            b = b.header(k.as_str(), v.as_str());
        }
        let req = b.body(self.body);
        let resp = self.app.endpoint.get_response(req).await;
        let status = resp.status();
        let headers = resp.headers().clone();
        let bytes = resp.into_body().into_bytes().await.expect("body").to_vec();
        let r = Resp {
            status,
            headers,
            body: String::from_utf8_lossy(&bytes).into_owned(),
            bytes,
        };
        keep_xml_body(&r);
        r
    }
}

/// Sends each request of a table in order and asserts the status beside it (an error status
/// with an `ErrorMessage` that says something), naming the row that failed.
pub async fn expect_all(table: Vec<(Req<'_>, u16)>) {
    for (row, (req, status)) in table.into_iter().enumerate() {
        let what = format!("row {row}: {} {}", req.method, req.uri);
        let r = req.send().await;
        assert_eq!(r.status.as_u16(), status, "{what}: {}", r.body);
        if status >= 400 {
            assert!(!r.assert_error(status).is_empty(), "{what}: no message");
        }
    }
}

/// The id at the end of a path or href (`/api/ibexa/v2/content/locations/1/2/54` is 54).
pub fn last_id(path: &str) -> i64 {
    path.rsplit('/').next().unwrap().parse().unwrap()
}

/// The items of a list representation in JSON (`json[list][item]`); none when absent.
pub fn items(json: &Value, list: &str, item: &str) -> Vec<Value> {
    json[list][item].as_array().cloned().unwrap_or_default()
}

/// Each item's integer `id` and text `text`, as pairs: a list as a table.
pub fn id_and(items: &[Value], id: &str, text: &str) -> Vec<(i64, String)> {
    items
        .iter()
        .map(|i| {
            let n = i[id].as_i64().unwrap_or_else(|| panic!("{id} of {i}"));
            let t = i[text].as_str().unwrap_or_else(|| panic!("{text} of {i}"));
            (n, t.to_string())
        })
        .collect()
}

/// With `CAIRN_XML_BODIES` set to a directory, keeps every XML body of an API media type
/// there as `<Type>/<n>.xml`, for CI to validate against the reference's schemas
/// (`.ci/xml-schemas`).
fn keep_xml_body(r: &Resp) {
    let Ok(dir) = std::env::var("CAIRN_XML_BODIES") else {
        return;
    };
    if r.bytes.is_empty() {
        return;
    }
    let media = r.content_type();
    let Some(ty) = media
        .split(';')
        .next()
        .and_then(|m| m.strip_suffix("+xml"))
        .and_then(|m| m.rsplit(".api.").next().filter(|_| m.contains(".api.")))
    else {
        return;
    };
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::path::Path::new(&dir).join(ty);
    std::fs::create_dir_all(&dir).expect("the XML bodies directory");
    let name = format!("{}-{n}.xml", std::process::id());
    std::fs::write(dir.join(name), &r.bytes).expect("an XML body written");
}

/// A response.
#[derive(Debug)]
pub struct Resp {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
    pub bytes: Vec<u8>,
}

impl Resp {
    /// Asserts the status, showing the body when it differs.
    pub fn assert(&self, status: u16) -> &Self {
        assert_eq!(
            self.status.as_u16(),
            status,
            "[{}] unexpected status; body: {}",
            backend(),
            self.body
        );
        self
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
    }

    pub fn content_type(&self) -> String {
        self.header("content-type").unwrap_or_default()
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    pub fn xml(&self) -> XmlElement {
        XmlElement::parse(&self.body).unwrap_or_else(|e| panic!("not XML ({e}): {}", self.body))
    }

    /// Asserts an `ErrorMessage` with this code in the format of the content type.
    pub fn assert_error(&self, status: u16) -> String {
        self.assert(status);
        let ct = self.content_type();
        assert!(
            ct.starts_with("application/vnd.") && ct.contains(".api.ErrorMessage+"),
            "content type {ct}"
        );
        if ct.ends_with("+json") {
            let j = self.json();
            assert_eq!(j["ErrorMessage"]["errorCode"], status);
            j["ErrorMessage"]["errorDescription"]
                .as_str()
                .unwrap()
                .to_string()
        } else {
            let x = self.xml();
            assert_eq!(x.name, "ErrorMessage");
            assert_eq!(child_text(&x, "errorCode"), status.to_string());
            child_text(&x, "errorDescription")
        }
    }
}

/// The text of the child element `name`.
pub fn child_text(el: &XmlElement, name: &str) -> String {
    el.children
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("<{}> has no <{name}>", el.name))
        .text
        .clone()
}

/// The value of attribute `name`.
pub fn attr(el: &XmlElement, name: &str) -> String {
    el.attrs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| panic!("<{}> has no attribute {name}", el.name))
}

/// Creates a content item from a `ContentCreate` body (JSON) as admin; the `Content` of the
/// 201 answer, in JSON.
pub async fn create_content(app: &TestApp, body: Value) -> Value {
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("Content+json")
        .json_body("ContentCreate", body)
        .send()
        .await;
    r.assert(201);
    r.json()["Content"].clone()
}

/// The Field `identifier` of the current version of a JSON `Content` body.
pub fn field_of<'a>(content: &'a Value, identifier: &str) -> &'a Value {
    content["CurrentVersion"]["Version"]["Fields"]["field"]
        .as_array()
        .expect("a Content body with its fields")
        .iter()
        .find(|f| f["fieldDefinitionIdentifier"] == identifier)
        .unwrap_or_else(|| panic!("no field {identifier}"))
}
