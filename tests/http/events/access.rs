//! Each caller reads only the events it may read, in full lists and in pages.

use super::*;
use crate::content::published_folder;

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
