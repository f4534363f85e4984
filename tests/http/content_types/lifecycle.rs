//! A content type's life in JSON and in XML: create, draft, Field definition changes,
//! publish, copy and delete; and the identifiers the reference takes.

use super::*;

#[tokio::test]
async fn a_type_lives_through_create_draft_publish_copy_and_delete_in_json() {
    let app = TestApp::new().await;
    let group = create_group(&app, "blog").await;
    let r = post_type(
        &app,
        group,
        "blog_post",
        vec![
            field("title", "ezstring", 1),
            field("body", "ezrichtext", 2),
            field("rating", "ezinteger", 3),
            field("published", "ezdate", 4),
        ],
    )
    .await;
    r.assert(201);
    let ct = r.json()["ContentType"].clone();
    let id = ct["id"].as_i64().unwrap();
    assert_eq!(ct["status"], "DRAFT");
    assert_eq!(
        ct["_href"],
        format!("/api/ibexa/v2/content/types/{id}/draft")
    );
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/types/{id}/draft")
    );
    assert_eq!(field_ids(&ct).len(), 4);
    // Not defined yet.
    app.get(&format!("/content/types/{id}"))
        .send()
        .await
        .assert_error(404);

    let r = publish_draft(&app, id)
        .accept("ContentType+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["ContentType"]["status"], "DEFINED");
    app.get(&format!("/content/types/{id}/draft"))
        .send()
        .await
        .assert_error(404);
    let loaded = app
        .get(&format!("/content/types/{id}"))
        .accept("ContentType+json")
        .send()
        .await;
    loaded.assert(200);
    let etag = loaded.header("etag").unwrap();

    // A draft of the defined type, with changed metadata.
    let r = new_draft(&app, id)
        .accept("ContentTypeInfo+json")
        .json_body(
            "ContentTypeUpdate",
            json!({"names": {"value": [{"_languageCode": "eng-GB", "#text": "Post"}]}}),
        )
        .send()
        .await;
    r.assert(201);
    assert_eq!(r.json()["ContentTypeInfo"]["status"], "DRAFT");
    assert!(
        r.json()["ContentTypeInfo"]
            .get("FieldDefinitions")
            .is_none()
    );

    // Add a Field definition to the draft, change one, remove one, reorder.
    let draft_fields = format!("/content/types/{id}/draft/fieldDefinitions");
    let r = app
        .req("POST", &draft_fields)
        .admin()
        .accept("FieldDefinition+json")
        .json_body("FieldDefinitionCreate", field("tags", "ezkeyword", 5))
        .send()
        .await;
    r.assert(201);
    let tags = r.json()["FieldDefinition"]["id"].as_i64().unwrap();
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/types/{id}/draft/fieldDefinitions/{tags}")
    );
    let fields = field_ids(&ct);
    let (rating, date) = (fields[2].1, fields[3].1);
    let r = app
        .req("PATCH", &format!("{draft_fields}/{rating}"))
        .admin()
        .accept("FieldDefinition+json")
        .json_body(
            "FieldDefinitionUpdate",
            json!({"position": 0, "isRequired": true, "fieldGroup": "meta"}),
        )
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["FieldDefinition"]["isRequired"], true);
    app.req("DELETE", &format!("{draft_fields}/{date}"))
        .admin()
        .send()
        .await
        .assert(204);

    let r = app
        .get(&format!("/content/types/{id}/draft"))
        .accept("ContentType+json")
        .send()
        .await;
    let order: Vec<String> = field_ids(&r.json()["ContentType"])
        .into_iter()
        .map(|f| f.0)
        .collect();
    assert_eq!(order, ["rating", "title", "body", "tags"]);
    // The defined type is unchanged until the draft is published.
    let r = app
        .get(&format!("/content/types/{id}"))
        .accept("ContentType+json")
        .send()
        .await;
    assert_eq!(r.header("etag").unwrap(), etag);
    assert_eq!(field_ids(&r.json()["ContentType"]).len(), 4);

    publish_draft(&app, id).send().await.assert(200);
    let r = app
        .get(&format!("/content/types/{id}"))
        .accept("ContentType+json")
        .send()
        .await;
    assert_ne!(r.header("etag").unwrap(), etag);
    let ct = r.json()["ContentType"].clone();
    assert_eq!(ct["names"]["value"][0]["#text"], "Post");
    let order: Vec<String> = field_ids(&ct).into_iter().map(|f| f.0).collect();
    assert_eq!(order, ["rating", "title", "body", "tags"]);

    // Copy, then delete the copy.
    let r = app
        .req("COPY", &format!("/content/types/{id}"))
        .admin()
        .send()
        .await;
    r.assert(201);
    let location = r.header("location").unwrap();
    let copy_path = location.strip_prefix(PREFIX).unwrap().to_string();
    let copy = app
        .get(&copy_path)
        .accept("ContentType+json")
        .send()
        .await
        .json()["ContentType"]
        .clone();
    assert_ne!(copy["id"], ct["id"]);
    assert_eq!(
        copy["identifier"],
        format!("copy_of_blog_post_{}", copy["id"])
    );
    assert_ne!(copy["remoteId"], ct["remoteId"]);
    assert_eq!(field_ids(&copy).len(), 4);
    assert!(
        field_ids(&copy)
            .iter()
            .all(|f| !field_ids(&ct).iter().any(|o| o.1 == f.1))
    );
    app.req("DELETE", &copy_path)
        .admin()
        .send()
        .await
        .assert(204);
    app.get(&copy_path).send().await.assert_error(404);
}

#[tokio::test]
async fn a_type_lives_through_create_and_publish_in_xml() {
    let app = TestApp::new().await;
    let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<ContentTypeCreate>
  <identifier>newContentType</identifier>
  <names><value languageCode="eng-GB">New content type</value></names>
  <descriptions><value languageCode="eng-GB">This is a description</value></descriptions>
  <remoteId>remoteId-qwert548</remoteId>
  <urlAliasSchema>&lt;title&gt;</urlAliasSchema>
  <nameSchema>&lt;title&gt;</nameSchema>
  <isContainer>true</isContainer>
  <mainLanguageCode>eng-GB</mainLanguageCode>
  <defaultAlwaysAvailable>true</defaultAlwaysAvailable>
  <defaultSortField>PATH</defaultSortField>
  <defaultSortOrder>ASC</defaultSortOrder>
  <FieldDefinitions>
    <FieldDefinition>
      <identifier>title</identifier>
      <fieldType>ezstring</fieldType>
      <fieldGroup>content</fieldGroup>
      <position>1</position>
      <isTranslatable>true</isTranslatable>
      <isRequired>true</isRequired>
      <isInfoCollector>false</isInfoCollector>
      <defaultValue>New Title</defaultValue>
      <isSearchable>true</isSearchable>
      <names><value languageCode="eng-GB">Title</value></names>
      <descriptions><value languageCode="eng-GB">This is the title</value></descriptions>
    </FieldDefinition>
    <FieldDefinition>
      <identifier>summary</identifier>
      <fieldType>ezrichtext</fieldType>
      <fieldGroup>content</fieldGroup>
      <position>2</position>
      <isTranslatable>true</isTranslatable>
      <isRequired>false</isRequired>
      <isInfoCollector>false</isInfoCollector>
      <isSearchable>true</isSearchable>
      <names><value languageCode="eng-GB">Summary</value></names>
      <descriptions><value languageCode="eng-GB">This is the summary</value></descriptions>
    </FieldDefinition>
  </FieldDefinitions>
</ContentTypeCreate>"#;
    let r = app
        .req("POST", "/content/typegroups/1/types?publish=true")
        .admin()
        .accept("ContentType+xml")
        .xml_body("ContentTypeCreate", xml)
        .send()
        .await;
    r.assert(201);
    let x = r.xml();
    assert_eq!(x.name, "ContentType");
    assert_eq!(child_text(&x, "status"), "DEFINED");
    assert_eq!(child_text(&x, "nameSchema"), "<title>");
    let id = child_text(&x, "id");
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/types/{id}")
    );
    let fds = x
        .children
        .iter()
        .find(|c| c.name == "FieldDefinitions")
        .unwrap();
    assert_eq!(fds.children.len(), 2);
    assert_eq!(child_text(&fds.children[0], "defaultValue"), "New Title");
    assert_eq!(child_text(&fds.children[0], "fieldGroup"), "content");

    // Draft, FieldDefinitionCreate as in the reference example, PATCH in XML, publish.
    new_draft(&app, &id)
        .xml_body(
            "ContentTypeUpdate",
            "<ContentTypeUpdate><isContainer>false</isContainer></ContentTypeUpdate>",
        )
        .send()
        .await
        .assert(201);
    let r = app
        .req(
            "POST",
            &format!("/content/types/{id}/draft/fieldDefinitions"),
        )
        .admin()
        .xml_body(
            "FieldDefinitionCreate",
            r#"<?xml version="1.0" encoding="UTF-8"?>
<FieldDefinitionCreate>
    <identifier>name</identifier>
    <fieldType>ezstring</fieldType>
    <isRequired>true</isRequired>
    <validatorConfiguration>
    <value key="StringLengthValidator">
        <value key="maxStringLength">32</value>
        <value key="minStringLength">8</value>
    </value>
</validatorConfiguration>
</FieldDefinitionCreate>"#,
        )
        .send()
        .await;
    r.assert(201);
    let fd = r.xml();
    assert_eq!(child_text(&fd, "position"), "3");
    let fid = child_text(&fd, "id");
    let r = app
        .req("PATCH", &format!("/content/types/{id}/draft/fieldDefinitions/{fid}"))
        .admin()
        .xml_body(
            "FieldDefinitionUpdate",
            "<FieldDefinitionUpdate><fieldGroup>new_field_group</fieldGroup><position>10</position></FieldDefinitionUpdate>",
        )
        .send()
        .await;
    r.assert(200);
    assert_eq!(child_text(&r.xml(), "position"), "10");
    let r = publish_draft(&app, &id).send().await;
    r.assert(200);
    let x = r.xml();
    assert_eq!(child_text(&x, "isContainer"), "false");
    let fds = x
        .children
        .iter()
        .find(|c| c.name == "FieldDefinitions")
        .unwrap();
    let name = fds
        .children
        .iter()
        .find(|f| child_text(f, "identifier") == "name")
        .unwrap();
    let v = name
        .children
        .iter()
        .find(|c| c.name == "validatorConfiguration")
        .unwrap();
    let slv = &v.children[0];
    assert_eq!(attr(slv, "key"), "StringLengthValidator");
    let max = slv
        .children
        .iter()
        .find(|c| attr(c, "key") == "maxStringLength")
        .unwrap();
    assert_eq!(max.text, "32");
}

/// Identifiers are any non-empty text, as the reference takes them (`tags-test`).
#[tokio::test]
async fn identifiers_take_what_the_reference_takes() {
    let app = TestApp::new().await;
    let r = app
        .req("POST", "/content/typegroups/1/types?publish=true")
        .admin()
        .accept("ContentType+json")
        .json_body(
            "ContentTypeCreate",
            type_create("tags-test", vec![field("tag-list", "ezstring", 1)]),
        )
        .send()
        .await;
    r.assert(201);
    assert_eq!(r.json()["ContentType"]["identifier"], "tags-test");
    app.get("/content/types?identifier=tags-test")
        .admin()
        .send()
        .await
        .assert(200);
    let r = app
        .req("POST", "/content/typegroups/1/types")
        .admin()
        .json_body(
            "ContentTypeCreate",
            type_create(" ", vec![field("a", "ezstring", 1)]),
        )
        .send()
        .await;
    r.assert_error(400);
}
