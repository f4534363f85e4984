//! Sections (spec 4.6): list, identifier lookup, create, load, update, delete, every error.

use crate::content::published_folder;
use crate::support::*;
use serde_json::json;

#[tokio::test]
async fn lists_the_clean_install_sections_in_both_formats() {
    let app = TestApp::new().await;
    let r = app
        .get("/content/sections")
        .admin()
        .accept("SectionList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.content_type(),
        "application/vnd.ibexa.api.SectionList+json"
    );
    let j = r.json();
    assert_eq!(j["SectionList"]["_href"], "/api/ibexa/v2/content/sections");
    let ids: Vec<&str> = j["SectionList"]["Section"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["identifier"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["standard", "users", "media"]);
    assert_eq!(j["SectionList"]["Section"][2]["sectionId"], 3);
    assert_eq!(
        j["SectionList"]["Section"][0]["_media-type"],
        "application/vnd.ibexa.api.Section+json"
    );

    let r = app
        .get("/content/sections")
        .admin()
        .accept("SectionList+xml")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.content_type(),
        "application/vnd.ibexa.api.SectionList+xml"
    );
    let x = r.xml();
    assert_eq!(x.name, "SectionList");
    assert_eq!(attr(&x, "href"), "/api/ibexa/v2/content/sections");
    let sections: Vec<_> = x.children.iter().filter(|c| c.name == "Section").collect();
    assert_eq!(sections.len(), 3);
    assert_eq!(child_text(sections[1], "name"), "Users");
    assert_eq!(
        attr(sections[1], "href"),
        "/api/ibexa/v2/content/sections/2"
    );
}

#[tokio::test]
async fn identifier_query_returns_only_that_section_or_404() {
    let app = TestApp::new().await;
    for q in ["identifier", "identifer"] {
        let r = app
            .get(&format!("/content/sections?{q}=media"))
            .admin()
            .accept("SectionList+json")
            .send()
            .await;
        r.assert(200);
        let list = r.json()["SectionList"]["Section"].clone();
        assert_eq!(list.as_array().unwrap().len(), 1);
        assert_eq!(list[0]["name"], "Media");
    }
    let r = app
        .get("/content/sections?identifier=nope")
        .admin()
        .accept("SectionList+json")
        .send()
        .await;
    assert!(r.assert_error(404).contains("nope"));
}

#[tokio::test]
async fn creates_a_section_in_json_and_in_xml() {
    let app = TestApp::new().await;
    let r = app
        .req("POST", "/content/sections")
        .admin()
        .accept("Section+json")
        .json_body(
            "SectionInput",
            json!({"identifier": "news", "name": "News"}),
        )
        .send()
        .await;
    r.assert(201);
    assert_eq!(
        r.header("location").unwrap(),
        "/api/ibexa/v2/content/sections/4"
    );
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.SectionInput+json"
    );
    let j = r.json();
    assert_eq!(j["Section"]["sectionId"], 4);
    assert_eq!(j["Section"]["identifier"], "news");

    let r = app
        .req("POST", "/content/sections")
        .admin()
        .accept("Section+xml")
        .xml_body(
            "SectionInput",
            "<?xml version=\"1.0\"?><SectionInput><identifier>blog</identifier><name>Blog &amp; more</name></SectionInput>",
        )
        .send()
        .await;
    r.assert(201);
    let x = r.xml();
    assert_eq!(child_text(&x, "name"), "Blog & more");
    assert_eq!(child_text(&x, "sectionId"), "5");
    assert_eq!(
        r.header("location").unwrap(),
        "/api/ibexa/v2/content/sections/5"
    );

    let r = app
        .get("/content/sections/5")
        .admin()
        .accept("Section+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["Section"]["name"], "Blog & more");
}

#[tokio::test]
async fn create_refuses_duplicates_bad_input_anonymous_and_other_media_types() {
    let app = TestApp::new().await;
    let dup = app
        .req("POST", "/content/sections")
        .admin()
        .accept("Section+json")
        .json_body(
            "SectionInput",
            json!({"identifier": "media", "name": "Again"}),
        )
        .send()
        .await;
    assert!(dup.assert_error(403).contains("media"));

    let missing = app
        .req("POST", "/content/sections")
        .admin()
        .accept("Section+json")
        .json_body("SectionInput", json!({"identifier": "x"}))
        .send()
        .await;
    missing.assert_error(400);

    let malformed = app
        .req("POST", "/content/sections")
        .admin()
        .accept("Section+xml")
        .xml_body("SectionInput", "<SectionInput><identifier>x</identifier>")
        .send()
        .await;
    assert!(malformed.assert_error(400).contains("XML"));

    let bad_json = app
        .req("POST", "/content/sections")
        .admin()
        .accept("Section+json")
        .raw_body(
            "application/vnd.ibexa.api.SectionInput+json",
            "{\"SectionInput\": ",
        )
        .send()
        .await;
    assert!(bad_json.assert_error(400).contains("JSON"));

    let anonymous = app
        .req("POST", "/content/sections")
        .accept("Section+json")
        .json_body("SectionInput", json!({"identifier": "x", "name": "X"}))
        .send()
        .await;
    anonymous.assert_error(401);

    let wrong_type = app
        .req("POST", "/content/sections")
        .admin()
        .accept("Section+json")
        .json_body("ContentCreate", json!({"identifier": "x", "name": "X"}))
        .send()
        .await;
    wrong_type.assert_error(415);

    // Nothing was written by the refused requests.
    let list = app
        .get("/content/sections")
        .admin()
        .accept("SectionList+json")
        .send()
        .await;
    assert_eq!(
        list.json()["SectionList"]["Section"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
}

#[tokio::test]
async fn load_sends_an_etag_and_honours_if_none_match() {
    let app = TestApp::new().await;
    let r = app
        .get("/content/sections/1")
        .admin()
        .accept("Section+xml")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.SectionInput+xml"
    );
    let etag = r.header("etag").expect("ETag");
    let again = app
        .get("/content/sections/1")
        .admin()
        .accept("Section+json")
        .send()
        .await;
    assert_eq!(
        again.header("etag").unwrap(),
        etag,
        "the ETag does not depend on the format"
    );
    let cached = app
        .get("/content/sections/1")
        .admin()
        .header("if-none-match", &etag)
        .send()
        .await;
    cached.assert(304);
    assert!(cached.body.is_empty());
    let stale = app
        .get("/content/sections/1")
        .admin()
        .header("if-none-match", "\"stale\"")
        .send()
        .await;
    stale.assert(200);

    app.get("/content/sections/99")
        .admin()
        .accept("Section+json")
        .send()
        .await
        .assert_error(404);
    app.get("/content/sections/abc")
        .admin()
        .accept("Section+json")
        .send()
        .await
        .assert_error(404);
}

#[tokio::test]
async fn update_checks_if_match_and_identifier_uniqueness() {
    let app = TestApp::new().await;
    let etag = app
        .get("/content/sections/3")
        .admin()
        .send()
        .await
        .header("etag")
        .unwrap();

    let stale = app
        .req("PATCH", "/content/sections/3")
        .admin()
        .header("if-match", "\"not-it\"")
        .accept("Section+json")
        .json_body("SectionInput", json!({"name": "Stale"}))
        .send()
        .await;
    stale.assert_error(412);

    let r = app
        .req("PATCH", "/content/sections/3")
        .admin()
        .header("if-match", &etag)
        .accept("Section+json")
        .json_body("SectionInput", json!({"name": "Assets"}))
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["Section"]["name"], "Assets");
    assert_eq!(r.json()["Section"]["identifier"], "media");
    let new_etag = r.header("etag").unwrap();
    assert_ne!(new_etag, etag);

    // The old ETag no longer matches.
    let r = app
        .req("PATCH", "/content/sections/3")
        .admin()
        .header("if-match", &etag)
        .json_body("SectionInput", json!({"name": "Again"}))
        .send()
        .await;
    r.assert_error(412);

    // PATCH sent as POST with X-HTTP-Method-Override, in XML.
    let r = app
        .req("POST", "/content/sections/3")
        .admin()
        .header("x-http-method-override", "PATCH")
        .accept("Section+xml")
        .xml_body(
            "SectionInput",
            "<SectionInput><identifier>assets</identifier></SectionInput>",
        )
        .send()
        .await;
    r.assert(200);
    assert_eq!(child_text(&r.xml(), "identifier"), "assets");

    let dup = app
        .req("PATCH", "/content/sections/3")
        .admin()
        .accept("Section+json")
        .json_body("SectionInput", json!({"identifier": "users"}))
        .send()
        .await;
    dup.assert_error(403);

    let missing = app
        .req("PATCH", "/content/sections/42")
        .admin()
        .accept("Section+json")
        .json_body("SectionInput", json!({"name": "x"}))
        .send()
        .await;
    missing.assert_error(404);
}

#[tokio::test]
async fn delete_removes_the_section() {
    let app = TestApp::new().await;
    let created = app
        .req("POST", "/content/sections")
        .admin()
        .accept("Section+json")
        .json_body("SectionInput", json!({"identifier": "tmp", "name": "Tmp"}))
        .send()
        .await;
    created.assert(201);
    let id = created.json()["Section"]["sectionId"].as_i64().unwrap();
    let path = format!("/content/sections/{id}");

    app.req("DELETE", &path)
        .admin()
        .header("if-match", "\"nope\"")
        .send()
        .await
        .assert_error(412);
    app.req("DELETE", &path).send().await.assert_error(401);
    let r = app.req("DELETE", &path).admin().send().await;
    r.assert(204);
    assert!(r.body.is_empty());
    app.get(&path).admin().send().await.assert_error(404);
    app.req("DELETE", &path)
        .admin()
        .send()
        .await
        .assert_error(404);
}

/// A Section that content is assigned to, or that a Policy's Section limitation names, is not
/// deleted (409, as the reference's BadStateException), in both formats; freed, it is.
#[tokio::test]
async fn a_section_in_use_is_not_deleted() {
    let app = TestApp::new().await;
    // Standard: the clean install's content is in it.
    let x = (app.req("DELETE", "/content/sections/1").admin())
        .accept("ErrorMessage+xml")
        .send()
        .await;
    assert!(x.assert_error(409).contains("still has content assigned"));
    assert_eq!(x.xml().name, "ErrorMessage");
    app.get("/content/sections/1")
        .admin()
        .send()
        .await
        .assert(200);
    let created = (app.req("POST", "/content/sections").admin())
        .accept("Section+json")
        .json_body(
            "SectionInput",
            json!({"identifier": "used", "name": "Used"}),
        )
        .send()
        .await;
    created.assert(201);
    let id = created.json()["Section"]["sectionId"].as_i64().unwrap();
    let path = format!("/content/sections/{id}");
    let (item, _) = published_folder(&app, "In it", "1/2").await;
    app.set_section(item, id).await;
    let j = app
        .req("DELETE", &path)
        .admin()
        .accept("ErrorMessage+json")
        .send()
        .await;
    j.assert_error(409);
    assert_eq!(j.json()["ErrorMessage"]["errorCode"], 409);
    // The item leaves it; a Policy's Section limitation names it.
    app.set_section(item, 1).await;
    let user = crate::permissions::plain_user(&app, "sectioned").await;
    // Limitation values are ids, as the reference's `ref` elements carry them.
    let policy = json!(["content", "read", [["Section", [id.to_string()]]]]);
    crate::permissions::role_for(&app, user, "sectioned", &[policy], None).await;
    let r = app.req("DELETE", &path).admin().send().await;
    assert!(r.assert_error(409).contains("Policy limitations"));
    let roles = (app.get("/user/roles?identifier=sectioned").admin())
        .accept("RoleList+json")
        .send()
        .await;
    let role = roles.json()["RoleList"]["Role"][0]["_href"]
        .as_str()
        .unwrap()
        .to_string();
    app.abs("DELETE", &role).admin().send().await.assert(204);
    app.req("DELETE", &path).admin().send().await.assert(204);
}
