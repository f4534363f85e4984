//! JSON Web Tokens end with their user's credentials, as sessions do: disabled, password
//! changed (by anyone, the user included), deleted; and a token carries its user's rights,
//! no more.

use super::*;

#[tokio::test]
async fn tokens_end_when_the_account_is_disabled_deleted_or_its_password_changes() {
    let app = TestApp::new().await;
    let user = user_with_own_password(&app, "tok").await;
    let token = async || app.token_as("tok", PW).await;
    let read = async |t: &str, accept: &str| {
        let r = app
            .get("/user/current")
            .bearer(t)
            .accept(accept)
            .send()
            .await;
        if r.status != 307 {
            assert_eq!(r.assert_error(401), "Invalid JWT Token");
        }
        r.status.as_u16()
    };
    let admin_update = async |change: Value| {
        (app.req("PATCH", &format!("/user/users/{user}")).admin())
            .json_body("UserUpdate", change)
            .send()
            .await
            .assert(200);
    };
    let t = token().await;
    assert_eq!(read(&t, "User+json").await, 307);
    // Disabled: refused, and no new token.
    admin_update(json!({"enabled": false})).await;
    assert_eq!(read(&t, "User+xml").await, 401);
    app.req("POST", "/user/token/jwt")
        .json_body("JWTInput", json!({"username": "tok", "password": PW}))
        .send()
        .await
        .assert_error(401);
    admin_update(json!({"enabled": true})).await;
    assert_eq!(read(&t, "User+json").await, 401, "not again once enabled");

    // A password changed by admin ends every token of the user.
    let t = token().await;
    assert_eq!(read(&t, "User+json").await, 307);
    admin_update(json!({"password": "Other-12345"})).await;
    assert_eq!(read(&t, "User+json").await, 401);
    admin_update(json!({"password": PW})).await;
    assert_eq!(
        read(&t, "User+xml").await,
        401,
        "the same password, hashed anew"
    );

    // One the user changes itself with its token ends that token too.
    let t = token().await;
    (app.req("PATCH", &format!("/user/users/{user}")).bearer(&t))
        .json_body("UserUpdate", json!({"password": "Mine-12345678"}))
        .send()
        .await
        .assert(200);
    assert_eq!(read(&t, "User+json").await, 401);
    let t = app.token_as("tok", "Mine-12345678").await;
    assert_eq!(read(&t, "User+json").await, 307);

    // Deleted: gone.
    app.req("DELETE", &format!("/user/users/{user}"))
        .admin()
        .send()
        .await
        .assert(204);
    assert_eq!(read(&t, "User+xml").await, 401);
}

#[tokio::test]
async fn a_token_carries_its_users_rights() {
    let app = TestApp::new().await;
    let user = plain_user(&app, "reader").await;
    role_for(
        &app,
        user,
        "Section reader",
        &[json!(["section", "view", []])],
        None,
    )
    .await;
    let t = app.token_as("reader", PW).await;
    app.get("/content/sections/1")
        .bearer(&t)
        .accept("Section+json")
        .send()
        .await
        .assert(200);
    for accept in ["Section+json", "Section+xml"] {
        let r = app
            .req("POST", "/content/sections")
            .bearer(&t)
            .accept(accept)
            .json_body("SectionInput", json!({"identifier": "no", "name": "No"}))
            .send()
            .await;
        assert!(r.assert_error(401).contains("section"));
    }
    // A user with `user/login` for the siteaccess `site` only (`1766001124`, the CRC-32 of its
    // name) gets no token through `admin`, and its token does not go there either.
    let site = plain_user(&app, "siteonly").await;
    role_for(
        &app,
        site,
        "Site only",
        &[
            json!(["user", "login", [["SiteAccess", ["1766001124"]]]]),
            json!(["section", "view", []]),
        ],
        None,
    )
    .await;
    let r = app
        .req("POST", "/user/token/jwt")
        .header("x-siteaccess", "admin")
        .accept("JWT+xml")
        .xml_body(
            "JWTInput",
            &format!("<JWTInput><username>siteonly</username><password>{PW}</password></JWTInput>"),
        )
        .send()
        .await;
    assert!(r.assert_error(401).contains("'login' 'user'"));
    let t = app.token_as("siteonly", PW).await;
    app.get("/content/sections/1")
        .bearer(&t)
        .send()
        .await
        .assert(200);
    app.get("/content/sections/1")
        .bearer(&t)
        .header("x-siteaccess", "admin")
        .send()
        .await
        .assert_error(401);
}
