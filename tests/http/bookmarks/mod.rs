//! Bookmarks (spec 2.7, 4.2): the current user's bookmarked Locations in both formats, the
//! order and window of the list, every error row, and bookmarks going with their Location.
//! Shared here: bookmarking, reading the list, and a second user.

mod access;
mod life;
mod list;

use crate::content::published_folder;
use crate::support::*;
use serde_json::{Value, json};

async fn bookmark(app: &TestApp, location_id: i64) {
    app.req("POST", &format!("/bookmark/{location_id}"))
        .admin()
        .send()
        .await
        .assert(201);
}

/// The admin's bookmark list (JSON) at `query` (`?offset=...`).
async fn list(app: &TestApp, query: &str) -> Value {
    let r = app
        .get(&format!("/bookmark{query}"))
        .admin()
        .accept("BookmarkList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.content_type(),
        "application/vnd.ibexa.api.BookmarkList+json"
    );
    r.json()["BookmarkList"].clone()
}

/// The Location ids of a JSON bookmark list, in order.
fn ids(list: &Value) -> Vec<i64> {
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["Location"]["id"].as_i64().unwrap())
        .collect()
}

/// Rows of the `bookmarks` table, whoever they belong to.
async fn rows(app: &TestApp) -> i64 {
    app.query("SELECT user_id, location_id FROM bookmarks", vec![])
        .await
        .len() as i64
}

/// A second user (`editor`), created through the API in the Editors group.
async fn editor(app: &TestApp) -> i64 {
    let r = app
        .req("POST", "/user/groups/1/5/14/users")
        .admin()
        .json_body(
            "UserCreate",
            json!({"mainLanguageCode": "eng-GB", "login": "editor", "email": "editor@example.com",
                "password": EDITOR_PASSWORD, "fields": {"field": [
                    {"fieldDefinitionIdentifier": "first_name", "fieldValue": "Ed"},
                    {"fieldDefinitionIdentifier": "last_name", "fieldValue": "Itor"}]}}),
        )
        .accept("User+json")
        .send()
        .await;
    r.assert(201);
    r.json()["User"]["_id"].as_i64().unwrap()
}

const EDITOR_PASSWORD: &str = "Secret-12345";

fn as_editor(r: Req<'_>) -> Req<'_> {
    r.basic("editor", EDITOR_PASSWORD)
}
