//! Refused creates and changes of groups and states: bad input, anonymous callers, taken
//! identifiers, missing resources and stale ETags; none of them changes anything.

use super::*;

#[tokio::test]
async fn create_refuses_bad_input_anonymous_callers_and_duplicates() {
    let app = TestApp::new().await;
    let post_group = async |body: Value| {
        app.req("POST", "/content/objectstategroups")
            .admin()
            .accept("ObjectStateGroup+json")
            .json_body("ObjectStateGroupCreate", body)
            .send()
            .await
    };
    // 400: a required element missing, or invalid.
    for missing in ["identifier", "defaultLanguageCode", "names"] {
        let mut body = group_input("g");
        body.as_object_mut().unwrap().remove(missing);
        let e = post_group(body).await.assert_error(400);
        assert!(e.contains(missing), "{e}");
    }
    let bad = [
        (json!({"identifier": " "}), "identifier"),
        (json!({"defaultLanguageCode": ""}), "defaultLanguageCode"),
        (json!({"names": {"value": []}}), "names"),
        (json!({"names": names("")}), "names"),
        (json!({"defaultLanguageCode": "ger-DE"}), "ger-DE"),
        (
            json!({"names": {"value": [
                {"_languageCode": "eng-GB", "#text": "G"},
                {"_languageCode": "xxx-XX", "#text": "G"}
            ]}}),
            "xxx-XX",
        ),
    ];
    for (change, expected) in bad {
        let mut body = group_input("g");
        for (k, v) in change.as_object().unwrap() {
            body[k] = v.clone();
        }
        let e = post_group(body).await.assert_error(400);
        assert!(e.contains(expected), "{e}");
    }
    let malformed = app
        .req("POST", "/content/objectstategroups")
        .admin()
        .accept("ObjectStateGroup+xml")
        .xml_body(
            "ObjectStateGroupCreate",
            "<ObjectStateGroupCreate><identifier>x</identifier>",
        )
        .send()
        .await;
    malformed.assert_error(400);
    // 401 for anonymous writes.
    app.req("POST", "/content/objectstategroups")
        .accept("ObjectStateGroup+json")
        .json_body("ObjectStateGroupCreate", group_input("g"))
        .send()
        .await
        .assert_error(401);
    // 403: the identifier exists.
    let e = post_group(group_input("ez_lock")).await.assert_error(403);
    assert!(e.contains("ez_lock"), "{e}");
    // 415: another input.
    app.req("POST", "/content/objectstategroups")
        .admin()
        .accept("ObjectStateGroup+json")
        .json_body("ObjectStateCreate", group_input("g"))
        .send()
        .await
        .assert_error(415);
    // Nothing was written.
    assert_eq!(group_count(&app).await, 1);

    // States.
    let post_state = async |group: i64, body: Value| {
        app.req(
            "POST",
            &format!("/content/objectstategroups/{group}/objectstates"),
        )
        .admin()
        .accept("ObjectState+json")
        .json_body("ObjectStateCreate", body)
        .send()
        .await
    };
    for missing in ["identifier", "priority", "defaultLanguageCode", "names"] {
        let mut body = state_input("s", 0);
        body.as_object_mut().unwrap().remove(missing);
        let e = post_state(2, body).await.assert_error(400);
        assert!(e.contains(missing), "{e}");
    }
    let mut body = state_input("s", 0);
    body["identifier"] = json!("");
    post_state(2, body).await.assert_error(400);
    let mut body = state_input("s", 0);
    body["priority"] = json!("first");
    post_state(2, body).await.assert_error(400);
    app.req("POST", "/content/objectstategroups/2/objectstates")
        .accept("ObjectState+json")
        .json_body("ObjectStateCreate", state_input("s", 0))
        .send()
        .await
        .assert_error(401);
    let e = post_state(2, state_input("locked", 0))
        .await
        .assert_error(403);
    assert!(e.contains("locked"), "{e}");
    let e = post_state(99, state_input("s", 0)).await.assert_error(404);
    assert!(e.contains("ObjectStateGroup"), "{e}");
    assert_eq!(
        states(&app, 2).await,
        order(&[("not_locked", 0), ("locked", 1)])
    );
    // The same identifier in another group is fine.
    let g = create_group(&app, "other").await;
    create_state(&app, g, "locked", 0).await;
}

#[tokio::test]
async fn missing_resources_stale_etags_duplicates_and_anonymous_changes_are_refused() {
    let app = TestApp::new().await;
    let g = create_group(&app, "g").await;
    let (s, _) = create_state(&app, g, "s", 0).await;
    let (t, _) = create_state(&app, g, "t", 1).await;

    // 404: missing groups and states, and a state under another group.
    let mut rows: Vec<_> = [
        "/content/objectstategroups/99".to_string(),
        "/content/objectstategroups/99/objectstates".to_string(),
        "/content/objectstategroups/99/objectstates/1".to_string(),
        "/content/objectstategroups/2/objectstates/99".to_string(),
        format!("/content/objectstategroups/2/objectstates/{s}"),
        format!("/content/objectstategroups/{g}/objectstates/1"),
    ]
    .iter()
    .map(|path| (app.get(path).accept("ObjectState+json"), 404))
    .collect();
    let patch = |path: &str, input: &str, body: Value| {
        (app.req("PATCH", path).admin())
            .accept("ObjectState+json")
            .json_body(input, body)
    };
    let x = || json!({"identifier": "x"});
    for (path, input) in [
        (
            "/content/objectstategroups/99".to_string(),
            "ObjectStateGroupUpdate",
        ),
        (
            format!("/content/objectstategroups/2/objectstates/{s}"),
            "ObjectStateUpdate",
        ),
        (
            "/content/objectstategroups/2/objectstates/99".to_string(),
            "ObjectStateUpdate",
        ),
    ] {
        rows.push((patch(&path, input, x()), 404));
        rows.push((app.req("DELETE", &path).admin(), 404));
    }
    expect_all(rows).await;

    let gpath = format!("/content/objectstategroups/{g}");
    let spath = format!("{gpath}/objectstates/{s}");
    // 412 on PATCH and DELETE of both; 401 for anonymous changes; 400 for invalid changes.
    let mut rows = Vec::new();
    for (path, input) in [
        (&gpath, "ObjectStateGroupUpdate"),
        (&spath, "ObjectStateUpdate"),
    ] {
        let patch = |body: Value| {
            app.req("PATCH", path)
                .accept("ErrorMessage+json")
                .json_body(input, body)
        };
        rows.push((patch(x()).admin().if_match("\"stale\""), 412));
        rows.push((app.req("DELETE", path).admin().if_match("\"stale\""), 412));
        rows.push((patch(x()), 401));
        rows.push((app.req("DELETE", path), 401));
        for body in [
            json!({"identifier": ""}),
            json!({"names": names("")}),
            json!({"defaultLanguageCode": "ger-DE"}),
        ] {
            rows.push((patch(body).admin(), 400));
        }
    }
    let priority = json!({"priority": "high"});
    let priority = app
        .req("PATCH", &spath)
        .admin()
        .json_body("ObjectStateUpdate", priority);
    rows.push((priority, 400));
    expect_all(rows).await;

    // 403: identifiers taken.
    let e = app
        .req("PATCH", &gpath)
        .admin()
        .accept("ObjectStateGroup+json")
        .json_body("ObjectStateGroupUpdate", json!({"identifier": "ez_lock"}))
        .send()
        .await
        .assert_error(403);
    assert!(e.contains("ez_lock"), "{e}");
    let e = app
        .req("PATCH", &spath)
        .admin()
        .accept("ObjectState+json")
        .json_body("ObjectStateUpdate", json!({"identifier": "t"}))
        .send()
        .await
        .assert_error(403);
    assert!(e.contains("'t'"), "{e}");
    // Its own identifier, or another group's state's, is fine.
    for identifier in ["s", "locked"] {
        app.req("PATCH", &spath)
            .admin()
            .accept("ObjectState+json")
            .json_body("ObjectStateUpdate", json!({"identifier": identifier}))
            .send()
            .await
            .assert(200);
    }
    app.req("PATCH", &gpath)
        .admin()
        .accept("ObjectStateGroup+json")
        .json_body("ObjectStateGroupUpdate", json!({"identifier": "g"}))
        .send()
        .await
        .assert(200);

    // Nothing refused changed anything.
    assert_eq!(states(&app, g).await, order(&[("locked", 0), ("t", 1)]));
    let r = app
        .get(&format!("{gpath}/objectstates/{t}"))
        .accept("ObjectState+json")
        .send()
        .await;
    assert_eq!(r.json()["ObjectState"]["names"], names("State t"));
}
