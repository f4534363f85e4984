//! The response cache: a GET answered again is served from it, per caller; any committed
//! change (on this instance or another over the same database) makes every older answer
//! unusable before the change's response is sent.

use crate::support::*;
use serde_json::{Value, json};

/// The statements of one more `GET path` as admin (HTTP Basic) in `accept`, and its answer.
async fn read(app: &TestApp, path: &str, accept: &str) -> (u64, Resp) {
    let before = app.statements();
    let r = app.get(path).admin().accept(accept).send().await;
    (app.statements() - before, r)
}

async fn rename_section(app: &TestApp, name: &str) {
    app.req("PATCH", "/content/sections/1")
        .admin()
        .json_body("SectionInput", json!({"name": name}))
        .send()
        .await
        .assert(200);
}

#[tokio::test]
async fn a_read_served_again_costs_at_most_the_generation_and_a_change_ends_it() {
    let app = TestApp::new().await;
    for accept in ["Section+json", "Section+xml"] {
        let (_, first) = read(&app, "/content/sections/1", accept).await;
        first.assert(200);
        let (cost, again) = read(&app, "/content/sections/1", accept).await;
        again.assert(200);
        assert_eq!(again.body, first.body, "{accept}");
        assert_eq!(again.header("etag"), first.header("etag"));
        assert_eq!(again.content_type(), first.content_type());
        // At most the generation: the admin's account, found in this generation, is known.
        assert_eq!(cost, marked_cost(), "{accept}: a kept answer");
    }
    rename_section(&app, "Renamed").await;
    let (_, r) = read(&app, "/content/sections/1", "Section+json").await;
    assert_eq!(r.json()["Section"]["name"], "Renamed");
    let (_, r) = read(&app, "/content/sections/1", "Section+xml").await;
    assert_eq!(child_text(&r.xml(), "name"), "Renamed");
}

#[tokio::test]
async fn if_none_match_is_answered_from_the_cache() {
    let app = TestApp::new().await;
    let (_, r) = read(&app, "/content/sections/2", "Section+json").await;
    let etag = r.header("etag").unwrap();
    for _ in 0..2 {
        let r = (app.get("/content/sections/2").admin())
            .accept("Section+json")
            .header("If-None-Match", &etag)
            .send()
            .await;
        r.assert(304);
        assert!(r.body.is_empty());
    }
}

#[tokio::test]
async fn answers_are_kept_per_caller() {
    let app = TestApp::new().await;
    for _ in 0..2 {
        read(&app, "/content/objects/14", "ContentInfo+json")
            .await
            .1
            .assert(200);
    }
    // The anonymous user may not read the admin user's content item: not even kept.
    for _ in 0..2 {
        (app.get("/content/objects/14").accept("ContentInfo+json"))
            .send()
            .await
            .assert_error(401);
    }
    // Each format and query is an answer of its own.
    let (_, info) = read(&app, "/content/objects/14", "ContentInfo+json").await;
    let (_, full) = read(&app, "/content/objects/14", "Content+json").await;
    assert_eq!(
        info.content_type(),
        "application/vnd.ibexa.api.ContentInfo+json"
    );
    assert_eq!(
        full.content_type(),
        "application/vnd.ibexa.api.Content+json"
    );
    assert_ne!(info.body, full.body);
}

#[tokio::test]
async fn a_change_through_another_instance_is_seen_at_once() {
    let app = TestApp::new().await;
    let other = app.another_instance().await;
    let (_, r) = read(&other, "/content/sections/1", "Section+json").await;
    r.assert(200);
    read(&other, "/content/sections/1", "Section+json").await;
    for n in 0..5 {
        let name = format!("Renamed {n}");
        rename_section(&app, &name).await;
        // No wait: the read starts after the write's response.
        let (_, r) = read(&other, "/content/sections/1", "Section+json").await;
        assert_eq!(r.json()["Section"]["name"], json!(name));
    }
}

#[tokio::test]
async fn a_kept_content_item_costs_at_most_the_generation() {
    let app = TestApp::new().await;
    let off = TestApp::with_args(&["--cache-mib", "0"]).await;
    let mut costs = Vec::new();
    for app in [&app, &off] {
        let (_, first) = read(app, "/content/objects/1", "Content+json").await;
        let (cost, again) = read(app, "/content/objects/1", "Content+json").await;
        assert_eq!(again.body, first.body);
        costs.push(cost);
    }
    assert_eq!(costs[0], marked_cost(), "kept: at most the generation");
    // Without the cache: the item with its version and main Location, the version's fields,
    // its relations (the admin's account is kept under the commit mark on SQLite).
    let uncached = match backend() {
        "postgres" => 4,
        _ => 3,
    };
    assert_eq!(costs[1], uncached, "rendered every time without the cache");
}

#[tokio::test]
async fn the_cache_can_be_turned_off() {
    let app = TestApp::with_args(&["--cache-mib", "0"]).await;
    let (_, first) = read(&app, "/content/sections/1", "Section+json").await;
    let (_, again) = read(&app, "/content/sections/1", "Section+json").await;
    assert_eq!(again.body, first.body);
    rename_section(&app, "Renamed").await;
    let (_, r) = read(&app, "/content/sections/1", "Section+json").await;
    assert_eq!(r.json()["Section"]["name"], "Renamed");
    let r = app.get("/metrics").send().await;
    assert!(!r.body.contains("cache=\"responses\""), "{}", r.body);
}

#[tokio::test]
async fn searches_are_kept_per_query_until_a_change() {
    let app = TestApp::new().await;
    let view = |parent: &str| {
        json!({"identifier": "kept", "ContentQuery": {
            "Filter": {"ParentLocationIdCriterion": parent}, "limit": 10}})
    };
    let search = async |parent: &str| {
        let before = app.statements();
        let r = app
            .req("POST", "/views")
            .admin()
            .accept("View+json")
            .json_body("ViewInput", view(parent))
            .send()
            .await;
        r.assert(200);
        let count = r.json()["View"]["Result"]["count"].as_i64().unwrap();
        (app.statements() - before, count, r.body)
    };
    let (_, before, first) = search("2").await;
    let (cost, _, again) = search("2").await;
    assert_eq!(again, first);
    assert_eq!(cost, marked_cost(), "kept: at most the generation");
    // Another query is a search of its own.
    let (cost, users, _) = search("5").await;
    assert!(cost > 1 && users != before);
    // A new child of Location 2 is found at once.
    crate::content::published_folder(&app, "New", "1/2").await;
    let (_, after, _) = search("2").await;
    assert_eq!(after, before + 1);
}

/// A command run on the database (here `cairn language add`, as from another process) is a
/// change like any other.
#[tokio::test]
async fn a_language_added_by_the_command_is_listed_at_once() {
    let app = TestApp::new().await;
    let codes = async || {
        let r = app
            .get("/languages")
            .accept("LanguageList+json")
            .send()
            .await;
        r.assert(200);
        r.json()["LanguageList"]["Language"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["languageCode"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let before = codes().await;
    assert_eq!(codes().await, before);
    cairn::admin::add_language(&app.service.db, "pol-PL", "Polish")
        .await
        .unwrap();
    let after = codes().await;
    assert_eq!(after.len(), before.len() + 1);
    assert!(after.contains(&"pol-PL".to_string()));
}

/// A password changed or an account disabled is a change: the login known within the old
/// generation is looked up again.
#[tokio::test]
async fn a_changed_password_is_checked_again_by_a_kept_read() {
    let app = TestApp::new().await;
    read(&app, "/content/sections/1", "Section+json")
        .await
        .1
        .assert(200);
    read(&app, "/content/sections/1", "Section+json")
        .await
        .1
        .assert(200);
    cairn::admin::set_password(&app.service.db, "admin", "another-password")
        .await
        .unwrap();
    (app.get("/content/sections/1")
        .admin()
        .accept("Section+json"))
    .send()
    .await
    .assert_error(401);
    (app.get("/content/sections/1")
        .basic("admin", "another-password"))
    .accept("Section+json")
    .send()
    .await
    .assert(200);
}

/// Many reads at once share the reads of the generation: fewer statements than requests,
/// and each sees what was committed before it began.
#[tokio::test]
async fn concurrent_reads_share_the_generation_reads() {
    let app = TestApp::new().await;
    rename_section(&app, "Before").await;
    let anonymous = async || {
        let r = app
            .get("/content/objects/1")
            .accept("ContentInfo+json")
            .send()
            .await;
        r.assert(200);
    };
    anonymous().await;
    let before = app.statements();
    futures_util::future::join_all((0..50).map(|_| anonymous())).await;
    let cost = app.statements() - before;
    assert!(cost < 50, "{cost} statements for 50 kept reads");
    rename_section(&app, "After").await;
    let (_, r) = read(&app, "/content/sections/1", "Section+json").await;
    assert_eq!(r.json()["Section"]["name"], "After");
}

/// Whether a read as admin of `path` was answered from the cache: at most the generation and
/// the changes since (one statement), where rendering a content item or a Location costs more.
async fn kept(app: &TestApp, path: &str, accept: &str) -> (bool, Value) {
    let (cost, r) = read(app, path, accept).await;
    r.assert(200);
    (cost <= 1, r.json())
}

/// A publication drops the kept answers that show its item (the Content item, its Location,
/// the parent's count of children) and keeps the others, on this instance and on another;
/// a change of anything else (a Section renamed) drops them all.
#[tokio::test]
async fn a_publication_drops_what_shows_its_item_and_keeps_the_rest() {
    let app = TestApp::new().await;
    let other = app.another_instance().await;
    let (id, path) = crate::content::published_folder(&app, "Before", "1/2").await;
    let item = format!("/content/objects/{id}");
    let location = format!("/content/locations/{path}");
    let untouched = [
        ("/content/objects/4", "Content+json"),
        ("/content/locations/1/5", "Location+json"),
        ("/user/users/14", "User+json"),
    ];
    for app in [&app, &other] {
        for (p, accept) in untouched
            .iter()
            .copied()
            .chain([
                (item.as_str(), "Content+json"),
                (location.as_str(), "Location+json"),
            ])
            .chain([("/content/locations/1/2", "Location+json")])
        {
            read(app, p, accept).await;
            assert!(kept(app, p, accept).await.0, "{p} kept");
        }
    }
    let (_, parent) = kept(&app, "/content/locations/1/2", "Location+json").await;
    let children = parent["Location"]["childCount"].as_i64().unwrap();

    // A new version of the item, and a new child of the same parent.
    crate::content::publish_name(&app, id, "After").await;
    crate::content::published_folder(&app, "Sibling", "1/2").await;

    for app in [&app, &other] {
        let (hit, c) = kept(app, &item, "Content+json").await;
        assert!(!hit, "the item is rendered again");
        assert_eq!(c["Content"]["Name"], "After");
        let (hit, l) = kept(app, &location, "Location+json").await;
        assert!(!hit, "its Location is rendered again");
        assert_eq!(l["Location"]["ContentInfo"]["Content"]["Name"], "After");
        let (hit, p) = kept(app, "/content/locations/1/2", "Location+json").await;
        assert!(!hit, "the parent is rendered again");
        assert_eq!(p["Location"]["childCount"], children + 1);
        for (p, accept) in untouched {
            assert!(kept(app, p, accept).await.0, "{p} is kept");
        }
    }
    rename_section(&app, "Renamed").await;
    for app in [&app, &other] {
        for (p, accept) in untouched {
            assert!(!kept(app, p, accept).await.0, "{p} is rendered again");
        }
    }
}

/// Hiding a Location drops the kept answers of the Locations of its subtree (their
/// visibility changed) and keeps the others.
#[tokio::test]
async fn hiding_a_location_drops_its_subtree_and_keeps_the_rest() {
    let app = TestApp::new().await;
    let (_, parent) = crate::content::published_folder(&app, "Parent", "1/2").await;
    let (_, child) = crate::content::published_folder(&app, "Child", &parent).await;
    let (parent, child) = (
        format!("/content/locations/{parent}"),
        format!("/content/locations/{child}"),
    );
    let untouched = [
        ("/content/objects/4", "Content+json"),
        ("/content/locations/1/5", "Location+json"),
        ("/user/users/14", "User+json"),
    ];
    for (p, accept) in untouched.iter().copied().chain([
        (parent.as_str(), "Location+json"),
        (child.as_str(), "Location+json"),
    ]) {
        read(&app, p, accept).await;
        assert!(kept(&app, p, accept).await.0, "{p} kept");
    }
    app.req("PATCH", &parent)
        .admin()
        .json_body("LocationUpdate", json!({"hidden": true}))
        .send()
        .await
        .assert(200);
    let (hit, l) = kept(&app, &child, "Location+json").await;
    assert!(!hit, "the child is rendered again");
    assert_eq!(l["Location"]["invisible"], true);
    let (hit, l) = kept(&app, &parent, "Location+json").await;
    assert!(!hit, "the hidden Location is rendered again");
    assert_eq!(l["Location"]["hidden"], true);
    for (p, accept) in untouched {
        assert!(kept(&app, p, accept).await.0, "{p} is kept");
    }
}
