//! Object states of content, and hiding and revealing content.

use super::*;

#[tokio::test]
async fn object_states_of_content() {
    let app = TestApp::new().await;
    let r = app
        .get("/content/objects/1/objectstates")
        .accept("ContentObjectStates+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["ContentObjectStates"]["ObjectState"],
        json!([{"_media-type": "application/vnd.ibexa.api.ObjectState+json", "_href": "/api/ibexa/v2/content/objectstategroups/2/objectstates/1"}])
    );
    let etag = r.header("etag").unwrap();
    // New content starts in the default state.
    let (id, _) = published_folder(&app, "Stateful", "1/2").await;
    let r = app
        .get(&format!("/content/objects/{id}/objectstates"))
        .accept("ContentObjectStates+json")
        .send()
        .await;
    assert_eq!(
        r.json()["ContentObjectStates"]["ObjectState"][0]["_href"],
        "/api/ibexa/v2/content/objectstategroups/2/objectstates/1"
    );
    // Lock content 1.
    let body = json!({"ObjectState": [{"_href": "/api/ibexa/v2/content/objectstategroups/2/objectstates/2"}]});
    let set_states = |body: Value| {
        (app.req("PATCH", "/content/objects/1/objectstates").admin())
            .json_body("ContentObjectStates", body)
    };
    set_states(body.clone())
        .header("if-match", "\"stale\"")
        .send()
        .await
        .assert_error(412);
    // 200 with the states after the change, as the reference answers.
    let r = set_states(body)
        .header("if-match", &etag)
        .accept("ContentObjectStates+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["ContentObjectStates"]["ObjectState"][0]["_href"],
        "/api/ibexa/v2/content/objectstategroups/2/objectstates/2"
    );
    assert!(r.header("etag").is_some());
    let r = app.get("/content/objects/1/objectstates").send().await;
    let x = r.xml();
    assert_eq!(
        attr(&x.children[0], "href"),
        "/api/ibexa/v2/content/objectstategroups/2/objectstates/2"
    );
    // Two states of one group: 403; an unknown state: 404; anonymous: 401.
    let both = json!({"ObjectState": [
        {"_href": "/api/ibexa/v2/content/objectstategroups/2/objectstates/1"},
        {"_href": "/api/ibexa/v2/content/objectstategroups/2/objectstates/2"}
    ]});
    let unknown = json!({"ObjectState": [{"_href": "/api/ibexa/v2/content/objectstategroups/2/objectstates/77"}]});
    expect_all(vec![
        (set_states(both), 403),
        (set_states(unknown), 404),
        (
            app.req("PATCH", "/content/objects/1/objectstates")
                .xml_body("ContentObjectStates", "<ContentObjectStates><ObjectState href=\"/api/ibexa/v2/content/objectstategroups/2/objectstates/1\"/></ContentObjectStates>"),
            401,
        ),
        (app.get("/content/objects/999/objectstates"), 404),
    ])
    .await;
}

#[tokio::test]
async fn hide_and_reveal_content() {
    let app = TestApp::new().await;
    let (parent, path) = published_folder(&app, "Parent", "1/2").await;
    let (_, child_path) = published_folder(&app, "Child", &path).await;
    let action =
        |id: i64, action: &str| app.req("POST", &format!("/content/objects/{id}/{action}"));
    action(parent, "hide").admin().send().await.assert(204);
    let l = location(&app, &path).await;
    assert_eq!(l["hidden"], true);
    assert_eq!(l["explicitlyHidden"], false);
    assert_eq!(l["invisible"], true);
    assert_eq!(location(&app, &child_path).await["invisible"], true);
    let info = app
        .get(&format!("/content/objects/{parent}"))
        .accept("ContentInfo+json")
        .send()
        .await
        .json();
    assert_eq!(info["Content"]["isHidden"], true);
    // Hiding again keeps the state.
    expect_all(vec![
        (action(parent, "hide").admin(), 204),
        (action(parent, "reveal").admin(), 204),
    ])
    .await;
    assert_eq!(location(&app, &path).await["invisible"], false);
    assert_eq!(location(&app, &child_path).await["invisible"], false);
    expect_all(vec![
        (action(999, "hide").admin(), 404),
        (action(parent, "hide"), 401),
    ])
    .await;
}
