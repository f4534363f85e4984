//! A group's life with its states in JSON (create, load, update, delete), and priorities that
//! stay dense and reorder as in the reference.

use super::*;

#[tokio::test]
async fn a_group_lives_and_dies_with_its_states_in_json() {
    let app = TestApp::new().await;
    let r = app
        .req("POST", "/content/objectstategroups")
        .admin()
        .accept("ObjectStateGroup+json")
        .json_body(
            "ObjectStateGroupCreate",
            json!({
                "identifier": "custom-states",
                "defaultLanguageCode": "eng-GB",
                "names": names("Custom State"),
                "descriptions": names("Custom Object state"),
            }),
        )
        .send()
        .await;
    r.assert(201);
    assert_eq!(
        r.header("location").unwrap(),
        "/api/ibexa/v2/content/objectstategroups/3"
    );
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.ObjectStateGroupUpdate+json"
    );
    let g = &r.json()["ObjectStateGroup"];
    assert_eq!(g["id"], 3);
    assert_eq!(g["identifier"], "custom-states");
    assert_eq!(g["languageCodes"], "eng-GB");
    assert_eq!(g["names"], names("Custom State"));
    assert_eq!(g["descriptions"], names("Custom Object state"));
    assert_eq!(
        g["ObjectStates"]["_href"],
        "/api/ibexa/v2/content/objectstategroups/3/objectstates"
    );
    assert_eq!(states(&app, 3).await, []);

    // The reference's example: a priority given for the first state still makes it 0.
    let r = app
        .req("POST", "/content/objectstategroups/3/objectstates")
        .admin()
        .accept("ObjectState+json")
        .json_body(
            "ObjectStateCreate",
            json!({
                "identifier": "new-state",
                "priority": "1",
                "defaultLanguageCode": "eng-GB",
                "names": names("New State"),
                "descriptions": names("New Object State"),
            }),
        )
        .send()
        .await;
    r.assert(201);
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.ObjectStateUpdate+json"
    );
    let s = &r.json()["ObjectState"];
    let id = s["id"].as_i64().unwrap();
    assert_eq!(id, 3);
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/objectstategroups/3/objectstates/{id}")
    );
    assert_eq!(s["priority"], 0);
    assert_eq!(
        s["ObjectStateGroup"]["_href"],
        "/api/ibexa/v2/content/objectstategroups/3"
    );
    assert_eq!(s["descriptions"], names("New Object State"));

    // Update the group under If-Match: names merge, the identifier changes.
    let path = "/content/objectstategroups/3";
    let etag = app.get(path).send().await.header("etag").unwrap();
    let r = app
        .req("PATCH", path)
        .admin()
        .header("if-match", &etag)
        .accept("ObjectStateGroup+json")
        .json_body(
            "ObjectStateGroupUpdate",
            json!({"identifier": "custom", "names": names("New Custom State name")}),
        )
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.ObjectStateGroupUpdate+json"
    );
    let new_etag = r.header("etag").unwrap();
    assert_ne!(new_etag, etag);
    let g = &r.json()["ObjectStateGroup"];
    assert_eq!(g["identifier"], "custom");
    assert_eq!(g["names"], names("New Custom State name"));
    assert_eq!(g["descriptions"], names("Custom Object state"));
    assert_eq!(app.get(path).send().await.header("etag").unwrap(), new_etag);
    // The old ETag no longer matches.
    app.req("PATCH", path)
        .admin()
        .header("if-match", &etag)
        .json_body("ObjectStateGroupUpdate", json!({"identifier": "x"}))
        .send()
        .await
        .assert_error(412);

    // Update the state under If-Match.
    let spath = format!("{path}/objectstates/{id}");
    let etag = app.get(&spath).send().await.header("etag").unwrap();
    let r = app
        .req("PATCH", &spath)
        .admin()
        .header("if-match", &etag)
        .accept("ObjectState+json")
        .json_body(
            "ObjectStateUpdate",
            json!({"identifier": "closed", "names": names("New Object State name")}),
        )
        .send()
        .await;
    r.assert(200);
    let s = &r.json()["ObjectState"];
    assert_eq!(s["identifier"], "closed");
    assert_eq!(s["names"], names("New Object State name"));
    assert_eq!(s["descriptions"], names("New Object State"));
    assert_eq!(s["priority"], 0);
    assert_ne!(r.header("etag").unwrap(), etag);

    // Delete the state, then the group with a new state.
    app.req("DELETE", &spath)
        .admin()
        .header("if-match", &r.header("etag").unwrap())
        .send()
        .await
        .assert(204);
    app.get(&spath).send().await.assert_error(404);
    assert_eq!(states(&app, 3).await, []);
    let (other, _) = create_state(&app, 3, "open", 0).await;
    let etag = app.get(path).send().await.header("etag").unwrap();
    let r = app
        .req("DELETE", path)
        .admin()
        .header("if-match", &etag)
        .send()
        .await;
    r.assert(204);
    assert!(r.body.is_empty());
    app.get(path).send().await.assert_error(404);
    app.get(&format!("{path}/objectstates/{other}"))
        .send()
        .await
        .assert_error(404);
    app.get(&format!("{path}/objectstates"))
        .send()
        .await
        .assert_error(404);
    assert_eq!(group_count(&app).await, 1);
    // The identifier is free again.
    assert_eq!(create_group(&app, "custom").await, 4);
}

#[tokio::test]
async fn priorities_stay_dense_and_reorder_like_the_reference() {
    let app = TestApp::new().await;
    let g = create_group(&app, "workflow").await;
    assert_eq!(create_state(&app, g, "a", 0).await.1, 0);
    // A priority past the end appends.
    assert_eq!(create_state(&app, g, "b", 5).await.1, 1);
    // A tie keeps the states already there first.
    assert_eq!(create_state(&app, g, "c", 1).await.1, 2);
    let (d, p) = create_state(&app, g, "d", 0).await;
    assert_eq!(p, 1);
    assert_eq!(
        states(&app, g).await,
        order(&[("a", 0), ("d", 1), ("b", 2), ("c", 3)])
    );

    let patch = async |id: i64, body: Value| {
        let r = app
            .req(
                "PATCH",
                &format!("/content/objectstategroups/{g}/objectstates/{id}"),
            )
            .admin()
            .accept("ObjectState+json")
            .json_body("ObjectStateUpdate", body)
            .send()
            .await;
        r.assert(200);
        r.json()["ObjectState"]["priority"].as_i64().unwrap()
    };
    let ids: std::collections::HashMap<String, i64> = app
        .get(&format!("/content/objectstategroups/{g}/objectstates"))
        .accept("ObjectStateList+json")
        .send()
        .await
        .json()["ObjectStateList"]["ObjectState"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["identifier"].as_str().unwrap().to_string(),
                s["id"].as_i64().unwrap(),
            )
        })
        .collect();

    // Before everything: c becomes the default.
    assert_eq!(patch(ids["c"], json!({"priority": -1})).await, 0);
    assert_eq!(
        states(&app, g).await,
        order(&[("c", 0), ("a", 1), ("d", 2), ("b", 3)])
    );
    // To the end.
    assert_eq!(patch(ids["a"], json!({"priority": 10})).await, 3);
    assert_eq!(
        states(&app, g).await,
        order(&[("c", 0), ("d", 1), ("b", 2), ("a", 3)])
    );
    // A tie with the state at that rank goes after it.
    assert_eq!(patch(ids["a"], json!({"priority": "1"})).await, 2);
    assert_eq!(
        states(&app, g).await,
        order(&[("c", 0), ("d", 1), ("a", 2), ("b", 3)])
    );
    // Other changes leave the priority alone.
    assert_eq!(patch(ids["b"], json!({"names": names("Bee")})).await, 3);

    // Deleting closes the gap.
    app.req(
        "DELETE",
        &format!("/content/objectstategroups/{g}/objectstates/{d}"),
    )
    .admin()
    .send()
    .await
    .assert(204);
    assert_eq!(
        states(&app, g).await,
        order(&[("c", 0), ("a", 1), ("b", 2)])
    );
    app.req(
        "DELETE",
        &format!("/content/objectstategroups/{g}/objectstates/{}", ids["c"]),
    )
    .admin()
    .send()
    .await
    .assert(204);
    assert_eq!(states(&app, g).await, order(&[("a", 0), ("b", 1)]));
}
