//! Users and user groups (formats.md 7): the clean-install accounts and groups, lookups, the
//! life of a group and of a user in both formats, membership, moves, and every error.

use crate::support::*;
use serde_json::{Value, json};

const PASSWORD: &str = "Secret-12345";

fn user_create(login: &str, email: &str) -> Value {
    json!({"mainLanguageCode": "eng-GB", "login": login, "email": email, "password": PASSWORD,
        "fields": {"field": [
            {"fieldDefinitionIdentifier": "first_name", "languageCode": "eng-GB", "fieldValue": "Jo"},
            {"fieldDefinitionIdentifier": "last_name", "languageCode": "eng-GB", "fieldValue": login}]}})
}

fn group_create(name: &str) -> Value {
    json!({"mainLanguageCode": "eng-GB", "fields": {"field": [
        {"fieldDefinitionIdentifier": "name", "languageCode": "eng-GB", "fieldValue": name}]}})
}

/// Creates a group under `parent` (a group path); its path.
async fn new_group(app: &TestApp, parent: &str, name: &str) -> String {
    let r = app
        .req("POST", &format!("/user/groups/{parent}/subgroups"))
        .admin()
        .json_body("UserGroupCreate", group_create(name))
        .accept("UserGroup+json")
        .send()
        .await;
    r.assert(201);
    let href = r.json()["UserGroup"]["_href"].as_str().unwrap().to_string();
    assert_eq!(r.header("location").unwrap(), href);
    href.strip_prefix(&format!("{PREFIX}/user/groups/"))
        .unwrap()
        .to_string()
}

/// Creates a user in the group at `group`; its id.
async fn new_user(app: &TestApp, group: &str, login: &str) -> i64 {
    let r = app
        .req("POST", &format!("/user/groups/{group}/users"))
        .admin()
        .json_body(
            "UserCreate",
            user_create(login, &format!("{login}@example.com")),
        )
        .accept("User+json")
        .send()
        .await;
    r.assert(201);
    r.json()["User"]["_id"].as_i64().unwrap()
}

/// The group hrefs of a user's UserGroupRefList (JSON) and whether each has an unassign link.
async fn groups_of(app: &TestApp, user: i64) -> Vec<(String, bool)> {
    let r = app
        .get(&format!("/user/users/{user}/groups"))
        .admin()
        .accept("UserGroupRefList+json")
        .send()
        .await;
    r.assert(200);
    r.json()["UserGroupRefList"]["UserGroup"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["_href"].as_str().unwrap().replace(PREFIX, ""),
                g.get("unassign").is_some(),
            )
        })
        .collect()
}

/// Gives the members of the group at `path` the clean install's Anonymous Role, whose
/// `user/login` Policy lets them log in.
async fn let_log_in(app: &TestApp, path: &str) {
    app.req("POST", &format!("/user/groups/{path}/roles"))
        .admin()
        .json_body(
            "RoleAssignInput",
            serde_json::json!({"Role": {"_href": format!("{PREFIX}/user/roles/1")}}),
        )
        .send()
        .await
        .assert(200);
}

async fn can_log_in(app: &TestApp, login: &str, password: &str) -> bool {
    let r = app.get("/user/current").basic(login, password).send().await;
    r.status.as_u16() == 307
}

#[tokio::test]
async fn the_clean_install_users_and_groups_load_in_both_formats() {
    let app = TestApp::new().await;
    let r = app
        .get("/user/users/14")
        .admin()
        .accept("User+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.content_type(), "application/vnd.ibexa.api.User+json");
    assert!(r.header("etag").is_some());
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.UserUpdate+json"
    );
    let u = &r.json()["User"];
    assert_eq!(u["_href"], format!("{PREFIX}/user/users/14"));
    assert_eq!(u["_id"], 14);
    assert_eq!(u["login"], "admin");
    assert_eq!(u["email"], "admin@link.invalid");
    assert_eq!(u["enabled"], true);
    assert_eq!(u["name"], "Administrator User");
    assert_eq!(
        u["ContentType"]["_href"],
        format!("{PREFIX}/content/types/4")
    );
    assert_eq!(
        u["MainLocation"]["_href"],
        format!("{PREFIX}/content/locations/1/5/13/15")
    );
    assert_eq!(
        u["Groups"]["_href"],
        format!("{PREFIX}/user/users/14/groups")
    );
    assert_eq!(
        u["Groups"]["_media-type"],
        "application/vnd.ibexa.api.UserGroupRefList+json"
    );
    assert_eq!(u["Roles"]["_href"], format!("{PREFIX}/user/users/14/roles"));
    assert_eq!(u["Version"]["VersionInfo"]["status"], "PUBLISHED");
    let fields = u["Version"]["Fields"]["field"].as_array().unwrap();
    let account = fields
        .iter()
        .find(|f| f["fieldDefinitionIdentifier"] == "user_account")
        .unwrap();
    assert_eq!(account["fieldValue"]["login"], "admin");
    assert!(account["fieldValue"].get("passwordHash").is_none());

    let r = app
        .get("/user/users/14")
        .admin()
        .accept("User+xml")
        .send()
        .await;
    r.assert(200);
    let x = r.xml();
    assert_eq!(x.name, "User");
    assert_eq!(attr(&x, "id"), "14");
    let names: Vec<&str> = x.children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "ContentType",
            "name",
            "Versions",
            "Section",
            "MainLocation",
            "Locations",
            "Groups",
            "Owner",
            "publishDate",
            "lastModificationDate",
            "mainLanguageCode",
            "alwaysAvailable",
            "Version",
            "login",
            "email",
            "enabled",
            "UserGroups",
            "Roles"
        ]
    );

    let r = app
        .get("/user/groups/1/5/13")
        .admin()
        .accept("UserGroup+json")
        .send()
        .await;
    r.assert(200);
    let g = &r.json()["UserGroup"];
    assert_eq!(g["_id"], 12);
    assert_eq!(g["name"], "Administrator users");
    assert_eq!(
        g["ParentUserGroup"]["_href"],
        format!("{PREFIX}/user/groups/1/5")
    );
    assert_eq!(
        g["Subgroups"]["_href"],
        format!("{PREFIX}/user/groups/1/5/13/subgroups")
    );
    assert_eq!(
        g["Users"]["_href"],
        format!("{PREFIX}/user/groups/1/5/13/users")
    );

    let r = app
        .get("/user/groups/1/5/13")
        .admin()
        .accept("UserGroup+xml")
        .send()
        .await;
    r.assert(200);
    assert_eq!(child_text(&r.xml(), "name"), "Administrator users");

    // Root group, subgroups, users, the group of a user.
    let r = app.get("/user/groups/root").admin().send().await;
    r.assert(301);
    assert_eq!(
        r.header("location").unwrap(),
        format!("{PREFIX}/user/groups/1/5")
    );
    let r = app
        .get("/user/groups/1/5/subgroups")
        .admin()
        .accept("UserGroupRefList+json")
        .send()
        .await;
    r.assert(200);
    let subgroups: Vec<String> = r.json()["UserGroupRefList"]["UserGroup"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["_href"].as_str().unwrap().replace(PREFIX, ""))
        .collect();
    assert_eq!(
        subgroups,
        [
            "/user/groups/1/5/12",
            "/user/groups/1/5/13",
            "/user/groups/1/5/14",
            "/user/groups/1/5/44"
        ]
    );
    let r = app
        .get("/user/groups/1/5/44/users")
        .admin()
        .accept("UserList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["UserList"]["User"][0]["login"], "anonymous");
    assert_eq!(
        groups_of(&app, 14).await,
        [("/user/groups/1/5/13".to_string(), false)]
    );

    // Not a user, not a group (a group path names its last id, as in the reference).
    for path in [
        "/user/users/4",
        "/user/users/999",
        "/user/groups/1/2",
        "/user/groups/1/999",
    ] {
        app.get(path)
            .admin()
            .accept("User+json")
            .send()
            .await
            .assert_error(404);
    }
}

#[tokio::test]
async fn current_user_and_lookups() {
    let app = TestApp::new().await;
    let r = app.get("/user/current").admin().send().await;
    r.assert(307);
    assert_eq!(
        r.header("location").unwrap(),
        format!("{PREFIX}/user/users/14")
    );
    app.get("/user/current")
        .accept("User+json")
        .send()
        .await
        .assert_error(401);

    let r = app
        .get("/user/users?login=admin")
        .admin()
        .accept("UserRefList+json")
        .send()
        .await;
    r.assert(200);
    let list = &r.json()["UserRefList"];
    assert_eq!(list["_href"], format!("{PREFIX}/user/users"));
    assert_eq!(list["User"][0]["_href"], format!("{PREFIX}/user/users/14"));
    let r = app
        .get("/user/users?email=anonymous@link.invalid")
        .admin()
        .accept("UserList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["UserList"]["User"][0]["_id"], 10);
    let r = app
        .get("/user/users?remoteId=1bb4fe25487f05527efa8bfd394cecc7")
        .admin()
        .accept("UserRefList+xml")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.xml().name, "UserRefList");
    for q in ["", "?login=nobody", "?remoteId=nope"] {
        app.get(&format!("/user/users{q}"))
            .admin()
            .accept("UserRefList+json")
            .send()
            .await
            .assert_error(404);
    }
    app.req("HEAD", "/user/users?login=admin")
        .admin()
        .send()
        .await
        .assert(200);
    app.req("HEAD", "/user/users?login=nobody")
        .admin()
        .send()
        .await
        .assert(404);

    let r = app
        .get("/user/groups?id=12")
        .admin()
        .accept("UserGroupList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["UserGroupList"]["UserGroup"][0]["name"],
        "Administrator users"
    );
    let r = app
        .get("/user/groups")
        .admin()
        .accept("UserGroupRefList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["UserGroupRefList"]["UserGroup"]
            .as_array()
            .map_or(0, Vec::len),
        0
    );
    let r = app
        .get("/user/users/14/drafts")
        .admin()
        .accept("VersionList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["VersionList"]["_href"],
        format!("{PREFIX}/user/users/14/drafts")
    );
}

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
    for (login, email) in [("jo", "other@example.com"), ("other", "jo@example.com")] {
        app.req("POST", &format!("/user/groups/{team}/users"))
            .admin()
            .json_body("UserCreate", user_create(login, email))
            .accept("User+json")
            .send()
            .await
            .assert_error(403);
    }

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
    for group in [
        "/user/groups/1/5/14",
        "/user/groups/1/5/999",
        "/user/groups/1/2",
    ] {
        app.req("POST", &format!("/user/users/{id}/groups?group={group}"))
            .admin()
            .accept("UserGroupRefList+json")
            .send()
            .await
            .assert_error(403);
    }
    let r = app
        .req("DELETE", &format!("/user/users/{id}/groups/14"))
        .admin()
        .accept("UserGroupRefList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        groups_of(&app, id).await,
        [(format!("/user/groups/{team}"), false)]
    );
    for path in ["14".to_string(), team.clone()] {
        // Not a member any more; the last group.
        app.req("DELETE", &format!("/user/users/{id}/groups/{path}"))
            .admin()
            .accept("UserGroupRefList+json")
            .send()
            .await
            .assert_error(403);
    }

    // Update: If-Match, email, password, enabled; the login cannot change.
    let etag = app
        .get(&format!("/user/users/{id}"))
        .admin()
        .accept("User+json")
        .send()
        .await
        .header("etag")
        .unwrap();
    app.req("PATCH", &format!("/user/users/{id}"))
        .admin()
        .header("if-match", "\"stale\"")
        .json_body("UserUpdate", json!({"email": "new@example.com"}))
        .accept("User+json")
        .send()
        .await
        .assert_error(412);
    let r = app
        .req("PATCH", &format!("/user/users/{id}"))
        .admin()
        .header("if-match", &etag)
        .json_body(
            "UserUpdate",
            json!({"email": "new@example.com", "password": "Changed-6789!", "remoteId": "jo-remote",
                "fields": {"field": [{"fieldDefinitionIdentifier": "first_name", "languageCode": "eng-GB", "fieldValue": "Joanna"}]}}),
        )
        .accept("User+json")
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
    let r = app
        .req("PATCH", &format!("/user/users/{id}"))
        .admin()
        .json_body("UserUpdate", json!({"password": "short"}))
        .accept("User+json")
        .send()
        .await;
    r.assert_error(400);
    assert!(r.body.contains("at least 10 characters"), "{}", r.body);
    app.req("PATCH", &format!("/user/users/{id}"))
        .admin()
        .json_body("UserUpdate", json!({"login": "renamed"}))
        .accept("User+json")
        .send()
        .await
        .assert_error(400);
    app.req("PATCH", &format!("/user/users/{id}"))
        .admin()
        .json_body("UserUpdate", json!({"enabled": false}))
        .accept("User+json")
        .send()
        .await
        .assert(200);
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
    for destination in ["/user/groups/1/5/999", "/user/groups/1/2"] {
        app.req("MOVE", &format!("/user/groups/{staff}"))
            .admin()
            .header("destination", &format!("{PREFIX}{destination}"))
            .accept("UserGroup+json")
            .send()
            .await
            .assert_error(403);
    }
    app.req("MOVE", &format!("/user/groups/{staff}"))
        .admin()
        .header("destination", &format!("{PREFIX}/user/groups/{staff}"))
        .accept("UserGroup+json")
        .send()
        .await
        .assert_error(403);

    // A group with users cannot go; a user cannot delete itself; then both go.
    app.req("DELETE", &format!("/user/groups/{moved}"))
        .admin()
        .accept("UserGroup+json")
        .send()
        .await
        .assert_error(403);
    app.req("DELETE", "/user/users/14")
        .admin()
        .accept("User+json")
        .send()
        .await
        .assert_error(403);
    app.req("DELETE", &format!("/user/users/{id}"))
        .admin()
        .send()
        .await
        .assert(204);
    app.get(&format!("/user/users/{id}"))
        .admin()
        .accept("User+json")
        .send()
        .await
        .assert_error(404);
    assert!(
        app.query("SELECT id FROM users WHERE id = ?", vec![id.into()])
            .await
            .is_empty()
    );
    app.req("DELETE", &format!("/user/groups/{moved}"))
        .admin()
        .send()
        .await
        .assert(204);
    app.req("DELETE", &format!("/user/groups/{staff}"))
        .admin()
        .send()
        .await
        .assert(204);
    app.get(&format!("/user/groups/{staff}"))
        .admin()
        .accept("UserGroup+json")
        .send()
        .await
        .assert_error(404);
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

#[tokio::test]
async fn user_lists_cost_a_fixed_number_of_statements() {
    let app = TestApp::new().await;
    let group = new_group(&app, "1/5", "Many").await;
    new_user(&app, &group, "u1").await;
    let cost = async || {
        let before = app.statements();
        app.get(&format!("/user/groups/{group}/users"))
            .admin()
            .accept("UserList+json")
            .send()
            .await
            .assert(200);
        app.statements() - before
    };
    let one = cost().await;
    for i in 2..=6 {
        new_user(&app, &group, &format!("u{i}")).await;
    }
    assert_eq!(cost().await, one, "six users cost what one does");
}

/// A version without an image has its content type's icon as Thumbnail, as the reference's
/// example bodies show (issue 11).
#[tokio::test]
async fn a_thumbnail_without_an_image_is_the_types_icon() {
    let app = TestApp::new().await;
    let u = app
        .get("/user/users/14")
        .admin()
        .accept("User+json")
        .send()
        .await
        .json();
    let t = &u["User"]["Version"]["Thumbnail"];
    assert_eq!(
        t["resource"],
        "/bundles/ezplatformadminui/img/ez-icons.svg#user"
    );
    assert_eq!(t["mimeType"], "image/svg+xml");
}

/// A user read (cache off; as admin with HTTP Basic, whose account is known after the first
/// request) reads the user's account once: 7 statements, where it was 8 with a second read
/// of the account for the body.
#[tokio::test]
async fn a_user_is_read_in_a_pinned_number_of_statements() {
    let app = TestApp::with_args(&["--cache-mib", "0"]).await;
    let read = async || {
        let before = app.statements();
        (app.get("/user/users/14").admin())
            .accept("User+json")
            .send()
            .await
            .assert(200);
        app.statements() - before
    };
    read().await;
    let spent = read().await;
    assert_eq!(spent, 7, "a user read took {spent} statements");
}
