//! Accounts whose sessions end with their credentials (disabled, password changed, deleted),
//! and a user that changes its own password with `user/password` only.

use super::*;

#[tokio::test]
async fn sessions_end_when_the_account_is_disabled_or_its_password_changes() {
    let app = TestApp::new().await;
    let user = user_with_own_password(&app, "sess").await;
    let login = async || app.login_as("sess", PW).await;
    let write = async |(cookie, token): &(String, String)| {
        app.req("POST", "/content/objects")
            .header("cookie", cookie)
            .header("x-csrf-token", token)
            .json_body(
                "ContentCreate",
                json!({"ContentType": {"_href": "/api/ibexa/v2/content/types/1"}, "mainLanguageCode": "eng-GB",
                    "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
                    "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "S"}]}}),
            )
            .send()
            .await
            .status
            .as_u16()
    };
    // A change to the user by admin.
    let admin_update = async |change: Value| {
        let patch = app.req("PATCH", &format!("/user/users/{user}")).admin();
        patch
            .json_body("UserUpdate", change)
            .send()
            .await
            .assert(200);
    };
    let s = login().await;
    assert_eq!(write(&s).await, 201);
    // Disabled by admin: the session no longer writes.
    admin_update(json!({"enabled": false})).await;
    assert_eq!(write(&s).await, 401);
    admin_update(json!({"enabled": true})).await;
    // A password changed by admin ends the session; one the user changes itself keeps the
    // session it changed it in.
    let s = login().await;
    admin_update(json!({"password": "Other-12345"})).await;
    assert_eq!(write(&s).await, 401);
    admin_update(json!({"password": PW})).await;
    let s = login().await;
    let other = login().await;
    let r = app
        .req("PATCH", &format!("/user/users/{user}"))
        .header("cookie", &s.0)
        .header("x-csrf-token", &s.1)
        .json_body("UserUpdate", json!({"password": "Mine-12345678"}))
        .send()
        .await;
    r.assert(200);
    assert_eq!(write(&s).await, 201);
    assert_eq!(write(&other).await, 401);
    // Deleted: gone.
    app.req("DELETE", &format!("/user/users/{user}"))
        .admin()
        .send()
        .await
        .assert(204);
    assert_eq!(write(&s).await, 401);
}

#[tokio::test]
async fn a_user_changes_its_own_password_with_user_password_only() {
    let app = TestApp::new().await;
    let user = plain_user(&app, "pw").await;
    role_for(
        &app,
        user,
        "Pw",
        &[
            json!(["user", "password", []]),
            json!(["content", "read", [["Owner", ["1"]]]]),
        ],
        None,
    )
    .await;
    fn p(r: Req<'_>) -> Req<'_> {
        as_user(r, "pw")
    }
    // Another user's password, or its own email: not with user/password alone.
    let own = format!("/user/users/{user}");
    let patch =
        |path: &str, change: Value| p(app.req("PATCH", path)).json_body("UserUpdate", change);
    expect_all(vec![
        (
            patch("/user/users/14", json!({"password": "Taken-over-1"})),
            401,
        ),
        (patch(&own, json!({"email": "x@example.com"})), 401),
        (patch(&own, json!({"password": "Brand-new-123"})), 200),
    ])
    .await;
    let r = app
        .get("/user/current")
        .basic("pw", "Brand-new-123")
        .send()
        .await;
    r.assert(307);
}
