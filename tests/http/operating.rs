//! Operating cairn (issue 15): `/health`, `/ready`, `/metrics`, and the operator's commands on
//! the test database (`cairn user password`, `language`, `check`, `backup`), in-process and
//! through the binary.

use crate::support::*;
use serde_json::json;

#[tokio::test]
async fn health_ready_and_metrics_answer_outside_the_prefix() {
    let app = TestApp::new().await;
    let r = app.abs("GET", "/health").send().await;
    r.assert(200);
    assert_eq!(r.json()["status"], "ok");
    let r = app.abs("GET", "/ready").send().await;
    r.assert(200);
    assert_eq!(r.json()["status"], "ready");
    app.get("/content/sections/1")
        .admin()
        .send()
        .await
        .assert(200);
    app.get("/content/sections/999")
        .admin()
        .send()
        .await
        .assert_error(404);
    let r = app.abs("GET", "/metrics").send().await;
    r.assert(200);
    let text = r.body;
    for want in [
        r#"cairn_http_requests_total{operation="loadSection",status="200"}"#,
        r#"cairn_http_requests_total{operation="loadSection",status="404"}"#,
        r#"cairn_http_request_duration_seconds_bucket{operation="loadSection",le="0.005"}"#,
        "cairn_db_statements_per_request_bucket",
        "cairn_response_cache_bytes",
        "cairn_db_pool_connections",
        r#"cairn_cache_total{cache="permissions",result="hit"}"#,
    ] {
        assert!(text.contains(want), "{want} missing from:\n{text}");
    }
}

#[tokio::test]
async fn metrics_can_be_turned_off_here() {
    let app = TestApp::with_args(&["--metrics", "off"]).await;
    app.abs("GET", "/metrics").send().await.assert_error(404);
    app.abs("GET", "/health").send().await.assert(200);
}

#[tokio::test]
async fn a_new_password_works_at_once_and_ends_the_sessions() {
    let app = TestApp::new().await;
    let (cookie, token) = app.login().await;
    cairn::admin::set_password(&app.service.db, "admin", "Recovered-123")
        .await
        .unwrap();
    app.get("/user/current")
        .admin()
        .send()
        .await
        .assert_error(401);
    app.get("/user/current")
        .basic("admin", "Recovered-123")
        .send()
        .await
        .assert(307);
    // The admin's session is gone.
    app.req("POST", "/content/sections")
        .header("cookie", &cookie)
        .header("x-csrf-token", &token)
        .json_body("SectionInput", json!({"identifier": "s", "name": "S"}))
        .send()
        .await
        .assert_error(401);
    let e = cairn::admin::set_password(&app.service.db, "nobody", "Whatever-123").await;
    assert!(e.unwrap_err().to_string().contains("no user"));
    let e = cairn::admin::set_password(&app.service.db, "admin", "short").await;
    assert!(e.unwrap_err().to_string().contains("8 characters"));
}

#[tokio::test]
async fn languages_are_added_and_listed() {
    let app = TestApp::new().await;
    cairn::admin::add_language(&app.service.db, "pol-PL", "Polish")
        .await
        .unwrap();
    let all = cairn::admin::languages(&app.service.db).await.unwrap();
    assert!(
        all.iter()
            .any(|(c, n, on)| c == "pol-PL" && n == "Polish" && *on)
    );
    assert!(
        cairn::admin::add_language(&app.service.db, "pol-PL", "Polish")
            .await
            .is_err()
    );
    assert!(
        cairn::admin::add_language(&app.service.db, "polish", "Polish")
            .await
            .is_err()
    );
    // The API sees it at once.
    app.get("/languages/pol-PL").send().await.assert(200);
}

#[tokio::test]
async fn check_reports_what_is_out_of_step() {
    let app = TestApp::new().await;
    assert_eq!(cairn::admin::check(&app.service.db).await.unwrap(), vec![]);
    app.sql("UPDATE locations SET depth = 7 WHERE id = 43", vec![])
        .await;
    app.sql(
        "INSERT INTO bookmarks (user_id, location_id, created) VALUES (14, 999, 0)",
        vec![],
    )
    .await;
    let problems = cairn::admin::check(&app.service.db).await.unwrap();
    let checks: Vec<&str> = problems.iter().map(|p| p.check).collect();
    assert!(checks.iter().any(|c| c.contains("depths")), "{problems:?}");
    assert!(
        checks.iter().any(|c| c.contains("bookmarks")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.first.contains(&"43".to_string())),
        "{problems:?}"
    );
}

#[tokio::test]
async fn backup_copies_sqlite_and_names_pg_dump_for_postgresql() {
    let app = TestApp::new().await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("backup.db");
    let r = cairn::admin::backup(&app.service.db, &file).await;
    if backend() == "postgres" {
        assert!(r.unwrap_err().to_string().contains("pg_dump"));
        return;
    }
    r.unwrap();
    // The copy opens as a cairn database with the same content.
    let copy = cairn_store::Db::open(&cairn_store::DbOptions {
        statement_timeout: None,
        url: format!("sqlite://{}", file.display()),
        max_connections: 1,
    })
    .await
    .unwrap();
    assert!(cairn::admin::check(&copy).await.unwrap().is_empty());
    let n: i64 = {
        use sea_orm::ConnectionTrait;
        copy.conn()
            .query_one_raw(cairn_store::sql::stmt(
                copy.backend(),
                "SELECT COUNT(*) FROM locations",
                [],
            ))
            .await
            .unwrap()
            .unwrap()
            .try_get_by_index(0)
            .unwrap()
    };
    assert!(n > 10);
    // An existing file is never overwritten.
    assert!(cairn::admin::backup(&app.service.db, &file).await.is_err());
}

/// The binary's commands, with their exit codes, on a SQLite file.
#[test]
fn the_commands_run_from_the_command_line() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("c.db").display());
    let cairn = env!("CARGO_BIN_EXE_cairn");
    let run = |args: &[&str]| {
        Command::new(cairn)
            .args(args)
            .args(["--database-url", &url])
            .output()
            .unwrap()
    };
    let out = run(&["check"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["language", "add", "ger-DE", "German"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["language", "list"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("ger-DE\tGerman"));
    let mut child = Command::new(cairn)
        .args(["user", "password", "admin", "--database-url", &url])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"From-stdin-123\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let backup = dir.path().join("b.db");
    let out = run(&["backup", backup.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(backup.exists());
    for help in [
        &["user", "password", "--help"][..],
        &["check", "--help"],
        &["backup", "--help"],
    ] {
        assert!(
            Command::new(cairn)
                .args(help)
                .output()
                .unwrap()
                .status
                .success()
        );
    }
}

/// The server binary on `database_url`, listening on a port of this process's (`shift` tells
/// the tests apart), once it accepts connections; and its address.
fn start_server(
    database_url: &str,
    dir: &std::path::Path,
    shift: u32,
) -> (std::process::Child, String) {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let port = 20000 + ((std::process::id() + shift) % 20000) as u16;
    let addr = format!("127.0.0.1:{port}");
    let server = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args([
            "serve",
            "--listen",
            &addr,
            "--log",
            "warn",
            "--database-url",
            database_url,
        ])
        .arg("--storage-dir")
        .arg(dir.join("storage"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::net::TcpStream::connect(&addr).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the server did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (server, addr)
}

/// SIGTERM under load: the server stops accepting, every request it had started gets its
/// whole response, and the process exits 0.
#[test]
fn sigterm_under_load_cuts_no_request() {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    use std::process::Command;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("c.db").display());
    let (mut server, addr) = start_server(&url, dir.path(), 0);
    let started = Instant::now();
    // When SIGTERM was sent (ms after `started`; 0 while not yet).
    let signalled = Arc::new(std::sync::atomic::AtomicU64::new(0));
    // One request on its own connection: the status, or None when the connection was
    // refused or closed, without an answer, after the signal; a request sent well before the
    // signal that gets no whole answer panics.
    let request = move |addr: &str,
                        login: bool,
                        signalled: &std::sync::atomic::AtomicU64|
          -> Option<u16> {
        let mut s = TcpStream::connect(addr).ok()?;
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let body = r#"{"SessionInput": {"login": "admin", "password": "publish"}}"#;
        let text = if login {
            format!(
                "POST /api/ibexa/v2/user/sessions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
                 Content-Type: application/vnd.ibexa.api.SessionInput+json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
        } else {
            "GET /api/ibexa/v2/content/locations/1/2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_string()
        };
        s.write_all(text.as_bytes()).ok()?;
        let sent = started.elapsed().as_millis() as u64;
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        if answer.is_empty() {
            let at = signalled.load(Ordering::SeqCst);
            assert!(
                at != 0 && sent + 50 > at,
                "a request sent at {sent} ms was dropped (signal at {at} ms)"
            );
            return None;
        }
        let text = String::from_utf8_lossy(&answer);
        let (head, body) = text.split_once("\r\n\r\n").expect("a whole head");
        let length: usize = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().parse().unwrap())
            })
            .expect("a Content-Length");
        assert_eq!(body.len(), length, "a cut answer: {text}");
        Some(head[9..12].parse().unwrap())
    };
    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = (0..8)
        .map(|i| {
            let (stop, answered, addr) = (stop.clone(), answered.clone(), addr.clone());
            let signalled = signalled.clone();
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    match request(&addr, i % 2 == 0, &signalled) {
                        Some(status) => {
                            assert!(status < 500, "status {status}");
                            answered.fetch_add(1, Ordering::Relaxed);
                        }
                        None => break,
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(700));
    signalled.store(started.elapsed().as_millis() as u64, Ordering::SeqCst);
    Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, Ordering::Relaxed);
    for w in workers {
        w.join().expect("no request was cut");
    }
    assert!(answered.load(Ordering::Relaxed) > 0);
    let status = server.wait().unwrap();
    assert!(status.success(), "{status}");
}

/// A browser on `/` gets a page that leads to the API and its OpenAPI document (issue 15).
#[tokio::test]
async fn the_front_page_links_to_the_api() {
    let app = TestApp::new().await;
    let r = app.abs("GET", "/").send().await;
    r.assert(200);
    assert!(r.content_type().starts_with("text/html"));
    assert!(r.body.contains(r#"href="/api/ibexa/v2/""#), "{}", r.body);
    assert!(r.body.contains(r#"href="/api/ibexa/v2/openapi.json""#));
    assert_eq!(
        r.header("x-content-type-options").as_deref(),
        Some("nosniff")
    );
    assert!(
        r.header("content-security-policy")
            .unwrap()
            .contains("default-src 'none'")
    );
    // The links work.
    app.abs("GET", "/api/ibexa/v2/openapi.json")
        .send()
        .await
        .assert(200);
    app.abs("GET", "/api/ibexa/v2/").send().await.assert(200);
}

/// The API reference and the content browser are pages of their own, with their scripts
/// embedded in the server (nothing from elsewhere); `.ci/browser` drives them in Chromium.
#[tokio::test]
async fn the_reference_and_the_content_browser_are_served_with_their_scripts() {
    let app = TestApp::new().await;
    let front = app.abs("GET", "/").send().await;
    for link in [
        r#"href="browse""#,
        r#"href="reference""#,
        r#"href="/api/ezp/v2/""#,
    ] {
        assert!(front.body.contains(link), "{link}: {}", front.body);
    }
    let r = app.abs("GET", "/reference").send().await;
    r.assert(200);
    assert!(
        r.body
            .contains(r#"<redoc spec-url="/api/ibexa/v2/openapi.json""#)
    );
    assert!(
        r.body
            .contains(r#"<script src="assets/redoc.standalone.js">"#)
    );
    let r = app.abs("GET", "/browse").send().await;
    r.assert(200);
    assert!(
        r.body
            .contains(r#"data-api="/api/ibexa/v2" data-vendor="ibexa""#)
    );
    let csp = r.header("content-security-policy").unwrap();
    assert!(
        csp.contains("script-src 'self'") && csp.contains("connect-src 'self'"),
        "{csp}"
    );
    for (asset, inside) in [
        ("redoc.standalone.js", "Redoc"),
        ("browse.js", "content browser"),
    ] {
        let r = app.abs("GET", &format!("/assets/{asset}")).send().await;
        r.assert(200);
        assert!(r.content_type().starts_with("text/javascript"));
        assert!(r.body.contains(inside));
        assert!(
            !r.body.contains("cdn.redoc.ly"),
            "{asset} loads from elsewhere"
        );
    }
    app.abs("GET", "/assets/nothing.js")
        .send()
        .await
        .assert(404);
    let r = app.abs("GET", "/favicon.svg").send().await;
    r.assert(200);
    assert_eq!(r.content_type(), "image/svg+xml");
}

fn import_line(name: &str) -> String {
    let body = serde_json::json!({"ContentCreate": {
        "ContentType": {"_href": "/api/ibexa/v2/content/types/1"},
        "mainLanguageCode": "eng-GB",
        "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
        "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": name}]}
    }});
    format!("{body}\n")
}

pub(crate) async fn import(
    app: &TestApp,
    text: &str,
    login: &str,
) -> (anyhow::Result<usize>, Vec<usize>) {
    let dialect = std::sync::Arc::new(cairn_runtime::http::Settings {
        wire: cairn_runtime::media::Wire::new("ibexa", "/api/ibexa/v2"),
        cors_origins: vec![],
        max_body: 1 << 20,
    });
    let how = cairn::admin::Import {
        login: login.into(),
        batch: 2,
        publish: true,
    };
    let mut seen = Vec::new();
    let n = cairn::admin::import(&app.service, dialect, text.as_bytes(), &how, |n| {
        seen.push(n)
    })
    .await;
    (n, seen)
}

/// `cairn import` (issue 14): JSON Lines of ContentCreate bodies, published, a transaction per
/// batch; a bad line stops the import, names the line and rolls its batch back; the user it
/// acts as needs the Policies the API would ask for.
#[tokio::test]
async fn import_creates_and_publishes_in_batches_and_stops_at_a_bad_line() {
    let app = TestApp::new().await;
    let children = async || {
        let r = app
            .get("/content/locations/1/2/children")
            .admin()
            .accept("LocationList+json")
            .send()
            .await;
        r.json()["LocationList"]["Location"]
            .as_array()
            .unwrap()
            .len()
    };
    // Blank lines are skipped.
    let text = [
        import_line("One"),
        import_line("Two"),
        "\n".into(),
        import_line("Three"),
    ]
    .concat();
    let (n, seen) = import(&app, &text, "admin").await;
    assert_eq!(n.unwrap(), 3);
    assert_eq!(seen, [2, 3]);
    assert_eq!(children().await, 3);
    // Every item of a batch is in the full-text index (its documents are written last in the
    // batch's transaction), and none of a batch rolled back.
    let found = async |word: &str| {
        let query = json!({"identifier": "ft", "ContentQuery": {
            "Query": {"FullTextCriterion": word}}});
        crate::views::view(&app, query).await["Result"]["count"].clone()
    };
    for word in ["One", "Two", "Three"] {
        assert_eq!(found(word).await, 1, "{word}");
    }
    let r = app
        .get("/content/locations/1/2/children")
        .accept("LocationList+json")
        .send()
        .await;
    r.assert(200);

    // Batch 1 (lines 1-2) stays; line 4 fails, so batch 2 (lines 3-4) goes.
    let bad = import_line("Bad").replace("\"name\"", "\"no_such_field\"");
    let text = [
        import_line("Four"),
        import_line("Five"),
        import_line("Six"),
        bad,
    ]
    .concat();
    let (n, seen) = import(&app, &text, "admin").await;
    let e = n.unwrap_err().to_string();
    assert!(e.starts_with("line 4: "), "{e}");
    assert_eq!(seen, [2]);
    assert_eq!(children().await, 5);
    assert_eq!(found("Five").await, 1);
    assert_eq!(found("Six").await, 0);
    let (n, _) = import(&app, "{\"ContentCreate\": 1}\n", "admin").await;
    assert!(n.unwrap_err().to_string().starts_with("line 1: "));

    // The anonymous user may not create content; nobody is no one.
    let (n, seen) = import(&app, &import_line("Seven"), "anonymous").await;
    assert!(n.is_err() && seen.is_empty());
    let (n, _) = import(&app, &import_line("Seven"), "nobody").await;
    assert!(n.unwrap_err().to_string().contains("nobody"));
    assert_eq!(children().await, 5);
}

/// On PostgreSQL, SIGTERM ends the server too: the connection that listens for the other
/// instances' changes goes when the pool closes (it used to keep `close` waiting for ever).
#[tokio::test]
async fn sigterm_ends_a_server_on_postgresql() {
    use std::process::Command;
    use std::time::{Duration, Instant};
    if backend() != "postgres" {
        return;
    }
    let db = cairn_store::scratch::ScratchDb::new().await;
    let dir = tempfile::tempdir().unwrap();
    let (mut server, _) = start_server(&db.url, dir.path(), 7919);
    Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    let signalled = Instant::now();
    let status = loop {
        if let Some(status) = server.try_wait().unwrap() {
            break status;
        }
        if signalled.elapsed() > Duration::from_secs(15) {
            server.kill().unwrap();
            panic!("the server did not stop within 15 s of SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
}

/// One HTTP/1.1 request on a connection of its own, as admin (HTTP Basic); `None` when the
/// server does not answer (it was killed).
fn basic_request(
    addr: &str,
    method: &str,
    path: &str,
    json: Option<(&str, &str)>,
) -> Option<(u16, String)> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).ok()?;
    let (content_type, body) = json.unwrap_or(("", ""));
    let mut head = format!(
        "{method} /api/ibexa/v2{path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Authorization: Basic YWRtaW46cHVibGlzaA==\r\nAccept: application/vnd.ibexa.api.Content+json\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    if !content_type.is_empty() {
        head.push_str(&format!(
            "Content-Type: application/vnd.ibexa.api.{content_type}+json\r\n"
        ));
    }
    s.write_all(format!("{head}\r\n{body}").as_bytes()).ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    let status = out.get(9..12)?.parse().ok()?;
    Some((status, out.split_once("\r\n\r\n")?.1.to_string()))
}

/// `kill -9` under a load of creates and publications: after a restart every item whose
/// publication was acknowledged is there, published (a commit is durable once answered).
#[test]
fn kill_9_under_writes_loses_no_acknowledged_item() {
    use std::process::Command;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;
    let rt = tokio::runtime::Runtime::new().unwrap();
    let db = rt.block_on(cairn_store::scratch::ScratchDb::new());
    let dir = tempfile::tempdir().unwrap();
    let (mut server, addr) = start_server(&db.url, dir.path(), 7307);
    let create = serde_json::json!({"ContentCreate": {
        "ContentType": {"_href": "/api/ibexa/v2/content/types/1"},
        "mainLanguageCode": "eng-GB",
        "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
        "Section": {"_href": "/api/ibexa/v2/content/sections/1"},
        "fields": {"field": [{"fieldDefinitionIdentifier": "name", "languageCode": "eng-GB",
            "fieldValue": "Durable"}]}
    }})
    .to_string();
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = (0..4)
        .map(|_| {
            let (addr, create, acknowledged) = (addr.clone(), create.clone(), acknowledged.clone());
            std::thread::spawn(move || {
                loop {
                    let Some((201, body)) = basic_request(
                        &addr,
                        "POST",
                        "/content/objects",
                        Some(("ContentCreate", &create)),
                    ) else {
                        return;
                    };
                    let body: serde_json::Value = serde_json::from_str(&body).unwrap();
                    let id = body["Content"]["_id"].as_i64().unwrap();
                    let path = format!("/content/objects/{id}/versions/1");
                    match basic_request(&addr, "PUBLISH", &path, None) {
                        Some((204, _)) => acknowledged.lock().unwrap().push(id),
                        _ => return,
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1500));
    Command::new("kill")
        .args(["-KILL", &server.id().to_string()])
        .status()
        .unwrap();
    server.wait().unwrap();
    for w in workers {
        w.join().unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(
        acknowledged.len() > 20,
        "only {} items written",
        acknowledged.len()
    );
    let (mut server, addr) = start_server(&db.url, dir.path(), 7311);
    for id in &acknowledged {
        let (status, body) = basic_request(&addr, "GET", &format!("/content/objects/{id}"), None)
            .expect("the restarted server answers");
        assert_eq!(status, 200, "item {id} acknowledged, then lost: {body}");
        let body: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["Content"]["status"], "PUBLISHED", "item {id}");
    }
    server.kill().unwrap();
    server.wait().unwrap();
}
