//! An editor's day as a client of the reference walks it (the order of the eZ Platform
//! JavaScript client): log in, create a folder draft with `"Section": null`, update, publish,
//! add a Location, copy, move, hide, trash, restore, URL aliases, Object states, clean up
//! through an href kept from before a move, log out. The client builds no path beyond the
//! API root's: it follows the hrefs and `Location` headers the server gives. Run in the eZ
//! Platform dialect and the Ibexa one, with a session (cookie and CSRF token) and with HTTP
//! Basic, on a server serving both dialects and on one serving that dialect alone.

use crate::support::*;
use serde_json::{Value, json};

enum Auth {
    Basic,
    Session { cookie: String, token: String },
}

/// A client of one dialect (`vendor` in media types).
struct Client<'a> {
    app: &'a TestApp,
    vendor: &'static str,
    auth: Auth,
}

impl Client<'_> {
    fn media(&self, ty: &str) -> String {
        format!("application/vnd.{}.api.{ty}+json", self.vendor)
    }

    /// Sends `method` to `href` with the credentials, `Accept: ty` and, when given, a JSON
    /// body of `input` and extra headers; checks the dialect of the answer's media type.
    async fn call(
        &self,
        method: &str,
        href: &str,
        ty: Option<&str>,
        body: Option<(&str, Value)>,
        extra: &[(&str, &str)],
    ) -> Resp {
        let mut req = self.app.abs(method, href);
        if let Some(ty) = ty {
            req = req.header("accept", &self.media(ty));
        }
        if let Some((input, value)) = body {
            req = req.raw_body(&self.media(input), &json!({ input: value }).to_string());
        }
        for (k, v) in extra {
            req = req.header(k, v);
        }
        req = match &self.auth {
            Auth::Basic => req.admin(),
            Auth::Session { cookie, token } => {
                let req = req.header("cookie", cookie);
                match method {
                    "GET" | "HEAD" => req,
                    _ => req.header("x-csrf-token", token),
                }
            }
        };
        let r = req.send().await;
        let media = r.content_type();
        assert!(
            media.is_empty() || media.starts_with(&format!("application/vnd.{}.", self.vendor)),
            "{method} {href}: {media}"
        );
        r
    }
}

fn href(v: &Value) -> String {
    v["_href"]
        .as_str()
        .unwrap_or_else(|| panic!("no href in {v}"))
        .to_string()
}

/// The day in the dialect of `vendor` at `prefix`, on a server that serves both dialects
/// (the default) or, when `alone`, this one only.
async fn editors_day(vendor: &'static str, prefix: &'static str, session: bool, alone: bool) {
    let app = match alone {
        true => TestApp::with_args(&["--vendor", vendor, "--prefix", prefix]).await,
        false => TestApp::new().await,
    };
    let mut c = Client {
        app: &app,
        vendor,
        auth: Auth::Basic,
    };
    let mut session_href = None;
    if session {
        let r = c
            .call(
                "POST",
                &format!("{prefix}/user/sessions"),
                Some("Session"),
                Some((
                    "SessionInput",
                    json!({"login": "admin", "password": "publish"}),
                )),
                &[],
            )
            .await;
        r.assert(201);
        let cookie = r.header("set-cookie").unwrap();
        let s = r.json()["Session"].clone();
        session_href = Some(href(&s));
        c.auth = Auth::Session {
            cookie: cookie.split(';').next().unwrap().to_string(),
            token: s["csrfToken"].as_str().unwrap().to_string(),
        };
    }
    let root = c
        .call("GET", &format!("{prefix}/"), Some("Root"), None, &[])
        .await;
    root.assert(200);
    let root = root.json()["Root"].clone();
    let objects = href(&root["content"]);
    let trash = href(&root["trash"]);
    let aliases = href(&root["globalUrlAliases"]);
    let home = format!("{prefix}/content/locations/1/2");
    let media = format!("{prefix}/content/locations/1/43");

    // A folder draft, as the client sends it: Section null, remote id null.
    let r = c
        .call(
            "POST",
            &objects,
            Some("Content"),
            Some((
                "ContentCreate",
                json!({
                    "ContentType": {"_href": format!("{prefix}/content/types/1")},
                    "mainLanguageCode": "eng-GB",
                    "LocationCreate": {
                        "ParentLocation": {"_href": home}, "priority": 0, "hidden": false,
                        "sortField": "PATH", "sortOrder": "ASC"
                    },
                    "Section": null,
                    "alwaysAvailable": "true",
                    "remoteId": null,
                    "fields": {"field": [
                        {"fieldDefinitionIdentifier": "name", "languageCode": "eng-GB", "fieldValue": "Day"}
                    ]}
                }),
            )),
            &[],
        )
        .await;
    r.assert(201);
    let content = r.json()["Content"].clone();
    let content_href = href(&content);
    let draft = href(&content["CurrentVersion"]["Version"]);
    assert_eq!(
        content["Section"]["_href"],
        format!("{prefix}/content/sections/1")
    );

    // Update the draft, publish it.
    c.call(
        "PATCH",
        &draft,
        Some("Version"),
        Some((
            "VersionUpdate",
            json!({"fields": {"field": [
                {"fieldDefinitionIdentifier": "name", "languageCode": "eng-GB", "fieldValue": "Editor's day"}
            ]}}),
        )),
        &[],
    )
    .await
    .assert(200);
    c.call("PUBLISH", &draft, None, None, &[]).await.assert(204);
    let r = c
        .call("GET", &content_href, Some("Content"), None, &[])
        .await;
    r.assert(200);
    let content = r.json()["Content"].clone();
    assert_eq!(content["Name"], "Editor's day");
    let main = href(&content["MainLocation"]);

    // A second Location under Media.
    let r = c
        .call(
            "POST",
            &href(&content["Locations"]),
            Some("Location"),
            Some((
                "LocationCreate",
                json!({"ParentLocation": {"_href": media}}),
            )),
            &[],
        )
        .await;
    r.assert(201);
    let second = href(&r.json()["Location"]);

    // Copy the item under Home.
    let r = c
        .call("COPY", &content_href, None, None, &[("destination", &home)])
        .await;
    r.assert(201);
    let copy = r.header("location").unwrap();
    let r = c.call("GET", &copy, Some("ContentInfo"), None, &[]).await;
    r.assert(200);
    let copy_location = href(&r.json()["Content"]["MainLocation"]);

    // Move the second Location under Home: the href kept from before still names it.
    let r = c
        .call("MOVE", &second, None, None, &[("destination", &home)])
        .await;
    r.assert(201);
    let moved = r.header("location").unwrap();
    assert_ne!(moved, second);
    c.call("GET", &second, Some("Location"), None, &[])
        .await
        .assert(200);

    // Hide the main Location.
    let r = c
        .call(
            "PATCH",
            &main,
            Some("Location"),
            Some(("LocationUpdate", json!({"hidden": "true"}))),
            &[],
        )
        .await;
    r.assert(200);
    assert_eq!(r.json()["Location"]["hidden"], true);

    // Trash the copy (its only Location), then restore it.
    let r = c
        .call(
            "MOVE",
            &copy_location,
            None,
            None,
            &[("destination", &trash)],
        )
        .await;
    r.assert(201);
    let item = r.header("location").unwrap();
    let r = c.call("GET", &item, Some("TrashItem"), None, &[]).await;
    r.assert(200);
    let r = c.call("MOVE", &item, None, None, &[]).await;
    r.assert(201);
    let restored = r.header("location").unwrap();
    c.call("GET", &restored, Some("Location"), None, &[])
        .await
        .assert(200);

    // URL aliases: the generated one, and a custom one.
    let r = c
        .call(
            "GET",
            &format!("{main}/urlaliases?custom=false"),
            Some("UrlAliasRefList"),
            None,
            &[],
        )
        .await;
    r.assert(200);
    assert!(
        !r.json()["UrlAliasRefList"]["UrlAlias"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let r = c
        .call(
            "POST",
            &aliases,
            Some("UrlAlias"),
            Some((
                "UrlAliasCreate",
                json!({
                    "_type": "LOCATION", "location": {"_href": main}, "path": "/editors-day",
                    "languageCode": "eng-GB", "alwaysAvailable": "false", "forward": "false"
                }),
            )),
            &[],
        )
        .await;
    r.assert(201);

    // Object states: lock it.
    let r = c
        .call(
            "PATCH",
            &format!("{content_href}/objectstates"),
            Some("ContentObjectStates"),
            Some((
                "ContentObjectStates",
                json!({"ObjectState": [
                    {"_href": format!("{prefix}/content/objectstategroups/2/objectstates/2")}
                ]}),
            )),
            &[],
        )
        .await;
    r.assert(200);
    let states = r.json()["ContentObjectStates"]["ObjectState"].clone();
    assert!(states.to_string().contains("/objectstates/2\""), "{states}");

    // Clean up through the href kept from before the move.
    c.call("DELETE", &second, None, None, &[]).await.assert(204);
    c.call("GET", &moved, Some("Location"), None, &[])
        .await
        .assert_error(404);

    // Log out: the session is gone.
    if let Some(session) = session_href {
        c.call("DELETE", &session, None, None, &[])
            .await
            .assert(204);
        let r = c
            .call(
                "GET",
                &format!("{prefix}/user/sessions/current"),
                Some("Session"),
                None,
                &[],
            )
            .await;
        assert_eq!(r.status.as_u16(), 404, "{}", r.body);
    }
}

#[tokio::test]
async fn an_editors_day_in_the_ez_platform_dialect_with_a_session() {
    editors_day("ez", "/api/ezp/v2", true, false).await;
}

#[tokio::test]
async fn an_editors_day_in_the_ez_platform_dialect_with_basic_auth() {
    editors_day("ez", "/api/ezp/v2", false, true).await;
}

#[tokio::test]
async fn an_editors_day_in_the_ibexa_dialect_with_a_session() {
    editors_day("ibexa", "/api/ibexa/v2", true, true).await;
}

#[tokio::test]
async fn an_editors_day_in_the_ibexa_dialect_with_basic_auth() {
    editors_day("ibexa", "/api/ibexa/v2", false, false).await;
}
