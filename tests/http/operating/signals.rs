//! Servers started through the binary and stopped under load: SIGTERM cuts no request (on
//! SQLite and PostgreSQL), and `kill -9` under writes loses no acknowledged item.

use crate::support::*;

/// The server binary on `database_url`, listening on a free port of the loopback, once it
/// accepts connections; and its address.
fn start_server(database_url: &str, dir: &std::path::Path) -> (std::process::Child, String) {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let addr = free_addr().to_string();
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
    let (mut server, addr) = start_server(&url, dir.path());
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
    let (mut server, _) = start_server(&db.url, dir.path());
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
    let (mut server, addr) = start_server(&db.url, dir.path());
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
    // Killed once more than 20 items are acknowledged (at most 30 s: a loaded machine is slow),
    // while the writers keep going.
    let started = std::time::Instant::now();
    while acknowledged.lock().unwrap().len() <= 20 && started.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(200));
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
    let (mut server, addr) = start_server(&db.url, dir.path());
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
