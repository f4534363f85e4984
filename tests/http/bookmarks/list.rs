//! The bookmark list: newest first in windows with the total count, bookmarks going with
//! their Location, and a fixed number of statements per bookmark.

use super::*;

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

    // Each window with its ids, and the total count beside them; -1: no limit.
    for (query, want) in [
        ("?offset=1&limit=2", &[5, 2][..]),
        ("?limit=1", &[1]),
        ("?offset=3", &[43]),
        ("?offset=4", &[]),
        ("?limit=0", &[]),
        ("?offset=1&limit=-1", &[5, 2, 43]),
    ] {
        let w = list(&app, query).await;
        assert_eq!(w["count"], 4, "{query}");
        assert_eq!(ids(&w), want, "{query}");
    }
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
    let (parent_id, child_id, other_id) = (last_id(&parent), last_id(&child), last_id(&other));
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
async fn the_list_costs_a_fixed_number_of_statements_per_bookmark() {
    let app = TestApp::with_args(&["--cache-mib", "0"]).await; // the rendering path
    let (_, a) = published_folder(&app, "A", "1/2").await;
    let (_, b) = published_folder(&app, "B", "1/2").await;
    let (_, c) = published_folder(&app, "C", &a).await;
    bookmark(&app, last_id(&a)).await;
    let cost = async || {
        let before = app.statements();
        list(&app, "").await;
        app.statements() - before
    };
    let one = cost().await;
    bookmark(&app, last_id(&b)).await;
    bookmark(&app, last_id(&c)).await;
    let three = cost().await;
    // The Locations are rendered together: child counts, content items (their main
    // Locations are the ones at hand), whatever the number of bookmarks.
    assert_eq!(three, one, "one: {one}, three: {three}");
    // Besides: the caller (Basic credentials), the count and the window of Locations.
    assert_eq!(one, 3 + 2);
}
