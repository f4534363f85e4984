//! The current user, lookups of users and groups by login, email, remote id and id, and the
//! pinned statements of user lists and of a user's read.

use super::*;

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
    let users = |q: &str| (app.get(&format!("/user/users{q}")).admin()).accept("UserRefList+json");
    expect_all(vec![
        (users(""), 404),
        (users("?login=nobody"), 404),
        (users("?remoteId=nope"), 404),
    ])
    .await;
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

/// A user read (cache off; as admin with HTTP Basic, whose account is known after the first
/// request) reads the user's account once: 7 statements, where it was 8 with a second read
/// of the account for the body. On SQLite the caller's account is not read again while no
/// commit has changed the commit mark: 6.
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
    assert_eq!(
        spent,
        6 + marked_cost(),
        "a user read took {spent} statements"
    );
}

/// An account kept between requests without the response cache is read again after any
/// commit: a changed password and a disabled user are refused at once, on every backend.
#[tokio::test]
async fn a_kept_account_is_read_again_after_a_commit() {
    let app = TestApp::with_args(&["--cache-mib", "0"]).await;
    let id = new_user(&app, "1/5/13", "kept").await;
    let user = format!("/user/users/{id}");
    let status = async |password: &str| {
        (app.get(&user).basic("kept", password))
            .accept("User+json")
            .send()
            .await
            .status
    };
    assert_eq!(status(PASSWORD).await, 200);
    assert_eq!(status(PASSWORD).await, 200);
    let update = async |body: Value| {
        (app.req("PATCH", &user).admin())
            .json_body("UserUpdate", body)
            .send()
            .await
            .assert(200);
    };
    update(json!({"password": "Changed-6789!"})).await;
    assert_eq!(status(PASSWORD).await, 401);
    assert_eq!(status("Changed-6789!").await, 200);
    update(json!({"enabled": false})).await;
    assert_eq!(status("Changed-6789!").await, 401);
    // A refused login is never kept: the account is read again.
    let before = app.statements();
    assert_eq!(status("Changed-6789!").await, 401);
    assert_eq!(
        app.statements() - before,
        1,
        "a refused login reads the account"
    );
}
