//! The Trash (spec 2.10, 3.3, 4.6): trashing, listing, restoring, deleting, emptying.

use crate::content::{add_location, location, published_folder};
use crate::locations::{assert_tree_consistent, seed_subtree};
use crate::support::*;
use crate::url_aliases::resolve;
use serde_json::json;

async fn trash(app: &TestApp, path: &str) -> Resp {
    app.req("MOVE", &format!("/content/locations/{path}"))
        .admin()
        .header("destination", "/api/ibexa/v2/content/trash")
        .send()
        .await
}

#[tokio::test]
async fn trash_and_restore_a_subtree() {
    let app = TestApp::new().await;
    let (parent_id, parent) = published_folder(&app, "Parent", "1/2").await;
    let (child_id, child) = published_folder(&app, "Child", &parent).await;

    assert_eq!(resolve(&app, "/Parent/Child").await, Ok(child.clone()));

    // Its only Location: a trash item (201). Its aliases no longer resolve.
    let r = trash(&app, &parent).await;
    r.assert(201);
    assert_eq!(resolve(&app, "/Parent/Child").await, Err(404));
    let item = last_id(&parent);
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/trash/{item}")
    );
    app.get(&format!("/content/locations/{parent}"))
        .send()
        .await
        .assert_error(404);
    let info = app
        .get(&format!("/content/objects/{parent_id}"))
        .accept("ContentInfo+json")
        .send()
        .await
        .json();
    assert_eq!(info["Content"]["status"], "TRASHED");
    assert!(info["Content"].get("MainLocation").is_none());
    assert_tree_consistent(&app).await;

    // The Trash lists it, in both formats.
    let r = app.get("/content/trash").accept("Trash+json").send().await;
    r.assert(200);
    let items = r.json()["Trash"]["TrashItem"].as_array().unwrap().clone();
    let ids: Vec<i64> = items.iter().map(|i| i["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, [item, last_id(&child)]);
    assert_eq!(items[0]["childCount"], 1);
    assert_eq!(items[0]["ContentInfo"]["Content"]["_id"], parent_id);
    let r = app.get(&format!("/content/trash/{item}")).send().await;
    r.assert(200);
    let x = r.xml();
    assert_eq!(x.name, "TrashItem");
    assert_eq!(child_text(&x, "pathString"), format!("/{parent}/"));
    assert!(r.header("etag").is_some());
    let r = app
        .get("/content/trash?offset=1&limit=1")
        .accept("Trash+json")
        .send()
        .await;
    assert_eq!(r.json()["Trash"]["TrashItem"].as_array().unwrap().len(), 1);

    // Restore under its original parent.
    let r = app
        .req("MOVE", &format!("/content/trash/{item}"))
        .admin()
        .send()
        .await;
    r.assert(201);
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/locations/{parent}")
    );
    assert_eq!(
        location(&app, &child).await["ContentInfo"]["Content"]["_id"],
        child_id
    );
    let info = app
        .get(&format!("/content/objects/{parent_id}"))
        .accept("ContentInfo+json")
        .send()
        .await
        .json();
    assert_eq!(info["Content"]["status"], "PUBLISHED");
    assert_eq!(
        info["Content"]["MainLocation"]["_href"],
        format!("/api/ibexa/v2/content/locations/{parent}")
    );
    app.get(&format!("/content/trash/{item}"))
        .send()
        .await
        .assert_error(404);
    assert_eq!(resolve(&app, "/Parent/Child").await, Ok(child.clone()));
    assert_tree_consistent(&app).await;

    // Restore elsewhere, with a Destination.
    trash(&app, &parent).await.assert(201);
    let r = app
        .req("MOVE", &format!("/content/trash/{item}"))
        .admin()
        .header("destination", "/api/ibexa/v2/content/locations/1/43")
        .send()
        .await;
    r.assert(201);
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/locations/1/43/{item}")
    );
    assert_eq!(
        location(&app, &format!("1/43/{item}/{}", last_id(&child))).await["depth"],
        3
    );
    let moved = format!("1/43/{item}/{}", last_id(&child));
    assert_eq!(
        resolve(&app, "/Media/Parent/Child").await,
        Ok(moved.clone())
    );
    assert_eq!(resolve(&app, "/Parent/Child").await, Ok(moved), "history");
    assert_tree_consistent(&app).await;
}

#[tokio::test]
async fn a_location_whose_content_lives_on_elsewhere_is_only_removed() {
    let app = TestApp::new().await;
    let (id, main) = published_folder(&app, "Twice", "1/2").await;
    add_location(&app, id, "1/43").await;
    let r = trash(&app, &main).await;
    r.assert(204);
    let items = app
        .get("/content/trash")
        .accept("Trash+json")
        .send()
        .await
        .json();
    assert_eq!(items["Trash"]["TrashItem"].as_array().unwrap().len(), 0);
    let info = app
        .get(&format!("/content/objects/{id}"))
        .accept("ContentInfo+json")
        .send()
        .await
        .json();
    assert_eq!(info["Content"]["status"], "PUBLISHED");
    assert!(
        info["Content"]["MainLocation"]["_href"]
            .as_str()
            .unwrap()
            .starts_with("/api/ibexa/v2/content/locations/1/43/")
    );
}

#[tokio::test]
async fn restore_needs_a_parent_and_items_can_be_deleted_or_emptied() {
    let app = TestApp::new().await;
    let (_, parent) = published_folder(&app, "Parent", "1/2").await;
    let (child_id, child) = published_folder(&app, "Child", &parent).await;
    let (other_id, other) = published_folder(&app, "Other", "1/2").await;
    // Trash the child, then delete its parent: restoring needs a Destination (403 without).
    trash(&app, &child).await.assert(201);
    app.req("DELETE", &format!("/content/locations/{parent}"))
        .admin()
        .send()
        .await
        .assert(204);
    let item = last_id(&child);
    app.req("MOVE", &format!("/content/trash/{item}"))
        .admin()
        .send()
        .await
        .assert_error(403);
    app.req("MOVE", &format!("/content/trash/{item}"))
        .admin()
        .header("destination", "/api/ibexa/v2/content/locations/1/999")
        .send()
        .await
        .assert_error(404);
    app.req("MOVE", "/content/trash/999")
        .admin()
        .send()
        .await
        .assert_error(404);
    // Delete the item for good: its content goes.
    app.req("DELETE", &format!("/content/trash/{item}"))
        .admin()
        .header("if-match", "\"x\"")
        .send()
        .await
        .assert_error(412);
    app.req("DELETE", &format!("/content/trash/{item}"))
        .admin()
        .send()
        .await
        .assert(204);
    app.get(&format!("/content/objects/{child_id}"))
        .send()
        .await
        .assert_error(404);
    app.req("DELETE", &format!("/content/trash/{item}"))
        .admin()
        .send()
        .await
        .assert_error(404);
    // Empty the Trash.
    trash(&app, &other).await.assert(201);
    app.req("DELETE", "/content/trash")
        .send()
        .await
        .assert_error(401);
    app.req("DELETE", "/content/trash")
        .admin()
        .send()
        .await
        .assert(204);
    app.get(&format!("/content/objects/{other_id}"))
        .send()
        .await
        .assert_error(404);
    let items = app
        .get("/content/trash")
        .accept("Trash+json")
        .send()
        .await
        .json();
    assert_eq!(items["Trash"]["TrashItem"], json!([]));
    // The root cannot be trashed.
    trash(&app, "1").await.assert_error(403);
    assert_tree_consistent(&app).await;
}

#[tokio::test]
async fn a_restore_elsewhere_after_the_parent_went_brings_the_aliases_along() {
    let app = TestApp::new().await;
    let (_, parent) = published_folder(&app, "Parent", "1/2").await;
    let (_, child) = published_folder(&app, "Child", &parent).await;
    let (_, grandchild) = published_folder(&app, "Grandchild", &child).await;
    trash(&app, &child).await.assert(201);
    app.req("DELETE", &format!("/content/locations/{parent}"))
        .admin()
        .send()
        .await
        .assert(204);
    assert_eq!(resolve(&app, "/Parent/Child/Grandchild").await, Err(404));
    let r = app
        .req("MOVE", &format!("/content/trash/{}", last_id(&child)))
        .admin()
        .header("destination", "/api/ibexa/v2/content/locations/1/43")
        .send()
        .await;
    r.assert(201);
    let restored = format!("1/43/{}/{}", last_id(&child), last_id(&grandchild));
    assert_eq!(resolve(&app, "/Media/Child/Grandchild").await, Ok(restored));
    assert_eq!(resolve(&app, "/Parent/Child/Grandchild").await, Err(404));
    assert_tree_consistent(&app).await;
}

#[tokio::test]
async fn trashing_and_restoring_a_large_subtree_is_a_bounded_number_of_statements() {
    let app = TestApp::new().await;
    let (_, big) = published_folder(&app, "Big", "1/2").await;
    seed_subtree(&app, &big, 50, 99).await;
    app.get("/").admin().send().await.assert(200);
    let before = app.statements();
    trash(&app, &big).await.assert(201);
    let spent = app.statements() - before;
    assert!(
        spent <= 26,
        "trashing 5,001 Locations took {spent} statements"
    );
    // Trashing dropped the cached Policies: load them again first.
    app.get("/").admin().send().await.assert(200);
    let before = app.statements();
    app.req("MOVE", &format!("/content/trash/{}", last_id(&big)))
        .admin()
        .header("destination", "/api/ibexa/v2/content/locations/1/43")
        .send()
        .await
        .assert(201);
    let spent = app.statements() - before;
    assert!(
        spent <= 26,
        "restoring 5,001 Locations took {spent} statements"
    );
    let n = app
        .query(
            "SELECT COUNT(*) AS n FROM locations WHERE path_string LIKE '/1/43/%'",
            vec![],
        )
        .await;
    assert!(n[0]["n"].as_i64().unwrap() >= 5_001);
    assert_tree_consistent(&app).await;
}

#[tokio::test]
async fn the_list_costs_the_same_whatever_the_number_of_items() {
    let app = TestApp::new().await;
    let (_, a) = published_folder(&app, "A", "1/2").await;
    published_folder(&app, "Under A", &a).await;
    trash(&app, &a).await.assert(201);
    let cost = async || {
        let before = app.statements();
        app.get("/content/trash").send().await.assert(200);
        app.statements() - before
    };
    let two = cost().await;
    for name in ["B", "C", "D"] {
        let (_, l) = published_folder(&app, name, "1/2").await;
        trash(&app, &l).await.assert(201);
    }
    assert_eq!(cost().await, two, "five items cost what two did");
}
