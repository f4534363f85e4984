//! Changing Locations: priority, sorting, remote id and hiding by update, and further
//! Locations of a content item.

use super::*;

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
    let update = |path: &str, body: serde_json::Value| {
        app.req("PATCH", &format!("/content/locations/{path}"))
            .json_body("LocationUpdate", body)
    };
    update(&parent, json!({"priority": 3}))
        .admin()
        .header("if-match", "\"stale\"")
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
    expect_all(vec![
        (
            update(&child, json!({"remoteId": "parent-remote"})).admin(),
            403,
        ),
        (update(&child, json!({"sortField": "COLOUR"})).admin(), 400),
        (update("1/2/999", json!({"priority": 1})).admin(), 404),
        (update(&child, json!({"priority": 1})), 401),
    ])
    .await;
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
    let place = |body: serde_json::Value| {
        (app.req("POST", &format!("/content/objects/{id}/locations"))
            .admin())
        .json_body("LocationCreate", body)
    };
    let under = |parent: &str| json!({"ParentLocation": {"_href": format!("{PREFIX}/content/locations/{parent}")}});
    expect_all(vec![
        (place(under("1/43")), 403),
        (place(under(&main)), 403),
        (place(under("1/999")), 404),
        (place(json!({})), 400),
    ])
    .await;
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
    let delete = |path: &str| {
        app.req("DELETE", &format!("/content/locations/{path}"))
            .admin()
    };
    expect_all(vec![
        (delete(&second), 204),
        (app.get(&format!("/content/objects/{id}")), 404),
        (delete(&second), 404),
        (delete("1"), 403),
    ])
    .await;
    assert_tree_consistent(&app).await;
}
