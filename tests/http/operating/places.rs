//! Where a server started without options keeps its files (issue 47): the database and the
//! uploaded files under `var/` of the directory it runs in, a `./cairn.db` of an older
//! version still used (and said so), and nothing beside the database after a clean stop:
//! SQLite's `-wal` and `-shm` files are checkpointed and removed.

use crate::support::*;
use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// A server process, killed when dropped unstopped (a failing test leaves none behind).
struct Server(Option<Child>);

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// `cairn serve` run in `dir` with `args` (no database or storage option from the
/// environment), listening on a free port of the loopback, its
/// log (standard output and error) in `dir/server.log`; once it accepts connections.
fn serve_in(dir: &Path, args: &[&str]) -> (Server, String) {
    let addr = free_addr().to_string();
    let log = std::fs::File::create(dir.join("server.log")).unwrap();
    let server = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .current_dir(dir)
        .args(["serve", "--listen", &addr, "--log", "info"])
        .args(args)
        .env_remove("DATABASE_URL")
        .env_remove("CAIRN_STORAGE_DIR")
        .env_remove("CAIRN_STORAGE_URL")
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap();
    let server = Server(Some(server));
    let started = Instant::now();
    while std::net::TcpStream::connect(&addr).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the server did not start: {}",
            std::fs::read_to_string(dir.join("server.log")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (server, addr)
}

/// SIGTERM, then the exit, which must be a success within 15 s.
fn stop(mut server: Server) {
    let mut server = server.0.take().expect("a running server");
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

/// One request as admin (HTTP Basic) with a JSON body, or none; (status, body).
fn request(addr: &str, method: &str, path: &str, body: Option<(&str, &str)>) -> (u16, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    let (input, body) = body.unwrap_or(("", ""));
    let mut head = format!(
        "{method} /api/ibexa/v2{path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Authorization: Basic YWRtaW46cHVibGlzaA==\r\nAccept: application/vnd.ibexa.api.Section+json\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    if !input.is_empty() {
        head.push_str(&format!(
            "Content-Type: application/vnd.ibexa.api.{input}+json\r\n"
        ));
    }
    s.write_all(format!("{head}\r\n{body}").as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out[9..12].parse().unwrap();
    (status, out.split_once("\r\n\r\n").unwrap().1.to_string())
}

/// Creates the Section `identifier` (201).
fn create_section(addr: &str, identifier: &str) {
    let body = format!(r#"{{"SectionInput": {{"identifier": "{identifier}", "name": "N"}}}}"#);
    let (status, answer) = request(
        addr,
        "POST",
        "/content/sections",
        Some(("SectionInput", &body)),
    );
    assert_eq!(status, 201, "{answer}");
}

/// Whether the Section `identifier` is there.
fn has_section(addr: &str, identifier: &str) -> bool {
    let (status, body) = request(
        addr,
        "GET",
        &format!("/content/sections?identifier={identifier}"),
        None,
    );
    status == 200 && body.contains(identifier)
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Without options the database and the uploads go under `var/`; after a write and a clean
/// stop only the database file is left there (no `-wal`, no `-shm`), and it holds the write.
#[test]
fn a_server_without_options_keeps_its_files_in_var_and_leaves_no_wal_behind() {
    if backend() != "sqlite" {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (server, addr) = serve_in(dir.path(), &[]);
    let var = dir.path().join("var");
    assert!(var.join("cairn.db").exists(), "{:?}", names(dir.path()));
    create_section(&addr, "kept");
    assert!(var.join("cairn.db-wal").exists(), "{:?}", names(&var));
    stop(server);
    assert_eq!(names(dir.path()), ["server.log", "var"]);
    assert_eq!(names(&var), ["cairn.db", "storage"]);
    let log = std::fs::read_to_string(dir.path().join("server.log")).unwrap();
    assert!(
        log.contains("created a new database") && !log.contains("full-text"),
        "{log}"
    );
    // Started again: the write is in the database file.
    let (server, addr) = serve_in(dir.path(), &[]);
    assert!(has_section(&addr, "kept"));
    stop(server);
    assert_eq!(names(&var), ["cairn.db", "storage"]);
    let log = std::fs::read_to_string(dir.path().join("server.log")).unwrap();
    assert!(!log.contains("created a new database"), "{log}");
}

/// A `./cairn.db` an older version made is used while `var/cairn.db` does not exist, and
/// the log says so; a `--database-url` given is used as given.
#[test]
fn an_old_cairn_db_in_the_current_directory_keeps_working() {
    if backend() != "sqlite" {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let old = ["--database-url", "sqlite://cairn.db"];
    let (server, addr) = serve_in(dir.path(), &old);
    create_section(&addr, "older");
    stop(server);
    assert!(dir.path().join("cairn.db").exists());
    assert!(!dir.path().join("cairn.db-wal").exists());
    let (server, addr) = serve_in(dir.path(), &[]);
    assert!(has_section(&addr, "older"), "the old database was not used");
    stop(server);
    assert!(!dir.path().join("var/cairn.db").exists());
    let log = std::fs::read_to_string(dir.path().join("server.log")).unwrap();
    assert!(log.contains("using ./cairn.db"), "{log}");
    // Once var/cairn.db exists, it is the database.
    let (server, addr) = serve_in(dir.path(), &["--database-url", "sqlite://var/cairn.db"]);
    assert!(!has_section(&addr, "older"));
    stop(server);
    let (server, addr) = serve_in(dir.path(), &[]);
    assert!(
        !has_section(&addr, "older"),
        "./cairn.db was used over var/cairn.db"
    );
    stop(server);
}
