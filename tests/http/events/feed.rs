//! The feed as pages: committed changes in order with what made them, bad windows refused,
//! pruned events gone for a late reader, and `Last-Event-ID` resuming without gaps.

use super::*;

#[tokio::test]
async fn lists_committed_changes_in_order_with_what_made_them() {
    let app = TestApp::new().await;
    let start = events(&app, "").admin().send().await;
    start.assert(200);
    let last = start.json()["EventList"]["last"].as_i64().unwrap();
    let created = app
        .req("POST", "/content/sections")
        .admin()
        .accept("Section+json")
        .json_body(
            "SectionInput",
            json!({"identifier": "feed", "name": "Feed"}),
        )
        .send()
        .await;
    created.assert(201);
    let section = created.json()["Section"]["_href"]
        .as_str()
        .unwrap()
        .to_string();
    app.req("PATCH", "/content/sections/1")
        .admin()
        .json_body("SectionInput", json!({"name": "Std"}))
        .send()
        .await
        .assert(200);
    // A refused write records nothing.
    app.req("PATCH", "/content/sections/1")
        .admin()
        .json_body("SectionInput", json!({"identifier": "users"}))
        .send()
        .await
        .assert_error(403);
    let r = events(&app, &format!("?after={last}")).admin().send().await;
    r.assert(200);
    let j = r.json();
    let list = j["EventList"]["Event"].as_array().unwrap();
    let seen: Vec<(i64, &str, &str, i64)> = list
        .iter()
        .map(|e| {
            (
                e["id"].as_i64().unwrap(),
                e["operation"].as_str().unwrap(),
                e["Resource"]["_href"].as_str().unwrap(),
                e["userId"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            // A created resource's event names it, not its collection.
            (last + 1, "createSection", section.as_str(), 14),
            (
                last + 2,
                "updateSection",
                "/api/ibexa/v2/content/sections/1",
                14
            ),
        ]
    );
    assert_eq!(j["EventList"]["last"], last + 2);
    assert!(list[0]["time"].as_str().unwrap().contains('T'));
    // XML, and a window.
    let r = (app.get(&format!("/events?after={last}&limit=1")).admin())
        .accept("EventList+xml")
        .send()
        .await;
    let x = r.xml();
    let list: Vec<_> = x.children.iter().filter(|c| c.name == "Event").collect();
    assert_eq!(list.len(), 1);
    assert_eq!(child_text(list[0], "operation"), "createSection");
}

#[tokio::test]
async fn the_feed_refuses_bad_windows() {
    let app = TestApp::new().await;
    for q in ["?limit=0", "?limit=1001", "?after=-1", "?after=x"] {
        let m = events(&app, q).admin().send().await.assert_error(400);
        assert!(!m.is_empty(), "{q}");
    }
}

#[tokio::test]
async fn pruned_events_are_gone_for_a_reader_that_fell_behind() {
    let app = TestApp::new().await;
    for n in 0..3 {
        app.req("PATCH", "/content/sections/1")
            .admin()
            .json_body("SectionInput", json!({"name": format!("N{n}")}))
            .send()
            .await
            .assert(200);
    }
    let last = events(&app, "").admin().send().await.json()["EventList"]["last"]
        .as_i64()
        .unwrap();
    let pruned = cairn_store::events::prune(app.service.db.conn(), 1)
        .await
        .unwrap();
    assert!(pruned >= 2);
    let m = events(&app, "?after=0")
        .admin()
        .send()
        .await
        .assert_error(410);
    assert!(m.contains(&format!("the oldest kept is {last}")), "{m}");
    // Who is up to date loses nothing.
    let r = events(&app, &format!("?after={}", last - 1))
        .admin()
        .send()
        .await;
    assert_eq!(r.json()["EventList"]["Event"][0]["id"], last);
    // The generation stays.
    assert_eq!(
        cairn_store::events::generation(app.service.db.conn())
            .await
            .unwrap(),
        last as u64
    );
}

/// A follower that reconnects with the id of the last event it has gets what came after it,
/// without a gap or a repeat, whatever happened meanwhile.
#[tokio::test]
async fn last_event_id_resumes_without_gaps() {
    let app = TestApp::new().await;
    let page = async |last: Option<i64>| {
        let mut r = events(&app, "?limit=2").admin();
        if let Some(id) = last {
            r = r.header("Last-Event-ID", &id.to_string());
        }
        let j = r.send().await.json();
        (j["EventList"]["Event"].as_array().unwrap())
            .iter()
            .map(|e| e["id"].as_i64().unwrap())
            .collect::<Vec<_>>()
    };
    let start = events(&app, "").admin().send().await.json()["EventList"]["last"]
        .as_i64()
        .unwrap();
    for n in 0..5 {
        app.req("PATCH", "/content/sections/1")
            .admin()
            .json_body("SectionInput", json!({"name": format!("R{n}")}))
            .send()
            .await
            .assert(200);
    }
    let mut seen = Vec::new();
    let mut last = start;
    loop {
        let ids = page(Some(last)).await;
        let Some(&end) = ids.last() else { break };
        seen.extend(ids);
        last = end;
    }
    assert_eq!(seen, ((start + 1)..=(start + 5)).collect::<Vec<_>>());
    // The header is an event id.
    (events(&app, "").admin().header("Last-Event-ID", "x"))
        .send()
        .await
        .assert_error(400);
}
