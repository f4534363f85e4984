//! The tree under load: moving a ten-thousand-node subtree in a bounded number of
//! statements, and concurrent writers that leave it consistent.

use super::*;

#[tokio::test]
async fn moving_a_ten_thousand_node_subtree_is_a_bounded_number_of_statements() {
    let app = TestApp::new().await;
    let (_, big) = published_folder(&app, "Big", "1/2").await;
    let (_, target) = published_folder(&app, "Target", "1/43").await;
    let count = seed_subtree(&app, &big, 100, 99).await;
    assert_eq!(count, 10_000);
    // Hide one node of the subtree: visibility must follow through the move.
    let hidden = app
        .query(
            "SELECT id, path_string FROM locations WHERE parent_id = ? ORDER BY id LIMIT 1",
            vec![last_id(&big).into()],
        )
        .await;
    let hidden_path = hidden[0]["path_string"]
        .as_str()
        .unwrap()
        .trim_matches('/')
        .to_string();
    app.req("PATCH", &format!("/content/locations/{hidden_path}"))
        .admin()
        .json_body("LocationUpdate", json!({"hidden": true}))
        .send()
        .await
        .assert(200);

    // Writes before dropped the cached Policies: load them again first.
    app.get("/").admin().send().await.assert(200);
    let before = app.statements();
    let r = app
        .req("MOVE", &format!("/content/locations/{big}"))
        .admin()
        .header(
            "destination",
            &format!("/api/ibexa/v2/content/locations/{target}"),
        )
        .send()
        .await;
    r.assert(201);
    let spent = app.statements() - before;
    // One of them names what the move touched (for the response cache): here, everything;
    // PostgreSQL takes the tree's lock besides.
    assert!(
        spent <= 27,
        "a move of 10,001 Locations took {spent} statements"
    );
    let moved = format!("{target}/{}", last_id(&big));
    let under = app
        .query(
            "SELECT COUNT(*) AS n FROM locations WHERE path_string >= ? AND path_string < ?",
            vec![format!("/{moved}/").into(), format!("/{moved}/~").into()],
        )
        .await;
    assert_eq!(under[0]["n"].as_i64().unwrap(), 10_001);
    let invisible = app.query("SELECT COUNT(*) AS n FROM locations WHERE is_invisible AND path_string >= ? AND path_string < ?", vec![format!("/{moved}/").into(), format!("/{moved}/~").into()]).await;
    assert_eq!(
        invisible[0]["n"].as_i64().unwrap(),
        100,
        "the hidden node and its 99 children"
    );
    assert_tree_consistent(&app).await;

    // Children at a large offset.
    let first_child = app
        .query(
            "SELECT id FROM locations WHERE parent_id = ? ORDER BY id LIMIT 1",
            vec![last_id(&big).into()],
        )
        .await[0]["id"]
        .as_i64()
        .unwrap();
    let r = app
        .get(&format!(
            "/content/locations/{moved}/{first_child}/children?offset=90&limit=25"
        ))
        .accept("LocationList+json")
        .send()
        .await;
    assert_eq!(children_ids(&r.json()).len(), 9);
}

/// Writers of the tree run at once and leave it consistent: two moves of one subtree, two
/// moves that would put two folders in each other, hiding the subtree, and publications of
/// new items inside it. (On PostgreSQL the moves and the hide hold the tree alone, the
/// publications share it; before, the moves decided paths from what they read unlocked.)
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_tree_writes_leave_it_consistent() {
    let app = TestApp::new().await;
    let (_, s) = published_folder(&app, "Subtree", "1/2").await;
    let (_, inside) = published_folder(&app, "Inside", &s).await;
    let (_, b) = published_folder(&app, "B", "1/2").await;
    let (_, c) = published_folder(&app, "C", "1/2").await;
    let (_, d) = published_folder(&app, "D", "1/2").await;
    let mut drafts = Vec::new();
    for n in 0..6 {
        drafts.push(create_folder(&app, &format!("New {n}"), &inside).await);
    }
    let publications = drafts.iter().map(|id| {
        (app.req("PUBLISH", &format!("/content/objects/{id}/versions/1")))
            .admin()
            .send()
    });
    let moves = [(&s, &b), (&s, &c), (&c, &d), (&d, &c)].map(|(x, y)| app.move_to(x, y).send());
    let hide = app
        .req("PATCH", &format!("/content/locations/{s}"))
        .admin()
        .json_body("LocationUpdate", json!({"hidden": true}))
        .send();
    let (published, moved, hidden) = tokio::join!(
        futures_util::future::join_all(publications),
        futures_util::future::join_all(moves),
        hide
    );
    for r in &published {
        r.assert(204);
    }
    hidden.assert(200);
    let statuses: Vec<u16> = moved.iter().map(|r| r.status.as_u16()).collect();
    assert_eq!(&statuses[..2], [201, 201], "both moves of the subtree");
    // C under D and D under C: whichever runs second finds its destination below itself.
    let mut crossing = statuses[2..].to_vec();
    crossing.sort();
    assert_eq!(crossing, [201, 403]);
    // Every new item is below the subtree, wherever that ended.
    let s_now = app
        .query(
            "SELECT path_string FROM locations WHERE id = ?",
            vec![last_id(&s).into()],
        )
        .await;
    let s_path = s_now[0]["path_string"].as_str().unwrap().to_string();
    for id in drafts {
        let rows = app
            .query(
                "SELECT path_string FROM locations WHERE content_id = ?",
                vec![id.into()],
            )
            .await;
        assert!(
            rows[0]["path_string"]
                .as_str()
                .unwrap()
                .starts_with(&s_path),
            "{rows:?}"
        );
    }
    assert_tree_consistent(&app).await;
}
