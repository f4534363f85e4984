//! Content items, versions, translations, relations and Object states (spec 2.3-2.5, 2.8,
//! 3.1, 4.3): the life of a content item in both formats and every error row. Shared here:
//! the fixtures that create, publish and place folders (other families use them too).

mod errors;
mod fields;
mod install;
mod lifecycle;
mod published_at_once;
mod relations;
mod states;

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

/// A new version of `id` whose `name` is `name`, published (as admin).
pub async fn publish_name(app: &TestApp, id: i64, name: &str) {
    let r = app
        .req("COPY", &format!("/content/objects/{id}/currentversion"))
        .admin()
        .accept("Version+json")
        .send()
        .await;
    r.assert(201);
    let no = r.json()["Version"]["VersionInfo"]["versionNo"]
        .as_i64()
        .unwrap();
    app.req("PATCH", &format!("/content/objects/{id}/versions/{no}"))
        .admin()
        .json_body(
            "VersionUpdate",
            json!({"fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": name}]}}),
        )
        .send()
        .await
        .assert(200);
    publish(app, id, no).await;
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

/// The Location at a path, as JSON.
pub async fn location(app: &TestApp, path: &str) -> Value {
    app.get(&format!("/content/locations/{path}"))
        .accept("Location+json")
        .send()
        .await
        .json()["Location"]
        .clone()
}
