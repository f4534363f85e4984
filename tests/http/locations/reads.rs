//! Reading Locations: lookups that redirect to the Location (remote ids ignore case) and
//! children sorted by every sort field, with offset and limit.

use super::*;

#[tokio::test]
async fn lookups_redirect_to_the_location() {
    let app = TestApp::new().await;
    // By id, remote id and path: a redirect to the Location.
    for (query, path) in [
        ("id=43", "1/43"),
        ("remoteId=769380b7aa94541679167eab817ca893", "1/5/13"),
        ("locationPath=1/5/13/15", "1/5/13/15"),
    ] {
        let r = app
            .get(&format!("/content/locations?{query}"))
            .admin()
            .send()
            .await;
        r.assert(307);
        assert_eq!(
            r.header("location").unwrap(),
            format!("{PREFIX}/content/locations/{path}"),
            "{query}"
        );
    }
    expect_all(vec![
        (app.get("/content/locations"), 400),
        (app.get("/content/locations?id=999"), 404),
        (app.get("/content/locations?remoteId=nope"), 404),
        (app.get("/content/locations?id=abc"), 400),
    ])
    .await;
    let r = app.get("/content/locations/1/2").send().await;
    r.assert(200);
    assert!(r.header("etag").is_some());
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.LocationUpdate+xml"
    );
}

/// Remote id lookups ignore case, as the reference's (issue 11).
#[tokio::test]
async fn remote_id_lookups_ignore_case() {
    let app = TestApp::new().await;
    let r = app
        .get("/content/locations?remoteId=F3E90596361E31D496D4026EB624C983")
        .send()
        .await;
    r.assert(307);
    assert!(
        r.header("location")
            .unwrap()
            .ends_with("/content/locations/1/2")
    );
    let r = app
        .get("/content/objects?remoteId=9459D3C29E15006E45197295722C7ADE")
        .send()
        .await;
    r.assert(307);
    assert!(
        r.header("location")
            .unwrap()
            .ends_with("/content/objects/1")
    );
}

#[tokio::test]
async fn children_sort_by_every_sort_field_with_offset_and_limit() {
    let app = TestApp::new().await;
    let (_, parent) = published_folder(&app, "Parent", "1/2").await;
    let mut ids = Vec::new();
    for (name, priority) in [("Charlie", 2), ("alpha", 3), ("Bravo", 1)] {
        let (_, p) = published_folder(&app, name, &parent).await;
        app.req("PATCH", &format!("/content/locations/{p}"))
            .admin()
            .json_body("LocationUpdate", json!({"priority": priority}))
            .send()
            .await
            .assert(200);
        ids.push(last_id(&p));
    }
    let (c, a, b) = (ids[0], ids[1], ids[2]);
    let children = |q: &'static str| {
        let path = format!("/content/locations/{parent}/children{q}");
        let app = &app;
        async move {
            children_ids(
                &app.get(&path)
                    .accept("LocationList+json")
                    .send()
                    .await
                    .json(),
            )
        }
    };
    let sort = async |field: &str, order: &str| sort_children(&app, &parent, field, order).await;
    for (field, asc) in [
        ("PATH", vec![c, a, b]),
        ("NODE_ID", vec![c, a, b]),
        ("CONTENTOBJECT_ID", vec![c, a, b]),
        ("PUBLISHED", vec![c, a, b]),
        ("MODIFIED", vec![c, a, b]),
        ("PRIORITY", vec![b, c, a]),
        ("NAME", vec![a, b, c]),
        ("DEPTH", vec![c, a, b]),
        ("SECTION", vec![c, a, b]),
        ("CLASS_IDENTIFIER", vec![c, a, b]),
        ("CLASS_NAME", vec![c, a, b]),
    ] {
        sort(field, "ASC").await;
        assert_eq!(children("").await, asc, "{field} ASC");
        sort(field, "DESC").await;
        let mut desc = asc.clone();
        desc.reverse();
        if ![
            "DEPTH",
            "SECTION",
            "CLASS_IDENTIFIER",
            "CLASS_NAME",
            "PUBLISHED",
            "MODIFIED",
        ]
        .contains(&field)
        {
            assert_eq!(children("").await, desc, "{field} DESC");
        }
    }
    sort("NAME", "ASC").await;
    assert_eq!(children("?offset=1&limit=1").await, vec![b]);
    assert_eq!(children("?offset=2").await, vec![c]);
    assert_eq!(children("?limit=0").await, Vec::<i64>::new());
    assert_eq!(location(&app, &parent).await["childCount"], 3);
    app.get("/content/locations/1/2/999/children")
        .send()
        .await
        .assert_error(404);
    // XML.
    let r = app
        .get(&format!("/content/locations/{parent}/children?limit=2"))
        .send()
        .await;
    let x = r.xml();
    assert_eq!(x.name, "LocationList");
    assert_eq!(x.children.len(), 2);
}
