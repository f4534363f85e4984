//! The change feed: every committed change once, in commit order, with what made it.

use crate::content::{add_location, published_folder};
use crate::support::*;
use serde_json::json;

fn events<'a>(app: &'a TestApp, query: &str) -> Req<'a> {
    app.get(&format!("/events{query}")).accept("EventList+json")
}

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

fn rename_section<'a>(app: &'a TestApp, name: &str) -> Req<'a> {
    app.req("PATCH", "/content/sections/1")
        .admin()
        .json_body("SectionInput", json!({"name": name}))
}

fn ids_of(page: &serde_json::Value) -> Vec<i64> {
    (page["EventList"]["Event"].as_array().unwrap())
        .iter()
        .map(|e| e["id"].as_i64().unwrap())
        .collect()
}

/// `Accept: text/event-stream`: the events after the client's, then each change as it
/// commits; a client that reconnects with `Last-Event-ID` misses nothing.
#[tokio::test]
async fn the_feed_streams_server_sent_events_and_resumes() {
    let app = TestApp::new().await;
    let start = events(&app, "").admin().send().await.json()["EventList"]["last"]
        .as_i64()
        .unwrap();
    rename_section(&app, "S1").send().await.assert(200);
    let mut stream = (app.get(&format!("/events?after={start}")).admin())
        .header("accept", "text/event-stream")
        .open()
        .await;
    assert_eq!(stream.status, 200);
    assert_eq!(
        stream.headers["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    let first = stream.events(1).await;
    assert_eq!(first[0].0, (start + 1).to_string());
    let data: serde_json::Value = serde_json::from_str(&first[0].1).unwrap();
    assert_eq!(data["Event"]["operation"], "updateSection");
    assert_eq!(data["Event"]["id"], start + 1);
    assert_eq!(
        data["Event"]["_media-type"],
        "application/vnd.ibexa.api.Event+json"
    );
    // A change made while the stream is open comes at once.
    rename_section(&app, "S2").send().await.assert(200);
    let live = stream.events(1).await;
    assert_eq!(live[0].0, (start + 2).to_string());
    drop(stream);
    // Reconnecting after the first: the second, then the ones made meanwhile.
    rename_section(&app, "S3").send().await.assert(200);
    let mut again = (app.get("/events").admin())
        .header("accept", "text/event-stream")
        .header("Last-Event-ID", &(start + 1).to_string())
        .open()
        .await;
    let ids: Vec<String> = again.events(2).await.into_iter().map(|e| e.0).collect();
    assert_eq!(ids, [(start + 2).to_string(), (start + 3).to_string()]);
    // The server stopping ends the stream (requests in flight can finish).
    app.service.feed.stop();
    assert!(again.ends_within(5).await);
    // An error is an ErrorMessage, before any event.
    let refused = (app.get("/events").admin())
        .header("accept", "text/event-stream")
        .header("Last-Event-ID", "x")
        .open()
        .await;
    assert_eq!(refused.status, 400);
}

/// Who may not `setup/administrate` reads only the events on content it may read: anonymous
/// sees a published folder's changes, not the Sections' nor an item it may not read; pages
/// go on after `next` past what it may not see.
#[tokio::test]
async fn each_caller_reads_only_the_events_it_may_read() {
    let app = TestApp::new().await;
    let start = events(&app, "").admin().send().await.json()["EventList"]["last"]
        .as_i64()
        .unwrap();
    rename_section(&app, "Hidden").send().await.assert(200);
    let (folder, path) = published_folder(&app, "Public", "/content/locations/1/2").await;
    // An item in the Users Section, which anonymous may not read.
    let (users_item, _) = published_folder(&app, "Private", "/content/locations/1/5").await;
    // A change to the folder's Location.
    app.req("PATCH", &format!("/content/locations/{path}"))
        .admin()
        .json_body(
            "LocationUpdate",
            json!({"priority": 5, "sortField": "PATH", "sortOrder": "ASC"}),
        )
        .send()
        .await
        .assert(200);
    let all = events(&app, &format!("?after={start}"))
        .admin()
        .send()
        .await
        .json();
    let everything = ids_of(&all);
    assert!(everything.len() >= 5, "{all}");
    let anon = events(&app, &format!("?after={start}")).send().await;
    anon.assert(200);
    let page = anon.json();
    let seen: Vec<String> = (page["EventList"]["Event"].as_array().unwrap())
        .iter()
        .map(|e| e["Resource"]["_href"].as_str().unwrap().to_string())
        .collect();
    assert!(!seen.is_empty(), "{page}");
    for href in &seen {
        assert!(
            href.starts_with(&format!("/api/ibexa/v2/content/objects/{folder}"))
                || href == &format!("/api/ibexa/v2/content/locations/{path}"),
            "anonymous saw {href}"
        );
    }
    assert!(
        seen.iter().any(|h| h.contains("/content/locations/")),
        "{seen:?}"
    );
    assert!(
        !seen
            .iter()
            .any(|h| h.contains(&format!("objects/{users_item}")))
    );
    assert_eq!(
        page["EventList"]["next"],
        everything.last().copied().unwrap()
    );
    // Paging one at a time gives the same, and each page moves `next` on.
    let mut after = start;
    let mut paged = Vec::new();
    loop {
        let p = events(&app, &format!("?after={after}&limit=1"))
            .send()
            .await
            .json();
        paged.extend(ids_of(&p));
        let next = p["EventList"]["next"].as_i64().unwrap();
        if next == after {
            break;
        }
        after = next;
    }
    assert_eq!(paged, ids_of(&page));
}

/// The events of creations name what was created: a content item, a Location, a copy.
#[tokio::test]
async fn a_creation_names_what_it_created() {
    let app = TestApp::new().await;
    let start = events(&app, "").admin().send().await.json()["EventList"]["last"]
        .as_i64()
        .unwrap();
    let (folder, _) = published_folder(&app, "Made", "/content/locations/1/2").await;
    let location = add_location(&app, folder, "1/43").await;
    app.req("COPY", &format!("/content/objects/{folder}"))
        .admin()
        .header("destination", "/api/ibexa/v2/content/locations/1/43")
        .send()
        .await
        .assert(201);
    let page = events(&app, &format!("?after={start}"))
        .admin()
        .send()
        .await
        .json();
    let seen: Vec<(String, String)> = items(&page, "EventList", "Event")
        .iter()
        .map(|e| {
            (
                e["operation"].as_str().unwrap().to_string(),
                e["Resource"]["_href"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let of = |op: &str| {
        seen.iter()
            .find(|(o, _)| o == op)
            .map(|(_, r)| r.clone())
            .unwrap_or_else(|| panic!("no {op} in {seen:?}"))
    };
    assert_eq!(
        of("createContent"),
        format!("{PREFIX}/content/objects/{folder}")
    );
    let copy = of("copyContent");
    assert!(
        copy.starts_with(&format!("{PREFIX}/content/objects/")),
        "{copy}"
    );
    assert_ne!(copy, format!("{PREFIX}/content/objects/{folder}"));
    assert_eq!(of("createLocation"), location);
}

/// Every other creation names what it created too: the event's resource is the `Location`
/// of the 201 answer (a Role, a Policy, an Object state group and state, a URL wildcard and
/// alias, a bookmark, a content type group, a content type and its draft, a version draft and
/// a relation of it).
#[tokio::test]
async fn every_creation_names_its_resource() {
    let app = TestApp::new().await;
    let (folder, _) = published_folder(&app, "Bookmarked", "/content/locations/1/2").await;
    let last_event = async || {
        let page = events(&app, "?after=0&limit=1000")
            .admin()
            .send()
            .await
            .json();
        let all = items(&page, "EventList", "Event");
        let last = all.last().expect("an event").clone();
        (
            last["operation"].as_str().unwrap().to_string(),
            last["Resource"]["_href"].as_str().unwrap().to_string(),
        )
    };
    let created = async |op: &str, r: Resp| {
        r.assert(201);
        let location = r.header("location").expect("a Location header");
        assert_eq!(last_event().await, (op.to_string(), location.clone()));
        location
    };
    let role = created(
        "createRole",
        (app.req("POST", "/user/roles").admin())
            .json_body("RoleInput", json!({"identifier": "evented"}))
            .send()
            .await,
    )
    .await;
    let role = role.rsplit('/').next().unwrap().to_string();
    let published = (app.req("POST", "/user/roles?publish=true").admin())
        .json_body("RoleInput", json!({"identifier": "published"}))
        .send()
        .await;
    let published = created("createRole", published).await;
    created(
        "createRoleDraft",
        app.abs("POST", &published).admin().send().await,
    )
    .await;
    created(
        "addPolicy",
        (app.req("POST", &format!("/user/roles/{role}/policies"))
            .admin())
        .json_body(
            "PolicyCreate",
            json!({"module": "content", "function": "read"}),
        )
        .send()
        .await,
    )
    .await;
    let group = created(
        "createObjectStateGroup",
        (app.req("POST", "/content/objectstategroups").admin())
            .json_body(
                "ObjectStateGroupCreate",
                crate::object_states::group_input("evented"),
            )
            .send()
            .await,
    )
    .await;
    let group = group.rsplit('/').next().unwrap().to_string();
    created(
        "createObjectState",
        (app.req(
            "POST",
            &format!("/content/objectstategroups/{group}/objectstates"),
        )
        .admin())
        .json_body(
            "ObjectStateCreate",
            crate::object_states::state_input("on", 0),
        )
        .send()
        .await,
    )
    .await;
    created(
        "createURLWildcard",
        (app.req("POST", "/content/urlwildcards").admin())
            .json_body(
                "UrlWildcardCreate",
                json!({"sourceUrl": "/old/*", "destinationUrl": "/new/{1}", "forward": false}),
            )
            .send()
            .await,
    )
    .await;
    created(
        "createURLAlias",
        (app.req("POST", "/content/urlaliases").admin())
            .json_body(
                "UrlAliasCreate",
                json!({"_type": "LOCATION", "location": {"_href": format!("{PREFIX}/content/locations/1/2")},
                    "path": "/evented", "languageCode": "eng-GB"}),
            )
            .send()
            .await,
    )
    .await;
    let main = app
        .get(&format!("/content/objects/{folder}"))
        .accept("ContentInfo+json")
        .admin()
        .send()
        .await
        .json()["Content"]["MainLocation"]["_href"]
        .as_str()
        .unwrap()
        .to_string();
    let location_id = main.rsplit('/').next().unwrap().to_string();
    created(
        "createBookmark",
        app.req("POST", &format!("/bookmark/{location_id}"))
            .admin()
            .send()
            .await,
    )
    .await;
    created(
        "createContentTypeGroup",
        (app.req("POST", "/content/typegroups").admin())
            .json_body("ContentTypeGroupInput", json!({"identifier": "Evented"}))
            .send()
            .await,
    )
    .await;
    created(
        "createContentType",
        (app.req("POST", "/content/typegroups/1/types").admin())
            .accept("ContentType+json")
            .json_body(
                "ContentTypeCreate",
                crate::content_types::type_create("evented", vec![]),
            )
            .send()
            .await,
    )
    .await;
    created(
        "createContentTypeDraft",
        (app.req("POST", "/content/types/1").admin())
            .json_body("ContentTypeUpdate", json!({"identifier": "folder"}))
            .send()
            .await,
    )
    .await;
    created(
        "createDraftFromCurrentVersion",
        app.req("COPY", &format!("/content/objects/{folder}/currentversion"))
            .admin()
            .send()
            .await,
    )
    .await;
    created(
        "createRelation",
        (app.req(
            "POST",
            &format!("/content/objects/{folder}/versions/2/relations"),
        )
        .admin())
        .json_body(
            "RelationCreate",
            json!({"Destination": {"_href": format!("{PREFIX}/content/objects/4")}}),
        )
        .send()
        .await,
    )
    .await;
}
