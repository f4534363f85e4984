//! The test S3 server (moto) for the storage tests, and buckets on it.

/// An S3-compatible server for the storage tests: moto's (`moto_server`, PyPI `moto[server]`,
/// which tests/run installs; `CAIRN_TEST_MOTO` names another), started once per test process
/// and stopped with it. `None`, with a warning, when there is none, unless
/// `CAIRN_REQUIRE_S3` is set (as in CI).
pub fn s3_endpoint() -> Option<&'static str> {
    static ENDPOINT: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let endpoint = ENDPOINT.get_or_init(|| {
        let moto = std::env::var("CAIRN_TEST_MOTO").unwrap_or_else(|_| "moto_server".into());
        let port = super::free_addr().port();
        // The server goes when this process's end of its standard input closes.
        let started = std::process::Command::new("sh")
            .args([
                "-c",
                &format!(
                    "\"$0\" -H 127.0.0.1 -p {port} >/dev/null 2>&1 & pid=$!; read _; kill $pid"
                ),
                &moto,
            ])
            .stdin(std::process::Stdio::piped())
            .spawn();
        let child = match started {
            Ok(child) => child,
            Err(e) => return no_s3(&format!("{moto}: {e}")),
        };
        std::mem::forget(child.stdin);
        for _ in 0..200 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Some(format!("http://127.0.0.1:{port}"));
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        no_s3(&format!("{moto} did not answer on port {port}"))
    });
    endpoint.as_deref()
}

fn no_s3(why: &str) -> Option<String> {
    if std::env::var_os("CAIRN_REQUIRE_S3").is_some() {
        panic!("no S3-compatible server for the storage tests: {why}");
    }
    eprintln!("!! storage tests on S3 skipped: {why}");
    None
}

/// Sends `method path` to the test S3 server (moto takes unsigned requests); its status line.
pub fn s3_request(method: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let endpoint = s3_endpoint().expect("the test S3 server");
    let host = endpoint.trim_start_matches("http://");
    let mut conn = std::net::TcpStream::connect(host).expect("the S3 server");
    write!(
        conn,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    conn.read_to_string(&mut answer).unwrap();
    answer.lines().next().unwrap_or("").to_string()
}

/// A new bucket on the test S3 server, and the `--storage-url` of a prefix in it.
pub fn s3_bucket() -> Option<String> {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
    let endpoint = s3_endpoint()?;
    let bucket = format!(
        "cairn-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    let created = s3_request("PUT", &format!("/{bucket}"));
    assert!(created.starts_with("HTTP/1.1 200"), "{created}");
    Some(format!(
        "s3://{bucket}/uploads?endpoint={endpoint}&region=us-east-1&access_key_id=test&secret_access_key=test"
    ))
}
