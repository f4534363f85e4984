//! URL aliases and URL wildcards (spec 2.11, 4.7, 4.5 urlAlias lookup; formats.md 11): the
//! clean install's aliases, global and custom aliases, wildcards, lookups, and the aliases
//! the tree generates as content is published, renamed, moved, swapped and deleted.

use crate::content::{add_location, create_folder, publish, published_folder};
use crate::support::*;
use serde_json::{Value, json};

const USERS: &str = "0-9bc65c2abec141778ffaa729489f3e87";
const ROOT: &str = "0-d41d8cd98f00b204e9800998ecf8427e";

/// The alias ids of a UrlAliasRefList.
fn ids(list: &Value) -> Vec<String> {
    list["UrlAliasRefList"]["UrlAlias"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["_href"]
                .as_str()
                .unwrap()
                .trim_start_matches("/api/ibexa/v2/content/urlaliases/")
                .to_string()
        })
        .collect()
}

async fn location_aliases(app: &TestApp, path: &str, custom: bool) -> Vec<String> {
    let r = app
        .get(&format!(
            "/content/locations/{path}/urlaliases?custom={custom}"
        ))
        .admin()
        .accept("UrlAliasRefList+json")
        .send()
        .await;
    r.assert(200);
    ids(&r.json())
}

async fn alias(app: &TestApp, id: &str) -> Value {
    let r = app
        .get(&format!("/content/urlaliases/{id}"))
        .accept("UrlAlias+json")
        .send()
        .await;
    r.assert(200);
    r.json()["UrlAlias"].clone()
}

/// The paths of a Location's aliases.
async fn alias_paths(app: &TestApp, path: &str, custom: bool) -> Vec<String> {
    let mut paths = Vec::new();
    for id in location_aliases(app, path, custom).await {
        paths.push(alias(app, &id).await["path"].as_str().unwrap().to_string());
    }
    paths.sort();
    paths
}

/// `GET /content/locations?urlAlias=`: the redirect target's Location path, or the status.
pub async fn resolve(app: &TestApp, alias: &str) -> Result<String, u16> {
    let r = app
        .get(&format!("/content/locations?urlAlias={alias}"))
        .admin()
        .send()
        .await;
    if r.status.as_u16() != 307 {
        return Err(r.status.as_u16());
    }
    Ok(r.header("location")
        .unwrap()
        .trim_start_matches("/api/ibexa/v2/content/locations/")
        .to_string())
}

fn create_global(path: &str, resource: &str) -> Value {
    json!({
        "_type": "GLOBAL",
        "resource": resource,
        "path": path,
        "languageCode": "eng-GB",
        "alwaysAvailable": "true",
        "forward": "true"
    })
}

fn create_custom(location: &str, path: &str) -> Value {
    json!({
        "_type": "LOCATION",
        "location": {"_href": format!("/api/ibexa/v2/content/locations/{location}")},
        "path": path,
        "languageCode": "eng-GB"
    })
}

async fn create(app: &TestApp, input: Value) -> crate::support::Resp {
    app.req("POST", "/content/urlaliases")
        .admin()
        .accept("UrlAlias+json")
        .json_body("UrlAliasCreate", input)
        .send()
        .await
}

#[tokio::test]
async fn clean_install_system_aliases_in_json() {
    let app = TestApp::new().await;
    let r = app
        .get("/content/locations/1/5/urlaliases?custom=false")
        .admin()
        .accept("UrlAliasRefList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.content_type(),
        "application/vnd.ibexa.api.UrlAliasRefList+json"
    );
    let j = r.json();
    assert_eq!(
        j["UrlAliasRefList"]["_href"],
        "/api/ibexa/v2/content/locations/1/5/urlaliases"
    );
    assert_eq!(
        j["UrlAliasRefList"]["UrlAlias"][0]["_media-type"],
        "application/vnd.ibexa.api.UrlAlias+json"
    );
    assert_eq!(ids(&j), [USERS]);
    // custom defaults to true: no custom aliases in a clean install.
    let r = app
        .get("/content/locations/1/5/urlaliases")
        .admin()
        .accept("UrlAliasRefList+json")
        .send()
        .await;
    r.assert(200);
    assert!(ids(&r.json()).is_empty());

    let r = app
        .get(&format!("/content/urlaliases/{USERS}"))
        .accept("UrlAlias+json")
        .send()
        .await;
    r.assert(200);
    let a = r.json()["UrlAlias"].clone();
    assert_eq!(
        a["_href"],
        format!("/api/ibexa/v2/content/urlaliases/{USERS}")
    );
    assert_eq!(a["_id"], USERS);
    assert_eq!(a["_type"], "LOCATION");
    assert_eq!(
        a["location"]["_href"],
        "/api/ibexa/v2/content/locations/1/5"
    );
    assert_eq!(
        a["location"]["_media-type"],
        "application/vnd.ibexa.api.Location+json"
    );
    assert!(a.get("resource").is_none());
    assert_eq!(a["path"], "/Users");
    assert_eq!(a["languageCodes"], "eng-GB");
    assert_eq!(a["alwaysAvailable"], true);
    assert_eq!(a["isHistory"], false);
    assert_eq!(a["forward"], false);
    assert_eq!(a["custom"], false);
    let etag = r.header("etag").expect("etag");
    app.get(&format!("/content/urlaliases/{USERS}"))
        .accept("UrlAlias+json")
        .header("if-none-match", &etag)
        .send()
        .await
        .assert(304);

    // Deeper paths, and the site root's empty alias.
    assert_eq!(
        alias_paths(&app, "1/5/13/15", false).await,
        ["/Users/Administrator-users/Administrator-User"]
    );
    assert_eq!(alias_paths(&app, "1/43/52", false).await, ["/Media/Files"]);
    let root = alias(&app, ROOT).await;
    assert_eq!(root["path"], "/");
    assert_eq!(
        root["location"]["_href"],
        "/api/ibexa/v2/content/locations/1/2"
    );
    // A history row of the clean install: the eZ Publish 4 path below a placeholder.
    let h = alias(&app, "3-a147e136bfa717592f2bd70bd4b53b17").await;
    assert_eq!(h["path"], "/users2/editors");
    assert_eq!(h["isHistory"], true);
    assert_eq!(
        h["location"]["_href"],
        "/api/ibexa/v2/content/locations/1/5/14"
    );
    assert_eq!(h["languageCodes"], "");
    // Location 1 has no alias.
    assert!(location_aliases(&app, "1", false).await.is_empty());
}

#[tokio::test]
async fn clean_install_alias_in_xml_and_errors() {
    let app = TestApp::new().await;
    let r = app
        .get(&format!("/content/urlaliases/{USERS}"))
        .accept("UrlAlias+xml")
        .send()
        .await;
    r.assert(200);
    let x = r.xml();
    assert_eq!(x.name, "UrlAlias");
    assert_eq!(attr(&x, "id"), USERS);
    assert_eq!(attr(&x, "type"), "LOCATION");
    assert_eq!(
        attr(&x, "href"),
        format!("/api/ibexa/v2/content/urlaliases/{USERS}")
    );
    let loc = x.children.iter().find(|c| c.name == "location").unwrap();
    assert_eq!(attr(loc, "href"), "/api/ibexa/v2/content/locations/1/5");
    assert_eq!(child_text(&x, "path"), "/Users");
    assert_eq!(child_text(&x, "languageCodes"), "eng-GB");
    assert_eq!(child_text(&x, "alwaysAvailable"), "true");
    assert_eq!(child_text(&x, "isHistory"), "false");
    assert_eq!(child_text(&x, "custom"), "false");

    let r = app
        .get("/content/locations/1/5/urlaliases?custom=false")
        .admin()
        .accept("UrlAliasRefList+xml")
        .send()
        .await;
    r.assert(200);
    let x = r.xml();
    assert_eq!(x.name, "UrlAliasRefList");
    let refs: Vec<_> = x.children.iter().filter(|c| c.name == "UrlAlias").collect();
    assert_eq!(refs.len(), 1);
    assert_eq!(
        attr(refs[0], "href"),
        format!("/api/ibexa/v2/content/urlaliases/{USERS}")
    );

    // 404: a missing alias, a malformed id, a missing Location or a wrong Location path.
    app.get("/content/urlaliases/0-00000000000000000000000000000000")
        .accept("UrlAlias+json")
        .send()
        .await
        .assert_error(404);
    app.get("/content/urlaliases/nothing")
        .accept("UrlAlias+json")
        .send()
        .await
        .assert_error(404);
    app.get("/content/locations/1/999/urlaliases")
        .accept("UrlAliasRefList+json")
        .send()
        .await
        .assert_error(404);
    app.get("/content/locations/1/2/999/urlaliases")
        .accept("UrlAliasRefList+json")
        .send()
        .await
        .assert_error(404);
}

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
    create(&app, create_global("Users", "module:content/search"))
        .await
        .assert_error(403);
    // 400: no resource, or not a resource.
    create(
        &app,
        json!({"_type": "GLOBAL", "path": "x", "languageCode": "eng-GB"}),
    )
    .await
    .assert_error(400);
    create(&app, create_global("x", "nothing"))
        .await
        .assert_error(400);
    create(
        &app,
        json!({"_type": "GLOBAL", "resource": "module:x", "languageCode": "eng-GB"}),
    )
    .await
    .assert_error(400);
    // An unknown language.
    create(
        &app,
        json!({"_type": "GLOBAL", "resource": "module:x", "path": "x", "languageCode": "fre-FR"}),
    )
    .await
    .assert_error(404);

    // DELETE honours If-Match.
    app.req("DELETE", &format!("/content/urlaliases/{id}"))
        .admin()
        .header("if-match", "\"nope\"")
        .send()
        .await
        .assert_error(412);
    let etag = app
        .get(&format!("/content/urlaliases/{id}"))
        .send()
        .await
        .header("etag")
        .unwrap();
    app.req("DELETE", &format!("/content/urlaliases/{id}"))
        .admin()
        .header("if-match", &etag)
        .send()
        .await
        .assert(204);
    app.get(&format!("/content/urlaliases/{id}"))
        .send()
        .await
        .assert_error(404);
    app.req("DELETE", &format!("/content/urlaliases/{id}"))
        .admin()
        .send()
        .await
        .assert_error(404);
    // The freed path can be taken again.
    create(
        &app,
        create_global("example global", "module:content/view/full"),
    )
    .await
    .assert(201);
    // System aliases are not deleted through this endpoint.
    app.req("DELETE", &format!("/content/urlaliases/{USERS}"))
        .admin()
        .send()
        .await
        .assert_error(403);
    alias(&app, USERS).await;
}

#[tokio::test]
async fn global_alias_in_xml() {
    let app = TestApp::new().await;
    let r = app
        .req("POST", "/content/urlaliases")
        .admin()
        .accept("UrlAlias+xml")
        .xml_body(
            "UrlAliasCreate",
            r#"<?xml version="1.0" encoding="UTF-8"?>
<UrlAliasCreate type="GLOBAL">
  <resource>module:content/search</resource>
  <path>find</path>
  <languageCode>eng-GB</languageCode>
  <alwaysAvailable>false</alwaysAvailable>
  <forward>false</forward>
</UrlAliasCreate>"#,
        )
        .send()
        .await;
    r.assert(201);
    let x = r.xml();
    assert_eq!(x.name, "UrlAlias");
    assert_eq!(attr(&x, "type"), "RESOURCE");
    assert_eq!(child_text(&x, "resource"), "content/search");
    assert_eq!(child_text(&x, "path"), "/find");
    assert_eq!(child_text(&x, "alwaysAvailable"), "false");
    assert_eq!(child_text(&x, "forward"), "false");
    assert_eq!(child_text(&x, "custom"), "true");
}

#[tokio::test]
async fn custom_location_aliases() {
    let app = TestApp::new().await;
    let r = create(&app, create_custom("1/43/51", "/pictures/all")).await;
    r.assert(201);
    let a = r.json()["UrlAlias"].clone();
    let id = a["_id"].as_str().unwrap().to_string();
    assert_eq!(a["_type"], "LOCATION");
    assert_eq!(
        a["location"]["_href"],
        "/api/ibexa/v2/content/locations/1/43/51"
    );
    assert_eq!(a["path"], "/pictures/all");
    assert_eq!(a["custom"], true);
    assert_eq!(a["forward"], false);
    assert_eq!(a["alwaysAvailable"], false);
    assert_eq!(a["isHistory"], false);
    // Listed with the Location's custom aliases; the system ones stay apart.
    assert_eq!(location_aliases(&app, "1/43/51", true).await, [id.as_str()]);
    assert_eq!(alias_paths(&app, "1/43/51", false).await, ["/Media/Images"]);
    assert!(
        app.get("/content/urlaliases")
            .accept("UrlAliasRefList+json")
            .send()
            .await
            .json()["UrlAliasRefList"]["UrlAlias"]
            .as_array()
            .unwrap()
            .is_empty(),
        "custom Location aliases are not global"
    );

    // The same path again, or a system path: 403.
    create(&app, create_custom("1/43/52", "pictures/ALL"))
        .await
        .assert_error(403);
    create(&app, create_custom("1/43/52", "Media/Files"))
        .await
        .assert_error(403);
    // A placeholder or a history path can be taken over.
    let r = create(&app, create_custom("1/43/52", "media2")).await;
    r.assert(201);
    assert_eq!(r.json()["UrlAlias"]["path"], "/media2");
    let r = create(&app, create_custom("1/43/52", "/users2/editors")).await;
    r.assert(201);
    assert_eq!(r.json()["UrlAlias"]["isHistory"], false);
    // A resource naming a Location makes a Location alias.
    let r = create(&app, create_global("files-too", "eznode:52")).await;
    r.assert(201);
    assert_eq!(r.json()["UrlAlias"]["_type"], "LOCATION");
    assert_eq!(
        r.json()["UrlAlias"]["location"]["_href"],
        "/api/ibexa/v2/content/locations/1/43/52"
    );
    assert_eq!(location_aliases(&app, "1/43/52", true).await.len(), 3);

    // 404: a missing Location; 400: no Location.
    create(&app, create_custom("1/999", "gone"))
        .await
        .assert_error(404);
    create(
        &app,
        json!({"_type": "LOCATION", "path": "x", "languageCode": "eng-GB"}),
    )
    .await
    .assert_error(400);

    // XML input, as in the reference's example.
    let r = app
        .req("POST", "/content/urlaliases")
        .admin()
        .accept("UrlAlias+xml")
        .xml_body(
            "UrlAliasCreate",
            r#"<?xml version="1.0" encoding="UTF-8"?>
<UrlAliasCreate type="LOCATION">
  <location href="/api/ibexa/v2/content/locations/1/43/53" />
  <path>example-urlalias</path>
  <languageCode>eng-GB</languageCode>
  <alwaysAvailable>true</alwaysAvailable>
  <forward>true</forward>
</UrlAliasCreate>"#,
        )
        .send()
        .await;
    r.assert(201);
    let x = r.xml();
    assert_eq!(attr(&x, "type"), "LOCATION");
    assert_eq!(child_text(&x, "path"), "/example-urlalias");
    assert_eq!(child_text(&x, "forward"), "true");

    // Deleting a custom alias: its placeholder parent stays.
    app.req("DELETE", &format!("/content/urlaliases/{id}"))
        .admin()
        .send()
        .await
        .assert(204);
    assert!(location_aliases(&app, "1/43/51", true).await.is_empty());
}

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

// needs the hooks wired (`GET /content/locations?urlAlias=` answered by `location_of_alias`)
#[tokio::test]
async fn lookups_redirect_to_the_location() {
    let app = TestApp::new().await;
    assert_eq!(resolve(&app, "/Users/Editors").await, Ok("1/5/14".into()));
    assert_eq!(resolve(&app, "/users/editors").await, Ok("1/5/14".into()));
    // History (the eZ Publish 4 paths below placeholders) resolves too.
    assert_eq!(resolve(&app, "/users2/editors").await, Ok("1/5/14".into()));
    assert_eq!(resolve(&app, "/media2/images").await, Ok("1/43/51".into()));
    assert_eq!(resolve(&app, "/").await, Ok("1/2".into()));
    assert_eq!(resolve(&app, "/Users/Nobody").await, Err(404));
    assert_eq!(resolve(&app, "/users2").await, Err(404));
    // Custom aliases resolve.
    create(&app, create_custom("1/43/51", "pics"))
        .await
        .assert(201);
    assert_eq!(resolve(&app, "/PICS").await, Ok("1/43/51".into()));
}

// needs the hooks wired (publish, rename, new Location)
#[tokio::test]
async fn publishing_generates_aliases_and_renames_keep_history() {
    let app = TestApp::new().await;
    let (id, path) = published_folder(&app, "My Folder", "1/2").await;
    assert_eq!(alias_paths(&app, &path, false).await, ["/My-Folder"]);
    assert_eq!(resolve(&app, "/my-folder").await, Ok(path.clone()));
    // The same name at the same level gets a counter; reserved names at the root start at 2.
    let (_, second) = published_folder(&app, "My Folder", "1/2").await;
    assert_eq!(alias_paths(&app, &second, false).await, ["/My-Folder2"]);
    let (_, content) = published_folder(&app, "Content", "1/2").await;
    assert_eq!(alias_paths(&app, &content, false).await, ["/Content2"]);
    // Below another Location, the parent's alias leads.
    let (_, child) = published_folder(&app, "Child Ünïcode", &path).await;
    assert_eq!(
        alias_paths(&app, &child, false).await,
        ["/My-Folder/Child-Uenicode"]
    );

    // A rename: the old path is history and still resolves, with the subtree below it.
    app.req("COPY", &format!("/content/objects/{id}/currentversion"))
        .admin()
        .send()
        .await
        .assert(201);
    app.req("PATCH", &format!("/content/objects/{id}/versions/2"))
        .admin()
        .json_body(
            "VersionUpdate",
            json!({"fields": {"field": [{"fieldDefinitionIdentifier": "name", "languageCode": "eng-GB", "fieldValue": "Renamed"}]}}),
        )
        .send()
        .await
        .assert(200);
    publish(&app, id, 2).await;
    assert_eq!(alias_paths(&app, &path, false).await, ["/Renamed"]);
    assert_eq!(resolve(&app, "/Renamed").await, Ok(path.clone()));
    assert_eq!(resolve(&app, "/My-Folder").await, Ok(path.clone()));
    assert_eq!(
        resolve(&app, "/renamed/child-uenicode").await,
        Ok(child.clone())
    );
    assert_eq!(
        resolve(&app, "/my-folder/child-uenicode").await,
        Ok(child.clone())
    );
    assert_eq!(
        alias_paths(&app, &child, false).await,
        ["/Renamed/Child-Uenicode"]
    );

    // A further Location of the content gets its own alias.
    let href = add_location(&app, id, "1/43").await;
    let placed = href.trim_start_matches("/api/ibexa/v2/content/locations/");
    assert_eq!(alias_paths(&app, placed, false).await, ["/Media/Renamed"]);
}

// needs the hooks wired (move, swap, delete)
#[tokio::test]
async fn moves_swaps_and_deletes_carry_the_aliases() {
    let app = TestApp::new().await;
    let (_, a) = published_folder(&app, "A", "1/2").await;
    let (_, b) = published_folder(&app, "B", "1/2").await;
    let (_, c) = published_folder(&app, "C", &a).await;
    let (_, d) = published_folder(&app, "D", &c).await;

    // MOVE A under B: the subtree's new paths, and its old paths as history.
    let r = app
        .req("MOVE", &format!("/content/locations/{a}"))
        .admin()
        .header(
            "destination",
            &format!("/api/ibexa/v2/content/locations/{b}"),
        )
        .send()
        .await;
    r.assert(201);
    let moved_d = format!("{b}/{}", d.trim_start_matches("1/2/"));
    assert_eq!(alias_paths(&app, &moved_d, false).await, ["/B/A/C/D"]);
    assert_eq!(resolve(&app, "/B/A/C/D").await, Ok(moved_d.clone()));
    assert_eq!(resolve(&app, "/A/C/D").await, Ok(moved_d.clone()));

    // SWAP B with a sibling: each Location shows the name of the content it now holds.
    let (_, e) = published_folder(&app, "E", "1/2").await;
    app.swap(&b, &e).send().await.assert(204);
    assert_eq!(alias_paths(&app, &b, false).await, ["/E"]);
    assert_eq!(alias_paths(&app, &e, false).await, ["/B"]);
    assert_eq!(alias_paths(&app, &moved_d, false).await, ["/E/A/C/D"]);

    // DELETE the subtree: its aliases go, custom ones included.
    create(&app, create_custom(&moved_d, "dee"))
        .await
        .assert(201);
    app.req("DELETE", &format!("/content/locations/{b}"))
        .admin()
        .send()
        .await
        .assert(204);
    assert_eq!(resolve(&app, "/E/A/C/D").await, Err(404));
    assert_eq!(resolve(&app, "/dee").await, Err(404));
    let rows = app
        .query(
            "SELECT COUNT(*) AS n FROM url_aliases WHERE action = ?",
            vec![format!("eznode:{}", d.rsplit('/').next().unwrap()).into()],
        )
        .await;
    assert_eq!(rows[0]["n"], 0);
    assert_eq!(resolve(&app, "/B").await, Ok(e.clone()));
}

/// The languages are kept in memory, and a language added while the server runs (`cairn
/// language add`) is there at once: content is created in it, and its Location's alias has it.
#[tokio::test]
async fn a_language_added_while_running_is_used_at_once() {
    let app = TestApp::new().await;
    // The server has read its languages.
    published_folder(&app, "Before", "1/2").await;
    cairn::admin::add_language(&app.service.db, "pol-PL", "Polish")
        .await
        .unwrap();
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("ContentInfo+json")
        .json_body(
            "ContentCreate",
            json!({
                "ContentType": {"_href": "/api/ibexa/v2/content/types/1"},
                "mainLanguageCode": "pol-PL",
                "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
                "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "Katalog"}]}
            }),
        )
        .send()
        .await;
    r.assert(201);
    let id = r.json()["Content"]["_id"].as_i64().unwrap();
    publish(&app, id, 1).await;
    let location = app
        .query(
            "SELECT id FROM locations WHERE content_id = ?",
            vec![id.into()],
        )
        .await[0]["id"]
        .as_i64()
        .unwrap();
    let ids = location_aliases(&app, &format!("1/2/{location}"), false).await;
    assert_eq!(ids.len(), 1);
    let a = alias(&app, &ids[0]).await;
    assert_eq!(a["path"], "/Katalog");
    assert_eq!(a["languageCodes"], "pol-PL");
}

/// Publications under one parent run side by side (PostgreSQL holds the alias tree shared and
/// claims each text), while swaps (which hold it alone) run too: eight items named alike,
/// published at once, each get a text of their own, with no gap; nothing fails or deadlocks,
/// and the tree stays consistent.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_publications_take_distinct_texts() {
    let app = TestApp::new().await;
    let (_, a) = published_folder(&app, "Swapped A", "1/2").await;
    let (_, b) = published_folder(&app, "Swapped B", "1/2").await;
    let mut ids = Vec::new();
    for _ in 0..8 {
        ids.push(create_folder(&app, "Same", "1/2").await);
    }
    let publications = ids.iter().map(|id| {
        app.req("PUBLISH", &format!("/content/objects/{id}/versions/1"))
            .admin()
            .send()
    });
    let swaps = (0..3).map(|_| app.swap(&a, &b).send());
    let (published, swapped) = tokio::join!(
        futures_util::future::join_all(publications),
        futures_util::future::join_all(swaps)
    );
    for r in published.iter().chain(&swapped) {
        r.assert(204);
    }
    let texts: Vec<String> = app
        .query(
            "SELECT text FROM url_aliases WHERE parent = 0 AND text LIKE 'Same%' AND is_original",
            vec![],
        )
        .await
        .iter()
        .map(|r| r["text"].as_str().unwrap().to_string())
        .collect();
    let mut texts = texts;
    texts.sort_by_key(|t| (t.len(), t.clone()));
    let expected: Vec<String> = std::iter::once("Same".to_string())
        .chain((2..=8).map(|n| format!("Same{n}")))
        .collect();
    assert_eq!(texts, expected);
    assert_eq!(cairn::admin::check(&app.service.db).await.unwrap(), vec![]);
}
