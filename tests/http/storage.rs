//! Uploaded files on every backend (issue 16): a directory, and a bucket of an S3-compatible
//! server (moto's, started by the harness): streamed downloads with ranges and validators,
//! large uploads in parts, two instances sharing one bucket, nothing left by a rolled-back
//! import, and the collector removing what no version references, never what one does (refused
//! uploads on every backend: `uploads.rs`).

use crate::support::*;
use crate::uploads::file_create;
use serde_json::json;
use sha2::{Digest, Sha256};

/// The backends under test: a directory, and a bucket of the test S3 server when there is one.
pub(crate) fn backends(dir: &tempfile::TempDir) -> Vec<String> {
    let mut urls = vec![format!("file://{}", dir.path().display())];
    urls.extend(s3_bucket());
    urls
}

/// Creates a `file` content item holding `bytes`; its id and download URI.
pub(crate) async fn upload(app: &TestApp, file_name: &str, bytes: &[u8]) -> (i64, String) {
    let content = create_content(app, file_create(file_name, file_name, bytes)).await;
    let uri = field_of(&content, "file")["fieldValue"]["uri"]
        .as_str()
        .unwrap()
        .to_string();
    (content["_id"].as_i64().unwrap(), uri)
}

/// The stored objects of `app`'s storage, but the spool's.
pub(crate) async fn objects(app: &TestApp) -> Vec<String> {
    let all = app.service.files.objects().await.unwrap();
    (all.into_iter())
        .map(|m| m.location.to_string())
        .filter(|p| !p.starts_with('.'))
        .collect()
}

#[tokio::test]
async fn files_are_streamed_with_ranges_and_validators_on_every_backend() {
    let dir = tempfile::tempdir().unwrap();
    for url in backends(&dir) {
        let app = TestApp::with_args(&["--storage-url", &url]).await;
        let bytes: Vec<u8> = (0..1000).map(|i| (i % 251) as u8).collect();
        let (_, uri) = upload(&app, "data.bin", &bytes).await;
        let etag = format!("\"{:x}\"", Sha256::digest(&bytes));
        let r = app.abs("GET", &uri).send().await;
        r.assert(200);
        assert_eq!(r.bytes, bytes, "{url}");
        assert_eq!(r.header("content-length").as_deref(), Some("1000"));
        assert_eq!(r.header("accept-ranges").as_deref(), Some("bytes"));
        assert_eq!(r.header("etag"), Some(etag.clone()));
        assert!(r.header("last-modified").unwrap().ends_with(" GMT"));
        assert_eq!(
            r.header("content-type").as_deref(),
            Some("application/octet-stream")
        );
        assert_eq!(
            r.header("x-content-type-options").as_deref(),
            Some("nosniff")
        );
        assert_eq!(
            r.header("content-disposition").as_deref(),
            Some("attachment")
        );
        let ranged = async |range: &str| app.abs("GET", &uri).header("Range", range).send().await;
        let r = ranged("bytes=10-19").await;
        r.assert(206);
        assert_eq!(r.bytes, &bytes[10..20]);
        assert_eq!(
            r.header("content-range").as_deref(),
            Some("bytes 10-19/1000")
        );
        assert_eq!(r.header("content-length").as_deref(), Some("10"));
        let r = ranged("bytes=-5").await;
        r.assert(206);
        assert_eq!(r.bytes, &bytes[995..]);
        let r = ranged("bytes=990-5000").await;
        r.assert(206);
        assert_eq!(r.bytes, &bytes[990..]);
        let r = ranged("bytes=2000-").await;
        r.assert(416);
        assert_eq!(r.header("content-range").as_deref(), Some("bytes */1000"));
        // Several ranges, or one that is not a byte range: the whole file.
        ranged("bytes=0-1,5-6").await.assert(200);
        let r = app
            .abs("GET", &uri)
            .header("Range", "bytes=0-9")
            .header("If-Range", "\"other\"")
            .send()
            .await;
        r.assert(200);
        assert_eq!(r.bytes.len(), 1000);
        let r = app
            .abs("GET", &uri)
            .header("If-None-Match", &etag)
            .send()
            .await;
        r.assert(304);
        assert!(r.bytes.is_empty());
        let r = app.abs("HEAD", &uri).send().await;
        r.assert(200);
        assert_eq!(r.header("content-length").as_deref(), Some("1000"));
        assert!(r.bytes.is_empty());
        let missing = uri.replace("data.bin", "other.bin");
        app.abs("GET", &missing).send().await.assert(404);
        app.abs("GET", "/var/storage/../Cargo.toml")
            .send()
            .await
            .assert(404);
        app.abs("GET", "/var/storage/.incoming/x")
            .send()
            .await
            .assert(404);
        app.abs("DELETE", &uri).send().await.assert(405);
    }
}

#[tokio::test]
async fn large_uploads_are_stored_in_parts_on_every_backend() {
    let dir = tempfile::tempdir().unwrap();
    for url in backends(&dir) {
        let app = TestApp::with_args(&["--storage-url", &url]).await;
        // Over the 8 MiB a part holds: three parts.
        let bytes: Vec<u8> = (0..17 * 1024 * 1024 + 7).map(|i| (i % 253) as u8).collect();
        let (_, uri) = upload(&app, "big.bin", &bytes).await;
        let r = app.abs("GET", &uri).send().await;
        r.assert(200);
        assert!(r.bytes == bytes, "{url}: the file came back different");
        let r = app
            .abs("GET", &uri)
            .header("Range", "bytes=16777215-16777217")
            .send()
            .await;
        r.assert(206);
        assert_eq!(r.bytes, &bytes[16_777_215..16_777_218]);
    }
}

#[tokio::test]
async fn two_instances_share_one_bucket() {
    let Some(url) = s3_bucket() else {
        return;
    };
    let one = TestApp::with_args(&["--storage-url", &url]).await;
    let other = one.another_instance_with(&["--storage-url", &url]).await;
    let bytes = b"stored through one, served by the other".to_vec();
    let (_, uri) = upload(&one, "shared.txt", &bytes).await;
    let r = other.abs("GET", &uri).send().await;
    r.assert(200);
    assert_eq!(r.bytes, bytes);
    // The other instance takes the stored file by its URI, as a client sends a value back.
    let mut body = file_create("Again", "shared.txt", b"");
    body["fields"]["field"][1]["fieldValue"] = json!({"inputUri": uri, "fileName": "again.txt"});
    let content = create_content(&other, body).await;
    let value = &field_of(&content, "file")["fieldValue"];
    assert_eq!(value["fileSize"], bytes.len());
    assert_eq!(value["uri"], uri.as_str());
}

#[tokio::test]
async fn the_collector_removes_what_no_version_references_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    for url in backends(&dir) {
        let app = TestApp::with_args(&["--storage-url", &url]).await;
        let (gone, gone_uri) = upload(&app, "gone.txt", b"deleted with its content").await;
        let (_, kept_uri) = upload(&app, "kept.txt", b"still referenced").await;
        app.req("DELETE", &format!("/content/objects/{gone}"))
            .admin()
            .send()
            .await
            .assert(204);
        let (db, files) = (app.service.db.conn(), &app.service.files);
        let hour = std::time::Duration::from_secs(3600);
        let found = cairn::storage::collect(db, files, hour, false)
            .await
            .unwrap();
        assert_eq!((found.referenced, found.recent.len()), (1, 1));
        assert!(found.removed.is_empty());
        let now = std::time::Duration::ZERO;
        let dry = cairn::storage::collect(db, files, now, true).await.unwrap();
        assert_eq!(dry.removed.len(), 1);
        assert_eq!(objects(&app).await.len(), 2);
        let found = cairn::storage::collect(db, files, now, false)
            .await
            .unwrap();
        assert_eq!(found.removed, dry.removed);
        assert!(gone_uri.ends_with(&found.removed[0]), "{url}");
        assert_eq!(found.referenced, 1);
        app.abs("GET", &gone_uri).send().await.assert(404);
        app.abs("GET", &kept_uri).send().await.assert(200);
        assert_eq!(objects(&app).await.len(), 1);
    }
}

/// `cairn import` too: a batch rolled back removes the files it stored.
#[tokio::test]
async fn an_import_batch_rolled_back_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    for url in backends(&dir) {
        let app = TestApp::with_args(&["--storage-url", &url]).await;
        let file = file_create("In a batch", "batch.txt", b"imported, then rolled back");
        let mut bad = file_create("Bad", "bad.txt", b"never");
        bad["fields"]["field"][0]["fieldDefinitionIdentifier"] = json!("no_such_field");
        let text = format!(
            "{}\n{}\n",
            json!({ "ContentCreate": file }),
            json!({ "ContentCreate": bad })
        );
        let (n, _) = crate::operating::import(&app, &text, "admin").await;
        assert!(n.unwrap_err().to_string().starts_with("line 2: "));
        assert_eq!(objects(&app).await, Vec::<String>::new(), "{url}");
    }
}

/// A storage that stops answering is the server's failure: 503 with an `ErrorMessage`, not a
/// 400 blaming the value, and nothing written.
#[tokio::test]
async fn a_storage_that_fails_is_a_503() {
    let Some(url) = s3_bucket() else {
        return;
    };
    let app = TestApp::with_args(&["--storage-url", &url]).await;
    let (_, uri) = upload(&app, "before.txt", b"stored before the bucket went").await;
    let bucket = url.trim_start_matches("s3://").split('/').next().unwrap();
    // The bucket goes (emptied first, as S3 requires).
    use cairn::storage::FileStore;
    app.service
        .files
        .remove(uri.trim_start_matches("/var/storage/"));
    let gone = s3_request("DELETE", &format!("/{bucket}"));
    assert!(gone.starts_with("HTTP/1.1 204"), "{gone}");
    let before = app
        .query("SELECT COUNT(*) AS n FROM contents", vec![])
        .await;
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .json_body(
            "ContentCreate",
            file_create("After", "after.txt", b"nowhere to go"),
        )
        .send()
        .await;
    let said = r.assert_error(503);
    assert!(said.contains("could not be stored"), "{said}");
    let after = app
        .query("SELECT COUNT(*) AS n FROM contents", vec![])
        .await;
    assert_eq!(before, after);
}
