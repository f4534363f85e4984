//! The clean install's system aliases in JSON and XML, and the errors of their reads.

use super::*;

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
        .get_json("/content/locations/1/5/urlaliases", "UrlAliasRefList+json")
        .await;
    assert!(ids(&r).is_empty());

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
