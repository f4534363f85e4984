//! Custom Location aliases, and lookups of an alias that redirect to its Location.

use super::*;

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
    let no_location = json!({"_type": "LOCATION", "path": "x", "languageCode": "eng-GB"});
    expect_all(vec![
        (create_req(&app, create_custom("1/999", "gone")), 404),
        (create_req(&app, no_location), 400),
    ])
    .await;

    // XML input, as in the reference's example.
    let x = create_xml(
        &app,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<UrlAliasCreate type="LOCATION">
  <location href="/api/ibexa/v2/content/locations/1/43/53" />
  <path>example-urlalias</path>
  <languageCode>eng-GB</languageCode>
  <alwaysAvailable>true</alwaysAvailable>
  <forward>true</forward>
</UrlAliasCreate>"#,
    )
    .await;
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
