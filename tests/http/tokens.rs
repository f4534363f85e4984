//! JSON Web Tokens (issue 45, formats.md 6): `POST /user/token/jwt` in XML and JSON, then
//! `Authorization: Bearer` on any operation without a CSRF token; bad, tampered, foreign and
//! expired tokens are 401 with an ErrorMessage. Their end with the user's credentials is in
//! `permissions/tokens.rs`.

use crate::support::*;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

/// The payload of a token.
fn payload(token: &str) -> Value {
    let part = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(part).unwrap()).unwrap()
}

/// A new Section's status, created with the token `token` (no CSRF token).
async fn write_with(app: &TestApp, token: &str, identifier: &str) -> u16 {
    app.req("POST", "/content/sections")
        .bearer(token)
        .json_body(
            "SectionInput",
            json!({"identifier": identifier, "name": identifier}),
        )
        .send()
        .await
        .status
        .as_u16()
}

#[tokio::test]
async fn a_token_in_json_and_xml_stands_for_its_user() {
    let app = TestApp::new().await;
    let r = app
        .req("POST", "/user/token/jwt")
        .accept("JWT+json")
        .json_body(
            "JWTInput",
            json!({"username": "admin", "password": "publish"}),
        )
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.content_type(), "application/vnd.ibexa.api.JWT+json");
    let j = &r.json()["JWT"];
    assert_eq!(j["_media-type"], "application/vnd.ibexa.api.JWT+json");
    let token = j["token"].as_str().unwrap().to_string();
    assert_eq!(j["_token"], token.as_str());
    // The reference's claims (lexik's HS256 token), its default expiry of an hour.
    let header: Value = serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(token.split('.').next().unwrap())
            .unwrap(),
    )
    .unwrap();
    assert_eq!(header, json!({"typ": "JWT", "alg": "HS256"}));
    let p = payload(&token);
    assert_eq!(p["username"], "admin");
    assert_eq!(p["roles"], json!(["ROLE_USER"]));
    assert_eq!(
        p["exp"].as_i64().unwrap() - p["iat"].as_i64().unwrap(),
        3600
    );

    // XML, as the reference's example: the token as attribute and element; sent where the
    // Root resource's `createToken` points.
    let root = app.get("/").accept("Root+json").send().await.json();
    let link = &root["Root"]["createToken"];
    assert_eq!(link["_media-type"], "application/vnd.ibexa.api.JWT+json");
    let r = app
        .abs("POST", link["_href"].as_str().unwrap())
        .accept("JWT+xml")
        .xml_body(
            "JWTInput",
            "<JWTInput><password>publish</password><username>admin</username></JWTInput>",
        )
        .send()
        .await;
    r.assert(200);
    let x = r.xml();
    assert_eq!(x.name, "JWT");
    assert_eq!(attr(&x, "media-type"), "application/vnd.ibexa.api.JWT+xml");
    let xml_token = child_text(&x, "token");
    assert_eq!(attr(&x, "token"), xml_token);

    // The token is admin on every operation, reads and writes, without a CSRF token.
    for (t, accept) in [(&token, "User+json"), (&xml_token, "User+xml")] {
        let r = app.get("/user/current").bearer(t).send().await;
        r.assert(307);
        assert_eq!(
            r.header("location").unwrap(),
            format!("{PREFIX}/user/users/14")
        );
        app.get("/user/users/14")
            .bearer(t)
            .accept(accept)
            .send()
            .await
            .assert(200);
    }
    assert_eq!(write_with(&app, &token, "by_token").await, 201);
    let r = app
        .get("/content/sections")
        .header("authorization", &format!("bearer {xml_token}"))
        .header("x-expected-user", "admin")
        .accept("SectionList+xml")
        .send()
        .await;
    r.assert(200);
}

#[tokio::test]
async fn bad_credentials_and_bad_input_are_refused() {
    let app = TestApp::new().await;
    // Before any token was issued (no key yet), a token is refused as any bad one.
    let r = app.get("/user/current").bearer("a.b.c").send().await;
    assert_eq!(r.assert_error(401), "Invalid JWT Token");
    for (login, password) in [("admin", "wrong"), ("nobody", "publish"), ("anonymous", "")] {
        let r = app
            .req("POST", "/user/token/jwt")
            .accept("JWT+json")
            .json_body("JWTInput", json!({"username": login, "password": password}))
            .send()
            .await;
        assert_eq!(r.assert_error(401), "Invalid login or password");
    }
    let r = app
        .req("POST", "/user/token/jwt")
        .accept("JWT+xml")
        .xml_body(
            "JWTInput",
            "<JWTInput><username>admin</username><password>nope</password></JWTInput>",
        )
        .send()
        .await;
    assert_eq!(r.assert_error(401), "Invalid login or password");
    assert!(r.content_type().contains("ErrorMessage+xml"));
    let r = app
        .req("POST", "/user/token/jwt")
        .accept("JWT+json")
        .json_body("JWTInput", json!({"username": "admin"}))
        .send()
        .await;
    assert!(r.assert_error(400).contains("password"));
    let r = app
        .req("POST", "/user/token/jwt")
        .accept("JWT+xml")
        .xml_body(
            "JWTInput",
            "<JWTInput><password>publish</password></JWTInput>",
        )
        .send()
        .await;
    assert!(r.assert_error(400).contains("username"));
}

#[tokio::test]
async fn tampered_foreign_and_malformed_tokens_are_401() {
    let app = TestApp::new().await;
    let token = app.token_as("admin", "publish").await;
    let parts: Vec<&str> = token.split('.').collect();
    // Another payload under the same signature: admin's expiry put off by a day.
    let mut p = payload(&token);
    p["exp"] = json!(p["exp"].as_i64().unwrap() + 86_400);
    let longer = URL_SAFE_NO_PAD.encode(p.to_string());
    let tampered = format!("{}.{longer}.{}", parts[0], parts[2]);
    // A token with no signature (`alg: none`).
    let none_header = URL_SAFE_NO_PAD.encode(r#"{"typ":"JWT","alg":"none"}"#);
    let unsigned = format!("{none_header}.{}.", parts[1]);
    // The signature altered by one character.
    let mut sig = parts[2].to_string();
    let last = if sig.ends_with('A') { "B" } else { "A" };
    sig.replace_range(sig.len() - 1.., last);
    let resigned = format!("{}.{}.{sig}", parts[0], parts[1]);
    // A token another repository (with its own key) issued for its admin.
    let other = TestApp::new().await;
    let foreign = other.token_as("admin", "publish").await;
    assert_ne!(
        foreign.split('.').nth(2),
        token.split('.').nth(2),
        "two repositories, two keys"
    );
    for (bad, accept) in [
        (tampered.as_str(), "SectionList+json"),
        (unsigned.as_str(), "SectionList+xml"),
        (resigned.as_str(), "SectionList+json"),
        (foreign.as_str(), "SectionList+xml"),
        ("garbage", "SectionList+json"),
        ("a.b.c", "SectionList+xml"),
        ("..", "SectionList+json"),
    ] {
        let r = app
            .get("/content/sections")
            .bearer(bad)
            .accept(accept)
            .send()
            .await;
        assert_eq!(r.assert_error(401), "Invalid JWT Token", "{bad}");
    }
    // The genuine one still works.
    app.get("/content/sections")
        .bearer(&token)
        .send()
        .await
        .assert(200);
}

#[tokio::test]
async fn tokens_expire() {
    let app = TestApp::with_args(&["--jwt-ttl", "2"]).await;
    let token = app.token_as("admin", "publish").await;
    let p = payload(&token);
    assert_eq!(p["exp"].as_i64().unwrap() - p["iat"].as_i64().unwrap(), 2);
    app.get("/user/current")
        .bearer(&token)
        .send()
        .await
        .assert(307);
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    for accept in ["Section+json", "Section+xml"] {
        let r = app
            .get("/content/sections/1")
            .bearer(&token)
            .accept(accept)
            .send()
            .await;
        assert_eq!(r.assert_error(401), "Expired JWT Token");
    }
}

/// Every instance on one database signs with its key (generated by the first that needed
/// one); a key file's key is another, and its tokens are the only ones it accepts.
#[tokio::test]
async fn instances_share_the_kept_key_and_a_key_file_replaces_it() {
    let app = TestApp::new().await;
    let token = app.token_as("admin", "publish").await;
    let other = app.another_instance().await;
    assert_eq!(write_with(&other, &token, "elsewhere").await, 201);
    let theirs = other.token_as("admin", "publish").await;
    assert_eq!(write_with(&app, &theirs, "back_here").await, 201);

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("jwt.key");
    std::fs::write(&file, "0123456789abcdef0123456789abcdef-signing-key\n").unwrap();
    let keyed = app
        .another_instance_with(&["--jwt-key-file", file.to_str().unwrap()])
        .await;
    let r = keyed.get("/user/current").bearer(&token).send().await;
    assert_eq!(r.assert_error(401), "Invalid JWT Token");
    let own = keyed.token_as("admin", "publish").await;
    keyed
        .get("/user/current")
        .bearer(&own)
        .send()
        .await
        .assert(307);
    app.get("/user/current")
        .bearer(&own)
        .send()
        .await
        .assert_error(401);
}

/// A kept answer with a token costs what it costs with HTTP Basic: at most the generation (the
/// key is read once, the account is known within the generation).
#[tokio::test]
async fn a_kept_answer_with_a_token_costs_at_most_the_generation() {
    let app = TestApp::new().await;
    let token = app.token_as("admin", "publish").await;
    for accept in ["Section+json", "Section+xml"] {
        let get = || app.get("/content/sections/1").bearer(&token).accept(accept);
        get().send().await.assert(200);
        let before = app.statements();
        get().send().await.assert(200);
        assert_eq!(app.statements() - before, marked_cost(), "{accept}");
    }
}

/// A key file shorter than HS256 needs is refused at start-up.
#[test]
fn a_short_key_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("short.key");
    std::fs::write(&file, "too short\n").unwrap();
    let err = cairn::jwt::Key::read_file(&file).err().unwrap().to_string();
    assert!(err.contains("HS256 needs 32"), "{err}");
}
