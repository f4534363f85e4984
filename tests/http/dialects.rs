//! Both dialects at once (the default): one server answers the eZ Platform dialect
//! (`/api/ezp/v2`, `application/vnd.ez.api.*`) and the Ibexa one (`/api/ibexa/v2`,
//! `application/vnd.ibexa.api.*`) over one repository. Each answer is in the dialect of its
//! request: media types, hrefs of bodies, hrefs inside field values, action links and the
//! `Location` header; hrefs a client sends are read in its dialect; a session opened in one
//! dialect is valid in the other.

use crate::support::*;
use serde_json::{Value, json};

const EZ: (&str, &str) = ("ez", "/api/ezp/v2");
const IBEXA: (&str, &str) = ("ibexa", "/api/ibexa/v2");

/// A request in a dialect: the path under its prefix, `Accept` of its vendor.
fn call<'a>(
    app: &'a TestApp,
    (vendor, prefix): (&str, &str),
    method: &str,
    path: &str,
    accept: &str,
) -> Req<'a> {
    app.abs(method, &format!("{prefix}{path}"))
        .header("accept", &format!("application/vnd.{vendor}.api.{accept}"))
}

/// A JSON body `{"<input>": value}` in a dialect.
fn body<'a>(req: Req<'a>, (vendor, _): (&str, &str), input: &str, value: Value) -> Req<'a> {
    req.raw_body(
        &format!("application/vnd.{vendor}.api.{input}+json"),
        &json!({ input: value }).to_string(),
    )
}

fn related_create(prefix: &str, type_id: i64, target: i64) -> Value {
    json!({
        "ContentType": {"_href": format!("{prefix}/content/types/{type_id}")},
        "mainLanguageCode": "eng-GB",
        "Section": null,
        "LocationCreate": {"ParentLocation": {"_href": format!("{prefix}/content/locations/1/2")}},
        "fields": {"field": [
            {"fieldDefinitionIdentifier": "title", "fieldValue": "Related"},
            {"fieldDefinitionIdentifier": "link", "fieldValue": {"destinationContentId": target}}
        ]}
    })
}

#[tokio::test]
async fn one_repository_answers_each_dialect_in_its_own_hrefs_and_media_types() {
    let app = TestApp::new().await;
    // A content type with a relation Field, created in the Ibexa dialect.
    let fields = json!({"FieldDefinition": [
        {"identifier": "title", "fieldType": "ezstring", "position": 1, "isRequired": false,
         "names": {"value": [{"_languageCode": "eng-GB", "#text": "Title"}]}},
        {"identifier": "link", "fieldType": "ezobjectrelation", "position": 2, "isRequired": false,
         "names": {"value": [{"_languageCode": "eng-GB", "#text": "Link"}]}}
    ]});
    let r = body(
        call(
            &app,
            IBEXA,
            "POST",
            "/content/typegroups/1/types?publish=true",
            "ContentType+json",
        )
        .admin(),
        IBEXA,
        "ContentTypeCreate",
        json!({
            "identifier": "related", "mainLanguageCode": "eng-GB", "nameSchema": "<title>",
            "names": {"value": [{"_languageCode": "eng-GB", "#text": "Related"}]},
            "FieldDefinitions": fields
        }),
    )
    .send()
    .await;
    r.assert(201);
    let type_id = r.json()["ContentType"]["id"].as_i64().unwrap();
    assert!(
        r.header("location")
            .unwrap()
            .starts_with("/api/ibexa/v2/content/types/")
    );

    // A folder to relate to (Ibexa), and the relating item created in the eZ dialect, with
    // the eZ dialect's hrefs in its input.
    let (target, _) = crate::content::published_folder(&app, "Target", "1/2").await;
    let r = body(
        call(&app, EZ, "POST", "/content/objects", "Content+json").admin(),
        EZ,
        "ContentCreate",
        related_create(EZ.1, type_id, target),
    )
    .send()
    .await;
    r.assert(201);
    assert_eq!(r.content_type(), "application/vnd.ez.api.Content+json");
    let c = r.json()["Content"].clone();
    let id = c["_id"].as_i64().unwrap();
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ezp/v2/content/objects/{id}")
    );
    assert_eq!(c["_href"], format!("/api/ezp/v2/content/objects/{id}"));
    crate::content::publish(&app, id, 1).await;

    // The same item in each dialect, in JSON and XML: every href in that dialect's prefix,
    // inside the relation's value too.
    for dialect @ (vendor, prefix) in [EZ, IBEXA] {
        let r = call(
            &app,
            dialect,
            "GET",
            &format!("/content/objects/{id}"),
            "Content+json",
        )
        .admin()
        .send()
        .await;
        r.assert(200);
        assert_eq!(
            r.content_type(),
            format!("application/vnd.{vendor}.api.Content+json")
        );
        let c = r.json()["Content"].clone();
        assert_eq!(c["_href"], format!("{prefix}/content/objects/{id}"));
        assert_eq!(
            c["ContentType"]["_href"],
            format!("{prefix}/content/types/{type_id}")
        );
        assert_eq!(
            c["ContentType"]["_media-type"],
            format!("application/vnd.{vendor}.api.ContentType+json")
        );
        let link = &field_of(&c, "link")["fieldValue"];
        assert_eq!(link["destinationContentId"], target);
        assert_eq!(
            link["destinationContentHref"],
            format!("{prefix}/content/objects/{target}")
        );
        let body = r.body.clone();
        let other = if vendor == "ez" { IBEXA.1 } else { EZ.1 };
        assert!(!body.contains(other), "{vendor}: {body}");

        let r = call(
            &app,
            dialect,
            "GET",
            &format!("/content/objects/{id}"),
            "Content+xml",
        )
        .admin()
        .send()
        .await;
        r.assert(200);
        let xml = r.body.clone();
        assert!(
            xml.contains(&format!("{prefix}/content/objects/{target}</value>")),
            "{vendor}: {xml}"
        );
        assert!(!xml.contains(other), "{vendor}: {xml}");
    }

    // Links of actions: the unlink of a type's group, read in the dialect of the request
    // (the group href of the eZ dialect), written in it.
    let r = call(
        &app,
        EZ,
        "POST",
        &format!("/content/types/{type_id}/groups?group=/api/ezp/v2/content/typegroups/2"),
        "ContentTypeGroupRefList+json",
    )
    .admin()
    .send()
    .await;
    r.assert(200);
    let refs = r.json()["ContentTypeGroupRefList"]["ContentTypeGroupRef"].clone();
    assert_eq!(
        refs[1]["unlink"]["_href"],
        format!("/api/ezp/v2/content/types/{type_id}/groups/2")
    );
    let r = call(
        &app,
        IBEXA,
        "GET",
        &format!("/content/types/{type_id}/groups"),
        "ContentTypeGroupRefList+xml",
    )
    .send()
    .await;
    r.assert(200);
    let xml = r.body.clone();
    assert!(
        xml.contains(&format!(
            r#"href="/api/ibexa/v2/content/types/{type_id}/groups/2""#
        )),
        "{xml}"
    );

    // A bookmark made in one dialect, listed in the other.
    let (_, path) = crate::content::published_folder(&app, "Marked", "1/2").await;
    let location = path.rsplit('/').next().unwrap().to_string();
    call(
        &app,
        IBEXA,
        "POST",
        &format!("/bookmark/{location}"),
        "Bookmark+json",
    )
    .admin()
    .send()
    .await
    .assert(201);
    let r = call(&app, EZ, "GET", "/bookmark", "BookmarkList+json")
        .admin()
        .send()
        .await;
    r.assert(200);
    let b = &r.json()["BookmarkList"]["items"][0];
    assert_eq!(b["__href"], format!("/api/ezp/v2/bookmark/{location}"));
    assert_eq!(b["_media-type"], "application/vnd.ez.api.Bookmark+json");

    // An href of the other dialect is not one of this dialect's.
    let r = call(
        &app,
        IBEXA,
        "POST",
        &format!("/content/types/{type_id}/groups?group=/api/ezp/v2/content/typegroups/3"),
        "ContentTypeGroupRefList+json",
    )
    .admin()
    .send()
    .await;
    r.assert_error(400);
}

#[tokio::test]
async fn a_session_opened_in_one_dialect_is_valid_in_the_other() {
    let app = TestApp::new().await;
    let r = body(
        call(&app, EZ, "POST", "/user/sessions", "Session+json"),
        EZ,
        "SessionInput",
        json!({"login": "admin", "password": "publish"}),
    )
    .send()
    .await;
    r.assert(201);
    let cookie = r.header("set-cookie").unwrap();
    let cookie = cookie.split(';').next().unwrap().to_string();
    let session = r.json()["Session"].clone();
    assert!(
        session["_href"]
            .as_str()
            .unwrap()
            .starts_with("/api/ezp/v2/user/sessions/")
    );
    let token = session["csrfToken"].as_str().unwrap().to_string();
    let r = body(
        call(&app, IBEXA, "POST", "/content/sections", "Section+json")
            .header("cookie", &cookie)
            .header("x-csrf-token", &token),
        IBEXA,
        "SectionInput",
        json!({"identifier": "shared", "name": "Shared"}),
    )
    .send()
    .await;
    r.assert(201);
    assert_eq!(r.content_type(), "application/vnd.ibexa.api.Section+json");
    // The OpenAPI document and unknown routes of each dialect speak it.
    for (vendor, prefix) in [EZ, IBEXA] {
        let r = app
            .abs("GET", &format!("{prefix}/openapi.json"))
            .send()
            .await;
        r.assert(200);
        let doc = r.body.clone();
        assert!(doc.contains(&format!("application/vnd.{vendor}.api.Section+json")));
        assert!(doc.contains(&format!("\"url\": \"{prefix}\"")));
        let r = app
            .abs("GET", &format!("{prefix}/no/such/route"))
            .header(
                "accept",
                &format!("application/vnd.{vendor}.api.ErrorMessage+json"),
            )
            .send()
            .await;
        r.assert(404);
        assert_eq!(
            r.content_type(),
            format!("application/vnd.{vendor}.api.ErrorMessage+json")
        );
    }
}

/// The response cache keeps each dialect's answer apart: the same request in both dialects
/// (same `Accept`, same caller) gets its own hrefs and media type, cached or not.
#[tokio::test]
async fn a_cached_answer_of_one_dialect_never_answers_the_other() {
    let app = TestApp::new().await;
    for _ in 0..2 {
        for (vendor, prefix) in [IBEXA, EZ] {
            for accept in ["application/json", "application/xml"] {
                let r = app
                    .abs("GET", &format!("{prefix}/content/sections/1"))
                    .header("accept", accept)
                    .admin()
                    .send()
                    .await;
                r.assert(200);
                assert!(
                    r.content_type()
                        .starts_with(&format!("application/vnd.{vendor}.api.Section")),
                    "{prefix} {accept}: {}",
                    r.content_type()
                );
                assert!(
                    r.body.contains(&format!("{prefix}/content/sections/1")),
                    "{prefix} {accept}: {}",
                    r.body
                );
            }
        }
    }
    // The root of each dialect answers with and without its trailing slash.
    for (_, prefix) in [IBEXA, EZ] {
        for path in [prefix.to_string(), format!("{prefix}/")] {
            let r = app
                .abs("GET", &path)
                .header("accept", "application/json")
                .send()
                .await;
            r.assert(200);
            assert!(
                r.body.contains(&format!("{prefix}/content/objects")),
                "{path}"
            );
        }
    }
}
