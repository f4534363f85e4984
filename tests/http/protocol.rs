//! The HTTP conventions every endpoint shares: negotiation, errors, methods, CORS, prefix.

use crate::support::*;

#[tokio::test]
async fn accept_picks_the_format_and_anything_else_gets_xml() {
    let app = TestApp::new().await;
    for accept in [
        None,
        Some("*/*"),
        Some("text/html"),
        Some("application/vnd.ibexa.api."),
        Some("application/xml"),
    ] {
        let mut r = app.get("/content/sections/1").admin();
        if let Some(a) = accept {
            r = r.header("accept", a);
        }
        let r = r.send().await;
        r.assert(200);
        assert_eq!(
            r.content_type(),
            "application/vnd.ibexa.api.Section+xml",
            "Accept {accept:?}"
        );
        assert!(r.body.starts_with("<?xml"));
    }
    for accept in [
        "application/json",
        "application/vnd.ibexa.api.Section+json",
        "application/vnd.ibexa.api.Anything+json",
    ] {
        let r = app
            .get("/content/sections/1")
            .admin()
            .header("accept", accept)
            .send()
            .await;
        assert_eq!(
            r.content_type(),
            "application/vnd.ibexa.api.Section+json",
            "Accept {accept}"
        );
        r.json();
    }
    // q values order the ranges.
    let r = app
        .get("/content/sections/1")
        .admin()
        .header("accept", "application/xml;q=0.4, application/json;q=0.9")
        .send()
        .await;
    assert!(r.content_type().ends_with("+json"));
}

#[tokio::test]
async fn errors_are_error_messages_in_the_negotiated_format() {
    let app = TestApp::new().await;
    let r = app
        .get("/no/such/thing")
        .accept("Section+json")
        .send()
        .await;
    assert_eq!(r.assert_error(404), "No such route");
    assert_eq!(r.json()["ErrorMessage"]["errorMessage"], "Not Found");
    let r = app.get("/no/such/thing").send().await;
    r.assert_error(404);
    // Outside the prefix too.
    let r = app.abs("GET", "/elsewhere").send().await;
    r.assert_error(404);
    // A number in the path that is not all digits is no route, whatever the method and
    // before the credentials are looked at.
    for (method, path) in [
        ("GET", "/content/sections/abc"),
        ("GET", "/content/sections/+1"),
        ("GET", "/content/sections/-1"),
        ("DELETE", "/content/objects/1x"),
        ("OPTIONS", "/user/users/14a"),
        ("GET", "/content/objects/4/versions/1.0"),
        ("GET", "/content/types/1/fieldDefinitions/x"),
    ] {
        let r = app
            .req(method, path)
            .basic("admin", "wrong")
            .accept("Section+json")
            .send()
            .await;
        assert_eq!(r.assert_error(404), "No such route", "{method} {path}");
    }
    // The literal siblings of a number still answer.
    let r = app.get("/content/types/view").admin().send().await;
    assert_eq!(r.status, 405, "GET of the content type view: it takes POST");
    let r = app.get("/user/groups/root").admin().send().await;
    assert_eq!(r.status, 301);
}

#[tokio::test]
async fn unsupported_methods_get_405_with_allow_and_options_lists_them() {
    let app = TestApp::new().await;
    let r = app
        .req("PUT", "/content/sections")
        .accept("Section+json")
        .send()
        .await;
    r.assert_error(405);
    assert_eq!(r.header("allow").unwrap(), "GET,POST");

    let r = app.req("OPTIONS", "/content/sections/1").send().await;
    r.assert(200);
    assert_eq!(r.header("allow").unwrap(), "GET,PATCH,DELETE");
    assert!(r.body.is_empty());

    let r = app.req("OPTIONS", "/content/locations/1/2").send().await;
    r.assert(200);
    let allow = r.header("allow").unwrap();
    for m in ["GET", "PATCH", "DELETE", "COPY", "MOVE", "SWAP"] {
        assert!(allow.contains(m), "{allow}");
    }
}

#[tokio::test]
async fn head_answers_like_get_without_a_body() {
    let app = TestApp::new().await;
    let r = app.req("HEAD", "/content/sections/1").admin().send().await;
    r.assert(200);
    assert!(r.header("etag").is_some());
    assert!(r.body.is_empty());
}

#[tokio::test]
async fn custom_methods_work_directly_and_as_post_override() {
    let app = TestApp::new().await;
    // A custom method works as itself and as POST with the override.
    let r = app
        .req("MOVE", "/user/groups/1/5/12")
        .admin()
        .header("destination", "/api/ibexa/v2/user/groups/1/5/13")
        .accept("UserGroup+json")
        .send()
        .await;
    r.assert(201);
    assert_eq!(
        r.header("location").unwrap(),
        "/api/ibexa/v2/user/groups/1/5/13/12"
    );
    let r = app
        .req("POST", "/user/groups/1/5/13/12")
        .admin()
        .header("x-http-method-override", "MOVE")
        .header("destination", "/api/ibexa/v2/user/groups/1/5")
        .send()
        .await;
    r.assert(201);
    assert_eq!(
        r.header("location").unwrap(),
        "/api/ibexa/v2/user/groups/1/5/12"
    );
    // The override's method name is case-insensitive: PUBLISH of a Role without a draft.
    let r = app
        .req("POST", "/user/roles/1/draft")
        .admin()
        .header("x-http-method-override", "publish")
        .send()
        .await;
    assert!(
        r.assert_error(404).contains("RoleDraft"),
        "publishRoleDraft answers"
    );
    // An implemented custom method through the override: PUBLISH of a missing draft.
    let r = app
        .req("POST", "/content/types/1/draft")
        .admin()
        .header("x-http-method-override", "PUBLISH")
        .send()
        .await;
    r.assert_error(404);
    // The override acts on POST only.
    let r = app
        .get("/content/sections/1")
        .admin()
        .header("x-http-method-override", "DELETE")
        .send()
        .await;
    r.assert(200);
}

#[tokio::test]
async fn cors_preflight_and_responses_follow_the_configured_origins() {
    let app = TestApp::with_args(&["--cors-origin", "https://editor.example"]).await;
    let r = app
        .req("OPTIONS", "/content/sections/1")
        .header("origin", "https://editor.example")
        .header("access-control-request-method", "PATCH")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.header("access-control-allow-origin").unwrap(),
        "https://editor.example"
    );
    assert_eq!(
        r.header("access-control-allow-methods").unwrap(),
        "GET,PATCH,DELETE"
    );
    assert_eq!(
        r.header("access-control-allow-credentials").unwrap(),
        "true"
    );

    let r = app
        .get("/content/sections/1")
        .admin()
        .header("origin", "https://editor.example")
        .send()
        .await;
    assert_eq!(
        r.header("access-control-allow-origin").unwrap(),
        "https://editor.example"
    );
    assert!(
        r.header("access-control-expose-headers")
            .unwrap()
            .contains("ETag")
    );

    let r = app
        .req("OPTIONS", "/content/sections/1")
        .header("origin", "https://evil.example")
        .header("access-control-request-method", "PATCH")
        .send()
        .await;
    assert!(r.header("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn vendor_prefix_and_sub_folder_are_configuration() {
    let app = TestApp::with_args(&[
        "--vendor",
        "ez",
        "--prefix",
        "/api/ezp/v2",
        "--sub-folder",
        "/cms",
    ])
    .await;
    let r = app
        .abs("GET", "/cms/api/ezp/v2/content/sections/1")
        .admin()
        .header("accept", "application/vnd.ez.api.Section+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.content_type(), "application/vnd.ez.api.Section+json");
    let j = r.json();
    assert_eq!(j["Section"]["_href"], "/cms/api/ezp/v2/content/sections/1");
    assert_eq!(
        j["Section"]["_media-type"],
        "application/vnd.ez.api.Section+json"
    );
    app.get("/content/sections/1")
        .admin()
        .send()
        .await
        .assert_error(404);
    // GraphQL in the sub-folder too.
    let r = (app.abs("POST", "/cms/graphql").admin())
        .raw_body(
            "application/graphql",
            "{ _repository { location(locationId: 2) { id } } }",
        )
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["data"]["_repository"]["location"]["id"], 2);
    let doc = app.abs("GET", "/cms/api/ezp/v2/openapi.json").send().await;
    doc.assert(200);
    let doc = doc.json();
    assert_eq!(doc["servers"][0]["url"], "/cms/api/ezp/v2");
    assert!(
        doc.to_string()
            .contains("application/vnd.ez.api.Section+json")
    );
    // The examples speak the dialect too: its media types and prefix, nothing of the other.
    let text = doc.to_string();
    assert!(!text.contains("/api/ibexa/v2") && !text.contains("vnd.ibexa."));
    let section = &doc["components"]["examples"]["Section.json"]["value"]["Section"];
    assert_eq!(
        section["_media-type"],
        "application/vnd.ez.api.Section+json"
    );
    assert!(
        section["_href"]
            .as_str()
            .unwrap()
            .starts_with("/cms/api/ezp/v2/content/sections/")
    );
    let xml = doc["components"]["examples"]["Section.xml"]["value"]
        .as_str()
        .unwrap();
    assert!(xml.contains(
        "media-type=\"application/vnd.ez.api.Section+xml\" href=\"/cms/api/ezp/v2/content/sections/"
    ));
}

#[tokio::test]
async fn the_openapi_document_is_served_and_describes_every_operation() {
    let app = TestApp::new().await;
    let r = app.get("/openapi.json").send().await;
    r.assert(200);
    assert_eq!(r.content_type(), "application/json");
    let doc = r.json();
    assert_eq!(doc["openapi"], "3.1.0");
    assert!(doc["paths"]["/content/sections/{sectionId}"]["patch"].is_object());
    let copy = &doc["paths"]["/content/objects/{contentId}"]["x-oai-additionalOperations"]["COPY"];
    assert_eq!(copy["operationId"], "copyContent");
    let ops: usize = cairn::api::routes::OPERATIONS.len();
    let mut seen = 0;
    for item in doc["paths"].as_object().unwrap().values() {
        for (k, op) in item.as_object().unwrap() {
            if ["get", "post", "put", "patch", "delete", "head"].contains(&k.as_str())
                && !op["operationId"]
                    .as_str()
                    .unwrap_or("")
                    .starts_with("methodOverride")
            {
                seen += 1;
            }
            if k == "x-oai-additionalOperations" {
                seen += op.as_object().unwrap().len();
            }
        }
    }
    // Paths whose custom method is also their POST count it twice.
    assert!(
        seen >= ops,
        "{seen} operations described, {ops} in the route table"
    );
}

#[tokio::test]
async fn bodies_larger_than_the_limit_are_refused() {
    let app = TestApp::with_args(&["--max-body-mib", "1"]).await;
    let big = format!(
        "{{\"SectionInput\": {{\"identifier\": \"big\", \"name\": \"{}\"}}}}",
        "x".repeat(2 * 1024 * 1024)
    );
    let r = app
        .req("POST", "/content/sections")
        .admin()
        .raw_body("application/vnd.ibexa.api.SectionInput+json", &big)
        .send()
        .await;
    r.assert_error(413);
}

/// A read in XML of each response type the reference's schemas check in CI (`.ci/xml-schemas`),
/// so that every one of them is validated whatever the other tests ask for.
#[tokio::test]
async fn every_type_the_schemas_check_is_read_in_xml() {
    let app = TestApp::new().await;
    for (path, ty) in [
        ("/content/sections/1", "Section"),
        ("/content/types/1", "ContentType"),
        ("/content/types/1/groups", "ContentTypeGroupRefList"),
        ("/content/types/1/fieldDefinitions/4", "FieldDefinition"),
        ("/content/objectstategroups", "ObjectStateGroupList"),
        ("/content/objectstategroups/2", "ObjectStateGroup"),
        (
            "/content/objectstategroups/2/objectstates",
            "ObjectStateList",
        ),
        ("/content/objectstategroups/2/objectstates/1", "ObjectState"),
        ("/user/roles/1", "Role"),
        ("/content/locations/1/2/children", "LocationList"),
    ] {
        let r = app
            .get(path)
            .admin()
            .accept(&format!("{ty}+xml"))
            .send()
            .await;
        r.assert(200);
        assert_eq!(r.xml().name, ty, "{path}");
    }
}
