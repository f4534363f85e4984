//! Content type groups (lookups, updates, deletion rules) and the groups of a type (link and
//! unlink).

use super::*;

#[tokio::test]
async fn group_lookups_updates_and_deletion_rules() {
    let app = TestApp::new().await;
    let r = app.get("/content/typegroups?identifier=Media").send().await;
    r.assert(307);
    assert_eq!(
        r.header("location").unwrap(),
        "/api/ibexa/v2/content/typegroups/3"
    );
    app.get("/content/typegroups?identifier=None")
        .send()
        .await
        .assert_error(404);
    let input = |method: &str, path: &str, body: Value| {
        (app.req(method, path).admin()).json_body("ContentTypeGroupInput", body)
    };

    let r = app
        .get("/content/typegroups/2")
        .accept("ContentTypeGroup+json")
        .send()
        .await;
    r.assert(200);
    let g = r.json()["ContentTypeGroup"].clone();
    assert_eq!(g["identifier"], "Users");
    assert_eq!(
        g["ContentTypes"]["_href"],
        "/api/ibexa/v2/content/typegroups/2/types"
    );
    assert_eq!(g["Creator"]["_href"], "/api/ibexa/v2/user/users/14");
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.ContentTypeGroupInput+json"
    );
    let etag = r.header("etag").unwrap();

    // The group's types, as infos or full types.
    let r = app
        .get("/content/typegroups/2/types")
        .accept("ContentTypeInfoList+json")
        .send()
        .await;
    assert_eq!(type_ids(&r.json(), "ContentTypeInfoList"), [3, 4]);
    let r = app
        .get("/content/typegroups/2/types")
        .accept("ContentTypeList+json")
        .send()
        .await;
    assert!(r.json()["ContentTypeList"]["ContentType"][0]["FieldDefinitions"].is_object());

    // Duplicate identifiers are 403, on create and update; a missing identifier is 400.
    let stale = input(
        "PATCH",
        "/content/typegroups/2",
        json!({"identifier": "People"}),
    );
    expect_all(vec![
        (
            input(
                "POST",
                "/content/typegroups",
                json!({"identifier": "Users"}),
            ),
            403,
        ),
        (input("POST", "/content/typegroups", json!({})), 400),
        (
            input(
                "PATCH",
                "/content/typegroups/2",
                json!({"identifier": "Media"}),
            ),
            403,
        ),
        (stale.header("if-match", "\"stale\""), 412),
    ])
    .await;
    let r = app
        .req("PATCH", "/content/typegroups/2")
        .admin()
        .header("if-match", &etag)
        .accept("ContentTypeGroup+xml")
        .xml_body(
            "ContentTypeGroupInput",
            "<ContentTypeGroupInput><identifier>People</identifier></ContentTypeGroupInput>",
        )
        .send()
        .await;
    r.assert(200);
    assert_eq!(child_text(&r.xml(), "identifier"), "People");
    let empty = create_group(&app, "empty").await;
    let empty = format!("/content/typegroups/{empty}");
    expect_all(vec![
        (
            input(
                "PATCH",
                "/content/typegroups/99",
                json!({"identifier": "X"}),
            ),
            404,
        ),
        // A group that holds types cannot go; an empty one can.
        (app.req("DELETE", "/content/typegroups/3").admin(), 403),
        (app.req("DELETE", &empty).admin(), 204),
        (app.get(&empty), 404),
        (app.req("DELETE", &empty).admin(), 404),
    ])
    .await;
}

#[tokio::test]
async fn groups_of_a_type_link_and_unlink() {
    let app = TestApp::new().await;
    let r = app
        .get("/content/types/5/groups")
        .accept("ContentTypeGroupRefList+json")
        .send()
        .await;
    r.assert(200);
    let refs = r.json()["ContentTypeGroupRefList"]["ContentTypeGroupRef"].clone();
    assert_eq!(refs.as_array().unwrap().len(), 1);
    assert_eq!(refs[0]["_href"], "/api/ibexa/v2/content/typegroups/3");
    assert!(refs[0].get("unlink").is_none());

    // The only group cannot be unlinked.
    app.req("DELETE", "/content/types/5/groups/3")
        .admin()
        .send()
        .await
        .assert_error(403);
    let r = app
        .req(
            "POST",
            "/content/types/5/groups?group=/api/ibexa/v2/content/typegroups/1",
        )
        .admin()
        .accept("ContentTypeGroupRefList+json")
        .send()
        .await;
    r.assert(200);
    let refs = r.json()["ContentTypeGroupRefList"]["ContentTypeGroupRef"].clone();
    assert_eq!(refs.as_array().unwrap().len(), 2);
    assert_eq!(refs[0]["unlink"]["_method"], "DELETE");
    assert_eq!(
        refs[0]["unlink"]["_href"],
        "/api/ibexa/v2/content/types/5/groups/1"
    );
    // Linked already: 403; unknown group: 404; bad href: 400.
    let link = |query: &str| {
        app.req("POST", &format!("/content/types/5/groups{query}"))
            .admin()
    };
    expect_all(vec![
        (link("?group=/api/ibexa/v2/content/typegroups/1"), 403),
        (link("?group=/api/ibexa/v2/content/typegroups/9"), 404),
        (link("?group=/elsewhere"), 400),
        (link(""), 400),
    ])
    .await;
    let r = app
        .req("DELETE", "/content/types/5/groups/3")
        .admin()
        .accept("ContentTypeGroupRefList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["ContentTypeGroupRefList"]["ContentTypeGroupRef"][0]["_href"],
        "/api/ibexa/v2/content/typegroups/1"
    );
    app.req("DELETE", "/content/types/5/groups/3")
        .admin()
        .send()
        .await
        .assert_error(404);
    let r = app
        .get("/content/typegroups/1/types")
        .accept("ContentTypeInfoList+json")
        .send()
        .await;
    assert_eq!(type_ids(&r.json(), "ContentTypeInfoList"), [1, 2, 5]);
}
