//! Text no database stores (a NUL character) is refused with a 400 before anything is written,
//! wherever a request carries it: bodies in both formats, query and path parameters,
//! `Destination`, credentials and session cookies (issue 10).

use crate::support::*;
use serde_json::json;

#[tokio::test]
async fn a_nul_character_is_a_400_everywhere_and_writes_nothing() {
    let app = TestApp::new().await;
    let sections = async || app.query("SELECT id FROM sections", vec![]).await.len();
    let before = sections().await;
    // A body: JSON (escaped), XML (a character reference).
    let r = app
        .req("POST", "/content/sections")
        .admin()
        .raw_body(
            "application/vnd.ibexa.api.SectionInput+json",
            r#"{"SectionInput": {"identifier": "nul", "name": "a\u0000b"}}"#,
        )
        .send()
        .await;
    assert!(r.assert_error(400).contains("NUL"), "{}", r.body);
    let r = app
        .req("POST", "/content/sections")
        .admin()
        .xml_body(
            "SectionInput",
            "<SectionInput><identifier>nul</identifier><name>a&#0;b</name></SectionInput>",
        )
        .send()
        .await;
    r.assert_error(400);
    assert_eq!(sections().await, before);
    // A field value of new content, and a search criterion.
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .json_body(
            "ContentCreate",
            json!({"ContentType": {"_href": "/api/ibexa/v2/content/types/1"}, "mainLanguageCode": "eng-GB",
                "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
                "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "x\u{0}y"}]}}),
        )
        .send()
        .await;
    r.assert_error(400);
    let r = app
        .req("POST", "/views")
        .admin()
        .raw_body(
            "application/vnd.ibexa.api.ViewInput+json; version=1.1",
            r#"{"ViewInput": {"identifier": "v", "ContentQuery": {"Filter": {"ContentRemoteIdCriterion": "a\u0000"}}}}"#,
        )
        .send()
        .await;
    r.assert_error(400);
    // Query and path parameters, Destination.
    app.get("/user/users?login=ad%00min")
        .admin()
        .send()
        .await
        .assert_error(400);
    app.get("/content/locations?remoteId=%00")
        .admin()
        .send()
        .await
        .assert_error(400);
    app.get("/languages/eng%00GB")
        .send()
        .await
        .assert_error(400);
    let r = app
        .req("MOVE", "/content/locations/1/43/51")
        .admin()
        .header("destination", "/api/ibexa/v2/content/locations/1/2%00")
        .send()
        .await;
    assert!(r.status.is_client_error(), "{}", r.body);
    // Credentials: a NUL in a Basic login is a wrong login, even for an anonymous read; a
    // NUL in a session cookie is no session.
    use base64::Engine;
    let basic = base64::engine::general_purpose::STANDARD.encode("ad\u{0}min:publish");
    app.get("/")
        .header("authorization", &format!("Basic {basic}"))
        .send()
        .await
        .assert_error(401);
    app.get("/content/locations/1/2")
        .header("cookie", "eZSESSID98defd6ee70dfb1dea416cecdf391f58=a\u{0}b")
        .send()
        .await
        .assert(200);
}

/// The window of every list as the reference's controllers read it (issue 10, issue 45): what
/// is not a whole number is a 400 that says so; a negative offset counts as 0; a negative limit
/// asks for no bound, which each list gives whole or by its own default, except the content
/// types' list, which takes only a limit of 1 or more.
#[tokio::test]
async fn every_list_takes_offset_and_limit_as_the_reference_reads_them() {
    let app = TestApp::new().await;
    for list in [
        "/content/locations/1/children",
        "/user/roles",
        "/content/trash",
        "/bookmark",
        "/content/types",
        "/user/groups/1/5/subgroups",
        "/user/groups/1/5/13/users",
        "/user/users/14/groups",
        "/content/objects/1/versions/9/relations",
    ] {
        for bad in ["offset=x", "limit=1.5"] {
            let r = app.get(&format!("{list}?{bad}")).admin().send().await;
            let why = r.assert_error(400);
            assert!(why.contains("a whole number"), "{list}?{bad}: {why}");
        }
        let types = list == "/content/types";
        for (query, ok) in [
            ("offset=-5", true),
            ("offset=0&limit=-1", !types),
            ("limit=-2", !types),
            ("limit=0", !types),
            ("offset=100&limit=5", true),
        ] {
            let r = app.get(&format!("{list}?{query}")).admin().send().await;
            let want = if ok { 200 } else { 400 };
            assert_eq!(r.status.as_u16(), want, "{list}?{query}: {}", r.body);
        }
    }
    // A negative limit pages the children by 25: the children of the root, every one of them.
    let all = app
        .get("/content/locations/1/children?limit=-1")
        .admin()
        .accept("LocationList+json")
        .send()
        .await
        .json();
    assert_eq!(all["LocationList"]["Location"].as_array().unwrap().len(), 3);
    let one = app
        .get("/content/locations/1/children?limit=1&offset=2")
        .admin()
        .accept("LocationList+json")
        .send()
        .await
        .json();
    assert_eq!(one["LocationList"]["Location"].as_array().unwrap().len(), 1);
}
