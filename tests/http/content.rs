//! Content items, versions, translations, relations and Object states (spec 2.3-2.5, 2.8,
//! 3.1, 4.3): the life of a content item in both formats and every error row.

use crate::support::*;
use serde_json::{Value, json};

fn folder_create(name: &str, parent: &str) -> Value {
    json!({
        "ContentType": {"_href": "/api/ibexa/v2/content/types/1"},
        "mainLanguageCode": "eng-GB",
        "LocationCreate": {"ParentLocation": {"_href": format!("/api/ibexa/v2/content/locations/{parent}")}, "priority": 0},
        "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": name}]}
    })
}

/// Creates a folder draft under `parent` and returns its content id.
pub async fn create_folder(app: &TestApp, name: &str, parent: &str) -> i64 {
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("ContentInfo+json")
        .json_body("ContentCreate", folder_create(name, parent))
        .send()
        .await;
    r.assert(201);
    r.json()["Content"]["_id"].as_i64().unwrap()
}

/// The RelationList of version 1 of `id` (JSON, as admin).
async fn relations_of(app: &TestApp, id: i64) -> Value {
    app.get(&format!("/content/objects/{id}/versions/1/relations"))
        .admin()
        .accept("RelationList+json")
        .send()
        .await
        .json()
}

pub async fn publish(app: &TestApp, id: i64, no: i64) {
    app.req("PUBLISH", &format!("/content/objects/{id}/versions/{no}"))
        .admin()
        .send()
        .await
        .assert(204);
}

/// Creates and publishes a folder; returns (content id, location path `1/2/n`).
pub async fn published_folder(app: &TestApp, name: &str, parent: &str) -> (i64, String) {
    let id = create_folder(app, name, parent).await;
    publish(app, id, 1).await;
    let info = app
        .get(&format!("/content/objects/{id}"))
        .admin()
        .accept("ContentInfo+json")
        .send()
        .await
        .json();
    let href = info["Content"]["MainLocation"]["_href"]
        .as_str()
        .unwrap()
        .to_string();
    (
        id,
        href.trim_start_matches("/api/ibexa/v2/content/locations/")
            .to_string(),
    )
}

/// Places published item `id` under the Location `parent` (a path as `1/43`) as admin;
/// returns the new Location's href.
pub async fn add_location(app: &TestApp, id: i64, parent: &str) -> String {
    let r = app
        .req("POST", &format!("/content/objects/{id}/locations"))
        .admin()
        .accept("Location+json")
        .json_body(
            "LocationCreate",
            json!({"ParentLocation": {"_href": format!("{PREFIX}/content/locations/{parent}")}}),
        )
        .send()
        .await;
    r.assert(201);
    r.json()["Location"]["_href"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn clean_install_content_and_locations_have_the_reference_ids() {
    let app = TestApp::new().await;
    let r = app
        .get("/content/objects/1")
        .accept("ContentInfo+json")
        .send()
        .await;
    r.assert(200);
    let c = r.json()["Content"].clone();
    assert_eq!(c["Name"], "Ibexa Platform");
    assert_eq!(c["_remoteId"], "9459d3c29e15006e45197295722c7ade");
    assert_eq!(c["currentVersionNo"], 9);
    assert_eq!(
        c["MainLocation"]["_href"],
        "/api/ibexa/v2/content/locations/1/2"
    );
    assert_eq!(c["status"], "PUBLISHED");
    assert_eq!(c["Owner"]["_href"], "/api/ibexa/v2/user/users/14");

    for (content, path, name) in [
        (4, "1/5", "Users"),
        (14, "1/5/13/15", "Administrator User"),
        (10, "1/5/44/45", "Anonymous User"),
        (41, "1/43", "Media"),
        (51, "1/43/53", "Multimedia"),
    ] {
        let r = app
            .get(&format!("/content/locations/{path}"))
            .admin()
            .accept("Location+json")
            .send()
            .await;
        r.assert(200);
        let l = r.json()["Location"].clone();
        assert_eq!(l["ContentInfo"]["Content"]["_id"], content, "{path}");
        assert_eq!(l["ContentInfo"]["Content"]["Name"], name);
        assert_eq!(l["pathString"], format!("/{path}/"));
    }
    let admin = app
        .get("/content/objects/14")
        .admin()
        .accept("Content+json")
        .send()
        .await
        .json();
    let fields = admin["Content"]["CurrentVersion"]["Version"]["Fields"]["field"]
        .as_array()
        .unwrap()
        .clone();
    let ids: Vec<i64> = fields.iter().map(|f| f["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, [28, 29, 30, 178, 180]);
    assert_eq!(fields[2]["fieldValue"]["login"], "admin");
    assert!(fields[2]["fieldValue"].get("passwordHash").is_none());
    assert_eq!(
        admin["Content"]["CurrentVersion"]["Version"]["VersionInfo"]["id"],
        499
    );

    // The root Location: its ParentLocation has no href.
    let root = app.get("/content/locations/1").send().await;
    root.assert(200);
    let x = root.xml();
    let parent = x
        .children
        .iter()
        .find(|c| c.name == "ParentLocation")
        .unwrap();
    assert!(parent.attrs.iter().all(|(k, _)| k != "href"));
    let r = app
        .get("/content/locations/1/2/children")
        .accept("LocationList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["LocationList"]["Location"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    let r = app
        .get("/content/locations/1/5/children")
        .admin()
        .accept("LocationList+json")
        .send()
        .await;
    let children: Vec<String> = r.json()["LocationList"]["Location"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            l["_href"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(children, ["12", "13", "14", "44"]);
    // A path names its last id, as in the reference (an href kept from before a move).
    let r = app
        .get("/content/locations/1/43/15")
        .admin()
        .accept("Location+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["Location"]["pathString"], "/1/5/13/15/");
    app.get("/content/locations/1/2/999")
        .send()
        .await
        .assert_error(404);
}

#[tokio::test]
async fn the_life_of_a_content_item_in_json() {
    let app = TestApp::with_args(&["--language", "pol-PL=Polish"]).await;
    // Create: a draft, with Accept Content embedding it.
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("Content+json")
        .json_body("ContentCreate", folder_create("News", "1/2"))
        .send()
        .await;
    r.assert(201);
    let c = r.json()["Content"].clone();
    let id = c["_id"].as_i64().unwrap();
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/objects/{id}")
    );
    assert_eq!(c["status"], "DRAFT");
    assert!(c.get("MainLocation").is_none());
    assert_eq!(
        c["CurrentVersion"]["Version"]["VersionInfo"]["status"],
        "DRAFT"
    );
    assert_eq!(c["Name"], "News");
    // A draft needs `content/versionread`, which the anonymous user lacks.
    app.get(&format!("/content/objects/{id}"))
        .send()
        .await
        .assert_error(401);

    publish(&app, id, 1).await;
    let r = app
        .get(&format!("/content/objects/{id}"))
        .accept("ContentInfo+json")
        .send()
        .await;
    r.assert(200);
    let info = r.json()["Content"].clone();
    assert_eq!(info["status"], "PUBLISHED");
    let location = info["MainLocation"]["_href"].as_str().unwrap().to_string();
    assert!(location.starts_with("/api/ibexa/v2/content/locations/1/2/"));
    let etag = r.header("etag").unwrap();
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.ContentUpdate+json"
    );
    app.get(&format!("/content/objects/{id}"))
        .header("if-none-match", &etag)
        .send()
        .await
        .assert(304);

    // A new draft from the current version, edited and published: v1 is archived.
    let r = app
        .req("COPY", &format!("/content/objects/{id}/currentversion"))
        .admin()
        .accept("Version+json")
        .send()
        .await;
    r.assert(201);
    assert_eq!(r.json()["Version"]["VersionInfo"]["versionNo"], 2);
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/objects/{id}/versions/2")
    );
    let r = app
        .req("PATCH", &format!("/content/objects/{id}/versions/2"))
        .admin()
        .accept("Version+json")
        .json_body("VersionUpdate", json!({"fields": {"field": [
            {"fieldDefinitionIdentifier": "name", "languageCode": "eng-GB", "fieldValue": "World news"},
            {"fieldDefinitionIdentifier": "name", "languageCode": "pol-PL", "fieldValue": "Wiadomości"}
        ]}}))
        .send()
        .await;
    r.assert(200);
    let v = r.json()["Version"].clone();
    assert_eq!(v["VersionInfo"]["languageCodes"], "eng-GB,pol-PL");
    let names = v["VersionInfo"]["names"]["value"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(names.len(), 2);
    publish(&app, id, 2).await;
    let r = app
        .get(&format!("/content/objects/{id}"))
        .accept("ContentInfo+json")
        .send()
        .await;
    assert_ne!(
        r.header("etag").unwrap(),
        etag,
        "a new published version changes the ETag"
    );
    assert_eq!(r.json()["Content"]["Name"], "World news");
    let versions = app
        .get(&format!("/content/objects/{id}/versions"))
        .admin()
        .accept("VersionList+json")
        .send()
        .await
        .json();
    let statuses: Vec<&str> = versions["VersionList"]["VersionItem"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["VersionInfo"]["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["ARCHIVED", "PUBLISHED"]);
    // Only Polish: the languages filter.
    let r = app
        .get(&format!(
            "/content/objects/{id}/versions/2?languages=pol-PL"
        ))
        .accept("Version+json")
        .send()
        .await;
    let fields = r.json()["Version"]["Fields"]["field"]
        .as_array()
        .unwrap()
        .clone();
    assert!(fields.iter().all(|f| f["languageCode"] == "pol-PL"));
    assert_eq!(fields[0]["fieldValue"], "Wiadomości");

    // The published version cannot be deleted or changed; the archived one can be deleted.
    app.req("DELETE", &format!("/content/objects/{id}/versions/2"))
        .admin()
        .send()
        .await
        .assert_error(403);
    app.req("PATCH", &format!("/content/objects/{id}/versions/2"))
        .admin()
        .json_body("VersionUpdate", json!({"fields": {"field": []}}))
        .send()
        .await
        .assert_error(403);
    app.req("PUBLISH", &format!("/content/objects/{id}/versions/2"))
        .admin()
        .send()
        .await
        .assert_error(403);
    app.req("DELETE", &format!("/content/objects/{id}/versions/1"))
        .admin()
        .send()
        .await
        .assert(204);
    app.get(&format!("/content/objects/{id}/versions/1"))
        .send()
        .await
        .assert_error(404);
    // The current version is published: copying it works, copying when it is a draft does not.
    let r = app
        .get(&format!("/content/objects/{id}/currentversion"))
        .send()
        .await;
    r.assert(307);
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/objects/{id}/versions/2")
    );

    // Remove the Polish translation: 406 when absent, 409 for the main one.
    app.req(
        "DELETE",
        &format!("/content/objects/{id}/translations/ger-DE"),
    )
    .admin()
    .send()
    .await
    .assert_error(406);
    app.req(
        "DELETE",
        &format!("/content/objects/{id}/translations/eng-GB"),
    )
    .admin()
    .send()
    .await
    .assert_error(409);
    app.req(
        "DELETE",
        &format!("/content/objects/{id}/translations/pol-PL"),
    )
    .admin()
    .send()
    .await
    .assert(204);
    let v = app
        .get(&format!("/content/objects/{id}/versions/2"))
        .accept("Version+json")
        .send()
        .await
        .json();
    assert_eq!(v["Version"]["VersionInfo"]["languageCodes"], "eng-GB");

    // Metadata: If-Match, Section, remote id.
    let r = app.get(&format!("/content/objects/{id}")).send().await;
    let etag = r.header("etag").unwrap();
    app.req("PATCH", &format!("/content/objects/{id}"))
        .admin()
        .header("if-match", "\"old\"")
        .json_body(
            "ContentUpdate",
            json!({"Section": {"_href": "/api/ibexa/v2/content/sections/3"}}),
        )
        .send()
        .await
        .assert_error(412);
    let r = app
        .req("PATCH", &format!("/content/objects/{id}"))
        .admin()
        .header("if-match", &etag)
        .accept("ContentInfo+json")
        .json_body("ContentUpdate", json!({"Section": {"_href": "/api/ibexa/v2/content/sections/3"}, "remoteId": "my-news", "alwaysAvailable": "false"}))
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["Content"]["Section"]["_href"],
        "/api/ibexa/v2/content/sections/3"
    );
    assert_eq!(r.json()["Content"]["alwaysAvailable"], false);
    let r = app.get("/content/objects?remoteId=my-news").send().await;
    r.assert(307);
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/objects/{id}")
    );
    app.req("PATCH", &format!("/content/objects/{id}"))
        .admin()
        .json_body(
            "ContentUpdate",
            json!({"remoteId": "9459d3c29e15006e45197295722c7ade"}),
        )
        .send()
        .await
        .assert_error(403);

    // Copy under Media, then delete both.
    let r = app
        .req("COPY", &format!("/content/objects/{id}"))
        .admin()
        .header("destination", "/api/ibexa/v2/content/locations/1/43")
        .send()
        .await;
    r.assert(201);
    let copy_href = r.header("location").unwrap();
    let copy = app
        .abs("GET", &copy_href)
        .admin()
        .accept("ContentInfo+json")
        .send()
        .await
        .json();
    assert_eq!(copy["Content"]["Name"], "World news");
    assert!(
        copy["Content"]["MainLocation"]["_href"]
            .as_str()
            .unwrap()
            .starts_with("/api/ibexa/v2/content/locations/1/43/")
    );
    app.req("DELETE", &format!("/content/objects/{id}"))
        .admin()
        .send()
        .await
        .assert(204);
    app.get(&format!("/content/objects/{id}"))
        .send()
        .await
        .assert_error(404);
    app.abs("GET", &location).send().await.assert_error(404);
    app.abs("DELETE", &copy_href)
        .admin()
        .send()
        .await
        .assert(204);
}

#[tokio::test]
async fn the_life_of_a_content_item_in_xml() {
    let app = TestApp::new().await;
    let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<ContentCreate>
  <ContentType href="/api/ibexa/v2/content/types/2" />
  <mainLanguageCode>eng-GB</mainLanguageCode>
  <LocationCreate>
    <ParentLocation href="/api/ibexa/v2/content/locations/1/2" />
    <priority>0</priority>
    <hidden>false</hidden>
    <sortField>PATH</sortField>
    <sortOrder>ASC</sortOrder>
  </LocationCreate>
  <Section href="/api/ibexa/v2/content/sections/1" />
  <alwaysAvailable>true</alwaysAvailable>
  <remoteId>remoteId12345678</remoteId>
  <fields>
    <field>
      <fieldDefinitionIdentifier>title</fieldDefinitionIdentifier>
      <languageCode>eng-GB</languageCode>
      <fieldValue>This is a title</fieldValue>
    </field>
    <field>
      <fieldDefinitionIdentifier>intro</fieldDefinitionIdentifier>
      <languageCode>eng-GB</languageCode>
      <fieldValue>
        <value key="xml">&lt;?xml version="1.0" encoding="UTF-8"?&gt;&lt;section xmlns="http://docbook.org/ns/docbook" version="5.0-variant ezpublish-1.0"&gt;&lt;para&gt;Intro&lt;/para&gt;&lt;/section&gt;</value>
      </fieldValue>
    </field>
    <field>
      <fieldDefinitionIdentifier>enable_comments</fieldDefinitionIdentifier>
      <fieldValue>true</fieldValue>
    </field>
  </fields>
</ContentCreate>"#;
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("Content+xml")
        .xml_body("ContentCreate", xml)
        .send()
        .await;
    r.assert(201);
    let x = r.xml();
    assert_eq!(x.name, "Content");
    assert_eq!(attr(&x, "remoteId"), "remoteId12345678");
    let id = attr(&x, "id");
    assert_eq!(child_text(&x, "Name"), "This is a title");
    let cv = x
        .children
        .iter()
        .find(|c| c.name == "CurrentVersion")
        .unwrap();
    let version = &cv.children[0];
    let fields = version
        .children
        .iter()
        .find(|c| c.name == "Fields")
        .unwrap();
    let intro = fields
        .children
        .iter()
        .find(|f| child_text(f, "fieldDefinitionIdentifier") == "intro")
        .unwrap();
    let value = intro
        .children
        .iter()
        .find(|c| c.name == "fieldValue")
        .unwrap();
    assert_eq!(attr(&value.children[0], "key"), "xml");
    assert!(value.children[0].text.contains("<para>Intro</para>"));

    let r = app
        .req("PUBLISH", &format!("/content/objects/{id}/versions/1"))
        .admin()
        .send()
        .await;
    r.assert(204);
    let r = app
        .get(&format!("/content/objects/{id}"))
        .accept("ContentInfo+xml")
        .send()
        .await;
    let x = r.xml();
    assert_eq!(child_text(&x, "status"), "PUBLISHED");
    // Versions, relations, the Location, in XML.
    let r = app
        .get(&format!("/content/objects/{id}/versions"))
        .admin()
        .send()
        .await;
    assert_eq!(r.xml().name, "VersionList");
    let r = app
        .get(&format!("/content/objects/{id}/versions/1/relations"))
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.xml().name, "Relations");
    let r = app
        .get(&format!("/content/objects/{id}/locations"))
        .send()
        .await;
    let x = r.xml();
    assert_eq!(x.name, "LocationList");
    let href = attr(&x.children[0], "href");
    let l = app.abs("GET", &href).send().await.xml();
    assert_eq!(l.name, "Location");
    let ci = l.children.iter().find(|c| c.name == "ContentInfo").unwrap();
    assert_eq!(attr(&ci.children[0], "id"), id);
    // A new draft in XML.
    let r = app
        .req("COPY", &format!("/content/objects/{id}/versions/1"))
        .admin()
        .send()
        .await;
    r.assert(201);
    assert_eq!(r.xml().name, "Version");
    let r = app
        .req("PATCH", &format!("/content/objects/{id}/versions/2"))
        .admin()
        .xml_body("VersionUpdate", "<VersionUpdate><fields><field><fieldDefinitionIdentifier>title</fieldDefinitionIdentifier><languageCode>eng-GB</languageCode><fieldValue>New title</fieldValue></field></fields></VersionUpdate>")
        .send()
        .await;
    r.assert(200);
    let names = r.xml().children[0]
        .children
        .iter()
        .find(|c| c.name == "names")
        .unwrap()
        .children[0]
        .text
        .clone();
    assert_eq!(names, "New title");
}

#[tokio::test]
async fn field_validation_reports_every_failing_field_in_one_400() {
    let app = TestApp::new().await;
    // Article: title required, intro required; the title too long as well.
    let mut create = folder_create("x", "1/2");
    create["ContentType"]["_href"] = json!("/api/ibexa/v2/content/types/2");
    create["fields"] = json!({"field": [
        {"fieldDefinitionIdentifier": "title", "fieldValue": "t".repeat(300)},
        {"fieldDefinitionIdentifier": "author", "fieldValue": [{"name": "A", "email": "not an email"}]}
    ]});
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("ContentInfo+json")
        .json_body("ContentCreate", create)
        .send()
        .await;
    r.assert_error(400);
    let details = r.json()["ErrorMessage"]["errorDetails"]["fields"].clone();
    let ids: Vec<i64> = details
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["_fieldTypeId"].as_i64().unwrap())
        .collect();
    assert!(ids.contains(&1), "title fails: {details}");
    assert!(ids.contains(&120), "intro is required: {details}");
    assert!(ids.len() >= 2);
    // XML shape of the details.
    let mut create = folder_create("", "1/2");
    create["fields"] = json!({"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": ""}]});
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .json_body("ContentCreate", create)
        .send()
        .await;
    r.assert_error(400);
    let x = r.xml();
    let details = x
        .children
        .iter()
        .find(|c| c.name == "errorDetails")
        .unwrap();
    let field = &details.children[0].children[0];
    assert_eq!(field.name, "field");
    assert_eq!(attr(field, "fieldTypeId"), "4");
    // Nothing was stored.
    let r = app
        .get("/content/locations/1/2/children")
        .accept("LocationList+json")
        .send()
        .await;
    assert_eq!(
        r.json()["LocationList"]["Location"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
}

#[tokio::test]
async fn creation_errors() {
    let app = TestApp::new().await;
    let post = |body: Value| {
        app.req("POST", "/content/objects")
            .admin()
            .accept("ContentInfo+json")
            .json_body("ContentCreate", body)
    };
    // Missing parent Location: 404.
    post(folder_create("x", "1/2/999"))
        .send()
        .await
        .assert_error(404);
    // Unknown content type: 404; unknown field: 400; unknown language: 400.
    let mut b = folder_create("x", "1/2");
    b["ContentType"]["_href"] = json!("/api/ibexa/v2/content/types/999");
    post(b).send().await.assert_error(404);
    let mut b = folder_create("x", "1/2");
    b["fields"]["field"][0]["fieldDefinitionIdentifier"] = json!("nope");
    let msg = post(b).send().await.assert_error(400);
    assert!(msg.contains("nope"));
    let mut b = folder_create("x", "1/2");
    b["mainLanguageCode"] = json!("xxx-XX");
    post(b).send().await.assert_error(400);
    // Missing required input: 400 naming it.
    let msg = post(json!({"mainLanguageCode": "eng-GB"}))
        .send()
        .await
        .assert_error(400);
    assert!(msg.contains("ContentType"), "{msg}");
    // Duplicate remote id: 403.
    let mut b = folder_create("x", "1/2");
    b["remoteId"] = json!("9459d3c29e15006e45197295722c7ade");
    post(b).send().await.assert_error(403);
    // Anonymous: 401.
    app.req("POST", "/content/objects")
        .json_body("ContentCreate", folder_create("x", "1/2"))
        .send()
        .await
        .assert_error(401);
    // Lookups.
    app.get("/content/objects").send().await.assert_error(400);
    app.get("/content/objects?remoteId=none")
        .send()
        .await
        .assert_error(404);
    app.get("/content/objects/999")
        .send()
        .await
        .assert_error(404);
}

#[tokio::test]
async fn version_rules_of_the_state_machine() {
    let app = TestApp::with_args(&["--language", "pol-PL=Polish"]).await;
    let id = create_folder(&app, "Drafty", "1/2").await;
    // The current version is a draft: COPY of currentversion is 403; the last version cannot go.
    app.req("COPY", &format!("/content/objects/{id}/currentversion"))
        .admin()
        .send()
        .await
        .assert_error(403);
    app.req("DELETE", &format!("/content/objects/{id}/versions/1"))
        .admin()
        .send()
        .await
        .assert_error(403);
    // A draft's translation: add Polish, remove it; 406 absent, 409 main/only.
    app.req("PATCH", &format!("/content/objects/{id}/versions/1"))
        .admin()
        .json_body("VersionUpdate", json!({"fields": {"field": [{"fieldDefinitionIdentifier": "name", "languageCode": "pol-PL", "fieldValue": "Szkic"}]}}))
        .send()
        .await
        .assert(200);
    let v = app
        .get(&format!("/content/objects/{id}/versions/1"))
        .admin()
        .accept("Version+json")
        .send()
        .await
        .json();
    let langs = v["Version"]["VersionInfo"]["VersionTranslationInfo"]["Language"].clone();
    assert_eq!(langs[1]["languageCode"], "pol-PL");
    assert_eq!(
        langs[1]["DeleteTranslation"]["_href"],
        format!("/api/ibexa/v2/content/objects/{id}/versions/1/translations/pol-PL")
    );
    assert!(langs[0].get("DeleteTranslation").is_none());
    app.req(
        "DELETE",
        &format!("/content/objects/{id}/versions/1/translations/ger-DE"),
    )
    .admin()
    .send()
    .await
    .assert_error(406);
    app.req(
        "DELETE",
        &format!("/content/objects/{id}/versions/1/translations/eng-GB"),
    )
    .admin()
    .send()
    .await
    .assert_error(409);
    app.req(
        "DELETE",
        &format!("/content/objects/{id}/versions/1/translations/pol-PL"),
    )
    .admin()
    .send()
    .await
    .assert(204);
    app.req(
        "DELETE",
        &format!("/content/objects/{id}/versions/1/translations/eng-GB"),
    )
    .admin()
    .send()
    .await
    .assert_error(409);
    publish(&app, id, 1).await;
    // Translations of a published version: 403.
    app.req(
        "DELETE",
        &format!("/content/objects/{id}/versions/1/translations/eng-GB"),
    )
    .admin()
    .send()
    .await
    .assert_error(403);
    // If-Match on a draft.
    let r = app
        .req("COPY", &format!("/content/objects/{id}/versions/1"))
        .admin()
        .send()
        .await;
    r.assert(201);
    app.req("PATCH", &format!("/content/objects/{id}/versions/2"))
        .admin()
        .header("if-match", "\"stale\"")
        .json_body("VersionUpdate", json!({}))
        .send()
        .await
        .assert_error(412);
    // Unknown versions: 404.
    app.get(&format!("/content/objects/{id}/versions/9"))
        .send()
        .await
        .assert_error(404);
    app.req("PUBLISH", &format!("/content/objects/{id}/versions/9"))
        .admin()
        .send()
        .await
        .assert_error(404);
    // Archived versions beyond the limit go on publish.
    let app = TestApp::with_args(&["--archived-versions", "2"]).await;
    let id = create_folder(&app, "Many", "1/2").await;
    publish(&app, id, 1).await;
    for n in 2..=5 {
        app.req("COPY", &format!("/content/objects/{id}/currentversion"))
            .admin()
            .send()
            .await
            .assert(201);
        publish(&app, id, n).await;
    }
    let versions = app
        .get(&format!("/content/objects/{id}/versions"))
        .admin()
        .accept("VersionList+json")
        .send()
        .await
        .json();
    let nos: Vec<i64> = versions["VersionList"]["VersionItem"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["VersionInfo"]["versionNo"].as_i64().unwrap())
        .collect();
    assert_eq!(nos, [3, 4, 5]);
}

#[tokio::test]
async fn relations_common_and_from_fields() {
    let app = TestApp::new().await;
    let (target, _) = published_folder(&app, "Target", "1/2").await;
    // An article whose image field points at the target: an ATTRIBUTE relation.
    let article = json!({
        "ContentType": {"_href": "/api/ibexa/v2/content/types/2"},
        "mainLanguageCode": "eng-GB",
        "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
        "fields": {"field": [
            {"fieldDefinitionIdentifier": "title", "fieldValue": "Story"},
            {"fieldDefinitionIdentifier": "intro", "fieldValue": {"xml": "<?xml version=\"1.0\" encoding=\"UTF-8\"?><section xmlns=\"http://docbook.org/ns/docbook\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"5.0-variant ezpublish-1.0\"><para><link xlink:href=\"ezcontent://41\">media</link></para></section>"}},
            {"fieldDefinitionIdentifier": "image", "fieldValue": {"destinationContentId": target}}
        ]}
    });
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("ContentInfo+json")
        .json_body("ContentCreate", article)
        .send()
        .await;
    r.assert(201);
    let id = r.json()["Content"]["_id"].as_i64().unwrap();
    let rel = relations_of(&app, id).await;
    let rels = rel["Relations"]["Relation"].as_array().unwrap().clone();
    let kinds: Vec<&str> = rels
        .iter()
        .map(|r| r["RelationType"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"ATTRIBUTE") && kinds.contains(&"LINK"),
        "{kinds:?}"
    );
    let attribute = rels
        .iter()
        .find(|r| r["RelationType"] == "ATTRIBUTE")
        .unwrap();
    assert_eq!(
        attribute["DestinationContent"]["_href"],
        format!("/api/ibexa/v2/content/objects/{target}")
    );
    assert_eq!(attribute["SourceFieldDefinitionIdentifier"], "image");
    // A field relation cannot be removed through the relation resource.
    let attr_href = attribute["_href"].as_str().unwrap().to_string();
    app.abs("DELETE", &attr_href)
        .admin()
        .send()
        .await
        .assert_error(403);

    // COMMON relations on the draft.
    let r = app
        .req(
            "POST",
            &format!("/content/objects/{id}/versions/1/relations"),
        )
        .admin()
        .accept("Relation+json")
        .json_body(
            "RelationCreate",
            json!({"Destination": {"_href": "/api/ibexa/v2/content/objects/4"}}),
        )
        .send()
        .await;
    r.assert(201);
    let common = r.json()["Relation"].clone();
    assert_eq!(common["RelationType"], "COMMON");
    // The reference's order: relations of no Field first (COMMON, and LINK and EMBED, which
    // the reference stores without their Field), by id; then by Field definition (image 154),
    // whatever order they were made in.
    let rel = relations_of(&app, id).await;
    let kinds: Vec<&str> = (rel["Relations"]["Relation"].as_array().unwrap().iter())
        .map(|r| r["RelationType"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["LINK", "COMMON", "ATTRIBUTE"]);
    let common_href = common["_href"].as_str().unwrap().to_string();
    assert_eq!(r.header("location").unwrap(), common_href);
    app.abs("GET", &common_href)
        .admin()
        .accept("Relation+json")
        .send()
        .await
        .assert(200);
    // Drafts need `content/versionread`, which the anonymous user lacks.
    app.abs("GET", &common_href).send().await.assert_error(401);
    // The same again: 403; a missing destination: 403; a bad href: 400.
    let relate = |body: serde_json::Value| {
        (app.req(
            "POST",
            &format!("/content/objects/{id}/versions/1/relations"),
        ))
        .admin()
        .json_body("RelationCreate", body)
    };
    let to = |href: &str| json!({"Destination": {"_href": href}});
    expect_all(vec![
        (relate(to("/api/ibexa/v2/content/objects/4")), 403),
        (relate(to("/api/ibexa/v2/content/objects/9999")), 403),
        (relate(json!({})), 400),
    ])
    .await;
    // Offset/limit.
    let r = app
        .get(&format!(
            "/content/objects/{id}/versions/1/relations?offset=1&limit=1"
        ))
        .admin()
        .accept("RelationList+json")
        .send()
        .await;
    assert_eq!(
        r.json()["Relations"]["Relation"].as_array().unwrap().len(),
        1
    );
    app.abs("DELETE", &common_href)
        .admin()
        .send()
        .await
        .assert(204);
    app.abs("DELETE", &common_href)
        .admin()
        .send()
        .await
        .assert_error(404);
    app.abs("GET", &common_href)
        .admin()
        .send()
        .await
        .assert_error(404);

    publish(&app, id, 1).await;
    // Published: no COMMON relations added or removed.
    app.req(
        "POST",
        &format!("/content/objects/{id}/versions/1/relations"),
    )
    .admin()
    .json_body(
        "RelationCreate",
        json!({"Destination": {"_href": "/api/ibexa/v2/content/objects/4"}}),
    )
    .send()
    .await
    .assert_error(403);
    let r = app
        .get(&format!("/content/objects/{id}/relations"))
        .send()
        .await;
    r.assert(307);
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/objects/{id}/versions/1/relations")
    );
    // A relation field pointing at nothing fails validation.
    let mut bad = folder_create("x", "1/2");
    bad["ContentType"]["_href"] = json!("/api/ibexa/v2/content/types/2");
    bad["fields"] = json!({"field": [
        {"fieldDefinitionIdentifier": "title", "fieldValue": "T"},
        {"fieldDefinitionIdentifier": "intro", "fieldValue": {"xml": "<section xmlns=\"http://docbook.org/ns/docbook\"><para>x</para></section>"}},
        {"fieldDefinitionIdentifier": "image", "fieldValue": {"destinationContentId": 98765}}
    ]});
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("ContentInfo+json")
        .json_body("ContentCreate", bad)
        .send()
        .await;
    r.assert_error(400);
    assert_eq!(
        r.json()["ErrorMessage"]["errorDetails"]["fields"][0]["_fieldTypeId"],
        154
    );
}

#[tokio::test]
async fn object_states_of_content() {
    let app = TestApp::new().await;
    let r = app
        .get("/content/objects/1/objectstates")
        .accept("ContentObjectStates+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["ContentObjectStates"]["ObjectState"],
        json!([{"_media-type": "application/vnd.ibexa.api.ObjectState+json", "_href": "/api/ibexa/v2/content/objectstategroups/2/objectstates/1"}])
    );
    let etag = r.header("etag").unwrap();
    // New content starts in the default state.
    let (id, _) = published_folder(&app, "Stateful", "1/2").await;
    let r = app
        .get(&format!("/content/objects/{id}/objectstates"))
        .accept("ContentObjectStates+json")
        .send()
        .await;
    assert_eq!(
        r.json()["ContentObjectStates"]["ObjectState"][0]["_href"],
        "/api/ibexa/v2/content/objectstategroups/2/objectstates/1"
    );
    // Lock content 1.
    let body = json!({"ObjectState": [{"_href": "/api/ibexa/v2/content/objectstategroups/2/objectstates/2"}]});
    app.req("PATCH", "/content/objects/1/objectstates")
        .admin()
        .header("if-match", "\"stale\"")
        .json_body("ContentObjectStates", body.clone())
        .send()
        .await
        .assert_error(412);
    // 200 with the states after the change, as the reference answers.
    let r = app
        .req("PATCH", "/content/objects/1/objectstates")
        .admin()
        .header("if-match", &etag)
        .accept("ContentObjectStates+json")
        .json_body("ContentObjectStates", body)
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["ContentObjectStates"]["ObjectState"][0]["_href"],
        "/api/ibexa/v2/content/objectstategroups/2/objectstates/2"
    );
    assert!(r.header("etag").is_some());
    let r = app.get("/content/objects/1/objectstates").send().await;
    let x = r.xml();
    assert_eq!(
        attr(&x.children[0], "href"),
        "/api/ibexa/v2/content/objectstategroups/2/objectstates/2"
    );
    // Two states of one group: 403; an unknown state: 404; anonymous: 401.
    let both = json!({"ObjectState": [
        {"_href": "/api/ibexa/v2/content/objectstategroups/2/objectstates/1"},
        {"_href": "/api/ibexa/v2/content/objectstategroups/2/objectstates/2"}
    ]});
    app.req("PATCH", "/content/objects/1/objectstates")
        .admin()
        .json_body("ContentObjectStates", both)
        .send()
        .await
        .assert_error(403);
    let unknown = json!({"ObjectState": [{"_href": "/api/ibexa/v2/content/objectstategroups/2/objectstates/77"}]});
    app.req("PATCH", "/content/objects/1/objectstates")
        .admin()
        .json_body("ContentObjectStates", unknown)
        .send()
        .await
        .assert_error(404);
    app.req("PATCH", "/content/objects/1/objectstates")
        .xml_body("ContentObjectStates", "<ContentObjectStates><ObjectState href=\"/api/ibexa/v2/content/objectstategroups/2/objectstates/1\"/></ContentObjectStates>")
        .send()
        .await
        .assert_error(401);
    app.get("/content/objects/999/objectstates")
        .send()
        .await
        .assert_error(404);
}

/// The Location at a path, as JSON.
pub async fn location(app: &TestApp, path: &str) -> Value {
    app.get(&format!("/content/locations/{path}"))
        .accept("Location+json")
        .send()
        .await
        .json()["Location"]
        .clone()
}

#[tokio::test]
async fn hide_and_reveal_content() {
    let app = TestApp::new().await;
    let (parent, path) = published_folder(&app, "Parent", "1/2").await;
    let (_, child_path) = published_folder(&app, "Child", &path).await;
    app.req("POST", &format!("/content/objects/{parent}/hide"))
        .admin()
        .send()
        .await
        .assert(204);
    let l = location(&app, &path).await;
    assert_eq!(l["hidden"], true);
    assert_eq!(l["explicitlyHidden"], false);
    assert_eq!(l["invisible"], true);
    assert_eq!(location(&app, &child_path).await["invisible"], true);
    let info = app
        .get(&format!("/content/objects/{parent}"))
        .accept("ContentInfo+json")
        .send()
        .await
        .json();
    assert_eq!(info["Content"]["isHidden"], true);
    // Hiding again keeps the state.
    app.req("POST", &format!("/content/objects/{parent}/hide"))
        .admin()
        .send()
        .await
        .assert(204);
    app.req("POST", &format!("/content/objects/{parent}/reveal"))
        .admin()
        .send()
        .await
        .assert(204);
    assert_eq!(location(&app, &path).await["invisible"], false);
    assert_eq!(location(&app, &child_path).await["invisible"], false);
    app.req("POST", "/content/objects/999/hide")
        .admin()
        .send()
        .await
        .assert_error(404);
    app.req("POST", &format!("/content/objects/{parent}/hide"))
        .send()
        .await
        .assert_error(401);
}

#[tokio::test]
async fn binary_fields_are_stored_outside_the_row_and_served() {
    let storage = tempfile::tempdir().unwrap();
    let dir = storage.path().to_str().unwrap().to_string();
    let app = TestApp::with_args(&["--storage-dir", &dir]).await;
    // A 1x1 PNG.
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    let body = json!({
        "ContentType": {"_href": "/api/ibexa/v2/content/types/5"},
        "mainLanguageCode": "eng-GB",
        "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/43/51"}},
        "fields": {"field": [
            {"fieldDefinitionIdentifier": "name", "fieldValue": "Pixel"},
            {"fieldDefinitionIdentifier": "image", "fieldValue": {"fileName": "pixel.png", "data": png, "alternativeText": "A pixel"}}
        ]}
    });
    let c = create_content(&app, body).await;
    let id = c["_id"].as_i64().unwrap();
    let image = field_of(&c, "image")["fieldValue"].clone();
    assert_eq!(image["fileName"], "pixel.png");
    assert_eq!(image["width"], 1);
    assert_eq!(image["mime"], "image/png");
    assert_eq!(image["fileSize"], 70);
    let uri = image["uri"].as_str().unwrap().to_string();
    assert!(uri.starts_with("/var/storage/"), "{uri}");
    // The URI serves the bytes.
    let r = app.abs("GET", &uri).send().await;
    r.assert(200);
    assert_eq!(r.bytes.len(), 70);
    assert_eq!(&r.bytes[1..4], b"PNG");
    // Image variations.
    let variation = image["variations"]["small"]["href"]
        .as_str()
        .unwrap()
        .to_string();
    let r = app
        .abs("GET", &variation)
        .admin()
        .accept("ContentImageVariation+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["ContentImageVariation"]["uri"], uri.as_str());
    let field_id = field_of(&c, "image")["id"].as_i64().unwrap();
    app.get(&format!(
        "/content/binary/images/{id}-{field_id}-1/variations/gigantic"
    ))
    .admin()
    .send()
    .await
    .assert_error(404);
    app.abs("GET", &variation).send().await.assert_error(401);
    // Bad base64: a field failure.
    let bad = json!({
        "ContentType": {"_href": "/api/ibexa/v2/content/types/5"},
        "mainLanguageCode": "eng-GB",
        "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/43/51"}},
        "fields": {"field": [
            {"fieldDefinitionIdentifier": "name", "fieldValue": "Broken"},
            {"fieldDefinitionIdentifier": "image", "fieldValue": {"fileName": "x.png", "data": "!!!not base64!!!"}}
        ]}
    });
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("ContentInfo+json")
        .json_body("ContentCreate", bad)
        .send()
        .await;
    r.assert_error(400);
    assert_eq!(
        r.json()["ErrorMessage"]["errorDetails"]["fields"][0]["_fieldTypeId"],
        118
    );
}

#[tokio::test]
async fn content_types_with_content_refuse_deletion_and_singular_fields() {
    let app = TestApp::new().await;
    // Folders exist (clean install): type 1 cannot be deleted.
    app.req("DELETE", "/content/types/1")
        .admin()
        .send()
        .await
        .assert_error(403);
    // A type with content cannot get an ezuser field.
    app.req("POST", "/content/types/1")
        .admin()
        .json_body("ContentTypeUpdate", json!({}))
        .send()
        .await
        .assert(201);
    let r = app
        .req("POST", "/content/types/1/draft/fieldDefinitions")
        .admin()
        .json_body(
            "FieldDefinitionCreate",
            json!({"identifier": "account", "fieldType": "ezuser"}),
        )
        .send()
        .await;
    assert!(r.assert_error(403).contains("content"));
    // A new field on a type with content: existing content gets it empty on its next draft.
    app.req("POST", "/content/types/1/draft/fieldDefinitions")
        .admin()
        .json_body(
            "FieldDefinitionCreate",
            json!({"identifier": "tagline", "fieldType": "ezstring"}),
        )
        .send()
        .await
        .assert(201);
    app.req("PUBLISH", "/content/types/1/draft")
        .admin()
        .send()
        .await
        .assert(200);
    let r = app
        .req("COPY", "/content/objects/41/currentversion")
        .admin()
        .accept("Version+json")
        .send()
        .await;
    r.assert(201);
    publish(&app, 41, 2).await;
    let v = app
        .get("/content/objects/41")
        .admin()
        .accept("Content+json")
        .send()
        .await
        .json();
    let fields = v["Content"]["CurrentVersion"]["Version"]["Fields"]["field"]
        .as_array()
        .unwrap()
        .clone();
    assert!(
        fields
            .iter()
            .any(|f| f["fieldDefinitionIdentifier"] == "tagline")
    );
}

/// What an importer pays per item, pinned (issue 14): the statements of a folder's create and
/// its first publication, with warm caches, each with its event in the outbox (PostgreSQL
/// takes advisory locks besides).
#[tokio::test]
async fn create_and_publish_take_a_pinned_number_of_statements() {
    let app = TestApp::new().await;
    let warm = create_folder(&app, "Warm", "1/2").await;
    publish(&app, warm, 1).await;
    let before = app.statements();
    let id = create_folder(&app, "Counted", "1/2").await;
    let create = app.statements() - before;
    let before = app.statements();
    publish(&app, id, 1).await;
    let published = app.statements() - before;
    let pinned = match backend() {
        "postgres" => (10, 19),
        _ => (9, 16),
    };
    assert_eq!(
        (create, published),
        pinned,
        "statements of create and publish"
    );
}
