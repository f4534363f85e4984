//! Bookmarks (spec 2.7, 4.2): the current user's bookmarked Locations in both formats, the
//! order and window of the list, every error row, and bookmarks going with their Location.

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

fn location_id(path: &str) -> i64 {
    path.rsplit('/').next().unwrap().parse().unwrap()
}

#[tokio::test]
async fn the_life_of_a_bookmark_in_json() {
    let app = TestApp::new().await;
    let (content, path) = published_folder(&app, "Reading list", "1/2").await;
    let id = location_id(&path);

    let empty = list(&app, "").await;
    assert_eq!(empty["count"], 0);
    assert_eq!(empty["items"], serde_json::json!([]));

    let r = app
        .req("HEAD", &format!("/bookmark/{id}"))
        .admin()
        .send()
        .await;
    r.assert(404);
    assert!(r.body.is_empty());
    let msg = app
        .get(&format!("/bookmark/{id}"))
        .admin()
        .accept("BookmarkList+json")
        .send()
        .await
        .assert_error(404);
    assert_eq!(msg, format!("Location {id} is not bookmarked"));

    let r = app
        .req("POST", &format!("/bookmark/{id}"))
        .admin()
        .accept("BookmarkList+json")
        .send()
        .await;
    r.assert(201);
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/bookmark/{id}")
    );
    assert!(r.body.is_empty());

    let r = app
        .req("HEAD", &format!("/bookmark/{id}"))
        .admin()
        .send()
        .await;
    r.assert(200);
    assert!(r.body.is_empty());
    app.get(&format!("/bookmark/{id}"))
        .admin()
        .send()
        .await
        .assert(200);

    let l = list(&app, "").await;
    assert_eq!(
        l["_media-type"],
        "application/vnd.ibexa.api.BookmarkList+json"
    );
    assert_eq!(l["count"], 1);
    let b = &l["items"][0];
    assert_eq!(b["_media-type"], "application/vnd.ibexa.api.Bookmark+json");
    assert_eq!(b["__href"], format!("/api/ibexa/v2/bookmark/{id}"));
    let loc = &b["Location"];
    assert_eq!(
        loc["_media-type"],
        "application/vnd.ibexa.api.Location+json"
    );
    assert_eq!(
        loc["_href"],
        format!("/api/ibexa/v2/content/locations/{path}")
    );
    assert_eq!(loc["id"], id);
    assert_eq!(loc["pathString"], format!("/{path}/"));
    assert_eq!(loc["depth"], 2);
    assert_eq!(
        loc["ParentLocation"]["_href"],
        "/api/ibexa/v2/content/locations/1/2"
    );
    assert_eq!(loc["ContentInfo"]["Content"]["_id"], content);
    assert_eq!(loc["ContentInfo"]["Content"]["Name"], "Reading list");
    // The same Location as its own resource.
    let own = app
        .get(&format!("/content/locations/{path}"))
        .accept("Location+json")
        .send()
        .await
        .json();
    assert_eq!(loc, &own["Location"]);

    let msg = app
        .req("POST", &format!("/bookmark/{id}"))
        .admin()
        .accept("Bookmark+json")
        .send()
        .await
        .assert_error(409);
    assert_eq!(msg, format!("Location {id} is already bookmarked"));
    assert_eq!(list(&app, "").await["count"], 1);

    app.req("DELETE", &format!("/bookmark/{id}"))
        .admin()
        .send()
        .await
        .assert(204);
    app.req("HEAD", &format!("/bookmark/{id}"))
        .admin()
        .send()
        .await
        .assert(404);
    let msg = app
        .req("DELETE", &format!("/bookmark/{id}"))
        .admin()
        .accept("Bookmark+json")
        .send()
        .await
        .assert_error(404);
    assert_eq!(msg, format!("Location {id} is not bookmarked"));
    assert_eq!(list(&app, "").await["count"], 0);
    // Bookmarked again after removal.
    bookmark(&app, id).await;
    assert_eq!(ids(&list(&app, "").await), vec![id]);
}

#[tokio::test]
async fn the_life_of_a_bookmark_in_xml() {
    let app = TestApp::new().await;
    let r = app
        .get("/bookmark")
        .admin()
        .accept("BookmarkList+xml")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.content_type(),
        "application/vnd.ibexa.api.BookmarkList+xml"
    );
    let x = r.xml();
    assert_eq!(x.name, "BookmarkList");
    assert_eq!(child_text(&x, "count"), "0");
    assert!(!x.children.iter().any(|c| c.name == "Bookmark"));

    let r = app
        .req("POST", "/bookmark/43")
        .admin()
        .accept("Bookmark+xml")
        .send()
        .await;
    r.assert(201);
    assert_eq!(r.header("location").unwrap(), "/api/ibexa/v2/bookmark/43");
    app.get("/bookmark/43").admin().send().await.assert(200);

    let x = app
        .get("/bookmark")
        .admin()
        .accept("BookmarkList+xml")
        .send()
        .await
        .xml();
    assert_eq!(
        attr(&x, "media-type"),
        "application/vnd.ibexa.api.BookmarkList+xml"
    );
    assert_eq!(child_text(&x, "count"), "1");
    let b: Vec<_> = x.children.iter().filter(|c| c.name == "Bookmark").collect();
    assert_eq!(b.len(), 1);
    assert_eq!(
        attr(b[0], "media-type"),
        "application/vnd.ibexa.api.Bookmark+xml"
    );
    assert_eq!(attr(b[0], "_href"), "/api/ibexa/v2/bookmark/43");
    let loc = b[0].children.iter().find(|c| c.name == "Location").unwrap();
    assert_eq!(attr(loc, "href"), "/api/ibexa/v2/content/locations/1/43");
    assert_eq!(child_text(loc, "id"), "43");
    assert_eq!(child_text(loc, "pathString"), "/1/43/");
    let info = loc
        .children
        .iter()
        .find(|c| c.name == "ContentInfo")
        .unwrap();
    let content = info.children.iter().find(|c| c.name == "Content").unwrap();
    assert_eq!(attr(content, "id"), "41");
    assert_eq!(child_text(content, "Name"), "Media");

    let r = app
        .req("POST", "/bookmark/43")
        .admin()
        .accept("Bookmark+xml")
        .send()
        .await;
    assert_eq!(r.assert_error(409), "Location 43 is already bookmarked");
    assert!(r.content_type().ends_with("+xml"));

    app.req("DELETE", "/bookmark/43")
        .admin()
        .send()
        .await
        .assert(204);
    let r = app
        .get("/bookmark/43")
        .admin()
        .accept("Bookmark+xml")
        .send()
        .await;
    assert_eq!(r.assert_error(404), "Location 43 is not bookmarked");
    assert!(r.content_type().ends_with("+xml"));
}

#[tokio::test]
async fn the_anonymous_user_may_not_use_bookmarks() {
    let app = TestApp::new().await;
    bookmark(&app, 2).await;
    for accept in ["BookmarkList+json", "BookmarkList+xml"] {
        app.get("/bookmark")
            .accept(accept)
            .send()
            .await
            .assert_error(401);
        app.get("/bookmark/2")
            .accept(accept)
            .send()
            .await
            .assert_error(401);
        app.req("POST", "/bookmark/43")
            .accept(accept)
            .send()
            .await
            .assert_error(401);
        app.req("DELETE", "/bookmark/2")
            .accept(accept)
            .send()
            .await
            .assert_error(401);
    }
    let r = app.req("HEAD", "/bookmark/2").send().await;
    r.assert(401);
    assert!(r.body.is_empty());
    // The admin's bookmark is untouched.
    assert_eq!(ids(&list(&app, "").await), vec![2]);
}

#[tokio::test]
async fn a_session_user_has_the_same_bookmarks() {
    let app = TestApp::new().await;
    let (cookie, token) = app.login().await;
    // Unsafe methods in a session need the CSRF token.
    app.req("POST", "/bookmark/5")
        .header("cookie", &cookie)
        .accept("Bookmark+json")
        .send()
        .await
        .assert_error(401);
    app.req("POST", "/bookmark/5")
        .header("cookie", &cookie)
        .header("x-csrf-token", &token)
        .send()
        .await
        .assert(201);
    app.req("HEAD", "/bookmark/5")
        .header("cookie", &cookie)
        .send()
        .await
        .assert(200);
    let r = app
        .get("/bookmark")
        .header("cookie", &cookie)
        .accept("BookmarkList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(ids(&r.json()["BookmarkList"]), vec![5]);
    assert_eq!(ids(&list(&app, "").await), vec![5]);
}

#[tokio::test]
async fn missing_locations_are_404() {
    let app = TestApp::new().await;
    for accept in ["Bookmark+json", "Bookmark+xml"] {
        for method in ["POST", "GET", "DELETE"] {
            let msg = app
                .req(method, "/bookmark/999999")
                .admin()
                .accept(accept)
                .send()
                .await
                .assert_error(404);
            assert_eq!(
                msg, "Could not find 'Location' with identifier '999999'",
                "{method}"
            );
        }
    }
    app.req("HEAD", "/bookmark/999999")
        .admin()
        .send()
        .await
        .assert(404);
    assert_eq!(list(&app, "").await["count"], 0);
}

#[tokio::test]
async fn the_list_is_newest_first_in_windows_with_the_total_count() {
    let app = TestApp::new().await;
    // Made in an order that is neither ascending nor descending by id.
    for id in [43, 2, 5, 1] {
        bookmark(&app, id).await;
    }
    let all = list(&app, "").await;
    assert_eq!(all["count"], 4);
    assert_eq!(ids(&all), vec![1, 5, 2, 43]);
    // The virtual root has no content item: an empty ContentInfo stands in.
    assert_eq!(all["items"][0]["Location"]["pathString"], "/1/");

    let w = list(&app, "?offset=1&limit=2").await;
    assert_eq!(w["count"], 4);
    assert_eq!(ids(&w), vec![5, 2]);
    let w = list(&app, "?limit=1").await;
    assert_eq!(ids(&w), vec![1]);
    let w = list(&app, "?offset=3").await;
    assert_eq!(ids(&w), vec![43]);
    let w = list(&app, "?offset=4").await;
    assert_eq!(w["count"], 4);
    assert_eq!(ids(&w), Vec::<i64>::new());
    let w = list(&app, "?limit=0").await;
    assert_eq!(w["count"], 4);
    assert_eq!(ids(&w), Vec::<i64>::new());
    // -1: no limit.
    let w = list(&app, "?offset=1&limit=-1").await;
    assert_eq!(ids(&w), vec![5, 2, 43]);
    app.get("/bookmark?limit=many")
        .admin()
        .accept("BookmarkList+json")
        .send()
        .await
        .assert_error(400);

    app.req("DELETE", "/bookmark/5")
        .admin()
        .send()
        .await
        .assert(204);
    let all = list(&app, "").await;
    assert_eq!(all["count"], 3);
    assert_eq!(ids(&all), vec![1, 2, 43]);
}

#[tokio::test]
async fn bookmarks_go_with_their_location() {
    let app = TestApp::new().await;
    let (_, parent) = published_folder(&app, "Parent", "1/2").await;
    let (_, child) = published_folder(&app, "Child", &parent).await;
    let (_, other) = published_folder(&app, "Other", "1/2").await;
    let (parent_id, child_id, other_id) = (
        location_id(&parent),
        location_id(&child),
        location_id(&other),
    );
    for id in [parent_id, child_id, other_id] {
        bookmark(&app, id).await;
    }
    assert_eq!(list(&app, "").await["count"], 3);
    assert_eq!(rows(&app).await, 3);

    app.req("DELETE", &format!("/content/locations/{parent}"))
        .admin()
        .send()
        .await
        .assert(204);
    let l = list(&app, "").await;
    assert_eq!(l["count"], 1);
    assert_eq!(ids(&l), vec![other_id]);
    // The rows are gone, not merely hidden.
    assert_eq!(rows(&app).await, 1);
    for id in [parent_id, child_id] {
        app.req("HEAD", &format!("/bookmark/{id}"))
            .admin()
            .send()
            .await
            .assert(404);
        app.req("POST", &format!("/bookmark/{id}"))
            .admin()
            .accept("Bookmark+json")
            .send()
            .await
            .assert_error(404);
    }
}

#[tokio::test]
async fn bookmarks_belong_to_their_user() {
    let app = TestApp::new().await;
    let editor_id = editor(&app).await;
    bookmark(&app, 2).await;
    bookmark(&app, 5).await;
    as_editor(app.req("POST", "/bookmark/43"))
        .send()
        .await
        .assert(201);
    // The same Location for another user is no conflict.
    as_editor(app.req("POST", "/bookmark/2"))
        .send()
        .await
        .assert(201);
    as_editor(app.req("HEAD", "/bookmark/5"))
        .send()
        .await
        .assert(404);
    as_editor(app.req("DELETE", "/bookmark/5"))
        .accept("Bookmark+json")
        .send()
        .await
        .assert_error(404);

    let r = as_editor(app.get("/bookmark"))
        .accept("BookmarkList+json")
        .send()
        .await;
    r.assert(200);
    let mine = r.json()["BookmarkList"].clone();
    assert_eq!(mine["count"], 2);
    assert_eq!(ids(&mine), vec![2, 43]);
    assert_eq!(ids(&list(&app, "").await), vec![5, 2]);

    as_editor(app.req("DELETE", "/bookmark/2"))
        .send()
        .await
        .assert(204);
    app.req("HEAD", "/bookmark/2")
        .admin()
        .send()
        .await
        .assert(200);

    // A user's bookmarks go with the user.
    assert_eq!(rows(&app).await, 3);
    app.req("DELETE", &format!("/user/users/{editor_id}"))
        .admin()
        .send()
        .await
        .assert(204);
    assert_eq!(rows(&app).await, 2);
    assert_eq!(ids(&list(&app, "").await), vec![5, 2]);
}

#[tokio::test]
async fn the_list_costs_a_fixed_number_of_statements_per_bookmark() {
    let app = TestApp::with_args(&["--cache-mib", "0"]).await; // the rendering path
    let (_, a) = published_folder(&app, "A", "1/2").await;
    let (_, b) = published_folder(&app, "B", "1/2").await;
    let (_, c) = published_folder(&app, "C", &a).await;
    bookmark(&app, location_id(&a)).await;
    let cost = async || {
        let before = app.statements();
        list(&app, "").await;
        app.statements() - before
    };
    let one = cost().await;
    bookmark(&app, location_id(&b)).await;
    bookmark(&app, location_id(&c)).await;
    let three = cost().await;
    // The Locations are rendered together: child counts, content items (their main
    // Locations are the ones at hand), whatever the number of bookmarks.
    assert_eq!(three, one, "one: {one}, three: {three}");
    // Besides: the caller (Basic credentials), the count and the window of Locations.
    assert_eq!(one, 3 + 2);
}
