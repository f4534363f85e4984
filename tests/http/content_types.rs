//! Content type groups, content types, drafts and Field definitions (spec 2.12, 3.2, 4.8,
//! 4.9): the life of a type in both formats and every error row.

use crate::support::*;
use serde_json::{Value, json};

async fn create_group(app: &TestApp, identifier: &str) -> i64 {
    let r = app
        .req("POST", "/content/typegroups")
        .admin()
        .accept("ContentTypeGroup+json")
        .json_body("ContentTypeGroupInput", json!({"identifier": identifier}))
        .send()
        .await;
    r.assert(201);
    r.json()["ContentTypeGroup"]["id"].as_i64().unwrap()
}

fn field(identifier: &str, field_type: &str, position: i64) -> Value {
    json!({
        "identifier": identifier, "fieldType": field_type, "position": position,
        "isRequired": false, "isTranslatable": true,
        "names": {"value": [{"_languageCode": "eng-GB", "#text": identifier}]}
    })
}

pub(crate) fn type_create(identifier: &str, fields: Vec<Value>) -> Value {
    json!({
        "identifier": identifier,
        "names": {"value": [{"_languageCode": "eng-GB", "#text": "Blog post"}]},
        "mainLanguageCode": "eng-GB",
        "nameSchema": "<title>",
        "isContainer": false,
        "FieldDefinitions": {"FieldDefinition": fields}
    })
}

/// `POST /content/typegroups/{group}/types` of a type with `fields` (JSON, as admin).
async fn post_type(app: &TestApp, group: i64, identifier: &str, fields: Vec<Value>) -> Resp {
    app.req("POST", &format!("/content/typegroups/{group}/types"))
        .admin()
        .accept("ContentType+json")
        .json_body("ContentTypeCreate", type_create(identifier, fields))
        .send()
        .await
}

fn field_ids(ct: &Value) -> Vec<(String, i64, i64)> {
    ct["FieldDefinitions"]["FieldDefinition"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["identifier"].as_str().unwrap().to_string(),
                f["id"].as_i64().unwrap(),
                f["position"].as_i64().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn clean_install_groups_and_types_have_the_reference_ids() {
    let app = TestApp::new().await;
    let r = app
        .get("/content/typegroups")
        .accept("ContentTypeGroupList+json")
        .send()
        .await;
    r.assert(200);
    let groups = id_and(
        &items(&r.json(), "ContentTypeGroupList", "ContentTypeGroup"),
        "id",
        "identifier",
    );
    assert_eq!(
        groups,
        [
            (1, "Content".into()),
            (2, "Users".into()),
            (3, "Media".into())
        ]
    );

    let r = app
        .get("/content/types")
        .accept("ContentTypeInfoList+json")
        .send()
        .await;
    r.assert(200);
    let types = id_and(
        &items(&r.json(), "ContentTypeInfoList", "ContentType"),
        "id",
        "identifier",
    );
    assert_eq!(
        types,
        [
            (1, "folder".into()),
            (2, "article".into()),
            (3, "user_group".into()),
            (4, "user".into()),
            (5, "image".into()),
            (12, "file".into())
        ]
    );

    let r = app
        .get("/content/types/2")
        .accept("ContentType+json")
        .send()
        .await;
    r.assert(200);
    let ct = r.json()["ContentType"].clone();
    assert_eq!(ct["status"], "DEFINED");
    assert_eq!(ct["remoteId"], "c15b600eb9198b1924063b5a68758232");
    assert_eq!(ct["nameSchema"], "<short_title|title>");
    assert_eq!(ct["isContainer"], true);
    assert_eq!(ct["defaultAlwaysAvailable"], false);
    let fields = field_ids(&ct);
    let ids: Vec<i64> = fields.iter().map(|f| f.1).collect();
    assert_eq!(ids, [1, 152, 153, 120, 121, 123, 154]);
    let title = &ct["FieldDefinitions"]["FieldDefinition"][0];
    assert_eq!(title["fieldType"], "ezstring");
    assert_eq!(title["isRequired"], true);
    assert_eq!(title["defaultValue"], "New article");
    assert_eq!(
        title["validatorConfiguration"]["StringLengthValidator"]["maxStringLength"],
        255
    );
    assert_eq!(
        ct["FieldDefinitions"]["FieldDefinition"][6]["fieldType"],
        "ezobjectrelation"
    );

    let user = app
        .get("/content/types/4")
        .accept("ContentType+json")
        .send()
        .await
        .json();
    let account = &user["ContentType"]["FieldDefinitions"]["FieldDefinition"][2];
    assert_eq!(account["identifier"], "user_account");
    assert_eq!(account["fieldType"], "ezuser");
    assert_eq!(account["id"], 12);
    assert_eq!(account["isTranslatable"], false);

    // XML, with the reference's element order.
    let r = app.get("/content/types/1").send().await;
    let x = r.xml();
    let names: Vec<&str> = x.children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "id",
            "status",
            "identifier",
            "names",
            "descriptions",
            "creationDate",
            "modificationDate",
            "Creator",
            "Modifier",
            "Groups",
            "Draft",
            "remoteId",
            "urlAliasSchema",
            "nameSchema",
            "isContainer",
            "mainLanguageCode",
            "defaultAlwaysAvailable",
            "defaultSortField",
            "defaultSortOrder",
            "FieldDefinitions"
        ]
    );
    assert_eq!(attr(&x, "href"), "/api/ibexa/v2/content/types/1");
    let fd = &x.children.last().unwrap().children[0];
    let fd_names: Vec<&str> = fd.children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        fd_names,
        [
            "id",
            "identifier",
            "fieldType",
            "fieldGroup",
            "position",
            "isTranslatable",
            "isRequired",
            "isInfoCollector",
            "defaultValue",
            "isSearchable",
            "names",
            "descriptions",
            "fieldSettings",
            "validatorConfiguration"
        ]
    );
    assert_eq!(
        attr(fd, "href"),
        "/api/ibexa/v2/content/types/1/fieldDefinitions/4"
    );
}

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

    let r = app
        .req("PUBLISH", &format!("/content/types/{id}/draft"))
        .admin()
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
    let r = app
        .req("POST", &format!("/content/types/{id}"))
        .admin()
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

    app.req("PUBLISH", &format!("/content/types/{id}/draft"))
        .admin()
        .send()
        .await
        .assert(200);
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
    app.req("POST", &format!("/content/types/{id}"))
        .admin()
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
    let r = app
        .req("PUBLISH", &format!("/content/types/{id}/draft"))
        .admin()
        .send()
        .await;
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

#[tokio::test]
async fn group_lookups_updates_and_deletion_rules() {
    let app = TestApp::new().await;
    let r = app.get("/content/typegroups?identifier=Media").send().await;
    r.assert(307);
    assert_eq!(
        r.header("location").unwrap(),
        "/api/ibexa/v2/content/typegroups/3"
    );
    app.get("/content/typegroups?identifier=None")
        .send()
        .await
        .assert_error(404);

    let r = app
        .get("/content/typegroups/2")
        .accept("ContentTypeGroup+json")
        .send()
        .await;
    r.assert(200);
    let g = r.json()["ContentTypeGroup"].clone();
    assert_eq!(g["identifier"], "Users");
    assert_eq!(
        g["ContentTypes"]["_href"],
        "/api/ibexa/v2/content/typegroups/2/types"
    );
    assert_eq!(g["Creator"]["_href"], "/api/ibexa/v2/user/users/14");
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.ContentTypeGroupInput+json"
    );
    let etag = r.header("etag").unwrap();

    // The group's types, as infos or full types.
    let r = app
        .get("/content/typegroups/2/types")
        .accept("ContentTypeInfoList+json")
        .send()
        .await;
    let ids: Vec<i64> = r.json()["ContentTypeInfoList"]["ContentType"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [3, 4]);
    let r = app
        .get("/content/typegroups/2/types")
        .accept("ContentTypeList+json")
        .send()
        .await;
    assert!(r.json()["ContentTypeList"]["ContentType"][0]["FieldDefinitions"].is_object());

    // Duplicate identifiers are 403, on create and update; a missing identifier is 400.
    app.req("POST", "/content/typegroups")
        .admin()
        .json_body("ContentTypeGroupInput", json!({"identifier": "Users"}))
        .send()
        .await
        .assert_error(403);
    app.req("POST", "/content/typegroups")
        .admin()
        .json_body("ContentTypeGroupInput", json!({}))
        .send()
        .await
        .assert_error(400);
    app.req("PATCH", "/content/typegroups/2")
        .admin()
        .json_body("ContentTypeGroupInput", json!({"identifier": "Media"}))
        .send()
        .await
        .assert_error(403);
    app.req("PATCH", "/content/typegroups/2")
        .admin()
        .header("if-match", "\"stale\"")
        .json_body("ContentTypeGroupInput", json!({"identifier": "People"}))
        .send()
        .await
        .assert_error(412);
    let r = app
        .req("PATCH", "/content/typegroups/2")
        .admin()
        .header("if-match", &etag)
        .accept("ContentTypeGroup+xml")
        .xml_body(
            "ContentTypeGroupInput",
            "<ContentTypeGroupInput><identifier>People</identifier></ContentTypeGroupInput>",
        )
        .send()
        .await;
    r.assert(200);
    assert_eq!(child_text(&r.xml(), "identifier"), "People");
    app.req("PATCH", "/content/typegroups/99")
        .admin()
        .json_body("ContentTypeGroupInput", json!({"identifier": "X"}))
        .send()
        .await
        .assert_error(404);

    // A group that holds types cannot go; an empty one can.
    app.req("DELETE", "/content/typegroups/3")
        .admin()
        .send()
        .await
        .assert_error(403);
    let empty = create_group(&app, "empty").await;
    app.req("DELETE", &format!("/content/typegroups/{empty}"))
        .admin()
        .send()
        .await
        .assert(204);
    app.get(&format!("/content/typegroups/{empty}"))
        .send()
        .await
        .assert_error(404);
    app.req("DELETE", &format!("/content/typegroups/{empty}"))
        .admin()
        .send()
        .await
        .assert_error(404);
}

#[tokio::test]
async fn type_creation_errors() {
    let app = TestApp::new().await;
    let post = |body: Value| {
        app.req("POST", "/content/typegroups/1/types")
            .admin()
            .accept("ContentType+json")
            .json_body("ContentTypeCreate", body)
    };
    // Identifier taken: 403.
    post(type_create("folder", vec![field("title", "ezstring", 1)]))
        .send()
        .await
        .assert_error(403);
    // Unknown field type: 400 naming the field.
    let msg = post(type_create("t1", vec![field("title", "ezunknown", 1)]))
        .send()
        .await
        .assert_error(400);
    assert!(msg.contains("title") && msg.contains("ezunknown"), "{msg}");
    // Bad setting / validator configuration: 400 naming the field and the problem.
    let mut bad = field("count", "ezinteger", 1);
    bad["validatorConfiguration"] = json!({"IntegerValueValidator": {"minIntegerValue": "lots"}});
    let msg = post(type_create("t2", vec![bad]))
        .send()
        .await
        .assert_error(400);
    assert!(
        msg.contains("count") && msg.contains("minIntegerValue"),
        "{msg}"
    );
    let mut bad = field("title", "ezstring", 1);
    bad["fieldSettings"] = json!({"noSuchSetting": 1});
    let msg = post(type_create("t3", vec![bad]))
        .send()
        .await
        .assert_error(400);
    assert!(msg.contains("noSuchSetting"), "{msg}");
    // Two fields of a singular type, or the same identifier twice: 400.
    post(type_create(
        "t4",
        vec![field("a", "ezuser", 1), field("b", "ezuser", 2)],
    ))
    .send()
    .await
    .assert_error(400);
    post(type_create(
        "t5",
        vec![field("a", "ezstring", 1), field("a", "eztext", 2)],
    ))
    .send()
    .await
    .assert_error(400);
    // publish=true needs Field definitions.
    app.req("POST", "/content/typegroups/1/types?publish=true")
        .admin()
        .json_body("ContentTypeCreate", type_create("t6", vec![]))
        .send()
        .await
        .assert_error(400);
    // Missing identifier, bad sort field, unknown group, anonymous.
    post(json!({"mainLanguageCode": "eng-GB"}))
        .send()
        .await
        .assert_error(400);
    let mut sorted = type_create("t7", vec![]);
    sorted["defaultSortField"] = json!("SIDEWAYS");
    post(sorted).send().await.assert_error(400);
    app.req("POST", "/content/typegroups/99/types")
        .admin()
        .json_body("ContentTypeCreate", type_create("t8", vec![]))
        .send()
        .await
        .assert_error(404);
    app.req("POST", "/content/typegroups/1/types")
        .json_body("ContentTypeCreate", type_create("t9", vec![]))
        .send()
        .await
        .assert_error(401);
    // Nothing of the refused requests was stored.
    let r = app
        .get("/content/types")
        .accept("ContentTypeInfoList+json")
        .send()
        .await;
    assert_eq!(
        r.json()["ContentTypeInfoList"]["ContentType"]
            .as_array()
            .unwrap()
            .len(),
        6
    );
}

#[tokio::test]
async fn draft_state_machine_errors() {
    let app = TestApp::new().await;
    // A draft without Field definitions cannot be published: 403.
    let r = app
        .req("POST", "/content/typegroups/1/types")
        .admin()
        .accept("ContentType+json")
        .json_body("ContentTypeCreate", type_create("empty_type", vec![]))
        .send()
        .await;
    r.assert(201);
    let id = r.json()["ContentType"]["id"].as_i64().unwrap();
    app.req("PUBLISH", &format!("/content/types/{id}/draft"))
        .admin()
        .send()
        .await
        .assert_error(403);
    // Deleting the draft: 204, then there is nothing to load, publish or delete.
    app.req("DELETE", &format!("/content/types/{id}/draft"))
        .admin()
        .send()
        .await
        .assert(204);
    app.get(&format!("/content/types/{id}/draft"))
        .send()
        .await
        .assert_error(404);
    app.req("PUBLISH", &format!("/content/types/{id}/draft"))
        .admin()
        .send()
        .await
        .assert_error(404);
    app.req("DELETE", &format!("/content/types/{id}/draft"))
        .admin()
        .send()
        .await
        .assert_error(404);

    // A second draft of a defined type: 403; a draft whose identifier is taken: 403.
    app.req("POST", "/content/types/1")
        .admin()
        .json_body("ContentTypeUpdate", json!({}))
        .send()
        .await
        .assert(201);
    app.req("POST", "/content/types/1")
        .admin()
        .json_body("ContentTypeUpdate", json!({}))
        .send()
        .await
        .assert_error(403);
    app.req("POST", "/content/types/5")
        .admin()
        .json_body("ContentTypeUpdate", json!({"identifier": "article"}))
        .send()
        .await
        .assert_error(403);
    app.req("POST", "/content/types/77")
        .admin()
        .json_body("ContentTypeUpdate", json!({}))
        .send()
        .await
        .assert_error(404);

    // PATCH of the draft: metadata, If-Match, duplicate identifier.
    let draft = app.get("/content/types/1/draft").send().await;
    draft.assert(200);
    assert_eq!(
        draft.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.ContentTypeUpdate+xml"
    );
    let etag = draft.header("etag").unwrap();
    app.req("PATCH", "/content/types/1/draft")
        .admin()
        .header("if-match", "\"stale\"")
        .json_body("ContentTypeUpdate", json!({"isContainer": false}))
        .send()
        .await
        .assert_error(412);
    app.req("PATCH", "/content/types/1/draft")
        .admin()
        .json_body("ContentTypeUpdate", json!({"identifier": "user"}))
        .send()
        .await
        .assert_error(403);
    app.req("PATCH", "/content/types/1/draft")
        .admin()
        .json_body("ContentTypeUpdate", json!({"defaultSortOrder": "UP"}))
        .send()
        .await
        .assert_error(400);
    let r = app
        .req("PATCH", "/content/types/1/draft")
        .admin()
        .header("if-match", &etag)
        .accept("ContentTypeInfo+json")
        .json_body(
            "ContentTypeUpdate",
            json!({"isContainer": "false", "defaultSortField": "NAME"}),
        )
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["ContentTypeInfo"]["isContainer"], false);
    assert_eq!(r.json()["ContentTypeInfo"]["defaultSortField"], "NAME");
    app.req("PATCH", "/content/types/2/draft")
        .admin()
        .json_body("ContentTypeUpdate", json!({}))
        .send()
        .await
        .assert_error(404);
}

#[tokio::test]
async fn field_definition_errors_on_drafts() {
    let app = TestApp::new().await;
    app.req("POST", "/content/types/4")
        .admin()
        .json_body("ContentTypeUpdate", json!({}))
        .send()
        .await
        .assert(201);
    let fields = "/content/types/4/draft/fieldDefinitions";
    // Duplicate identifier, second singular field: 403.
    app.req("POST", fields)
        .admin()
        .json_body("FieldDefinitionCreate", field("first_name", "ezstring", 9))
        .send()
        .await
        .assert_error(403);
    app.req("POST", fields)
        .admin()
        .json_body(
            "FieldDefinitionCreate",
            field("second_account", "ezuser", 9),
        )
        .send()
        .await
        .assert_error(403);
    // Unknown type, bad validator: 400.
    app.req("POST", fields)
        .admin()
        .json_body("FieldDefinitionCreate", field("x", "ezwhatever", 9))
        .send()
        .await
        .assert_error(400);
    // Missing fieldType: 400 naming it.
    let msg = app
        .req("POST", fields)
        .admin()
        .json_body("FieldDefinitionCreate", json!({"identifier": "x"}))
        .send()
        .await
        .assert_error(400);
    assert!(msg.contains("fieldType"), "{msg}");
    // Changing an identifier to a taken one: 403; unknown Field definition: 404.
    app.req("PATCH", &format!("{fields}/9"))
        .admin()
        .json_body("FieldDefinitionUpdate", json!({"identifier": "first_name"}))
        .send()
        .await
        .assert_error(403);
    app.req("PATCH", &format!("{fields}/4"))
        .admin()
        .json_body("FieldDefinitionUpdate", json!({"position": 1}))
        .send()
        .await
        .assert_error(404);
    app.req("DELETE", &format!("{fields}/4"))
        .admin()
        .send()
        .await
        .assert_error(404);
    app.get(&format!("{fields}/4"))
        .send()
        .await
        .assert_error(404);
    // If-Match on Field definitions.
    let r = app.get(&format!("{fields}/179")).send().await;
    r.assert(200);
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.FieldDefinitionUpdate+xml"
    );
    app.req("PATCH", &format!("{fields}/179"))
        .admin()
        .header("if-match", "\"stale\"")
        .json_body("FieldDefinitionUpdate", json!({"position": 1}))
        .send()
        .await
        .assert_error(412);
    // Field definitions cannot be changed on the defined type.
    app.req("POST", "/content/types/4/fieldDefinitions")
        .admin()
        .json_body("FieldDefinitionCreate", field("x", "ezstring", 9))
        .send()
        .await
        .assert_error(405);
    // Field definitions of a type without a draft: 404.
    app.req("POST", "/content/types/5/draft/fieldDefinitions")
        .admin()
        .json_body("FieldDefinitionCreate", field("x", "ezstring", 9))
        .send()
        .await
        .assert_error(404);
}

#[tokio::test]
async fn type_lists_lookups_and_field_definition_reads() {
    let app = TestApp::new().await;
    let list = |q: &str| {
        app.get(&format!("/content/types{q}"))
            .accept("ContentTypeInfoList+json")
            .send()
    };
    let ids = |v: Value| -> Vec<i64> {
        v["ContentTypeInfoList"]["ContentType"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_i64().unwrap())
            .collect()
    };
    assert_eq!(ids(list("?identifier=image").await.json()), [5]);
    assert_eq!(
        ids(list("?remoteId=637d58bfddf164627bdfd265733280a0")
            .await
            .json()),
        [12]
    );
    list("?identifier=nothing").await.assert_error(404);
    assert_eq!(ids(list("?limit=2&offset=1").await.json()), [2, 3]);
    assert_eq!(
        ids(list("?orderby=name&sort=desc").await.json()),
        [3, 4, 5, 1, 12, 2]
    );
    assert_eq!(ids(list("?orderby=name").await.json()), [2, 12, 1, 5, 4, 3]);
    list("?orderby=size").await.assert_error(400);
    list("?sort=up").await.assert_error(400);
    // The window follows the one rule of every list: 0 or more, -1 for all.
    assert!(ids(list("?limit=0").await.json()).is_empty());
    assert_eq!(ids(list("?limit=-1&offset=4").await.json()).len(), 2);
    list("?limit=-2").await.assert_error(400);
    list("?offset=-1").await.assert_error(400);
    list("?limit=x").await.assert_error(400);
    let full = app
        .get("/content/types?identifier=file")
        .accept("ContentTypeList+json")
        .send()
        .await;
    assert_eq!(
        full.json()["ContentTypeList"]["ContentType"][0]["FieldDefinitions"]["FieldDefinition"][2]
            ["identifier"],
        "file"
    );

    let r = app
        .get("/content/types/12/fieldDefinitions")
        .accept("FieldDefinitionList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["FieldDefinitions"]["FieldDefinition"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let r = app
        .get("/content/types/12/fieldDefinitions/148")
        .accept("FieldDefinition+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["FieldDefinition"]["fieldType"], "ezbinaryfile");
    assert!(r.header("etag").is_some());
    app.get("/content/types/12/fieldDefinitions/4")
        .send()
        .await
        .assert_error(404);
    app.get("/content/types/99/fieldDefinitions")
        .send()
        .await
        .assert_error(404);
    let r = app
        .get("/content/types/12/fieldDefinition/file")
        .accept("FieldDefinition+json")
        .send()
        .await;
    assert_eq!(r.json()["FieldDefinition"]["id"], 148);
    // Named as it was asked for (issue 11), in both formats.
    assert_eq!(
        r.json()["FieldDefinition"]["_href"],
        "/api/ibexa/v2/content/types/12/fieldDefinition/file"
    );
    let x = app
        .get("/content/types/12/fieldDefinition/file")
        .accept("FieldDefinition+xml")
        .send()
        .await
        .xml();
    assert_eq!(
        attr(&x, "href"),
        "/api/ibexa/v2/content/types/12/fieldDefinition/file"
    );
    app.get("/content/types/12/fieldDefinition/nope")
        .send()
        .await
        .assert_error(404);

    // A content type view.
    let r = app
        .req("POST", "/content/types/view")
        .accept("ContentTypeList+json")
        .json_body(
            "ContentTypeViewInput",
            json!({"identifier": "v", "ContentTypeQuery": {"Query": {"ContentTypeGroupIdCriterion": 3}, "SortClauses": {"Id": "descending"}, "limit": 10}}),
        )
        .send()
        .await;
    r.assert(200);
    let ids: Vec<i64> = r.json()["ContentTypeList"]["ContentType"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [12, 5]);
    // The group name criterion ignores case, as the reference's (issue 11).
    let r = app
        .req("POST", "/content/types/view")
        .accept("ContentTypeList+json")
        .json_body(
            "ContentTypeViewInput",
            json!({"identifier": "v", "ContentTypeQuery": {"Query": {"ContentTypeGroupNameCriterion": "MEDIA"}, "SortClauses": {"Id": "descending"}, "limit": 10}}),
        )
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["ContentTypeList"]["ContentType"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

#[tokio::test]
async fn groups_of_a_type_link_and_unlink() {
    let app = TestApp::new().await;
    let r = app
        .get("/content/types/5/groups")
        .accept("ContentTypeGroupRefList+json")
        .send()
        .await;
    r.assert(200);
    let refs = r.json()["ContentTypeGroupRefList"]["ContentTypeGroupRef"].clone();
    assert_eq!(refs.as_array().unwrap().len(), 1);
    assert_eq!(refs[0]["_href"], "/api/ibexa/v2/content/typegroups/3");
    assert!(refs[0].get("unlink").is_none());

    // The only group cannot be unlinked.
    app.req("DELETE", "/content/types/5/groups/3")
        .admin()
        .send()
        .await
        .assert_error(403);
    let r = app
        .req(
            "POST",
            "/content/types/5/groups?group=/api/ibexa/v2/content/typegroups/1",
        )
        .admin()
        .accept("ContentTypeGroupRefList+json")
        .send()
        .await;
    r.assert(200);
    let refs = r.json()["ContentTypeGroupRefList"]["ContentTypeGroupRef"].clone();
    assert_eq!(refs.as_array().unwrap().len(), 2);
    assert_eq!(refs[0]["unlink"]["_method"], "DELETE");
    assert_eq!(
        refs[0]["unlink"]["_href"],
        "/api/ibexa/v2/content/types/5/groups/1"
    );
    // Linked already: 403; unknown group: 404; bad href: 400.
    app.req(
        "POST",
        "/content/types/5/groups?group=/api/ibexa/v2/content/typegroups/1",
    )
    .admin()
    .send()
    .await
    .assert_error(403);
    app.req(
        "POST",
        "/content/types/5/groups?group=/api/ibexa/v2/content/typegroups/9",
    )
    .admin()
    .send()
    .await
    .assert_error(404);
    app.req("POST", "/content/types/5/groups?group=/elsewhere")
        .admin()
        .send()
        .await
        .assert_error(400);
    app.req("POST", "/content/types/5/groups")
        .admin()
        .send()
        .await
        .assert_error(400);
    let r = app
        .req("DELETE", "/content/types/5/groups/3")
        .admin()
        .accept("ContentTypeGroupRefList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["ContentTypeGroupRefList"]["ContentTypeGroupRef"][0]["_href"],
        "/api/ibexa/v2/content/typegroups/1"
    );
    app.req("DELETE", "/content/types/5/groups/3")
        .admin()
        .send()
        .await
        .assert_error(404);
    let r = app
        .get("/content/typegroups/1/types")
        .accept("ContentTypeInfoList+json")
        .send()
        .await;
    let ids: Vec<i64> = r.json()["ContentTypeInfoList"]["ContentType"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [1, 2, 5]);
}

#[tokio::test]
async fn delete_type_and_its_errors() {
    let app = TestApp::new().await;
    app.req("DELETE", "/content/types/99")
        .admin()
        .send()
        .await
        .assert_error(404);
    app.req("DELETE", "/content/types/5")
        .admin()
        .header("if-match", "\"x\"")
        .send()
        .await
        .assert_error(412);
    app.req("DELETE", "/content/types/5")
        .send()
        .await
        .assert_error(401);
    app.req("DELETE", "/content/types/5")
        .admin()
        .send()
        .await
        .assert(204);
    app.get("/content/types/5").send().await.assert_error(404);
    app.req("COPY", "/content/types/5")
        .admin()
        .send()
        .await
        .assert_error(404);
}

/// (field type, fieldSettings, validatorConfiguration, defaultValue): one change from the
/// defaults each, round-tripped through a draft in both formats.
fn settings_cases() -> Vec<(&'static str, Value, Value, Value)> {
    vec![
        (
            "string",
            json!({}),
            json!({"StringLengthValidator": {"minStringLength": 2, "maxStringLength": 20}}),
            json!("Hello"),
        ),
        (
            "text",
            json!({"textRows": 5}),
            json!({}),
            json!("Some text"),
        ),
        ("richtext", json!({}), json!({}), Value::Null),
        (
            "integer",
            json!({}),
            json!({"IntegerValueValidator": {"minIntegerValue": 1, "maxIntegerValue": 10}}),
            json!(5),
        ),
        (
            "float",
            json!({}),
            json!({"FloatValueValidator": {"minFloatValue": 0.5, "maxFloatValue": 9.5}}),
            json!(1.5),
        ),
        ("boolean", json!({}), json!({}), json!(true)),
        (
            "date",
            json!({"defaultType": "DEFAULT_CURRENT_DATE"}),
            json!({}),
            Value::Null,
        ),
        (
            "datetime",
            json!({"useSeconds": true, "defaultType": "DEFAULT_CURRENT_DATE"}),
            json!({}),
            Value::Null,
        ),
        (
            "time",
            json!({"useSeconds": true, "defaultType": "DEFAULT_CURRENT_TIME"}),
            json!({}),
            json!(3600),
        ),
        ("email", json!({}), json!({}), json!("editor@example.com")),
        (
            "url",
            json!({}),
            json!({}),
            json!({"link": "https://example.com/", "text": "Example"}),
        ),
        (
            "image",
            json!({"mimeTypes": ["image/png", "image/jpeg"]}),
            json!({"FileSizeValidator": {"maxFileSize": 5}, "AlternativeTextValidator": {"required": true}}),
            Value::Null,
        ),
        (
            "binaryfile",
            json!({}),
            json!({"FileSizeValidator": {"maxFileSize": 3}}),
            Value::Null,
        ),
        (
            "media",
            json!({"mediaType": "TYPE_HTML5_AUDIO"}),
            json!({"FileSizeValidator": {"maxFileSize": 8}}),
            Value::Null,
        ),
        (
            "author",
            json!({"defaultAuthor": "DEFAULT_CURRENT_USER"}),
            json!({}),
            Value::Null,
        ),
        (
            "objectrelation",
            json!({"selectionMethod": "SELECTION_DROPDOWN", "selectionContentTypes": ["article", "image"]}),
            json!({}),
            Value::Null,
        ),
        (
            "objectrelationlist",
            json!({"selectionContentTypes": ["image"]}),
            json!({"RelationListValueValidator": {"selectionLimit": 3}}),
            Value::Null,
        ),
        (
            "selection",
            json!({"isMultiple": true, "options": ["Red", "Green", "Blue"]}),
            json!({}),
            json!([0, 2]),
        ),
        ("keyword", json!({}), json!({}), json!(["news", "sports"])),
        (
            "country",
            json!({"isMultiple": true}),
            json!({}),
            json!(["NO", "PL"]),
        ),
        ("isbn", json!({"isISBN13": false}), json!({}), Value::Null),
        (
            "user",
            json!({"PasswordTTL": 30, "RequireUniqueEmail": false}),
            json!({"PasswordValueValidator": {"minLength": 12}}),
            Value::Null,
        ),
        (
            "gmaplocation",
            json!({}),
            json!({}),
            json!({"latitude": 59.91, "longitude": 10.75, "address": "Oslo"}),
        ),
        ("imageasset", json!({}), json!({}), Value::Null),
        (
            "matrix",
            json!({"minimum_rows": 2, "columns": [{"identifier": "name", "name": "Name"}, {"identifier": "role", "name": "Role"}]}),
            json!({}),
            Value::Null,
        ),
    ]
}

/// Empty maps and lists read as nothing in XML: compare them as null.
fn normal(v: &Value) -> Value {
    match v {
        Value::Array(a) if a.is_empty() => Value::Null,
        Value::Object(o) if o.is_empty() => Value::Null,
        Value::Array(a) => Value::Array(a.iter().map(normal).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), normal(v))).collect()),
        v => v.clone(),
    }
}

/// Whether every key of `want` is in `got` with the same value.
fn contains(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => w
            .iter()
            .all(|(k, v)| g.get(k).is_some_and(|gv| contains(gv, v))),
        (g, w) => normal(g) == normal(w),
    }
}

#[tokio::test]
async fn every_field_types_settings_and_validators_round_trip() {
    let app = TestApp::new().await;
    let r = app
        .req("POST", "/content/typegroups/1/types")
        .admin()
        .accept("ContentType+json")
        .json_body("ContentTypeCreate", type_create("settings_test", vec![]))
        .send()
        .await;
    r.assert(201);
    let id = r.json()["ContentType"]["id"].as_i64().unwrap();
    for (i, (name, settings, validators, default)) in settings_cases().into_iter().enumerate() {
        let mut fd = field(&format!("f_{name}"), &format!("ez{name}"), i as i64 + 1);
        fd["fieldSettings"] = settings.clone();
        fd["validatorConfiguration"] = validators.clone();
        if !default.is_null() {
            fd["defaultValue"] = default.clone();
        }
        let r = app
            .req(
                "POST",
                &format!("/content/types/{id}/draft/fieldDefinitions"),
            )
            .admin()
            .accept("FieldDefinition+json")
            .json_body("FieldDefinitionCreate", fd)
            .send()
            .await;
        assert_eq!(r.status, 201, "ez{name}: {}", r.body);
        let fid = r.json()["FieldDefinition"]["id"].as_i64().unwrap();
        let path = format!("/content/types/{id}/draft/fieldDefinitions/{fid}");

        let j = app
            .get(&path)
            .accept("FieldDefinition+json")
            .send()
            .await
            .json()["FieldDefinition"]
            .clone();
        assert_eq!(j["fieldType"], format!("ez{name}"));
        assert!(
            contains(&j["fieldSettings"], &settings),
            "ez{name} settings: {}",
            j["fieldSettings"]
        );
        assert!(
            contains(&j["validatorConfiguration"], &validators),
            "ez{name} validators: {}",
            j["validatorConfiguration"]
        );
        if !default.is_null() {
            assert!(
                contains(&j["defaultValue"], &default),
                "ez{name} default: {}",
                j["defaultValue"]
            );
        }

        // The same values in XML, read back as key/value trees.
        let x = app.get(&path).send().await.xml();
        for (element, json_value) in [
            ("fieldSettings", &j["fieldSettings"]),
            ("validatorConfiguration", &j["validatorConfiguration"]),
            ("defaultValue", &j["defaultValue"]),
        ] {
            let el = x.children.iter().find(|c| c.name == element).unwrap();
            let from_xml = cairn_runtime::decode::Node::to_hash(el).to_json();
            assert!(
                contains(&from_xml, json_value) && contains(json_value, &from_xml),
                "ez{name} {element}: XML {from_xml} vs JSON {json_value}"
            );
        }
    }
    // Published, the type keeps them all.
    let r = app
        .req("PUBLISH", &format!("/content/types/{id}/draft"))
        .admin()
        .accept("ContentType+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["ContentType"]["FieldDefinitions"]["FieldDefinition"]
            .as_array()
            .unwrap()
            .len(),
        25
    );
}

/// Content types are kept in memory: a published change is what the next content write and
/// read see (and a warm read of content loads no type).
#[tokio::test]
async fn content_sees_a_published_type_change_at_once() {
    let app = TestApp::new().await;
    let create = |name: &str, extra: bool| {
        let mut fields = vec![json!({"fieldDefinitionIdentifier": "name", "fieldValue": name})];
        if extra {
            fields.push(json!({"fieldDefinitionIdentifier": "tags", "fieldValue": "a, b"}));
        }
        json!({"ContentType": {"_href": "/api/ibexa/v2/content/types/1"}, "mainLanguageCode": "eng-GB",
            "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
            "fields": {"field": fields}})
    };
    // Warm: the folder type is loaded once.
    app.req("POST", "/content/objects")
        .admin()
        .json_body("ContentCreate", create("Before", false))
        .send()
        .await
        .assert(201);
    app.req("POST", "/content/objects")
        .admin()
        .json_body("ContentCreate", create("Tagged too early", true))
        .send()
        .await
        .assert_error(400);
    // The folder type gains a field.
    app.req("POST", "/content/types/1")
        .admin()
        .json_body("ContentTypeUpdate", json!({}))
        .send()
        .await
        .assert(201);
    app.req("POST", "/content/types/1/draft/fieldDefinitions")
        .admin()
        .json_body("FieldDefinitionCreate", field("tags", "ezkeyword", 9))
        .send()
        .await
        .assert(201);
    app.req("PUBLISH", "/content/types/1/draft")
        .admin()
        .send()
        .await
        .assert(200);
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("Content+json")
        .json_body("ContentCreate", create("Tagged", true))
        .send()
        .await;
    r.assert(201);
    let id = r.json()["Content"]["_id"].as_i64().unwrap();
    let read = app
        .get(&format!("/content/objects/{id}"))
        .admin()
        .accept("Content+json")
        .send()
        .await
        .json();
    let fields = read["Content"]["CurrentVersion"]["Version"]["Fields"]["field"]
        .as_array()
        .unwrap()
        .clone();
    assert!(
        fields
            .iter()
            .any(|f| f["fieldDefinitionIdentifier"] == "tags"),
        "{fields:?}"
    );
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

/// An `ezimageasset` value carries the variations of its target's image, as the reference's
/// `ImageAssetFieldTypeProcessor` adds them, in both formats; none when the target has no
/// published image.
#[tokio::test]
async fn an_image_asset_names_the_variations_of_its_targets_image() {
    let storage = tempfile::tempdir().unwrap();
    let app = TestApp::with_args(&["--storage-dir", storage.path().to_str().unwrap()]).await;
    let group = create_group(&app, "media").await;
    let r = post_type(
        &app,
        group,
        "teaser",
        vec![
            field("title", "ezstring", 1),
            field("picture", "ezimageasset", 2),
        ],
    )
    .await;
    r.assert(201);
    let ty = r.json()["ContentType"]["id"].as_i64().unwrap();
    app.req("PUBLISH", &format!("/content/types/{ty}/draft"))
        .admin()
        .send()
        .await
        .assert(200);
    // A published image (type 5) holding a 1x1 PNG.
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("Content+json")
        .json_body(
            "ContentCreate",
            json!({
                "ContentType": {"_href": "/api/ibexa/v2/content/types/5"},
                "mainLanguageCode": "eng-GB",
                "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/43/51"}},
                "fields": {"field": [
                    {"fieldDefinitionIdentifier": "name", "fieldValue": "Pixel"},
                    {"fieldDefinitionIdentifier": "image", "fieldValue": {"fileName": "pixel.png", "data": png}}
                ]}
            }),
        )
        .send()
        .await;
    r.assert(201);
    let image = r.json()["Content"].clone();
    let image_id = image["_id"].as_i64().unwrap();
    let image_field = field_of(&image, "image")["id"].as_i64().unwrap();
    app.req(
        "PUBLISH",
        &format!("/content/objects/{image_id}/versions/1"),
    )
    .admin()
    .send()
    .await
    .assert(204);
    let teaser = |target: i64| {
        json!({
            "ContentType": {"_href": format!("/api/ibexa/v2/content/types/{ty}")},
            "mainLanguageCode": "eng-GB",
            "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
            "fields": {"field": [
                {"fieldDefinitionIdentifier": "title", "fieldValue": "Teaser"},
                {"fieldDefinitionIdentifier": "picture", "fieldValue": {"destinationContentId": target, "alternativeText": "A pixel"}}
            ]}
        })
    };
    let picture = |content: &Value| field_of(content, "picture")["fieldValue"].clone();
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("Content+json")
        .json_body("ContentCreate", teaser(image_id))
        .send()
        .await;
    r.assert(201);
    let id = r.json()["Content"]["_id"].as_i64().unwrap();
    let value = picture(&r.json()["Content"]);
    assert_eq!(value["destinationContentId"], image_id);
    assert_eq!(value["alternativeText"], "A pixel");
    let small =
        format!("/api/ibexa/v2/content/binary/images/{image_id}-{image_field}-1/variations/small");
    assert_eq!(value["variations"]["small"]["href"], small.as_str());
    let aliases: Vec<&String> = value["variations"].as_object().unwrap().keys().collect();
    assert_eq!(
        aliases,
        ["large", "medium", "original", "reference", "small", "tiny"]
    );
    // The href serves the variation.
    app.abs("GET", &small)
        .admin()
        .accept("ContentImageVariation+json")
        .send()
        .await
        .assert(200);
    // XML names the same.
    let r = app
        .get(&format!("/content/objects/{id}"))
        .admin()
        .accept("Content+xml")
        .send()
        .await;
    r.assert(200);
    assert!(
        r.body
            .contains(&format!("<value key=\"href\">{small}</value>")),
        "{}",
        r.body
    );
    // A target without a published image: no variations.
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("Content+json")
        .json_body("ContentCreate", teaser(41))
        .send()
        .await;
    r.assert(201);
    let value = picture(&r.json()["Content"]);
    assert_eq!(value["destinationContentId"], 41);
    assert!(value.get("variations").is_none(), "{value}");
}
