//! Move, copy, swap and delete of subtrees, each refused case with its status, and the
//! tree's consistency after each.

use super::*;

#[tokio::test]
async fn move_copy_swap_and_delete_subtrees() {
    let app = TestApp::new().await;
    let (_, a) = published_folder(&app, "A", "1/2").await;
    let (_, a1) = published_folder(&app, "A1", &a).await;
    let (_, a11) = published_folder(&app, "A11", &a1).await;
    let (_, b) = published_folder(&app, "B", "1/2").await;
    // Hide B: what moves under it becomes invisible.
    app.req("PATCH", &format!("/content/locations/{b}"))
        .admin()
        .json_body("LocationUpdate", json!({"hidden": true}))
        .send()
        .await
        .assert(200);

    // MOVE A1 under B.
    let r = app.move_to(&a1, &b).send().await;
    r.assert(201);
    let moved = format!("{b}/{}", last_id(&a1));
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/locations/{moved}")
    );
    let l = location(&app, &format!("{moved}/{}", last_id(&a11))).await;
    assert_eq!(l["depth"], 4);
    assert_eq!(l["invisible"], true);
    assert_eq!(location(&app, &a).await["childCount"], 0);
    assert_eq!(location(&app, &b).await["childCount"], 1);
    // The href from before the move still names the Location (by its last id).
    let old = app
        .get(&format!("/content/locations/{a1}"))
        .accept("Location+json")
        .send()
        .await;
    old.assert(200);
    assert_ne!(old.json()["Location"]["pathString"], format!("/{a1}/"));
    assert_tree_consistent(&app).await;
    // Below itself, the root, a missing destination: refused.
    let moving = |path: &str, to: Option<&str>| {
        let r = app.req("MOVE", path).admin();
        match to {
            Some(to) => r.header("destination", to),
            None => r,
        }
    };
    let at_b = format!("/content/locations/{b}");
    expect_all(vec![
        (app.move_to(&b, &moved), 403),
        (app.move_to(&b, &b), 403),
        (app.move_to("1/2", "1/43"), 201),
        (app.move_to("1/43/2", "1"), 201),
        (
            moving(
                "/content/locations/1",
                Some("/api/ibexa/v2/content/locations/1/43"),
            ),
            403,
        ),
        (
            moving(&at_b, Some("/api/ibexa/v2/content/locations/1/999")),
            404,
        ),
        (moving(&at_b, None), 400),
        (moving(&at_b, Some("/api/ibexa/v2/content/sections/1")), 400),
    ])
    .await;
    // The same through the override.
    app.req("POST", &format!("/content/locations/{moved}"))
        .admin()
        .header("x-http-method-override", "MOVE")
        .header(
            "destination",
            &format!("/api/ibexa/v2/content/locations/{a}"),
        )
        .send()
        .await
        .assert(201);
    let a1 = format!("{a}/{}", last_id(&a1));
    assert_eq!(
        location(&app, &format!("{a1}/{}", last_id(&a11))).await["invisible"],
        false
    );
    assert_tree_consistent(&app).await;

    // COPY A under B: new content items for every node.
    let r = copy_to(&app, &a, &b).send().await;
    r.assert(201);
    let copy = r
        .header("location")
        .unwrap()
        .trim_start_matches("/api/ibexa/v2/content/locations/")
        .to_string();
    let copied = location(&app, &copy).await;
    assert_eq!(copied["childCount"], 1);
    assert_ne!(
        copied["ContentInfo"]["Content"]["_id"],
        location(&app, &a).await["ContentInfo"]["Content"]["_id"]
    );
    assert_eq!(copied["ContentInfo"]["Content"]["Name"], "A");
    assert_eq!(copied["invisible"], true);
    copy_to(&app, &a, &a1).send().await.assert_error(403);
    assert_tree_consistent(&app).await;

    // SWAP A and B: their content items change places.
    let (ca, cb) = (
        location(&app, &a).await["ContentInfo"]["Content"]["_id"].clone(),
        location(&app, &b).await["ContentInfo"]["Content"]["_id"].clone(),
    );
    app.swap(&a, &b).send().await.assert(204);
    assert_eq!(
        location(&app, &a).await["ContentInfo"]["Content"]["_id"],
        cb
    );
    assert_eq!(
        location(&app, &b).await["ContentInfo"]["Content"]["_id"],
        ca
    );
    let info = app
        .get(&format!("/content/objects/{ca}"))
        .accept("ContentInfo+json")
        .send()
        .await
        .json();
    assert_eq!(
        info["Content"]["MainLocation"]["_href"],
        format!("/api/ibexa/v2/content/locations/{b}")
    );
    app.swap(&a, "1/999").send().await.assert_error(404);
    assert_tree_consistent(&app).await;

    // DELETE a subtree: its content goes.
    let delete = || {
        app.req("DELETE", &format!("/content/locations/{a}"))
            .admin()
    };
    expect_all(vec![
        (delete().header("if-match", "\"x\""), 412),
        (delete(), 204),
        (app.get(&format!("/content/locations/{a1}")), 404),
        (app.get(&format!("/content/objects/{cb}")), 404),
    ])
    .await;
    assert_tree_consistent(&app).await;
}
