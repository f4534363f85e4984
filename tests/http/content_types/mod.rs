//! Content type groups, content types, drafts and Field definitions (spec 2.12, 3.2, 4.8,
//! 4.9): the life of a type in both formats and every error row. Shared here: the fixtures
//! that make groups, types and Field definitions.

mod content_use;
mod errors;
mod field_definitions;
mod groups;
mod lifecycle;
mod reads;

pub(crate) use crate::support::*;
pub(crate) use serde_json::{Value, json};

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

/// Creates and publishes the type `teaser`: a title and an image asset `picture`; its id.
pub(crate) async fn teaser_type(app: &TestApp) -> i64 {
    let group = create_group(app, "media").await;
    let r = post_type(
        app,
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
    publish_draft(app, ty).send().await.assert(200);
    ty
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

/// `POST /content/types/{id}` as admin (a new draft of a defined type); its body to come.
fn new_draft(app: &TestApp, id: impl std::fmt::Display) -> Req<'_> {
    app.req("POST", &format!("/content/types/{id}")).admin()
}

/// `PUBLISH /content/types/{id}/draft` as admin.
fn publish_draft(app: &TestApp, id: impl std::fmt::Display) -> Req<'_> {
    app.req("PUBLISH", &format!("/content/types/{id}/draft"))
        .admin()
}

/// The ids of the types of a JSON type list (`ContentTypeInfoList` or `ContentTypeList`).
fn type_ids(list: &Value, name: &str) -> Vec<i64> {
    list[name]["ContentType"]
        .as_array()
        .unwrap_or_else(|| panic!("no {name}: {list}"))
        .iter()
        .map(|t| t["id"].as_i64().unwrap())
        .collect()
}
