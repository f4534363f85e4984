//! The life of a group and a user in JSON (create, log in, list, membership, update, move,
//! delete, each refused case with its status), and the reference's bodies in XML.

use super::*;

#[tokio::test]
async fn the_life_of_a_group_and_a_user_in_json() {
    let app = TestApp::new().await;
    // A group under the root group, and one under it.
    let r = app
        .req("POST", "/user/groups/subgroups")
        .admin()
        .json_body("UserGroupCreate", group_create("Staff"))
        .accept("UserGroup+json")
        .send()
        .await;
    r.assert(201);
    let staff = r.json()["UserGroup"]["_href"]
        .as_str()
        .unwrap()
        .replace(&format!("{PREFIX}/user/groups/"), "");
    assert!(staff.starts_with("1/5/"));
    let team = new_group(&app, &staff, "Team").await;
    assert!(team.starts_with(&format!("{staff}/")));
    let_log_in(&app, &staff).await;

    // A user in the team; it can log in; its login and email are taken now.
    let r = app
        .req("POST", &format!("/user/groups/{team}/users"))
        .admin()
        .json_body("UserCreate", user_create("jo", "jo@example.com"))
        .accept("User+json")
        .send()
        .await;
    r.assert(201);
    let u = r.json()["User"].clone();
    let id = u["_id"].as_i64().unwrap();
    assert_eq!(
        r.header("location").unwrap(),
        format!("{PREFIX}/user/users/{id}")
    );
    assert_eq!(u["login"], "jo");
    assert_eq!(u["name"], "Jo jo");
    assert_eq!(u["Version"]["VersionInfo"]["status"], "PUBLISHED");
    assert!(can_log_in(&app, "jo", PASSWORD).await);
    assert!(!can_log_in(&app, "jo", "Wrong-12345").await);
    let stored = app
        .query(
            "SELECT value FROM content_fields WHERE content_id = ?",
            vec![id.into()],
        )
        .await;
    assert!(
        stored
            .iter()
            .all(|f| !f["value"].to_string().contains(PASSWORD)
                && !f["value"].to_string().contains("argon2")),
        "no password or hash in the stored fields: {stored:?}"
    );
    let create = |login: &str, email: &str| {
        (app.req("POST", &format!("/user/groups/{team}/users"))
            .admin())
        .json_body("UserCreate", user_create(login, email))
        .accept("User+json")
    };
    expect_all(vec![
        (create("jo", "other@example.com"), 403),
        (create("other", "jo@example.com"), 403),
    ])
    .await;

    // Listings.
    let r = app
        .get(&format!("/user/groups/{team}/users"))
        .admin()
        .accept("UserRefList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["UserRefList"]["User"][0]["_href"],
        format!("{PREFIX}/user/users/{id}")
    );
    let r = app
        .get(&format!("/user/groups/{staff}/subgroups"))
        .admin()
        .accept("UserGroupList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["UserGroupList"]["UserGroup"][0]["name"], "Team");

    // Membership: a second group, both with unassign links, then back to one.
    assert_eq!(
        groups_of(&app, id).await,
        [(format!("/user/groups/{team}"), false)]
    );
    let r = app
        .req(
            "POST",
            &format!("/user/users/{id}/groups?group={PREFIX}/user/groups/1/5/14"),
        )
        .admin()
        .accept("UserGroupRefList+json")
        .send()
        .await;
    r.assert(200);
    let list = &r.json()["UserGroupRefList"];
    assert_eq!(list["UserGroup"].as_array().unwrap().len(), 2);
    assert_eq!(list["UserGroup"][0]["unassign"]["_method"], "DELETE");
    assert_eq!(
        list["UserGroup"][0]["unassign"]["_href"],
        format!("{PREFIX}/user/users/{id}/groups/14")
    );
    let membership = |method: &str, rest: &str| {
        (app.req(method, &format!("/user/users/{id}/groups{rest}"))
            .admin())
        .accept("UserGroupRefList+json")
    };
    expect_all(vec![
        (membership("POST", "?group=/user/groups/1/5/14"), 403),
        (membership("POST", "?group=/user/groups/1/5/999"), 403),
        (membership("POST", "?group=/user/groups/1/2"), 403),
    ])
    .await;
    let r = membership("DELETE", "/14").send().await;
    r.assert(200);
    assert_eq!(
        groups_of(&app, id).await,
        [(format!("/user/groups/{team}"), false)]
    );
    // Not a member any more; the last group.
    expect_all(vec![
        (membership("DELETE", "/14"), 403),
        (membership("DELETE", &format!("/{team}")), 403),
    ])
    .await;

    // Update: If-Match, email, password, enabled; the login cannot change.
    let etag = app
        .get(&format!("/user/users/{id}"))
        .admin()
        .accept("User+json")
        .send()
        .await
        .header("etag")
        .unwrap();
    let update = |body: Value| {
        (app.req("PATCH", &format!("/user/users/{id}")).admin())
            .json_body("UserUpdate", body)
            .accept("User+json")
    };
    update(json!({"email": "new@example.com"}))
        .header("if-match", "\"stale\"")
        .send()
        .await
        .assert_error(412);
    let r = update(json!({"email": "new@example.com", "password": "Changed-6789!", "remoteId": "jo-remote",
                "fields": {"field": [{"fieldDefinitionIdentifier": "first_name", "languageCode": "eng-GB", "fieldValue": "Joanna"}]}}))
        .header("if-match", &etag)
        .send()
        .await;
    r.assert(200);
    let u = &r.json()["User"];
    assert_eq!(u["email"], "new@example.com");
    assert_eq!(u["name"], "Joanna jo");
    assert_eq!(u["_remoteId"], "jo-remote");
    assert_eq!(u["Version"]["VersionInfo"]["versionNo"], 2);
    assert_ne!(r.header("etag").unwrap(), etag);
    assert!(can_log_in(&app, "jo", "Changed-6789!").await);
    assert!(!can_log_in(&app, "jo", PASSWORD).await);
    let r = update(json!({"password": "short"})).send().await;
    r.assert_error(400);
    assert!(r.body.contains("at least 10 characters"), "{}", r.body);
    expect_all(vec![
        (update(json!({"login": "renamed"})), 400),
        (update(json!({"enabled": false})), 200),
    ])
    .await;
    assert!(!can_log_in(&app, "jo", "Changed-6789!").await);

    // Move the team under the Editors group.
    let r = app
        .req("MOVE", &format!("/user/groups/{team}"))
        .admin()
        .header("destination", &format!("{PREFIX}/user/groups/1/5/14"))
        .send()
        .await;
    r.assert(201);
    let moved = r
        .header("location")
        .unwrap()
        .replace(&format!("{PREFIX}/user/groups/"), "");
    assert!(moved.starts_with("1/5/14/"));
    // The old href still names the group, which answers with its new one.
    let r = app
        .get(&format!("/user/groups/{team}"))
        .admin()
        .accept("UserGroup+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["UserGroup"]["_href"],
        format!("{PREFIX}/user/groups/{moved}")
    );
    let move_staff = |to: &str| {
        (app.req("MOVE", &format!("/user/groups/{staff}")).admin())
            .header("destination", &format!("{PREFIX}/user/groups/{to}"))
            .accept("UserGroup+json")
    };
    let at = |method: &str, path: &str, media: &str| {
        (app.req(method, &format!("/user/{path}")).admin()).accept(media)
    };
    expect_all(vec![
        (move_staff("1/5/999"), 403),
        (move_staff("1/2"), 403),
        (move_staff(&staff), 403),
        // A group with users cannot go; a user cannot delete itself; then both go.
        (
            at("DELETE", &format!("groups/{moved}"), "UserGroup+json"),
            403,
        ),
        (at("DELETE", "users/14", "User+json"), 403),
        (app.req("DELETE", &format!("/user/users/{id}")).admin(), 204),
        (at("GET", &format!("users/{id}"), "User+json"), 404),
    ])
    .await;
    assert!(
        app.query("SELECT id FROM users WHERE id = ?", vec![id.into()])
            .await
            .is_empty()
    );
    expect_all(vec![
        (
            app.req("DELETE", &format!("/user/groups/{moved}")).admin(),
            204,
        ),
        (
            app.req("DELETE", &format!("/user/groups/{staff}")).admin(),
            204,
        ),
        (at("GET", &format!("groups/{staff}"), "UserGroup+json"), 404),
    ])
    .await;
}

#[tokio::test]
async fn the_reference_bodies_work_in_xml() {
    let app = TestApp::new().await;
    let read = |p: &str| reference_example(&format!("user/groups/path/{p}"));
    let r = app
        .req("POST", "/user/groups/1/5/subgroups")
        .admin()
        .raw_body(
            "application/vnd.ibexa.api.UserGroupCreate+xml",
            &read("subgroups/POST/UserGroupCreate.xml.example"),
        )
        .accept("UserGroup+xml")
        .send()
        .await;
    r.assert(201);
    let x = r.xml();
    assert_eq!(x.name, "UserGroup");
    assert_eq!(attr(&x, "remoteId"), "remoteId-qwert098");
    assert_eq!(child_text(&x, "name"), "UserGroup");
    let group = attr(&x, "href").replace(&format!("{PREFIX}/user/groups/"), "");
    let_log_in(&app, &group).await;

    let r = app
        .req("POST", &format!("/user/groups/{group}/users"))
        .admin()
        .raw_body(
            "application/vnd.ibexa.api.UserCreate+xml",
            &read("users/POST/UserCreate.xml.example"),
        )
        .accept("User+xml")
        .send()
        .await;
    r.assert(201);
    let x = r.xml();
    assert_eq!(child_text(&x, "login"), "johnsmith");
    assert_eq!(child_text(&x, "name"), "John Smith");
    assert!(can_log_in(&app, "johnsmith", "Secrepassword5!").await);

    let r = app
        .req("PATCH", &format!("/user/groups/{group}"))
        .admin()
        .raw_body(
            "application/vnd.ibexa.api.UserGroupUpdate+json",
            &read("PATCH/UserGroupUpdate.json.example"),
        )
        .accept("UserGroup+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["UserGroup"]["Section"]["_href"],
        format!("{PREFIX}/content/sections/2")
    );

    // Bad input: no such group type field, a missing password, the anonymous user.
    let r = app
        .req("POST", &format!("/user/groups/{group}/users"))
        .admin()
        .xml_body(
            "UserCreate",
            "<UserCreate><mainLanguageCode>eng-GB</mainLanguageCode><login>x</login><email>x@example.com</email><fields/></UserCreate>",
        )
        .accept("User+xml")
        .send()
        .await;
    assert!(r.assert_error(400).contains("password"));
    app.req("POST", &format!("/user/groups/{group}/users"))
        .json_body("UserCreate", user_create("anon", "anon@example.com"))
        .accept("User+json")
        .send()
        .await
        .assert_error(401);
    app.req("POST", "/user/groups/1/5/999/users")
        .admin()
        .json_body("UserCreate", user_create("lost", "lost@example.com"))
        .accept("User+json")
        .send()
        .await
        .assert_error(404);
}
