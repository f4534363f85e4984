//! Locations and the content tree (spec 2.6, 3.3, 4.5): lookups, updates, children and their
//! sorting, further Locations of a content item, move, copy, swap, delete, visibility, and the
//! tree's consistency after each operation.

use crate::content::{create_folder, location, published_folder};
use crate::support::*;
use serde_json::json;

/// Every Location's path, depth and visibility follow from its parent's, aliases follow the
/// tree, and no row dangles: `cairn check`, over the whole database.
pub async fn assert_tree_consistent(app: &TestApp) {
    let problems = cairn::admin::check(&app.service.db).await.unwrap();
    assert!(problems.is_empty(), "{problems:#?}");
}

fn children_ids(v: &serde_json::Value) -> Vec<i64> {
    v["LocationList"]["Location"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| last_id(l["_href"].as_str().unwrap()))
        .collect()
}

fn hex_md5(text: &str) -> String {
    use md5::{Digest, Md5};
    Md5::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[tokio::test]
async fn lookups_redirect_to_the_location() {
    let app = TestApp::new().await;
    let r = app.get("/content/locations?id=43").admin().send().await;
    r.assert(307);
    assert_eq!(
        r.header("location").unwrap(),
        "/api/ibexa/v2/content/locations/1/43"
    );
    let r = app
        .get("/content/locations?remoteId=769380b7aa94541679167eab817ca893")
        .admin()
        .send()
        .await;
    assert_eq!(
        r.header("location").unwrap(),
        "/api/ibexa/v2/content/locations/1/5/13"
    );
    let r = app
        .get("/content/locations?locationPath=1/5/13/15")
        .admin()
        .send()
        .await;
    assert_eq!(
        r.header("location").unwrap(),
        "/api/ibexa/v2/content/locations/1/5/13/15"
    );
    app.get("/content/locations").send().await.assert_error(400);
    app.get("/content/locations?id=999")
        .send()
        .await
        .assert_error(404);
    app.get("/content/locations?remoteId=nope")
        .send()
        .await
        .assert_error(404);
    app.get("/content/locations?id=abc")
        .send()
        .await
        .assert_error(400);
    let r = app.get("/content/locations/1/2").send().await;
    r.assert(200);
    assert!(r.header("etag").is_some());
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.LocationUpdate+xml"
    );
}

#[tokio::test]
async fn update_changes_priority_sorting_remote_id_and_hides() {
    let app = TestApp::new().await;
    let (_, parent) = published_folder(&app, "Parent", "1/2").await;
    let (_, child) = published_folder(&app, "Child", &parent).await;
    let r = app
        .get(&format!("/content/locations/{parent}"))
        .send()
        .await;
    let etag = r.header("etag").unwrap();
    app.req("PATCH", &format!("/content/locations/{parent}"))
        .admin()
        .header("if-match", "\"stale\"")
        .json_body("LocationUpdate", json!({"priority": 3}))
        .send()
        .await
        .assert_error(412);
    let r = app
        .req("PATCH", &format!("/content/locations/{parent}"))
        .admin()
        .header("if-match", &etag)
        .accept("Location+json")
        .json_body("LocationUpdate", json!({"priority": 3, "sortField": "NAME", "sortOrder": "DESC", "remoteId": "parent-remote", "hidden": true}))
        .send()
        .await;
    r.assert(200);
    let l = r.json()["Location"].clone();
    assert_eq!(l["priority"], 3);
    assert_eq!(l["sortField"], "NAME");
    assert_eq!(l["sortOrder"], "DESC");
    assert_eq!(l["remoteId"], "parent-remote");
    assert_eq!(l["hidden"], true);
    assert_eq!(l["explicitlyHidden"], true);
    assert_eq!(l["invisible"], true);
    assert_eq!(location(&app, &child).await["invisible"], true);
    assert_eq!(location(&app, &child).await["hidden"], false);
    assert_tree_consistent(&app).await;
    // Revealed: the child is visible again.
    app.req("PATCH", &format!("/content/locations/{parent}"))
        .admin()
        .xml_body(
            "LocationUpdate",
            "<LocationUpdate><hidden>false</hidden></LocationUpdate>",
        )
        .send()
        .await
        .assert(200);
    assert_eq!(location(&app, &child).await["invisible"], false);
    // Errors: duplicate remote id 403, bad sort field 400, missing Location 404, anonymous 401.
    app.req("PATCH", &format!("/content/locations/{child}"))
        .admin()
        .json_body("LocationUpdate", json!({"remoteId": "parent-remote"}))
        .send()
        .await
        .assert_error(403);
    app.req("PATCH", &format!("/content/locations/{child}"))
        .admin()
        .json_body("LocationUpdate", json!({"sortField": "COLOUR"}))
        .send()
        .await
        .assert_error(400);
    app.req("PATCH", "/content/locations/1/2/999")
        .admin()
        .json_body("LocationUpdate", json!({"priority": 1}))
        .send()
        .await
        .assert_error(404);
    app.req("PATCH", &format!("/content/locations/{child}"))
        .json_body("LocationUpdate", json!({"priority": 1}))
        .send()
        .await
        .assert_error(401);
}

#[tokio::test]
async fn children_sort_by_every_sort_field_with_offset_and_limit() {
    let app = TestApp::new().await;
    let (_, parent) = published_folder(&app, "Parent", "1/2").await;
    let mut ids = Vec::new();
    for (name, priority) in [("Charlie", 2), ("alpha", 3), ("Bravo", 1)] {
        let (_, p) = published_folder(&app, name, &parent).await;
        app.req("PATCH", &format!("/content/locations/{p}"))
            .admin()
            .json_body("LocationUpdate", json!({"priority": priority}))
            .send()
            .await
            .assert(200);
        ids.push(last_id(&p));
    }
    let (c, a, b) = (ids[0], ids[1], ids[2]);
    let children = |q: &'static str| {
        let path = format!("/content/locations/{parent}/children{q}");
        let app = &app;
        async move {
            children_ids(
                &app.get(&path)
                    .accept("LocationList+json")
                    .send()
                    .await
                    .json(),
            )
        }
    };
    let sort = |field: &'static str, order: &'static str| {
        let path = format!("/content/locations/{parent}");
        let app = &app;
        async move {
            app.req("PATCH", &path)
                .admin()
                .json_body(
                    "LocationUpdate",
                    json!({"sortField": field, "sortOrder": order}),
                )
                .send()
                .await
                .assert(200);
        }
    };
    for (field, asc) in [
        ("PATH", vec![c, a, b]),
        ("NODE_ID", vec![c, a, b]),
        ("CONTENTOBJECT_ID", vec![c, a, b]),
        ("PUBLISHED", vec![c, a, b]),
        ("MODIFIED", vec![c, a, b]),
        ("PRIORITY", vec![b, c, a]),
        ("NAME", vec![a, b, c]),
        ("DEPTH", vec![c, a, b]),
        ("SECTION", vec![c, a, b]),
        ("CLASS_IDENTIFIER", vec![c, a, b]),
        ("CLASS_NAME", vec![c, a, b]),
    ] {
        sort(field, "ASC").await;
        assert_eq!(children("").await, asc, "{field} ASC");
        sort(field, "DESC").await;
        let mut desc = asc.clone();
        desc.reverse();
        if ![
            "DEPTH",
            "SECTION",
            "CLASS_IDENTIFIER",
            "CLASS_NAME",
            "PUBLISHED",
            "MODIFIED",
        ]
        .contains(&field)
        {
            assert_eq!(children("").await, desc, "{field} DESC");
        }
    }
    sort("NAME", "ASC").await;
    assert_eq!(children("?offset=1&limit=1").await, vec![b]);
    assert_eq!(children("?offset=2").await, vec![c]);
    assert_eq!(children("?limit=0").await, Vec::<i64>::new());
    assert_eq!(location(&app, &parent).await["childCount"], 3);
    app.get("/content/locations/1/2/999/children")
        .send()
        .await
        .assert_error(404);
    // XML.
    let r = app
        .get(&format!("/content/locations/{parent}/children?limit=2"))
        .send()
        .await;
    let x = r.xml();
    assert_eq!(x.name, "LocationList");
    assert_eq!(x.children.len(), 2);
}

#[tokio::test]
async fn a_content_item_gets_further_locations() {
    let app = TestApp::new().await;
    let (id, main) = published_folder(&app, "Shared", "1/2").await;
    let r = app
        .req("POST", &format!("/content/objects/{id}/locations"))
        .admin()
        .accept("Location+json")
        .json_body("LocationCreate", json!({"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/43"}, "priority": 5}))
        .send()
        .await;
    r.assert(201);
    let second = r.json()["Location"]["pathString"]
        .as_str()
        .unwrap()
        .trim_matches('/')
        .to_string();
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/locations/{second}")
    );
    assert_eq!(r.json()["Location"]["priority"], 5);
    // Under the same parent again: 403; under itself: 403; a missing parent: 404.
    app.req("POST", &format!("/content/objects/{id}/locations"))
        .admin()
        .json_body(
            "LocationCreate",
            json!({"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/43"}}),
        )
        .send()
        .await
        .assert_error(403);
    app.req("POST", &format!("/content/objects/{id}/locations"))
        .admin()
        .json_body(
            "LocationCreate",
            json!({"ParentLocation": {"_href": format!("/api/ibexa/v2/content/locations/{main}")}}),
        )
        .send()
        .await
        .assert_error(403);
    app.req("POST", &format!("/content/objects/{id}/locations"))
        .admin()
        .json_body(
            "LocationCreate",
            json!({"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/999"}}),
        )
        .send()
        .await
        .assert_error(404);
    app.req("POST", &format!("/content/objects/{id}/locations"))
        .admin()
        .json_body("LocationCreate", json!({}))
        .send()
        .await
        .assert_error(400);
    let r = app
        .get(&format!("/content/objects/{id}/locations"))
        .accept("LocationList+json")
        .send()
        .await;
    let hrefs: Vec<String> = r.json()["LocationList"]["Location"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["_href"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        hrefs,
        [
            format!("/api/ibexa/v2/content/locations/{main}"),
            format!("/api/ibexa/v2/content/locations/{second}")
        ]
    );

    // Deleting the main Location keeps the content item, which moves its main Location.
    app.req("DELETE", &format!("/content/locations/{main}"))
        .admin()
        .send()
        .await
        .assert(204);
    let info = app
        .get(&format!("/content/objects/{id}"))
        .accept("ContentInfo+json")
        .send()
        .await
        .json();
    assert_eq!(
        info["Content"]["MainLocation"]["_href"],
        format!("/api/ibexa/v2/content/locations/{second}")
    );
    // Deleting the last one deletes the content item.
    app.req("DELETE", &format!("/content/locations/{second}"))
        .admin()
        .send()
        .await
        .assert(204);
    app.get(&format!("/content/objects/{id}"))
        .send()
        .await
        .assert_error(404);
    app.req("DELETE", &format!("/content/locations/{second}"))
        .admin()
        .send()
        .await
        .assert_error(404);
    app.req("DELETE", "/content/locations/1")
        .admin()
        .send()
        .await
        .assert_error(403);
    assert_tree_consistent(&app).await;
}

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
    let r = app
        .req("MOVE", &format!("/content/locations/{a1}"))
        .admin()
        .header(
            "destination",
            &format!("/api/ibexa/v2/content/locations/{b}"),
        )
        .send()
        .await;
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
    app.req("MOVE", &format!("/content/locations/{b}"))
        .admin()
        .header(
            "destination",
            &format!("/api/ibexa/v2/content/locations/{moved}"),
        )
        .send()
        .await
        .assert_error(403);
    app.req("MOVE", &format!("/content/locations/{b}"))
        .admin()
        .header(
            "destination",
            &format!("/api/ibexa/v2/content/locations/{b}"),
        )
        .send()
        .await
        .assert_error(403);
    app.req("MOVE", "/content/locations/1/2")
        .admin()
        .header("destination", "/api/ibexa/v2/content/locations/1/43")
        .send()
        .await
        .assert(201);
    app.req("MOVE", "/content/locations/1/43/2")
        .admin()
        .header("destination", "/api/ibexa/v2/content/locations/1")
        .send()
        .await
        .assert(201);
    let moving = |path: &str, to: Option<&str>| {
        let r = app.req("MOVE", path).admin();
        match to {
            Some(to) => r.header("destination", to),
            None => r,
        }
    };
    let at_b = format!("/content/locations/{b}");
    expect_all(vec![
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
    let r = app
        .req("COPY", &format!("/content/locations/{a}"))
        .admin()
        .header(
            "destination",
            &format!("/api/ibexa/v2/content/locations/{b}"),
        )
        .send()
        .await;
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
    app.req("COPY", &format!("/content/locations/{a}"))
        .admin()
        .header(
            "destination",
            &format!("/api/ibexa/v2/content/locations/{a1}"),
        )
        .send()
        .await
        .assert_error(403);
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
    app.req("SWAP", &format!("/content/locations/{a}"))
        .admin()
        .header("destination", "/api/ibexa/v2/content/locations/1/999")
        .send()
        .await
        .assert_error(404);
    assert_tree_consistent(&app).await;

    // DELETE a subtree: its content goes.
    app.req("DELETE", &format!("/content/locations/{a}"))
        .admin()
        .header("if-match", "\"x\"")
        .send()
        .await
        .assert_error(412);
    app.req("DELETE", &format!("/content/locations/{a}"))
        .admin()
        .send()
        .await
        .assert(204);
    app.get(&format!("/content/locations/{a1}"))
        .send()
        .await
        .assert_error(404);
    app.get(&format!("/content/objects/{cb}"))
        .send()
        .await
        .assert_error(404);
    assert_tree_consistent(&app).await;
}

/// Inserts `children` × `grandchildren` folders below the Location `parent` in bulk (content
/// rows, versions and Locations), for tests of large subtrees.
pub async fn seed_subtree(app: &TestApp, parent: &str, children: i64, grandchildren: i64) -> i64 {
    let parent_row = &app
        .query(
            "SELECT id, path_string, depth FROM locations WHERE id = ?",
            vec![last_id(parent).into()],
        )
        .await[0];
    let (pid, ppath, pdepth) = (
        parent_row["id"].as_i64().unwrap(),
        parent_row["path_string"].as_str().unwrap().to_string(),
        parent_row["depth"].as_i64().unwrap(),
    );
    let base = app
        .query("SELECT MAX(id) AS m FROM locations", vec![])
        .await[0]["m"]
        .as_i64()
        .unwrap()
        + 1000;
    let cbase = app.query("SELECT MAX(id) AS m FROM contents", vec![]).await[0]["m"]
        .as_i64()
        .unwrap()
        + 1000;
    let mut rows: Vec<(i64, i64, String, i64)> = Vec::new();
    let mut next = base;
    for _ in 0..children {
        let child = next;
        next += 1;
        let cpath = format!("{ppath}{child}/");
        rows.push((child, pid, cpath.clone(), pdepth + 1));
        for _ in 0..grandchildren {
            rows.push((next, child, format!("{cpath}{next}/"), pdepth + 2));
            next += 1;
        }
    }
    // Alias elements: one per node, below its parent's element, ids taken from the sequence.
    let parent_element = app
        .query(
            "SELECT id FROM url_aliases WHERE action = ? AND is_original AND NOT is_alias",
            vec![format!("eznode:{pid}").into()],
        )
        .await[0]["id"]
        .as_i64()
        .unwrap();
    let elements = app.take_ids("url_aliases", rows.len()).await;
    let eng = app
        .query(
            "SELECT id FROM languages WHERE language_code = 'eng-GB'",
            vec![],
        )
        .await[0]["id"]
        .as_i64()
        .unwrap();
    let element = |location: i64| {
        if location == pid {
            parent_element
        } else {
            elements[(location - base) as usize]
        }
    };
    for chunk in rows.chunks(200) {
        let mut contents = String::from(
            "INSERT INTO contents (id, content_type_id, section_id, owner_id, remote_id, main_language_code, always_available, current_version, status, published, modified, is_hidden, main_location_id, name) VALUES ",
        );
        let mut locations = String::from(
            "INSERT INTO locations (id, parent_id, content_id, path_string, depth, priority, is_hidden, is_invisible, remote_id, sort_field, sort_order) VALUES ",
        );
        let mut versions = String::from(
            "INSERT INTO content_versions (content_id, version_no, status, creator_id, created, modified, initial_language_code, language_codes, names) VALUES ",
        );
        for (i, (id, parent, path, depth)) in chunk.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            let cid = cbase + (id - base);
            contents.push_str(&format!("{sep}({cid}, 1, 1, 14, 'bulk-{cid}', 'eng-GB', TRUE, 1, 1, 1, 1, FALSE, {id}, 'Node {cid}')"));
            locations.push_str(&format!("{sep}({id}, {parent}, {cid}, '{path}', {depth}, 0, FALSE, FALSE, 'bulk-loc-{id}', 'PATH', 'ASC')"));
            versions.push_str(&format!(
                "{sep}({cid}, 1, 1, 14, 1, 1, 'eng-GB', 'eng-GB', '{{\"eng-GB\":\"Node {cid}\"}}')"
            ));
        }
        let mut aliases = String::from(
            "INSERT INTO url_aliases (parent, text_md5, id, link, text, action, lang_mask, always_available, is_original, is_alias, alias_redirects) VALUES ",
        );
        for (i, (id, parent, _, _)) in chunk.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            let cid = cbase + (id - base);
            let text = format!("Node-{cid}");
            let md5 = hex_md5(&text.to_lowercase());
            let (el, pel) = (element(*id), element(*parent));
            aliases.push_str(&format!(
                "{sep}({pel}, '{md5}', {el}, {el}, '{text}', 'eznode:{id}', {eng}, TRUE, TRUE, FALSE, TRUE)"
            ));
        }
        app.sql(&aliases, vec![]).await;
        app.sql(&contents, vec![]).await;
        app.sql(&locations, vec![]).await;
        app.sql(&versions, vec![]).await;
    }
    rows.len() as i64
}

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

/// Remote id lookups ignore case, as the reference's (issue 11).
#[tokio::test]
async fn remote_id_lookups_ignore_case() {
    let app = TestApp::new().await;
    let r = app
        .get("/content/locations?remoteId=F3E90596361E31D496D4026EB624C983")
        .send()
        .await;
    r.assert(307);
    assert!(
        r.header("location")
            .unwrap()
            .ends_with("/content/locations/1/2")
    );
    let r = app
        .get("/content/objects?remoteId=9459D3C29E15006E45197295722C7ADE")
        .send()
        .await;
    r.assert(307);
    assert!(
        r.header("location")
            .unwrap()
            .ends_with("/content/objects/1")
    );
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
