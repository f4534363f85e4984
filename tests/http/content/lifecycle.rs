//! A content item's life in JSON and in XML: create, read, drafts, versions, publish, copy
//! and delete.

use super::*;

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
    let object = |method: &str, rest: &str| {
        app.req(method, &format!("/content/objects/{id}{rest}"))
            .admin()
    };
    expect_all(vec![
        (object("DELETE", "/versions/2"), 403),
        (
            object("PATCH", "/versions/2")
                .json_body("VersionUpdate", json!({"fields": {"field": []}})),
            403,
        ),
        (object("PUBLISH", "/versions/2"), 403),
        (object("DELETE", "/versions/1"), 204),
        (app.get(&format!("/content/objects/{id}/versions/1")), 404),
    ])
    .await;
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
    expect_all(vec![
        (object("DELETE", "/translations/ger-DE"), 406),
        (object("DELETE", "/translations/eng-GB"), 409),
        (object("DELETE", "/translations/pol-PL"), 204),
    ])
    .await;
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
    object("PATCH", "")
        .header("if-match", "\"old\"")
        .json_body(
            "ContentUpdate",
            json!({"Section": {"_href": "/api/ibexa/v2/content/sections/3"}}),
        )
        .send()
        .await
        .assert_error(412);
    let r = object("PATCH", "")
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
    object("PATCH", "")
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
    expect_all(vec![
        (object("DELETE", ""), 204),
        (app.get(&format!("/content/objects/{id}")), 404),
        (app.abs("GET", &location), 404),
        (app.abs("DELETE", &copy_href).admin(), 204),
    ])
    .await;
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

/// The same draft published by several requests at once: one publishes it and places the
/// item, the others are told it is no draft any more (on PostgreSQL they ran side by side);
/// the item keeps its one Location as its main Location.
#[tokio::test]
async fn a_draft_published_twice_at_once_is_published_once() {
    let app = TestApp::new().await;
    for round in 0..4 {
        let id = create_folder(&app, &format!("Twice {round}"), "1/2").await;
        let publications = (0..3).map(|_| {
            (app.req("PUBLISH", &format!("/content/objects/{id}/versions/1")))
                .admin()
                .send()
        });
        let done = futures_util::future::join_all(publications).await;
        let mut statuses: Vec<u16> = done.iter().map(|r| r.status.as_u16()).collect();
        statuses.sort();
        assert_eq!(statuses, [204, 403, 403], "round {round}");
        let rows = app
            .query(
                "SELECT c.main_location_id, l.id FROM contents c \
                 JOIN locations l ON l.content_id = c.id WHERE c.id = ?",
                vec![id.into()],
            )
            .await;
        assert_eq!(rows.len(), 1, "one Location: {rows:?}");
        assert_eq!(rows[0]["main_location_id"], rows[0]["id"], "{rows:?}");
    }
}
