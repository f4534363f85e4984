//! Uploads (issue 10): a refused file is never stored, a failed request leaves no file behind,
//! and stored files are served so that a browser never runs them in the API's origin.

use crate::storage::{backends, objects};
use crate::support::*;
use base64::Engine;
use serde_json::{Value, json};

/// A `file` content item (type 12) with `file_name` holding `bytes`, and its name `name`.
pub(crate) fn file_create(name: &str, file_name: &str, bytes: &[u8]) -> Value {
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    json!({"ContentType": {"_href": "/api/ibexa/v2/content/types/12"}, "mainLanguageCode": "eng-GB",
        "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/43/52"}},
        "fields": {"field": [
            {"fieldDefinitionIdentifier": "name", "fieldValue": name},
            {"fieldDefinitionIdentifier": "file", "fieldValue": {"fileName": file_name, "data": data}}]}})
}

/// On every backend: a file refused for its name, or in a request that fails on another
/// field, leaves nothing stored; a file kept stays when the same bytes are refused later.
#[tokio::test]
async fn refused_and_failed_uploads_leave_no_file() {
    let dir = tempfile::tempdir().unwrap();
    for url in backends(&dir) {
        let app = TestApp::with_args(&["--storage-url", &url]).await;
        let post = |body| {
            app.req("POST", "/content/objects")
                .admin()
                .json_body("ContentCreate", body)
        };
        for name in ["x.php", "evil.php.", "EVIL.PHP", "a.phtml ", "b.Phar"] {
            let r = post(file_create("Evil", name, b"<?php echo 1;"))
                .send()
                .await;
            r.assert_error(400);
            assert_eq!(objects(&app).await, Vec::<String>::new(), "{url}: {name}");
        }
        let mut failing = file_create("", "ok.txt", b"fine");
        failing["fields"]["field"][0]["fieldValue"] = json!("");
        post(failing.clone()).send().await.assert_error(400);
        assert_eq!(objects(&app).await, Vec::<String>::new(), "{url}");
        post(file_create("Kept", "ok.txt", b"fine"))
            .send()
            .await
            .assert(201);
        assert_eq!(objects(&app).await.len(), 1);
        post(failing).send().await.assert_error(400);
        assert_eq!(objects(&app).await.len(), 1);
    }
}

#[tokio::test]
async fn stored_files_are_never_run_in_the_apis_origin() {
    let storage = tempfile::tempdir().unwrap();
    let dir = storage.path().to_str().unwrap().to_string();
    let app = TestApp::with_args(&["--storage-dir", &dir]).await;
    let uri_of = async |name: &str, bytes: &[u8]| crate::storage::upload(&app, name, bytes).await.1;
    let html = uri_of("evil.html", b"<script>alert(document.cookie)</script>").await;
    let r = app.abs("GET", &html).send().await;
    r.assert(200);
    assert_eq!(
        r.header("x-content-type-options").as_deref(),
        Some("nosniff")
    );
    assert!(
        r.header("content-security-policy")
            .unwrap()
            .starts_with("sandbox")
    );
    assert_eq!(
        r.header("content-disposition").as_deref(),
        Some("attachment")
    );
    let svg = uri_of(
        "i.svg",
        b"<svg xmlns=\"http://www.w3.org/2000/svg\"><script>1</script></svg>",
    )
    .await;
    let r = app.abs("GET", &svg).send().await;
    assert_eq!(
        r.header("content-disposition").as_deref(),
        Some("attachment")
    );
    let png = base64::engine::general_purpose::STANDARD
        .decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")
        .unwrap();
    let png = uri_of("pixel.png", &png).await;
    let r = app.abs("GET", &png).send().await;
    r.assert(200);
    assert_eq!(
        r.header("x-content-type-options").as_deref(),
        Some("nosniff")
    );
    assert_eq!(r.header("content-disposition"), None);
}
