//! The life of a bookmark in JSON and in XML: absent, added, listed, refused twice, removed.

use super::*;

#[tokio::test]
async fn the_life_of_a_bookmark_in_json() {
    let app = TestApp::new().await;
    let (content, path) = published_folder(&app, "Reading list", "1/2").await;
    let id = last_id(&path);

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
