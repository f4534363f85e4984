//! `POST /content/objects?publish=true` (a cairn extension for importers): the item is created
//! and published in one request and one transaction, with `content/publish` checked as
//! `PUBLISH` checks it; a refused or invalid publication leaves nothing behind.

use super::*;
use crate::permissions::{PW, plain_user, role_for};

/// The Location ids of the children of Location `path`, as admin.
async fn children_of(app: &TestApp, path: &str) -> Vec<i64> {
    let r = app
        .get(&format!("/content/locations/{path}/children"))
        .admin()
        .accept("LocationList+json")
        .send()
        .await;
    r.assert(200);
    items(&r.json(), "LocationList", "Location")
        .iter()
        .map(|l| last_id(l["_href"].as_str().unwrap()))
        .collect()
}

async fn content_rows(app: &TestApp) -> usize {
    app.query("SELECT id FROM contents", vec![]).await.len()
}

#[tokio::test]
async fn an_item_created_with_publish_is_published_in_one_request() {
    let app = TestApp::new().await;
    // Read first, so that a kept answer would be stale if the publication did not drop it.
    let before = children_of(&app, "1/2").await;

    let r = app
        .req("POST", "/content/objects?publish=true")
        .admin()
        .accept("Content+json")
        .json_body("ContentCreate", folder_create("At once", "1/2"))
        .send()
        .await;
    r.assert(201);
    let c = r.json()["Content"].clone();
    let id = c["_id"].as_i64().unwrap();
    assert_eq!(
        r.header("location").unwrap(),
        format!("{PREFIX}/content/objects/{id}")
    );
    assert_eq!(c["status"], "PUBLISHED");
    assert_eq!(
        c["CurrentVersion"]["Version"]["VersionInfo"]["status"],
        "PUBLISHED"
    );
    let main = c["MainLocation"]["_href"].as_str().unwrap();
    assert!(main.starts_with(&format!("{PREFIX}/content/locations/1/2/")));
    assert!(
        c["publishedDate"].as_str().is_some_and(|d| !d.is_empty()),
        "{c}"
    );

    // Anonymous reads it, and the parent lists it.
    let r = app
        .get(&format!("/content/objects/{id}"))
        .accept("ContentInfo+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["Content"]["Name"], "At once");
    let after = children_of(&app, "1/2").await;
    assert_eq!(after.len(), before.len() + 1);
    assert!(after.contains(&last_id(main)));
    let versions = app
        .get(&format!("/content/objects/{id}/versions"))
        .admin()
        .accept("VersionList+json")
        .send()
        .await
        .json();
    let statuses: Vec<Value> = items(&versions, "VersionList", "VersionItem")
        .iter()
        .map(|i| i["VersionInfo"]["status"].clone())
        .collect();
    assert_eq!(statuses, [json!("PUBLISHED")]);
    // Its system URL alias is there, as PUBLISH makes it.
    let path = main.trim_start_matches(&format!("{PREFIX}/content/locations/"));
    let r = app
        .get(&format!(
            "/content/locations/{path}/urlaliases?custom=false"
        ))
        .admin()
        .accept("UrlAliasRefList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(items(&r.json(), "UrlAliasRefList", "UrlAlias").len(), 1);

    // `publish=false` is the draft the reference makes.
    let r = app
        .req("POST", "/content/objects?publish=false")
        .admin()
        .accept("ContentInfo+json")
        .json_body("ContentCreate", folder_create("A draft", "1/2"))
        .send()
        .await;
    r.assert(201);
    assert_eq!(r.json()["Content"]["status"], "DRAFT");

    // In XML too.
    let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<ContentCreate>
  <ContentType href="/api/ibexa/v2/content/types/1" />
  <mainLanguageCode>eng-GB</mainLanguageCode>
  <LocationCreate>
    <ParentLocation href="/api/ibexa/v2/content/locations/1/2" />
  </LocationCreate>
  <fields>
    <field>
      <fieldDefinitionIdentifier>name</fieldDefinitionIdentifier>
      <fieldValue>In XML</fieldValue>
    </field>
  </fields>
</ContentCreate>"#;
    let r = app
        .req("POST", "/content/objects?publish=true")
        .admin()
        .accept("ContentInfo+xml")
        .xml_body("ContentCreate", xml)
        .send()
        .await;
    r.assert(201);
    let x = r.xml();
    assert_eq!(x.name, "Content");
    assert_eq!(child_text(&x, "status"), "PUBLISHED");
    assert!(
        x.children
            .iter()
            .any(|c| c.name == "MainLocation" && attr(c, "href").contains("/locations/1/2/"))
    );

    // Not a boolean: 400, nothing written.
    let rows = content_rows(&app).await;
    app.req("POST", "/content/objects?publish=yes")
        .admin()
        .json_body("ContentCreate", folder_create("Never", "1/2"))
        .send()
        .await
        .assert_error(400);
    assert_eq!(content_rows(&app).await, rows);
}

#[tokio::test]
async fn publish_on_create_needs_content_publish_and_leaves_nothing_when_refused() {
    let app = TestApp::new().await;
    let user = plain_user(&app, "drafter").await;
    role_for(
        &app,
        user,
        "Drafter",
        &[
            json!(["content", "create", []]),
            json!(["content", "read", []]),
            json!(["content", "versionread", []]),
        ],
        None,
    )
    .await;
    let rows = content_rows(&app).await;
    let d = app
        .req("POST", "/content/objects?publish=true")
        .basic("drafter", PW)
        .json_body("ContentCreate", folder_create("Refused", "1/2"))
        .send()
        .await
        .assert_error(401);
    assert!(d.contains("publish"), "{d}");
    assert_eq!(content_rows(&app).await, rows, "nothing is left behind");
    // The same user may create the draft, which PUBLISH then refuses alike.
    let r = app
        .req("POST", "/content/objects")
        .basic("drafter", PW)
        .accept("ContentInfo+json")
        .json_body("ContentCreate", folder_create("Draft", "1/2"))
        .send()
        .await;
    r.assert(201);
    let id = r.json()["Content"]["_id"].as_i64().unwrap();
    app.req("PUBLISH", &format!("/content/objects/{id}/versions/1"))
        .basic("drafter", PW)
        .send()
        .await
        .assert_error(401);

    // A publication that fails validation writes nothing either.
    let rows = content_rows(&app).await;
    let mut nameless = folder_create("", "1/2");
    nameless["fields"]["field"] = json!([]);
    let d = app
        .req("POST", "/content/objects?publish=true")
        .admin()
        .json_body("ContentCreate", nameless)
        .send()
        .await
        .assert_error(400);
    assert!(d.contains("did not validate"), "{d}");
    assert_eq!(content_rows(&app).await, rows, "nothing is left behind");
}
