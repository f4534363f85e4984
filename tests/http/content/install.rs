//! The clean install's content items and Locations with the reference's ids, and what an
//! importer pays per item in statements (pinned).

use super::*;

#[tokio::test]
async fn clean_install_content_and_locations_have_the_reference_ids() {
    let app = TestApp::new().await;
    let r = app
        .get("/content/objects/1")
        .accept("ContentInfo+json")
        .send()
        .await;
    r.assert(200);
    let c = r.json()["Content"].clone();
    assert_eq!(c["Name"], "Ibexa Platform");
    assert_eq!(c["_remoteId"], "9459d3c29e15006e45197295722c7ade");
    assert_eq!(c["currentVersionNo"], 9);
    assert_eq!(
        c["MainLocation"]["_href"],
        "/api/ibexa/v2/content/locations/1/2"
    );
    assert_eq!(c["status"], "PUBLISHED");
    assert_eq!(c["Owner"]["_href"], "/api/ibexa/v2/user/users/14");

    for (content, path, name) in [
        (4, "1/5", "Users"),
        (14, "1/5/13/15", "Administrator User"),
        (10, "1/5/44/45", "Anonymous User"),
        (41, "1/43", "Media"),
        (51, "1/43/53", "Multimedia"),
    ] {
        let r = app
            .get(&format!("/content/locations/{path}"))
            .admin()
            .accept("Location+json")
            .send()
            .await;
        r.assert(200);
        let l = r.json()["Location"].clone();
        assert_eq!(l["ContentInfo"]["Content"]["_id"], content, "{path}");
        assert_eq!(l["ContentInfo"]["Content"]["Name"], name);
        assert_eq!(l["pathString"], format!("/{path}/"));
    }
    let admin = app
        .get("/content/objects/14")
        .admin()
        .accept("Content+json")
        .send()
        .await
        .json();
    let fields = admin["Content"]["CurrentVersion"]["Version"]["Fields"]["field"]
        .as_array()
        .unwrap()
        .clone();
    let ids: Vec<i64> = fields.iter().map(|f| f["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, [28, 29, 30, 178, 180]);
    assert_eq!(fields[2]["fieldValue"]["login"], "admin");
    assert!(fields[2]["fieldValue"].get("passwordHash").is_none());
    assert_eq!(
        admin["Content"]["CurrentVersion"]["Version"]["VersionInfo"]["id"],
        499
    );

    // The root Location: its ParentLocation has no href.
    let root = app.get("/content/locations/1").send().await;
    root.assert(200);
    let x = root.xml();
    let parent = x
        .children
        .iter()
        .find(|c| c.name == "ParentLocation")
        .unwrap();
    assert!(parent.attrs.iter().all(|(k, _)| k != "href"));
    let r = app
        .get("/content/locations/1/2/children")
        .accept("LocationList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["LocationList"]["Location"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    let r = app
        .get("/content/locations/1/5/children")
        .admin()
        .accept("LocationList+json")
        .send()
        .await;
    let children: Vec<String> = r.json()["LocationList"]["Location"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            l["_href"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(children, ["12", "13", "14", "44"]);
    // A path names its last id, as in the reference (an href kept from before a move).
    let r = app
        .get("/content/locations/1/43/15")
        .admin()
        .accept("Location+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["Location"]["pathString"], "/1/5/13/15/");
    app.get("/content/locations/1/2/999")
        .send()
        .await
        .assert_error(404);
}

/// What an importer pays per item, pinned (issue 14): the statements of a folder's create and
/// its first publication, with warm caches, apart and in one request, each with its event in the outbox (PostgreSQL
/// takes advisory locks besides).
#[tokio::test]
async fn create_and_publish_take_a_pinned_number_of_statements() {
    let app = TestApp::new().await;
    let warm = create_folder(&app, "Warm", "1/2").await;
    publish(&app, warm, 1).await;
    let before = app.statements();
    let id = create_folder(&app, "Counted", "1/2").await;
    let create = app.statements() - before;
    let before = app.statements();
    publish(&app, id, 1).await;
    let published = app.statements() - before;
    let pinned = match backend() {
        "postgres" => (9, 12),
        _ => (9, 13),
    };
    assert_eq!(
        (create, published),
        pinned,
        "statements of create and publish"
    );
    // Both in one request (`publish=true`): one transaction, neither the draft nor the
    // published item read back.
    let before = app.statements();
    let r = app
        .req("POST", "/content/objects?publish=true")
        .admin()
        .accept("ContentInfo+json")
        .json_body("ContentCreate", folder_create("At once", "1/2"))
        .send()
        .await;
    r.assert(201);
    let at_once = app.statements() - before;
    let pinned = match backend() {
        "postgres" => 19,
        _ => 20,
    };
    assert_eq!(at_once, pinned, "statements of create with publish=true");
}
