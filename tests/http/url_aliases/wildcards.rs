//! URL wildcards: created, listed, loaded, deleted, and refused.

use super::*;

#[tokio::test]
async fn url_wildcards() {
    let app = TestApp::new().await;
    let r = app
        .get("/content/urlwildcards")
        .accept("UrlWildcardList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["UrlWildcardList"]["_href"],
        "/api/ibexa/v2/content/urlwildcards"
    );
    assert!(
        r.json()["UrlWildcardList"]["UrlWildcard"]
            .as_array()
            .unwrap()
            .is_empty()
    );

    let r = app
        .req("POST", "/content/urlwildcards")
        .admin()
        .accept("UrlWildcard+json")
        .json_body(
            "UrlWildcardCreate",
            json!({"sourceUrl": "old/*/page/*/", "destinationUrl": "/new/{2}/{1}", "forward": true}),
        )
        .send()
        .await;
    r.assert(201);
    let w = r.json()["UrlWildcard"].clone();
    let id = w["_id"].as_i64().unwrap();
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/urlwildcards/{id}")
    );
    assert_eq!(w["sourceUrl"], "/old/*/page/*");
    assert_eq!(w["destinationUrl"], "/new/{2}/{1}");
    assert_eq!(w["forward"], true);

    // XML in and out.
    let r = app
        .req("POST", "/content/urlwildcards")
        .admin()
        .accept("UrlWildcard+xml")
        .xml_body(
            "UrlWildcardCreate",
            "<UrlWildcardCreate><sourceUrl>/api/ibexa/v2/content/location/2</sourceUrl><destinationUrl>/api/ibexa/v2/content/location/59</destinationUrl><forward>false</forward></UrlWildcardCreate>",
        )
        .send()
        .await;
    r.assert(201);
    let x = r.xml();
    assert_eq!(x.name, "UrlWildcard");
    assert_eq!(
        child_text(&x, "sourceUrl"),
        "/api/ibexa/v2/content/location/2"
    );
    assert_eq!(child_text(&x, "forward"), "false");
    let second: i64 = attr(&x, "id").parse().unwrap();

    // 403: the source URL is taken; 400: placeholders without wildcards, missing fields.
    app.req("POST", "/content/urlwildcards")
        .admin()
        .json_body(
            "UrlWildcardCreate",
            json!({"sourceUrl": "/old/*/page/*", "destinationUrl": "/elsewhere", "forward": false}),
        )
        .send()
        .await
        .assert_error(403);
    app.req("POST", "/content/urlwildcards")
        .admin()
        .json_body(
            "UrlWildcardCreate",
            json!({"sourceUrl": "/one/*", "destinationUrl": "/two/{2}", "forward": false}),
        )
        .send()
        .await
        .assert_error(400);
    app.req("POST", "/content/urlwildcards")
        .admin()
        .json_body("UrlWildcardCreate", json!({"sourceUrl": "/one/*"}))
        .send()
        .await
        .assert_error(400);

    let r = app
        .get("/content/urlwildcards")
        .accept("UrlWildcardList+json")
        .send()
        .await;
    let listed: Vec<i64> = r.json()["UrlWildcardList"]["UrlWildcard"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["_id"].as_i64().unwrap())
        .collect();
    assert_eq!(listed, [id, second]);

    let r = app
        .get(&format!("/content/urlwildcards/{id}"))
        .accept("UrlWildcard+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["UrlWildcard"], w);
    let etag = r.header("etag").unwrap();
    app.get(&format!("/content/urlwildcards/{id}"))
        .accept("UrlWildcard+json")
        .header("if-none-match", &etag)
        .send()
        .await
        .assert(304);
    app.req("DELETE", &format!("/content/urlwildcards/{id}"))
        .admin()
        .header("if-match", "\"stale\"")
        .send()
        .await
        .assert_error(412);
    app.req("DELETE", &format!("/content/urlwildcards/{id}"))
        .admin()
        .header("if-match", &etag)
        .send()
        .await
        .assert(204);
    app.get(&format!("/content/urlwildcards/{id}"))
        .send()
        .await
        .assert_error(404);
    app.req("DELETE", &format!("/content/urlwildcards/{id}"))
        .admin()
        .send()
        .await
        .assert_error(404);
}
