//! Relations of content: common ones, and those that come from relation and rich text
//! fields.

use super::*;

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
    let relate = |body: serde_json::Value| {
        (app.req(
            "POST",
            &format!("/content/objects/{id}/versions/1/relations"),
        ))
        .admin()
        .json_body("RelationCreate", body)
    };
    let to = |href: &str| json!({"Destination": {"_href": href}});
    let r = relate(to("/api/ibexa/v2/content/objects/4"))
        .accept("Relation+json")
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
    expect_all(vec![
        (
            app.abs("GET", &common_href).admin().accept("Relation+json"),
            200,
        ),
        // Drafts need `content/versionread`, which the anonymous user lacks.
        (app.abs("GET", &common_href), 401),
        // The same again: 403; a missing destination: 403; a bad href: 400.
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
    expect_all(vec![
        (app.abs("DELETE", &common_href).admin(), 204),
        (app.abs("DELETE", &common_href).admin(), 404),
        (app.abs("GET", &common_href).admin(), 404),
    ])
    .await;

    publish(&app, id, 1).await;
    // Published: no COMMON relations added or removed.
    relate(to("/api/ibexa/v2/content/objects/4"))
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

/// The relations a version's Fields imply, in the order the reference lists them (its
/// `RelationProcessor` inserts them so): a rich text's links before its embeds; of each, the
/// items of the Locations named (`ezlocation://`; none for a Location that is not there), then
/// the elements of one name after the other (`link`, `ezlink`; `ezembedinline`, `ezembed`) in
/// the document's order; an edited version keeps the relations still there in their places
/// and appends the new ones. Read in JSON and XML.
#[tokio::test]
async fn rich_text_relations_come_in_the_references_order() {
    let app = TestApp::new().await;
    let doc = |body: &str| json!({"xml": format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?><section xmlns=\"http://docbook.org/ns/docbook\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"5.0-variant ezpublish-1.0\">{body}</section>")});
    let first = doc("<ezembed xlink:href=\"ezcontent://49\" view=\"embed\"/>\
         <para><ezembedinline xlink:href=\"ezcontent://50\" view=\"embed-inline\"/> \
         <link xlink:href=\"ezcontent://51\">a</link> <link xlink:href=\"ezcontent://41\">b</link> \
         <link xlink:href=\"ezcontent://51\">a again</link> \
         <link xlink:href=\"ezlocation://2\">home</link> <link xlink:href=\"ezlocation://99999\">gone</link></para>");
    let article = json!({
        "ContentType": {"_href": "/api/ibexa/v2/content/types/2"},
        "mainLanguageCode": "eng-GB",
        "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
        "fields": {"field": [
            {"fieldDefinitionIdentifier": "title", "fieldValue": "Ordered"},
            {"fieldDefinitionIdentifier": "intro", "fieldValue": first}
        ]}
    });
    let r = (app.req("POST", "/content/objects").admin())
        .accept("ContentInfo+json")
        .json_body("ContentCreate", article)
        .send()
        .await;
    r.assert(201);
    let id = r.json()["Content"]["_id"].as_i64().unwrap();
    let listed = async |no: i64| {
        let path = format!("/content/objects/{id}/versions/{no}/relations");
        let r = app
            .get(&path)
            .admin()
            .accept("RelationList+json")
            .send()
            .await;
        r.assert(200);
        let json: Vec<(String, i64)> = (r.json()["Relations"]["Relation"].as_array().unwrap())
            .iter()
            .map(|r| {
                let to = r["DestinationContent"]["_href"].as_str().unwrap();
                (r["RelationType"].as_str().unwrap().to_string(), last_id(to))
            })
            .collect();
        let r = app
            .get(&path)
            .admin()
            .accept("RelationList+xml")
            .send()
            .await;
        r.assert(200);
        let xml: Vec<(String, i64)> = (r.xml().children.iter())
            .filter(|c| c.name == "Relation")
            .map(|rel| {
                let to = rel.children.iter().find(|c| c.name == "DestinationContent");
                let href = attr(to.unwrap(), "href");
                (child_text(rel, "RelationType"), last_id(&href))
            })
            .collect();
        assert_eq!(json, xml, "the same list in both formats");
        json
    };
    let pairs = |l: &[(&str, i64)]| -> Vec<(String, i64)> {
        l.iter().map(|(k, i)| (k.to_string(), *i)).collect()
    };
    assert_eq!(
        listed(1).await,
        pairs(&[
            ("LINK", 1),
            ("LINK", 51),
            ("LINK", 41),
            ("EMBED", 50),
            ("EMBED", 49)
        ])
    );
    publish(&app, id, 1).await;

    // A new version without the links to 1 and 41, with a link to 4 first: the kept ones keep
    // their places, the new one comes last.
    (app.req("COPY", &format!("/content/objects/{id}/currentversion"))
        .admin())
    .send()
    .await
    .assert(201);
    let second = doc(
        "<para><link xlink:href=\"ezcontent://4\">c</link> <link xlink:href=\"ezcontent://51\">a</link> \
         <ezembedinline xlink:href=\"ezcontent://50\" view=\"embed-inline\"/></para>\
         <ezembed xlink:href=\"ezcontent://49\" view=\"embed\"/>",
    );
    (app.req("PATCH", &format!("/content/objects/{id}/versions/2"))
        .admin())
    .json_body(
        "VersionUpdate",
        json!({"fields": {"field": [
            {"fieldDefinitionIdentifier": "intro", "languageCode": "eng-GB", "fieldValue": second}
        ]}}),
    )
    .send()
    .await
    .assert(200);
    assert_eq!(
        listed(2).await,
        pairs(&[("LINK", 51), ("EMBED", 50), ("EMBED", 49), ("LINK", 4)])
    );
}
