//! The endpoints outside the API prefix: `/health`, `/ready`, `/metrics` (and turning it off),
//! the front page, the reference and the content browser with their scripts.

use crate::support::*;

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

/// A Location without children says how to create a first item (issue 47): the content
/// browser links to the API reference's `createContent` operation, which the served OpenAPI
/// document has under that tag and id, and its script builds the request to copy
/// (`.ci/browser` runs the request it shows).
#[tokio::test]
async fn the_content_browser_says_how_to_create_a_first_item() {
    let app = TestApp::new().await;
    let page = app.abs("GET", "/browse").send().await;
    page.assert(200);
    for part in [
        r#"<section id="first" hidden>"#,
        r#"href="reference#tag/content/operation/createContent""#,
        r#"<pre id="first-request"></pre>"#,
    ] {
        assert!(page.body.contains(part), "{part}: {}", page.body);
    }
    let doc = app
        .abs("GET", "/api/ibexa/v2/openapi.json")
        .send()
        .await
        .json();
    let create = &doc["paths"]["/content/objects"]["post"];
    assert_eq!(create["operationId"], "createContent");
    assert_eq!(create["tags"][0], "content");
    let script = app.abs("GET", "/assets/browse.js").send().await;
    for part in ["function firstRequest", "ContentCreate", "?publish=true"] {
        assert!(script.body.contains(part), "{part}");
    }
}
