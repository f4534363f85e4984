//! Sessions and authentication (spec 5, formats.md 6): login, cookie + CSRF, Basic auth,
//! check, refresh, logout.

use crate::support::*;
use serde_json::json;

#[tokio::test]
async fn login_creates_a_session_with_cookie_and_csrf_token() {
    let app = TestApp::new().await;
    let r = app
        .req("POST", "/user/sessions")
        .accept("Session+json")
        .json_body(
            "SessionInput",
            json!({"login": "admin", "password": "publish"}),
        )
        .send()
        .await;
    r.assert(201);
    let j = r.json()["Session"].clone();
    let id = j["identifier"].as_str().unwrap();
    assert_eq!(j["name"], "eZSESSID98defd6ee70dfb1dea416cecdf391f58");
    assert_eq!(j["_href"], format!("/api/ibexa/v2/user/sessions/{id}"));
    assert_eq!(j["User"]["_href"], "/api/ibexa/v2/user/users/14");
    assert_eq!(
        j["User"]["_media-type"],
        "application/vnd.ibexa.api.User+json"
    );
    assert!(j["csrfToken"].as_str().unwrap().len() >= 32);
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/user/sessions/{id}")
    );
    let cookie = r.header("set-cookie").unwrap();
    assert!(cookie.starts_with(&format!("eZSESSID98defd6ee70dfb1dea416cecdf391f58={id};")));
    assert!(cookie.contains("HttpOnly"));

    // XML login too.
    let r = app
        .req("POST", "/user/sessions")
        .accept("Session+xml")
        .xml_body(
            "SessionInput",
            "<SessionInput><login>admin</login><password>publish</password></SessionInput>",
        )
        .send()
        .await;
    r.assert(201);
    let x = r.xml();
    assert_eq!(x.name, "Session");
    assert!(!child_text(&x, "csrfToken").is_empty());
}

#[tokio::test]
async fn login_again_with_the_cookie_answers_200_with_the_same_session() {
    let app = TestApp::new().await;
    let (cookie, token) = app.login().await;
    let r = app
        .req("POST", "/user/sessions")
        .header("cookie", &cookie)
        .accept("Session+json")
        .json_body(
            "SessionInput",
            json!({"login": "admin", "password": "publish"}),
        )
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["Session"]["csrfToken"], token);
    assert!(r.header("set-cookie").is_none());
}

#[tokio::test]
async fn wrong_credentials_are_401_and_bad_input_400() {
    let app = TestApp::new().await;
    for (login, password) in [("admin", "wrong"), ("nobody", "publish"), ("anonymous", "")] {
        let r = app
            .req("POST", "/user/sessions")
            .accept("Session+json")
            .json_body(
                "SessionInput",
                json!({"login": login, "password": password}),
            )
            .send()
            .await;
        assert_eq!(r.assert_error(401), "Invalid login or password");
    }
    let r = app
        .req("POST", "/user/sessions")
        .accept("Session+json")
        .json_body("SessionInput", json!({"login": "admin"}))
        .send()
        .await;
    assert!(r.assert_error(400).contains("SessionInput.password"));
}

#[tokio::test]
async fn unsafe_requests_in_a_session_need_the_csrf_token() {
    let app = TestApp::new().await;
    let (cookie, token) = app.login().await;
    let body = json!({"identifier": "csrf", "name": "CSRF"});
    let r = app
        .req("POST", "/content/sections")
        .header("cookie", &cookie)
        .accept("Section+json")
        .json_body("SectionInput", body.clone())
        .send()
        .await;
    assert_eq!(r.assert_error(401), "Missing or invalid CSRF token");
    let r = app
        .req("POST", "/content/sections")
        .header("cookie", &cookie)
        .header("x-csrf-token", "forged")
        .accept("Section+json")
        .json_body("SectionInput", body.clone())
        .send()
        .await;
    r.assert_error(401);
    let r = app
        .req("POST", "/content/sections")
        .header("cookie", &cookie)
        .header("x-csrf-token", &token)
        .accept("Section+json")
        .json_body("SectionInput", body)
        .send()
        .await;
    r.assert(201);
    // Safe methods need no token.
    app.get("/content/sections/1")
        .header("cookie", &cookie)
        .send()
        .await
        .assert(200);
}

#[tokio::test]
async fn basic_auth_works_without_csrf_and_bad_basic_is_401() {
    let app = TestApp::new().await;
    let r = app
        .req("POST", "/content/sections")
        .admin()
        .accept("Section+json")
        .json_body(
            "SectionInput",
            json!({"identifier": "basic", "name": "Basic"}),
        )
        .send()
        .await;
    r.assert(201);
    let r = app
        .get("/content/sections")
        .header("authorization", "Basic YWRtaW46d3Jvbmc=")
        .send()
        .await;
    r.assert_error(401);
    let r = app
        .get("/content/sections")
        .header("authorization", "Basic !!!")
        .send()
        .await;
    r.assert_error(401);
}

#[tokio::test]
async fn check_refresh_and_logout() {
    let app = TestApp::new().await;
    // No session: 404 without a body, as the reference answers.
    let r = app
        .get("/user/sessions/current")
        .accept("Session+json")
        .send()
        .await;
    r.assert(404);
    assert!(r.body.is_empty());

    let (cookie, token) = app.login().await;
    let id = cookie.split('=').nth(1).unwrap().to_string();
    let r = app
        .get("/user/sessions/current")
        .header("cookie", &cookie)
        .accept("Session+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["Session"]["identifier"], id.as_str());
    assert!(r.header("etag").is_some());

    let r = app
        .req("POST", &format!("/user/sessions/{id}/refresh"))
        .header("cookie", &cookie)
        .header("x-csrf-token", &token)
        .accept("Session+xml")
        .send()
        .await;
    r.assert(200);
    assert_eq!(child_text(&r.xml(), "identifier"), id);

    // Another id than the cookie's is not this caller's session.
    let r = app
        .req("DELETE", "/user/sessions/someoneelse")
        .header("cookie", &cookie)
        .header("x-csrf-token", &token)
        .send()
        .await;
    r.assert_error(404);
    assert!(r.header("set-cookie").unwrap().contains("Max-Age=0"));

    // Logout without the CSRF token is refused.
    app.req("DELETE", &format!("/user/sessions/{id}"))
        .header("cookie", &cookie)
        .send()
        .await
        .assert_error(401);

    let r = app
        .req("DELETE", &format!("/user/sessions/{id}"))
        .header("cookie", &cookie)
        .header("x-csrf-token", &token)
        .send()
        .await;
    r.assert(204);
    assert!(r.header("set-cookie").unwrap().contains("Max-Age=0"));
    // The session is gone: the cookie now means the anonymous user; refreshing it is a 404
    // that clears the cookie.
    app.get("/user/sessions/current")
        .header("cookie", &cookie)
        .send()
        .await
        .assert(404);
    let r = app
        .req("POST", &format!("/user/sessions/{id}/refresh"))
        .header("cookie", &cookie)
        .header("x-csrf-token", &token)
        .send()
        .await;
    r.assert_error(404);
    assert!(r.header("set-cookie").unwrap().contains("Max-Age=0"));
    app.req("POST", "/content/sections")
        .header("cookie", &cookie)
        .header("x-csrf-token", &token)
        .json_body(
            "SectionInput",
            json!({"identifier": "late", "name": "Late"}),
        )
        .send()
        .await
        .assert_error(401);
}

/// A session kept between requests (SQLite, under the commit mark) costs no statement, and is
/// read again after any commit: a logout and a disabled user end it at once, on every backend.
#[tokio::test]
async fn a_kept_session_is_read_again_after_a_commit() {
    let app = TestApp::with_args(&["--cache-mib", "0"]).await;
    let id = crate::users::new_user(&app, "1/5/13", "sessioned").await;
    let (cookie, token) = app.login_as("sessioned", crate::users::PASSWORD).await;
    let current = async |cookie: &str| {
        (app.get("/user/sessions/current").header("cookie", cookie))
            .send()
            .await
            .status
    };
    assert_eq!(current(&cookie).await, 200);
    let before = app.statements();
    assert_eq!(current(&cookie).await, 200);
    let kept = app.statements() - before;
    // The answer is the session itself: finding it is the request's only statement.
    assert_eq!(kept, marked_cost(), "a known session's request");

    // A logout ends it, though it was kept a moment before.
    let sid = cookie.split('=').nth(1).unwrap().to_string();
    app.req("DELETE", &format!("/user/sessions/{sid}"))
        .header("cookie", &cookie)
        .header("x-csrf-token", &token)
        .send()
        .await
        .assert(204);
    assert_eq!(current(&cookie).await, 404);

    // Disabling the user ends its sessions (they are deleted), kept or not.
    let (cookie, _) = app.login_as("sessioned", crate::users::PASSWORD).await;
    assert_eq!(current(&cookie).await, 200);
    assert_eq!(current(&cookie).await, 200);
    (app.req("PATCH", &format!("/user/users/{id}")).admin())
        .json_body("UserUpdate", json!({"enabled": false}))
        .send()
        .await
        .assert(200);
    assert_eq!(current(&cookie).await, 404);
}

#[tokio::test]
async fn sessions_expire_when_idle() {
    let app = TestApp::with_args(&["--session-idle", "0"]).await;
    let (cookie, _) = app.login().await;
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    app.get("/user/sessions/current")
        .header("cookie", &cookie)
        .send()
        .await
        .assert(404);
}

/// Failed logins slow down the next attempts for that login (issue 10): past the free ones,
/// 429 with `Retry-After` until the wait is over; then the right password works again.
#[tokio::test]
async fn password_guessing_slows_down() {
    let app = TestApp::with_args(&["--login-free-attempts", "2", "--login-delay-ms", "300"]).await;
    let current = async |password: &str| {
        app.get("/user/current")
            .basic("admin", password)
            .send()
            .await
    };
    for _ in 0..3 {
        current("wrong").await.assert_error(401);
    }
    // Even the right password waits now, by Basic or by session.
    let r = current("publish").await;
    r.assert_error(429);
    assert!(r.header("retry-after").unwrap().parse::<u64>().unwrap() >= 1);
    app.req("POST", "/user/sessions")
        .json_body(
            "SessionInput",
            serde_json::json!({"login": "admin", "password": "publish"}),
        )
        .send()
        .await
        .assert_error(429);
    // Other logins are not slowed down by admin's failures.
    app.get("/user/current")
        .basic("nobody", "x")
        .send()
        .await
        .assert_error(401);
    tokio::time::sleep(std::time::Duration::from_millis(350)).await;
    current("publish").await.assert(307);
    // The right password cleared the count.
    current("wrong").await.assert_error(401);
    current("wrong").await.assert_error(401);
    current("publish").await.assert(307);
}

/// `X-Expected-User` (issue 11): a request authenticated as someone else is a 401, as in the
/// reference; the right login (or `anonymous` without credentials) goes through.
#[tokio::test]
async fn x_expected_user_must_be_the_caller() {
    let app = TestApp::new().await;
    app.get("/content/sections/1")
        .admin()
        .header("x-expected-user", "admin")
        .send()
        .await
        .assert(200);
    app.get("/content/sections/1")
        .admin()
        .header("x-expected-user", "editor")
        .send()
        .await
        .assert_error(401);
    app.get("/content/locations/1/2")
        .header("x-expected-user", "admin")
        .send()
        .await
        .assert_error(401);
    app.get("/content/locations/1/2")
        .header("x-expected-user", "anonymous")
        .send()
        .await
        .assert(200);
    let (cookie, _) = app.login().await;
    app.get("/content/sections/1")
        .header("cookie", &cookie)
        .header("x-expected-user", "someone")
        .send()
        .await
        .assert_error(401);
    // An empty value (or PHP's other empty string, "0") expects no one, as the reference's
    // listener reads it: anyone goes through, in either format.
    for (value, accept) in [
        ("", "Section+json"),
        ("0", "Section+xml"),
        (" ", "Section+json"),
    ] {
        app.get("/content/sections/1")
            .admin()
            .header("x-expected-user", value)
            .accept(accept)
            .send()
            .await
            .assert(200);
        app.get("/content/locations/1/2")
            .header("x-expected-user", value)
            .send()
            .await
            .assert(200);
    }
}
