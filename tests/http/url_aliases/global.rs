//! Global aliases created, listed, loaded and deleted, in JSON and XML, and writes that need
//! a user.

use super::*;

#[tokio::test]
async fn global_aliases_are_created_listed_loaded_and_deleted() {
    let app = TestApp::new().await;
    let r = app
        .get("/content/urlaliases")
        .accept("UrlAliasRefList+json")
        .send()
        .await;
    r.assert(200);
    let j = r.json();
    assert_eq!(
        j["UrlAliasRefList"]["_href"],
        "/api/ibexa/v2/content/urlaliases"
    );
    assert!(ids(&j).is_empty());

    // The reference's example input: the path is slugged.
    let r = create(
        &app,
        create_global("example global", "module:content/view/full"),
    )
    .await;
    r.assert(201);
    let a = r.json()["UrlAlias"].clone();
    let id = a["_id"].as_str().unwrap().to_string();
    assert_eq!(id, "0-2cecdff5f90b8595d76b68c417b09f36");
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/urlaliases/{id}")
    );
    assert_eq!(a["_type"], "RESOURCE");
    assert_eq!(a["resource"], "content/view/full");
    assert!(a.get("location").is_none());
    assert_eq!(a["path"], "/example-global");
    assert_eq!(a["languageCodes"], "eng-GB");
    assert_eq!(a["alwaysAvailable"], true);
    assert_eq!(a["isHistory"], false);
    assert_eq!(a["forward"], true);
    assert_eq!(a["custom"], true);
    assert_eq!(alias(&app, &id).await, a);

    // A path of several elements: the missing ones become placeholders.
    let r = create(
        &app,
        create_global("/tools/Search ", "module:content/search"),
    )
    .await;
    r.assert(201);
    let search = r.json()["UrlAlias"].clone();
    assert_eq!(search["path"], "/tools/Search");
    let search_id = search["_id"].as_str().unwrap().to_string();

    let r = app
        .get("/content/urlaliases")
        .accept("UrlAliasRefList+json")
        .send()
        .await;
    let mut listed = ids(&r.json());
    listed.sort();
    let mut expected = vec![id.clone(), search_id.clone()];
    expected.sort();
    assert_eq!(listed, expected);

    // 403: the path is taken (case-insensitively), by a global or a system alias.
    let msg = create(
        &app,
        create_global("Example-Global", "module:content/search"),
    )
    .await
    .assert_error(403);
    assert!(msg.contains("already exists"), "{msg}");
    let path = format!("/content/urlaliases/{id}");
    let global = |path: &str, resource: &str| create_req(&app, create_global(path, resource));
    let input = |input: Value| create_req(&app, input);
    expect_all(vec![
        (global("Users", "module:content/search"), 403),
        // 400: no resource, or not a resource.
        (input(json!({"_type": "GLOBAL", "path": "x", "languageCode": "eng-GB"})), 400),
        (global("x", "nothing"), 400),
        (input(json!({"_type": "GLOBAL", "resource": "module:x", "languageCode": "eng-GB"})), 400),
        // An unknown language.
        (input(json!({"_type": "GLOBAL", "resource": "module:x", "path": "x", "languageCode": "fre-FR"})), 404),
        // DELETE honours If-Match.
        (app.req("DELETE", &path).admin().if_match("\"nope\""), 412),
    ])
    .await;
    let etag = app.get(&path).send().await.header("etag").unwrap();
    expect_all(vec![
        (app.req("DELETE", &path).admin().if_match(&etag), 204),
        (app.get(&path), 404),
        (app.req("DELETE", &path).admin(), 404),
        // The freed path can be taken again.
        (global("example global", "module:content/view/full"), 201),
        // System aliases are not deleted through this endpoint.
        (
            app.req("DELETE", &format!("/content/urlaliases/{USERS}"))
                .admin(),
            403,
        ),
    ])
    .await;
    alias(&app, USERS).await;
}

#[tokio::test]
async fn global_alias_in_xml() {
    let app = TestApp::new().await;
    let x = create_xml(
        &app,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<UrlAliasCreate type="GLOBAL">
  <resource>module:content/search</resource>
  <path>find</path>
  <languageCode>eng-GB</languageCode>
  <alwaysAvailable>false</alwaysAvailable>
  <forward>false</forward>
</UrlAliasCreate>"#,
    )
    .await;
    assert_eq!(x.name, "UrlAlias");
    assert_eq!(attr(&x, "type"), "RESOURCE");
    assert_eq!(child_text(&x, "resource"), "content/search");
    assert_eq!(child_text(&x, "path"), "/find");
    assert_eq!(child_text(&x, "alwaysAvailable"), "false");
    assert_eq!(child_text(&x, "forward"), "false");
    assert_eq!(child_text(&x, "custom"), "true");
}

#[tokio::test]
async fn writes_need_a_user() {
    let app = TestApp::new().await;
    app.req("POST", "/content/urlaliases")
        .json_body("UrlAliasCreate", create_global("x", "module:x"))
        .send()
        .await
        .assert_error(401);
    app.req("POST", "/content/urlwildcards")
        .json_body(
            "UrlWildcardCreate",
            json!({"sourceUrl": "/a", "destinationUrl": "/b", "forward": false}),
        )
        .send()
        .await
        .assert_error(401);
}
