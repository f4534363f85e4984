//! The policy map (issue 48): a Policy takes only the limitations its module and function
//! take (406 naming both, as the reference's `validatePolicy`), an identifier that is no
//! limitation is 404, values that name nothing are 400, and nothing is stored when refused;
//! `cairn check` reports Policies stored with a limitation their function does not take.

use super::*;

/// A limitation list of one identifier and its values.
fn lim(identifier: &str, values: &[&str]) -> Value {
    let refs: Vec<Value> = values.iter().map(|v| json!({"_href": v})).collect();
    json!([{"_identifier": identifier, "values": {"ref": refs}}])
}

#[tokio::test]
async fn a_policy_takes_only_the_limitations_of_its_function() {
    let app = TestApp::new().await;
    let role = create_role(&app, "Mapped").await;
    let count = async || policy_ids(&policies(&app, role).await).len();
    let n = count().await;
    // Limitations the function does not take: 406, naming the limitation and the function.
    for (module, function, identifier, value) in [
        ("content", "read", "Language", "eng-GB"),
        ("content", "create", "Owner", "1"),
        ("content", "read", "NewSection", "1"),
        ("section", "view", "Section", "1"),
        ("user", "login", "Subtree", "/1/2/"),
        ("*", "*", "Section", "1"),
    ] {
        let r = add_policy(
            &app,
            role,
            module,
            function,
            Some(lim(identifier, &[value])),
        )
        .send()
        .await;
        let msg = r.assert_error(406);
        assert!(
            msg.contains(&format!("'{identifier}'"))
                && msg.contains(&format!("'{module}/{function}'")),
            "{module}/{function} {identifier}: {msg}"
        );
    }
    // No limitation of that name at all: 404 (the reference's NotFoundException).
    let msg = add_policy(&app, role, "content", "read", Some(lim("Colour", &["red"])))
        .send()
        .await
        .assert_error(404);
    assert!(msg.contains("Colour"), "{msg}");
    // Values that name nothing: 400, each named.
    for (identifier, value) in [
        ("Class", "999"),
        ("Section", "77"),
        ("Node", "123456"),
        ("Subtree", "/1/999/"),
        ("State", "99"),
        ("Owner", "3"),
        ("Group", "2"),
    ] {
        let function = if identifier == "Section" {
            "read"
        } else {
            "edit"
        };
        let r = add_policy(
            &app,
            role,
            "content",
            function,
            Some(lim(identifier, &[value])),
        )
        .send()
        .await;
        let msg = r.assert_error(400);
        assert!(msg.contains(value), "{identifier}: {msg}");
    }
    let msg = add_policy(
        &app,
        role,
        "content",
        "create",
        Some(lim("Language", &["xxx-XX"])),
    )
    .send()
    .await
    .assert_error(400);
    assert!(msg.contains("xxx-XX"), "{msg}");
    assert_eq!(count().await, n, "nothing stored");
    // What the function takes, with values that exist: stored. A module's `*` takes what any
    // of its functions takes.
    for (function, identifier, value) in [
        ("read", "Subtree", "/1/2/"),
        ("edit", "Language", "eng-GB"),
        ("create", "ParentDepth", "2"),
        ("*", "Language", "eng-GB"),
    ] {
        add_policy(
            &app,
            role,
            "content",
            function,
            Some(lim(identifier, &[value])),
        )
        .send()
        .await
        .assert(201);
    }
    add_policy(
        &app,
        role,
        "section",
        "assign",
        Some(lim("NewSection", &["2"])),
    )
    .send()
    .await
    .assert(201);

    // An update is checked against the Policy's own module and function.
    let read = add_policy(&app, role, "content", "read", None)
        .accept("Policy+json")
        .send()
        .await;
    read.assert(201);
    let id = read.json()["Policy"]["id"].as_i64().unwrap();
    let update = |l: Value| {
        app.req("PATCH", &format!("/user/roles/{role}/policies/{id}"))
            .admin()
            .json_body("PolicyUpdate", json!({"limitations": {"limitation": l}}))
    };
    let msg = update(lim("Language", &["eng-GB"]))
        .send()
        .await
        .assert_error(406);
    assert!(msg.contains("'content/read'"), "{msg}");
    update(lim("Section", &["42"]))
        .send()
        .await
        .assert_error(400);
    update(lim("Section", &["3"])).send().await.assert(200);
}

#[tokio::test]
async fn the_policy_map_in_xml_and_in_the_openapi_document() {
    let app = TestApp::new().await;
    let role = create_role(&app, "MappedXml").await;
    let body = r#"<?xml version="1.0" encoding="UTF-8"?>
<PolicyCreate>
  <module>content</module>
  <function>create</function>
  <limitations>
    <limitation identifier="Owner">
      <values><ref href="1"/></values>
    </limitation>
  </limitations>
</PolicyCreate>"#;
    let r = app
        .req("POST", &format!("/user/roles/{role}/policies"))
        .admin()
        .xml_body("PolicyCreate", body)
        .send()
        .await;
    let msg = r.assert_error(406);
    assert!(
        msg.contains("'Owner'") && msg.contains("'content/create'"),
        "{msg}"
    );
    assert!(
        r.content_type().contains("ErrorMessage+xml"),
        "{}",
        r.content_type()
    );
    // The map the server checks is the one its OpenAPI document publishes.
    let doc = app.get("/openapi.json").send().await;
    doc.assert(200);
    let map = &doc.json()["x-cairn-policy-map"];
    assert_eq!(
        map["content"]["read"],
        json!([
            "Class", "Section", "Owner", "Group", "Node", "Subtree", "State"
        ])
    );
    assert_eq!(
        map["section"]["assign"],
        json!(["Class", "Section", "Owner", "NewSection"])
    );
}

#[tokio::test]
async fn cairn_check_reports_limitations_a_function_does_not_take() {
    let app = TestApp::new().await;
    let role = create_role(&app, "Stale").await;
    let r = add_policy(&app, role, "content", "read", None)
        .accept("Policy+json")
        .send()
        .await;
    r.assert(201);
    let policy = r.json()["Policy"]["id"].as_i64().unwrap();
    assert!(
        cairn::admin::check(&app.service.db)
            .await
            .unwrap()
            .is_empty()
    );
    // As a database written before the map was enforced would hold it.
    app.sql(
        "INSERT INTO policy_limitations (policy_id, identifier, limitation_values) VALUES (?, 'Language', '[\"eng-GB\"]')",
        vec![policy.into()],
    )
    .await;
    let problems = cairn::admin::check(&app.service.db).await.unwrap();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].count, 1);
    assert_eq!(
        problems[0].first,
        [format!(
            "Role {role} Policy {policy} content/read: Language"
        )]
    );
}
