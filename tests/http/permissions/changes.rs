//! Policies that change at once with Roles and groups, on this instance and another over the
//! same database, and permission checks whose cost does not grow with the repository.

use super::*;

#[tokio::test]
async fn policies_change_at_once_when_roles_and_groups_change() {
    let app = TestApp::new().await;
    let user = plain_user(&app, "late").await;
    // Without a Role the user cannot even log in.
    assert_eq!(status(as_user(app.get("/"), "late")).await, 401);
    role_for(&app, user, "Late", &[json!(["section", "view", []])], None).await;
    assert_eq!(
        status(as_user(app.get("/content/sections/1"), "late")).await,
        200
    );
    // Unassigned: refused at once (the cached Policies are dropped).
    let roles = app
        .get(&format!("/user/users/{user}/roles"))
        .admin()
        .accept("RoleAssignmentList+json")
        .send()
        .await
        .json();
    let href = roles["RoleAssignmentList"]["RoleAssignment"][0]["Role"]["_href"]
        .as_str()
        .unwrap()
        .to_string();
    let role = last_id(&href);
    app.req("DELETE", &format!("/user/users/{user}/roles/{role}"))
        .admin()
        .send()
        .await
        .assert(200);
    assert_eq!(status(as_user(app.get("/"), "late")).await, 401);
    // Joining the Editors group gives the Editor Role.
    app.req(
        "POST",
        &format!("/user/users/{user}/groups?group={PREFIX}/user/groups/1/5/14"),
    )
    .admin()
    .send()
    .await
    .assert(200);
    assert_eq!(
        status(as_user(app.get("/content/locations/1/2"), "late")).await,
        200
    );
}

#[tokio::test]
async fn another_instance_on_the_same_database_sees_role_changes() {
    // Several instances share a PostgreSQL database; SQLite is one process's.
    if backend() != "postgres" {
        return;
    }
    let app = TestApp::new().await;
    let other = app.another_instance().await;
    let user = plain_user(&app, "two").await;
    role_for(&app, user, "Two", &[json!(["section", "view", []])], None).await;
    let sections = async || status(as_user(other.get("/content/sections/1"), "two")).await;
    assert_eq!(sections().await, 200);
    let role = app
        .get("/user/roles?identifier=Two")
        .admin()
        .accept("RoleList+json")
        .send()
        .await
        .json();
    let role = last_id(role["RoleList"]["Role"][0]["_href"].as_str().unwrap());
    app.req("DELETE", &format!("/user/users/{user}/roles/{role}"))
        .admin()
        .send()
        .await
        .assert(200);
    // The other instance hears of the change (LISTEN/NOTIFY) within moments.
    let mut got = sections().await;
    for _ in 0..50 {
        if got == 401 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        got = sections().await;
    }
    assert_eq!(got, 401);
}

#[tokio::test]
async fn authentication_looks_users_up_by_index_whatever_the_repository_size() {
    let app = TestApp::with_args(&["--cache-mib", "0"]).await; // the rendering path
    // The statement that finds a login: no scan of the content items (SQLite's plan).
    if backend() == "sqlite" {
        let plan = app
            .query(
                "EXPLAIN QUERY PLAN SELECT users.* FROM users JOIN contents ON contents.id = users.id \
                 WHERE users.login = ? AND contents.status = ?",
                vec!["admin".into(), 1.into()],
            )
            .await;
        let text = serde_json::to_string(&plan).unwrap();
        assert!(!text.contains("SCAN contents"), "{text}");
        assert!(!text.contains("SCAN users"), "{text}");
    }
    // A warm request with credentials: the login, nothing else (Policies are cached); on
    // SQLite not even the login while nothing has committed since it was read.
    app.get("/content/locations/1/2")
        .admin()
        .send()
        .await
        .assert(200);
    let before = app.statements();
    app.get("/content/sections/1")
        .admin()
        .send()
        .await
        .assert(200);
    assert_eq!(
        app.statements() - before,
        marked_cost() + 1,
        "the login and the Section"
    );
    let before = app.statements();
    app.get("/content/sections/1")
        .basic("nobody", "x")
        .send()
        .await
        .assert_error(401);
    assert_eq!(app.statements() - before, 1, "the login only");
}

/// A check on one resource costs no statement on a warm cache: an anonymous (Section
/// limited) Location read runs the same statements as an administrator's but for the
/// administrator's login.
#[tokio::test]
async fn a_check_on_one_resource_adds_no_statement() {
    let app = TestApp::with_args(&["--cache-mib", "0"]).await; // the rendering path
    let cost = async |admin: bool| {
        let req = || {
            let r = app.get("/content/locations/1/2").accept("Location+json");
            if admin { r.admin() } else { r }
        };
        req().send().await.assert(200);
        let before = app.statements();
        req().send().await.assert(200);
        app.statements() - before
    };
    let anonymous = cost(false).await;
    let admin = cost(true).await;
    assert_eq!(
        admin,
        anonymous + marked_cost(),
        "the login is the only difference"
    );
    assert_eq!(
        anonymous, 3,
        "the Location, its child count, its content item"
    );
}
