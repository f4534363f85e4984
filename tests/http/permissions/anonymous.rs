//! What a guest account and the anonymous user may not do: no take-over or destruction, reads
//! of the Standard Section only, and children lists that follow their content's Section.

use super::*;
use crate::content::published_folder;

#[tokio::test]
async fn a_guest_account_cannot_take_over_or_destroy_anything() {
    let app = TestApp::new().await;
    let member = user_in(&app, "1/5/12", "member").await;
    fn m(r: Req<'_>) -> Req<'_> {
        as_user(r, "member")
    }

    // The admin account: password, enabled, email.
    for change in [
        json!({"password": "Taken-over-1"}),
        json!({"enabled": false}),
        json!({"email": "mine@example.com"}),
    ] {
        let r = m(app.req("PATCH", "/user/users/14"))
            .json_body("UserUpdate", change)
            .send()
            .await;
        let why = r.assert_error(401);
        assert!(why.contains("'edit' 'content'"), "{why}");
    }
    // Deleting every account, or the whole tree.
    for (method, path) in [
        ("DELETE", "/content/objects/14"),
        ("DELETE", "/content/locations/1/5"),
        ("DELETE", "/content/locations/1/2"),
        ("DELETE", "/user/users/14"),
        ("DELETE", "/user/groups/1/5/13"),
    ] {
        m(app.req(method, path)).send().await.assert_error(401);
    }
    // Sections, Roles, the Administrator Role for itself, another group.
    m(app.req("POST", "/content/sections"))
        .json_body(
            "SectionInput",
            json!({"identifier": "mine", "name": "Mine"}),
        )
        .send()
        .await
        .assert_error(401);
    m(app.req("POST", "/user/roles"))
        .json_body("RoleInput", json!({"identifier": "Mine"}))
        .send()
        .await
        .assert_error(401);
    m(app.req("POST", &format!("/user/users/{member}/roles")))
        .json_body(
            "RoleAssignInput",
            json!({"Role": {"_href": format!("{PREFIX}/user/roles/2")}}),
        )
        .send()
        .await
        .assert_error(401);
    m(app.req(
        "POST",
        &format!("/user/users/{member}/groups?group={PREFIX}/user/groups/1/5/13"),
    ))
    .send()
    .await
    .assert_error(401);

    // Nothing changed: admin logs in with its password, the tree and the accounts are there.
    app.get("/user/current").admin().send().await.assert(307);
    for path in [
        "/content/locations/1/2",
        "/content/locations/1/5",
        "/user/users/14",
    ] {
        app.get(path).admin().send().await.assert(200);
    }
    let policies = app
        .get(&format!("/user/users/{member}/roles"))
        .admin()
        .accept("RoleAssignmentList+json")
        .send()
        .await
        .json();
    assert_eq!(
        policies["RoleAssignmentList"]["RoleAssignment"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    let sections = app
        .get("/content/sections")
        .admin()
        .accept("SectionList+json")
        .send()
        .await
        .json();
    assert_eq!(
        sections["SectionList"]["Section"].as_array().unwrap().len(),
        3
    );
    // The member reads what the Anonymous Role allows: the standard Section.
    m(app.get("/content/locations/1/2"))
        .send()
        .await
        .assert(200);
    m(app.get("/content/objects/41"))
        .send()
        .await
        .assert_error(401);

    // Admin still can do all of it; its own account and the last administrator stay.
    app.req("DELETE", "/content/objects/14")
        .admin()
        .send()
        .await
        .assert_error(403);
    app.req("DELETE", "/content/locations/1/5")
        .admin()
        .send()
        .await
        .assert_error(403);
    app.req("PATCH", &format!("/user/users/{member}"))
        .admin()
        .json_body("UserUpdate", json!({"email": "member2@example.com"}))
        .send()
        .await
        .assert(200);
    app.req("DELETE", "/content/locations/1/2")
        .admin()
        .send()
        .await
        .assert(204);
}

#[tokio::test]
async fn the_anonymous_user_reads_the_standard_section_only() {
    let app = TestApp::new().await;
    for (path, want) in [
        ("/content/objects/1", 200),
        ("/content/locations/1/2", 200),
        ("/user/users/14", 401),
        ("/user/users/14/drafts", 401),
        ("/user/groups/1/5", 401),
        ("/content/objects/14", 401),
        ("/content/objects/41", 401),
        ("/content/sections/1", 401),
        ("/user/roles/1", 401),
        ("/content/types/1", 200),
        ("/content/objectstategroups", 200),
    ] {
        assert_eq!(status(app.get(path)).await, want, "{path}");
    }
    // Lists and search show what may be read, with consistent counts.
    let (count, hits) = search(
        &app,
        None,
        json!({"ContentTypeIdentifierCriterion": "user"}),
    )
    .await;
    assert_eq!((count, hits.len()), (0, 0));
    let (count, hits) = search(
        &app,
        None,
        json!({"ContentTypeIdentifierCriterion": "folder"}),
    )
    .await;
    assert_eq!(hits, vec![1]);
    assert_eq!(count, 1);
    let r = app
        .get("/content/sections")
        .accept("SectionList+json")
        .send()
        .await;
    r.assert(200);
    assert!(
        r.json()["SectionList"]["Section"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // The errors say what is missing, in both formats.
    let x = app.get("/user/users/14").accept("User+xml").send().await;
    assert!(x.assert_error(401).contains("'read' 'content'"));
    assert_eq!(x.xml().name, "ErrorMessage");
    let j = app.get("/user/users/14").accept("User+json").send().await;
    assert_eq!(j.json()["ErrorMessage"]["errorCode"], 401);
}

/// The anonymous user's page of children shows the items of the standard Section as their
/// content rows say now: after a Section change, a swap, a copy, and a trash and restore (the
/// Locations carry their content's Section, which the page reads).
#[tokio::test]
async fn the_anonymous_users_children_follow_their_contents_section() {
    let app = TestApp::new().await;
    let (_, parent) = published_folder(&app, "Parent", "1/2").await;
    let (a, a_at) = published_folder(&app, "A", &parent).await;
    let (_, b_at) = published_folder(&app, "B", &parent).await;
    let (_, media) = published_folder(&app, "In media", "1/43").await;
    let anonymous = async |path: &str| -> Vec<i64> {
        let r = (app.get(&format!("/content/locations/{path}/children")))
            .accept("LocationList+json")
            .send()
            .await;
        r.assert(200);
        (r.json()["LocationList"]["Location"]
            .as_array()
            .unwrap()
            .iter())
        .map(|l| last_id(l["_href"].as_str().unwrap()))
        .collect()
    };
    let (a_id, b_id) = (last_id(&a_at), last_id(&b_at));
    assert_eq!(anonymous(&parent).await, [a_id, b_id]);
    app.set_section(a, 3).await;
    assert_eq!(anonymous(&parent).await, [b_id]);
    // B now holds A's item (media), A holds B's.
    app.swap(&a_at, &b_at).send().await.assert(204);
    assert_eq!(anonymous(&parent).await, [a_id]);
    // A copy of the media item under the parent is in the media Section too.
    let media_item = last_id(&media);
    let media_content = app
        .query(
            "SELECT content_id FROM locations WHERE id = ?",
            vec![media_item.into()],
        )
        .await[0]["content_id"]
        .as_i64()
        .unwrap();
    app.req("COPY", &format!("/content/objects/{media_content}"))
        .admin()
        .header(
            "destination",
            &format!("{PREFIX}/content/locations/{parent}"),
        )
        .send()
        .await
        .assert(201);
    assert_eq!(anonymous(&parent).await, [a_id]);
    // Trashed, put in the standard Section meanwhile, restored: shown.
    let r = app
        .req("MOVE", &format!("/content/locations/{b_at}"))
        .admin()
        .header("destination", &format!("{PREFIX}/content/trash"))
        .send()
        .await;
    r.assert(201);
    let item = r.header("location").unwrap();
    assert_eq!(anonymous(&parent).await, [a_id]);
    app.set_section(a, 1).await;
    app.abs("MOVE", &item).admin().send().await.assert(201);
    assert_eq!(anonymous(&parent).await, [a_id, b_id]);
    crate::locations::assert_tree_consistent(&app).await;
}
