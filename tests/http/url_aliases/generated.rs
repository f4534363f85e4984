//! The aliases the tree generates: on publication, renames that keep history, moves, swaps
//! and deletes, a language added while running, and concurrent publications.

use super::*;
use crate::content::{add_location, create_folder, publish, published_folder};

// needs the hooks wired (publish, rename, new Location)
#[tokio::test]
async fn publishing_generates_aliases_and_renames_keep_history() {
    let app = TestApp::new().await;
    let (id, path) = published_folder(&app, "My Folder", "1/2").await;
    assert_eq!(alias_paths(&app, &path, false).await, ["/My-Folder"]);
    assert_eq!(resolve(&app, "/my-folder").await, Ok(path.clone()));
    // The same name at the same level gets a counter; reserved names at the root start at 2.
    let (_, second) = published_folder(&app, "My Folder", "1/2").await;
    assert_eq!(alias_paths(&app, &second, false).await, ["/My-Folder2"]);
    let (_, content) = published_folder(&app, "Content", "1/2").await;
    assert_eq!(alias_paths(&app, &content, false).await, ["/Content2"]);
    // Below another Location, the parent's alias leads.
    let (_, child) = published_folder(&app, "Child Ünïcode", &path).await;
    assert_eq!(
        alias_paths(&app, &child, false).await,
        ["/My-Folder/Child-Uenicode"]
    );

    // A rename: the old path is history and still resolves, with the subtree below it.
    app.req("COPY", &format!("/content/objects/{id}/currentversion"))
        .admin()
        .send()
        .await
        .assert(201);
    app.req("PATCH", &format!("/content/objects/{id}/versions/2"))
        .admin()
        .json_body(
            "VersionUpdate",
            json!({"fields": {"field": [{"fieldDefinitionIdentifier": "name", "languageCode": "eng-GB", "fieldValue": "Renamed"}]}}),
        )
        .send()
        .await
        .assert(200);
    publish(&app, id, 2).await;
    assert_eq!(alias_paths(&app, &path, false).await, ["/Renamed"]);
    assert_eq!(resolve(&app, "/Renamed").await, Ok(path.clone()));
    assert_eq!(resolve(&app, "/My-Folder").await, Ok(path.clone()));
    assert_eq!(
        resolve(&app, "/renamed/child-uenicode").await,
        Ok(child.clone())
    );
    assert_eq!(
        resolve(&app, "/my-folder/child-uenicode").await,
        Ok(child.clone())
    );
    assert_eq!(
        alias_paths(&app, &child, false).await,
        ["/Renamed/Child-Uenicode"]
    );

    // A further Location of the content gets its own alias.
    let href = add_location(&app, id, "1/43").await;
    let placed = href.trim_start_matches("/api/ibexa/v2/content/locations/");
    assert_eq!(alias_paths(&app, placed, false).await, ["/Media/Renamed"]);
}

// needs the hooks wired (move, swap, delete)
#[tokio::test]
async fn moves_swaps_and_deletes_carry_the_aliases() {
    let app = TestApp::new().await;
    let (_, a) = published_folder(&app, "A", "1/2").await;
    let (_, b) = published_folder(&app, "B", "1/2").await;
    let (_, c) = published_folder(&app, "C", &a).await;
    let (_, d) = published_folder(&app, "D", &c).await;

    // MOVE A under B: the subtree's new paths, and its old paths as history.
    let r = app
        .req("MOVE", &format!("/content/locations/{a}"))
        .admin()
        .header(
            "destination",
            &format!("/api/ibexa/v2/content/locations/{b}"),
        )
        .send()
        .await;
    r.assert(201);
    let moved_d = format!("{b}/{}", d.trim_start_matches("1/2/"));
    assert_eq!(alias_paths(&app, &moved_d, false).await, ["/B/A/C/D"]);
    assert_eq!(resolve(&app, "/B/A/C/D").await, Ok(moved_d.clone()));
    assert_eq!(resolve(&app, "/A/C/D").await, Ok(moved_d.clone()));

    // SWAP B with a sibling: each Location shows the name of the content it now holds.
    let (_, e) = published_folder(&app, "E", "1/2").await;
    app.swap(&b, &e).send().await.assert(204);
    assert_eq!(alias_paths(&app, &b, false).await, ["/E"]);
    assert_eq!(alias_paths(&app, &e, false).await, ["/B"]);
    assert_eq!(alias_paths(&app, &moved_d, false).await, ["/E/A/C/D"]);

    // DELETE the subtree: its aliases go, custom ones included.
    create(&app, create_custom(&moved_d, "dee"))
        .await
        .assert(201);
    app.req("DELETE", &format!("/content/locations/{b}"))
        .admin()
        .send()
        .await
        .assert(204);
    assert_eq!(resolve(&app, "/E/A/C/D").await, Err(404));
    assert_eq!(resolve(&app, "/dee").await, Err(404));
    let rows = app
        .query(
            "SELECT COUNT(*) AS n FROM url_aliases WHERE action = ?",
            vec![format!("eznode:{}", d.rsplit('/').next().unwrap()).into()],
        )
        .await;
    assert_eq!(rows[0]["n"], 0);
    assert_eq!(resolve(&app, "/B").await, Ok(e.clone()));
}

/// The languages are kept in memory, and a language added while the server runs (`cairn
/// language add`) is there at once: content is created in it, and its Location's alias has it.
#[tokio::test]
async fn a_language_added_while_running_is_used_at_once() {
    let app = TestApp::new().await;
    // The server has read its languages.
    published_folder(&app, "Before", "1/2").await;
    cairn::admin::add_language(&app.service.db, "pol-PL", "Polish")
        .await
        .unwrap();
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("ContentInfo+json")
        .json_body(
            "ContentCreate",
            json!({
                "ContentType": {"_href": "/api/ibexa/v2/content/types/1"},
                "mainLanguageCode": "pol-PL",
                "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
                "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "Katalog"}]}
            }),
        )
        .send()
        .await;
    r.assert(201);
    let id = r.json()["Content"]["_id"].as_i64().unwrap();
    publish(&app, id, 1).await;
    let location = app
        .query(
            "SELECT id FROM locations WHERE content_id = ?",
            vec![id.into()],
        )
        .await[0]["id"]
        .as_i64()
        .unwrap();
    let ids = location_aliases(&app, &format!("1/2/{location}"), false).await;
    assert_eq!(ids.len(), 1);
    let a = alias(&app, &ids[0]).await;
    assert_eq!(a["path"], "/Katalog");
    assert_eq!(a["languageCodes"], "pol-PL");
}

/// Publications under one parent run side by side (PostgreSQL holds the alias tree shared and
/// claims each text), while swaps (which hold it alone) run too: eight items named alike,
/// published at once, each get a text of their own, with no gap; nothing fails or deadlocks,
/// and the tree stays consistent.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_publications_take_distinct_texts() {
    let app = TestApp::new().await;
    let (_, a) = published_folder(&app, "Swapped A", "1/2").await;
    let (_, b) = published_folder(&app, "Swapped B", "1/2").await;
    let mut ids = Vec::new();
    for _ in 0..8 {
        ids.push(create_folder(&app, "Same", "1/2").await);
    }
    let publications = ids.iter().map(|id| {
        app.req("PUBLISH", &format!("/content/objects/{id}/versions/1"))
            .admin()
            .send()
    });
    let swaps = (0..3).map(|_| app.swap(&a, &b).send());
    let (published, swapped) = tokio::join!(
        futures_util::future::join_all(publications),
        futures_util::future::join_all(swaps)
    );
    for r in published.iter().chain(&swapped) {
        r.assert(204);
    }
    let texts: Vec<String> = app
        .query(
            "SELECT text FROM url_aliases WHERE parent = 0 AND text LIKE 'Same%' AND is_original",
            vec![],
        )
        .await
        .iter()
        .map(|r| r["text"].as_str().unwrap().to_string())
        .collect();
    let mut texts = texts;
    texts.sort_by_key(|t| (t.len(), t.clone()));
    let expected: Vec<String> = std::iter::once("Same".to_string())
        .chain((2..=8).map(|n| format!("Same{n}")))
        .collect();
    assert_eq!(texts, expected);
    assert_eq!(cairn::admin::check(&app.service.db).await.unwrap(), vec![]);
}
