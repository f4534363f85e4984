//! Who may use bookmarks and whose they are: the anonymous user (401), a session user (the
//! CSRF token), missing Locations (404), and bookmarks that belong to their user.

use super::*;

#[tokio::test]
async fn the_anonymous_user_may_not_use_bookmarks() {
    let app = TestApp::new().await;
    bookmark(&app, 2).await;
    let mut rows = Vec::new();
    for accept in ["BookmarkList+json", "BookmarkList+xml"] {
        for (method, path) in [
            ("GET", "/bookmark"),
            ("GET", "/bookmark/2"),
            ("POST", "/bookmark/43"),
            ("DELETE", "/bookmark/2"),
        ] {
            rows.push((app.req(method, path).accept(accept), 401));
        }
    }
    expect_all(rows).await;
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
async fn bookmarks_belong_to_their_user() {
    let app = TestApp::new().await;
    let editor_id = editor(&app).await;
    bookmark(&app, 2).await;
    bookmark(&app, 5).await;
    expect_all(vec![
        (as_editor(app.req("POST", "/bookmark/43")), 201),
        // The same Location for another user is no conflict.
        (as_editor(app.req("POST", "/bookmark/2")), 201),
    ])
    .await;
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
