//! The error rows of types, drafts and Field definitions: creation, the draft state machine,
//! Field definitions on drafts and deletion, each refused request with its status.

use super::*;

#[tokio::test]
async fn type_creation_errors() {
    let app = TestApp::new().await;
    let post = |body: Value| {
        app.req("POST", "/content/typegroups/1/types")
            .admin()
            .accept("ContentType+json")
            .json_body("ContentTypeCreate", body)
    };
    // Refused with a message naming what is wrong: an unknown field type names the field, a
    // bad setting or validator configuration the field and the problem.
    let mut bad_validator = field("count", "ezinteger", 1);
    bad_validator["validatorConfiguration"] =
        json!({"IntegerValueValidator": {"minIntegerValue": "lots"}});
    let mut bad_setting = field("title", "ezstring", 1);
    bad_setting["fieldSettings"] = json!({"noSuchSetting": 1});
    for (body, names) in [
        (
            type_create("t1", vec![field("title", "ezunknown", 1)]),
            &["title", "ezunknown"][..],
        ),
        (
            type_create("t2", vec![bad_validator]),
            &["count", "minIntegerValue"],
        ),
        (type_create("t3", vec![bad_setting]), &["noSuchSetting"]),
    ] {
        let msg = post(body).send().await.assert_error(400);
        assert!(names.iter().all(|n| msg.contains(n)), "{names:?}: {msg}");
    }
    let mut sorted = type_create("t7", vec![]);
    sorted["defaultSortField"] = json!("SIDEWAYS");
    expect_all(vec![
        // Identifier taken: 403.
        (
            post(type_create("folder", vec![field("title", "ezstring", 1)])),
            403,
        ),
        // Two fields of a singular type, or the same identifier twice: 400.
        (
            post(type_create(
                "t4",
                vec![field("a", "ezuser", 1), field("b", "ezuser", 2)],
            )),
            400,
        ),
        (
            post(type_create(
                "t5",
                vec![field("a", "ezstring", 1), field("a", "eztext", 2)],
            )),
            400,
        ),
        // publish=true needs Field definitions.
        (
            (app.req("POST", "/content/typegroups/1/types?publish=true")
                .admin())
            .json_body("ContentTypeCreate", type_create("t6", vec![])),
            400,
        ),
        // Missing identifier, bad sort field, unknown group, anonymous.
        (post(json!({"mainLanguageCode": "eng-GB"})), 400),
        (post(sorted), 400),
        (
            (app.req("POST", "/content/typegroups/99/types").admin())
                .json_body("ContentTypeCreate", type_create("t8", vec![])),
            404,
        ),
        (
            app.req("POST", "/content/typegroups/1/types")
                .json_body("ContentTypeCreate", type_create("t9", vec![])),
            401,
        ),
    ])
    .await;
    // Nothing of the refused requests was stored.
    let r = app
        .get("/content/types")
        .accept("ContentTypeInfoList+json")
        .send()
        .await;
    assert_eq!(type_ids(&r.json(), "ContentTypeInfoList").len(), 6);
}

#[tokio::test]
async fn draft_state_machine_errors() {
    let app = TestApp::new().await;
    // A draft without Field definitions cannot be published: 403.
    let r = post_type(&app, 1, "empty_type", vec![]).await;
    r.assert(201);
    let id = r.json()["ContentType"]["id"].as_i64().unwrap();
    let draft = format!("/content/types/{id}/draft");
    let update = |id: i64, body: Value| new_draft(&app, id).json_body("ContentTypeUpdate", body);
    let patch = |body: Value| {
        (app.req("PATCH", "/content/types/1/draft").admin()).json_body("ContentTypeUpdate", body)
    };
    expect_all(vec![
        (publish_draft(&app, id), 403),
        // Deleting the draft: 204, then there is nothing to load, publish or delete.
        (app.req("DELETE", &draft).admin(), 204),
        (app.get(&draft), 404),
        (publish_draft(&app, id), 404),
        (app.req("DELETE", &draft).admin(), 404),
        // A second draft of a defined type: 403; a draft whose identifier is taken: 403.
        (update(1, json!({})), 201),
        (update(1, json!({})), 403),
        (update(5, json!({"identifier": "article"})), 403),
        (update(77, json!({})), 404),
    ])
    .await;

    // PATCH of the draft: metadata, If-Match, duplicate identifier.
    let draft = app.get("/content/types/1/draft").send().await;
    draft.assert(200);
    assert_eq!(
        draft.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.ContentTypeUpdate+xml"
    );
    let etag = draft.header("etag").unwrap();
    expect_all(vec![
        (
            patch(json!({"isContainer": false})).header("if-match", "\"stale\""),
            412,
        ),
        (patch(json!({"identifier": "user"})), 403),
        (patch(json!({"defaultSortOrder": "UP"})), 400),
    ])
    .await;
    let r = patch(json!({"isContainer": "false", "defaultSortField": "NAME"}))
        .header("if-match", &etag)
        .accept("ContentTypeInfo+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["ContentTypeInfo"]["isContainer"], false);
    assert_eq!(r.json()["ContentTypeInfo"]["defaultSortField"], "NAME");
    app.req("PATCH", "/content/types/2/draft")
        .admin()
        .json_body("ContentTypeUpdate", json!({}))
        .send()
        .await
        .assert_error(404);
}

#[tokio::test]
async fn field_definition_errors_on_drafts() {
    let app = TestApp::new().await;
    new_draft(&app, 4)
        .json_body("ContentTypeUpdate", json!({}))
        .send()
        .await
        .assert(201);
    let fields = "/content/types/4/draft/fieldDefinitions";
    let create = |path: &str, body: Value| {
        (app.req("POST", path).admin()).json_body("FieldDefinitionCreate", body)
    };
    let update = |id: i64, body: Value| {
        (app.req("PATCH", &format!("{fields}/{id}")).admin())
            .json_body("FieldDefinitionUpdate", body)
    };
    expect_all(vec![
        // Duplicate identifier, second singular field: 403.
        (create(fields, field("first_name", "ezstring", 9)), 403),
        (create(fields, field("second_account", "ezuser", 9)), 403),
        // Unknown type, bad validator: 400.
        (create(fields, field("x", "ezwhatever", 9)), 400),
    ])
    .await;
    // Missing fieldType: 400 naming it.
    let msg = create(fields, json!({"identifier": "x"}))
        .send()
        .await
        .assert_error(400);
    assert!(msg.contains("fieldType"), "{msg}");
    expect_all(vec![
        // Changing an identifier to a taken one: 403; unknown Field definition: 404.
        (update(9, json!({"identifier": "first_name"})), 403),
        (update(4, json!({"position": 1})), 404),
        (app.req("DELETE", &format!("{fields}/4")).admin(), 404),
        (app.get(&format!("{fields}/4")), 404),
    ])
    .await;
    // If-Match on Field definitions.
    let r = app.get(&format!("{fields}/179")).send().await;
    r.assert(200);
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.FieldDefinitionUpdate+xml"
    );
    expect_all(vec![
        (
            update(179, json!({"position": 1})).header("if-match", "\"stale\""),
            412,
        ),
        // Field definitions cannot be changed on the defined type.
        (
            create(
                "/content/types/4/fieldDefinitions",
                field("x", "ezstring", 9),
            ),
            405,
        ),
        // Field definitions of a type without a draft: 404.
        (
            create(
                "/content/types/5/draft/fieldDefinitions",
                field("x", "ezstring", 9),
            ),
            404,
        ),
    ])
    .await;
}

#[tokio::test]
async fn delete_type_and_its_errors() {
    let app = TestApp::new().await;
    let delete = || app.req("DELETE", "/content/types/5");
    expect_all(vec![
        (app.req("DELETE", "/content/types/99").admin(), 404),
        (delete().admin().header("if-match", "\"x\""), 412),
        (delete(), 401),
        (delete().admin(), 204),
        (app.get("/content/types/5"), 404),
        (app.req("COPY", "/content/types/5").admin(), 404),
    ])
    .await;
}
