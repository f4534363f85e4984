//! The error rows of content: creation, field validation (every failing field in one 400)
//! and the version state machine.

use super::*;

#[tokio::test]
async fn field_validation_reports_every_failing_field_in_one_400() {
    let app = TestApp::new().await;
    // Article: title required, intro required; the title too long as well.
    let mut create = folder_create("x", "1/2");
    create["ContentType"]["_href"] = json!("/api/ibexa/v2/content/types/2");
    create["fields"] = json!({"field": [
        {"fieldDefinitionIdentifier": "title", "fieldValue": "t".repeat(300)},
        {"fieldDefinitionIdentifier": "author", "fieldValue": [{"name": "A", "email": "not an email"}]}
    ]});
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("ContentInfo+json")
        .json_body("ContentCreate", create)
        .send()
        .await;
    r.assert_error(400);
    let details = r.json()["ErrorMessage"]["errorDetails"]["fields"].clone();
    let ids: Vec<i64> = details
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["_fieldTypeId"].as_i64().unwrap())
        .collect();
    assert!(ids.contains(&1), "title fails: {details}");
    assert!(ids.contains(&120), "intro is required: {details}");
    assert!(ids.len() >= 2);
    // XML shape of the details.
    let mut create = folder_create("", "1/2");
    create["fields"] = json!({"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": ""}]});
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .json_body("ContentCreate", create)
        .send()
        .await;
    r.assert_error(400);
    let x = r.xml();
    let details = x
        .children
        .iter()
        .find(|c| c.name == "errorDetails")
        .unwrap();
    let field = &details.children[0].children[0];
    assert_eq!(field.name, "field");
    assert_eq!(attr(field, "fieldTypeId"), "4");
    // Nothing was stored.
    let r = app
        .get("/content/locations/1/2/children")
        .accept("LocationList+json")
        .send()
        .await;
    assert_eq!(
        r.json()["LocationList"]["Location"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
}

#[tokio::test]
async fn creation_errors() {
    let app = TestApp::new().await;
    let post = |body: Value| {
        app.req("POST", "/content/objects")
            .admin()
            .accept("ContentInfo+json")
            .json_body("ContentCreate", body)
    };
    // A folder under 1/2 with one change.
    let changed = |key: &str, value: Value| {
        let mut b = folder_create("x", "1/2");
        b[key] = value;
        b
    };
    let mut unknown_field = folder_create("x", "1/2");
    unknown_field["fields"]["field"][0]["fieldDefinitionIdentifier"] = json!("nope");
    // Refused with a message naming what is wrong: an unknown field, missing required input.
    for (body, name) in [
        (unknown_field, "nope"),
        (json!({"mainLanguageCode": "eng-GB"}), "ContentType"),
    ] {
        let msg = post(body).send().await.assert_error(400);
        assert!(msg.contains(name), "{msg}");
    }
    expect_all(vec![
        // Missing parent Location: 404.
        (post(folder_create("x", "1/2/999")), 404),
        // Unknown content type: 404; unknown language: 400.
        (
            post(changed(
                "ContentType",
                json!({"_href": "/api/ibexa/v2/content/types/999"}),
            )),
            404,
        ),
        (post(changed("mainLanguageCode", json!("xxx-XX"))), 400),
        // Duplicate remote id: 403.
        (
            post(changed(
                "remoteId",
                json!("9459d3c29e15006e45197295722c7ade"),
            )),
            403,
        ),
        // Anonymous: 401.
        (
            app.req("POST", "/content/objects")
                .json_body("ContentCreate", folder_create("x", "1/2")),
            401,
        ),
        // Lookups.
        (app.get("/content/objects"), 400),
        (app.get("/content/objects?remoteId=none"), 404),
        (app.get("/content/objects/999"), 404),
    ])
    .await;
}

#[tokio::test]
async fn version_rules_of_the_state_machine() {
    let app = TestApp::with_args(&["--language", "pol-PL=Polish"]).await;
    let id = create_folder(&app, "Drafty", "1/2").await;
    let object = |method: &str, rest: &str| {
        app.req(method, &format!("/content/objects/{id}{rest}"))
            .admin()
    };
    let translation = |lang: &str| object("DELETE", &format!("/versions/1/translations/{lang}"));
    // The current version is a draft: COPY of currentversion is 403; the last version cannot go.
    expect_all(vec![
        (object("COPY", "/currentversion"), 403),
        (object("DELETE", "/versions/1"), 403),
    ])
    .await;
    // A draft's translation: add Polish, remove it; 406 absent, 409 main/only.
    object("PATCH", "/versions/1")
        .json_body("VersionUpdate", json!({"fields": {"field": [{"fieldDefinitionIdentifier": "name", "languageCode": "pol-PL", "fieldValue": "Szkic"}]}}))
        .send()
        .await
        .assert(200);
    let v = object("GET", "/versions/1")
        .accept("Version+json")
        .send()
        .await
        .json();
    let langs = v["Version"]["VersionInfo"]["VersionTranslationInfo"]["Language"].clone();
    assert_eq!(langs[1]["languageCode"], "pol-PL");
    assert_eq!(
        langs[1]["DeleteTranslation"]["_href"],
        format!("/api/ibexa/v2/content/objects/{id}/versions/1/translations/pol-PL")
    );
    assert!(langs[0].get("DeleteTranslation").is_none());
    expect_all(vec![
        (translation("ger-DE"), 406),
        (translation("eng-GB"), 409),
        (translation("pol-PL"), 204),
        (translation("eng-GB"), 409),
    ])
    .await;
    publish(&app, id, 1).await;
    expect_all(vec![
        // Translations of a published version: 403.
        (translation("eng-GB"), 403),
        // If-Match on a draft.
        (object("COPY", "/versions/1"), 201),
        (
            object("PATCH", "/versions/2")
                .header("if-match", "\"stale\"")
                .json_body("VersionUpdate", json!({})),
            412,
        ),
        // Unknown versions: 404.
        (app.get(&format!("/content/objects/{id}/versions/9")), 404),
        (object("PUBLISH", "/versions/9"), 404),
    ])
    .await;
    // Archived versions beyond the limit go on publish.
    let app = TestApp::with_args(&["--archived-versions", "2"]).await;
    let id = create_folder(&app, "Many", "1/2").await;
    publish(&app, id, 1).await;
    for n in 2..=5 {
        app.req("COPY", &format!("/content/objects/{id}/currentversion"))
            .admin()
            .send()
            .await
            .assert(201);
        publish(&app, id, n).await;
    }
    let versions = app
        .get(&format!("/content/objects/{id}/versions"))
        .admin()
        .accept("VersionList+json")
        .send()
        .await
        .json();
    let nos: Vec<i64> = versions["VersionList"]["VersionItem"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["VersionInfo"]["versionNo"].as_i64().unwrap())
        .collect();
    assert_eq!(nos, [3, 4, 5]);
}
