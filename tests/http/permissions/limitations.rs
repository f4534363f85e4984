//! Custom Roles with each limitation: the Editor's subtrees, Class, Section, Owner, Node and
//! Subtree on content, assignment limitations, limitations on the parent of a create, on
//! assigning Sections, states and Roles, and on the content's state.

use super::*;
use crate::content::{publish, published_folder};

#[tokio::test]
async fn the_editor_role_works_in_its_subtrees_only() {
    let app = TestApp::new().await;
    user_in(&app, "1/5/14", "ed").await;
    fn ed(r: Req<'_>) -> Req<'_> {
        as_user(r, "ed")
    }
    // Create and publish under /1/2 (Editor: content/* with Subtree /1/2/ and /1/43/).
    let r = ed(app.req("POST", "/content/objects"))
        .json_body(
            "ContentCreate",
            json!({"ContentType": {"_href": "/api/ibexa/v2/content/types/1"}, "mainLanguageCode": "eng-GB",
                "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
                "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "By ed"}]}}),
        )
        .accept("ContentInfo+json")
        .send()
        .await;
    r.assert(201);
    let id = r.json()["Content"]["_id"].as_i64().unwrap();
    ed(app.req("PUBLISH", &format!("/content/objects/{id}/versions/1")))
        .send()
        .await
        .assert(204);
    ed(app.get(&format!("/content/objects/{id}")))
        .send()
        .await
        .assert(200);
    // Not under the users' root, not on users.
    let r = ed(app.req("POST", "/content/objects"))
        .json_body(
            "ContentCreate",
            json!({"ContentType": {"_href": "/api/ibexa/v2/content/types/1"}, "mainLanguageCode": "eng-GB",
                "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/5"}},
                "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "No"}]}}),
        )
        .send()
        .await;
    assert!(r.assert_error(401).contains("'create' 'content'"));
    ed(app.req("DELETE", "/content/locations/1/5/12"))
        .send()
        .await
        .assert_error(401);
    ed(app.get("/user/users/14")).send().await.assert_error(401);
    // The Member Role lets a user read itself.
    let me = ed(app.get("/user/current")).send().await;
    me.assert(307);
    ed(app.abs("GET", &me.header("location").unwrap()))
        .send()
        .await
        .assert(200);
    // Trash and restore inside the subtree; sections and roles are not the editor's.
    let (_, path) = published_folder(&app, "Trashable", "1/2").await;
    ed(app.req("MOVE", &format!("/content/locations/{path}")))
        .header("destination", "/api/ibexa/v2/content/trash")
        .send()
        .await
        .assert(201);
    ed(app.get("/content/sections")).send().await.assert(200);
    ed(app.req("POST", "/content/sections"))
        .json_body("SectionInput", json!({"identifier": "e", "name": "E"}))
        .send()
        .await
        .assert_error(401);
}

#[tokio::test]
async fn content_limitations_class_section_owner_node_and_subtree() {
    let app = TestApp::new().await;
    let (folder, folder_path) = published_folder(&app, "A folder", "1/2").await;
    // A user group placed in the content tree: another class in the same Section.
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .json_body(
            "ContentCreate",
            json!({"ContentType": {"_href": "/api/ibexa/v2/content/types/3"}, "mainLanguageCode": "eng-GB",
                "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
                "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "A group"}]}}),
        )
        .accept("ContentInfo+json")
        .send()
        .await;
    r.assert(201);
    let group = r.json()["Content"]["_id"].as_i64().unwrap();
    publish(&app, group, 1).await;

    let cases: Vec<Case> = vec![
        (
            "class",
            json!(["content", "read", [["Class", ["1"]]]]),
            vec![
                (format!("/content/objects/{folder}"), 200),
                (format!("/content/objects/{group}"), 401),
                ("/content/objects/41".into(), 200),
            ],
        ),
        (
            "section",
            json!(["content", "read", [["Section", ["3"]]]]),
            vec![
                ("/content/objects/41".into(), 200),
                (format!("/content/objects/{folder}"), 401),
                ("/content/locations/1/43/51".into(), 200),
            ],
        ),
        (
            "node",
            json!(["content", "read", [["Node", ["43"]]]]),
            vec![
                ("/content/locations/1/43".into(), 200),
                ("/content/locations/1/43/51".into(), 401),
                (format!("/content/locations/{folder_path}"), 401),
            ],
        ),
        (
            "subtree",
            json!(["content", "read", [["Subtree", ["/1/43/"]]]]),
            vec![
                ("/content/locations/1/43/51".into(), 200),
                ("/content/objects/49".into(), 200),
                (format!("/content/locations/{folder_path}"), 401),
            ],
        ),
        (
            "owner",
            json!(["content", "read", [["Owner", ["1"]]]]),
            vec![
                (format!("/content/objects/{folder}"), 401),
                ("/content/objects/14".into(), 401),
            ],
        ),
    ];
    for (login, policy, checks) in cases {
        let user = plain_user(&app, login).await;
        role_for(&app, user, &format!("R-{login}"), &[policy], None).await;
        for (path, want) in checks {
            let got = status(as_user(app.get(&path), login)).await;
            assert_eq!(got, want, "{login}: {path}");
        }
        if login == "owner" {
            // Owner: itself (a user is its own owner's subject) and what it owns.
            assert_eq!(
                status(as_user(app.get(&format!("/content/objects/{user}")), login)).await,
                200
            );
        }
    }
    // Lists: the children of /1/2 as the class-limited user are folders only; search
    // counts agree with the hits.
    let kids = children(&app, "class", "1/2").await;
    assert!(kids.contains(&last_id(&folder_path)), "{kids:?}");
    assert_eq!(kids.len(), 1, "{kids:?}");
    let (count, hits) = search(&app, Some("class"), json!({"SubtreeCriterion": "/1/2/"})).await;
    assert_eq!(count as usize, hits.len());
    assert!(hits.contains(&folder) && !hits.contains(&group), "{hits:?}");
    let (count, hits) = search(&app, Some("section"), json!({})).await;
    assert_eq!(count as usize, hits.len());
    assert_eq!(hits.len(), 4, "the four Media folders: {hits:?}");
}

#[tokio::test]
async fn an_assignment_limitation_restricts_the_roles_policies() {
    let app = TestApp::new().await;
    let user = plain_user(&app, "sub").await;
    let limit = json!({"_identifier": "Subtree", "values": {"ref": [{"_href": format!("{PREFIX}/content/locations/1/43")}]}});
    role_for(
        &app,
        user,
        "Everything",
        &[json!(["content", "*", []])],
        Some(limit),
    )
    .await;
    fn s(r: Req<'_>) -> Req<'_> {
        as_user(r, "sub")
    }
    assert_eq!(status(s(app.get("/content/locations/1/43/51"))).await, 200);
    assert_eq!(status(s(app.get("/content/locations/1/2"))).await, 401);
    let id = {
        let r = s(app.req("POST", "/content/objects"))
            .json_body(
                "ContentCreate",
                json!({"ContentType": {"_href": "/api/ibexa/v2/content/types/1"}, "mainLanguageCode": "eng-GB",
                    "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/43"}},
                    "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "Mine"}]}}),
            )
            .accept("ContentInfo+json")
            .send()
            .await;
        r.assert(201);
        r.json()["Content"]["_id"].as_i64().unwrap()
    };
    // Its own draft: readable by it (content/* includes versionread), not by anonymous.
    assert_eq!(
        status(s(app.get(&format!("/content/objects/{id}")))).await,
        200
    );
    assert_eq!(
        status(app.get(&format!("/content/objects/{id}"))).await,
        401
    );
    // Search: only the Media subtree.
    let (count, hits) = search(&app, Some("sub"), json!({})).await;
    assert_eq!(count as usize, hits.len());
    assert!(
        hits.iter().all(|h| [41, 49, 50, 51].contains(h)),
        "{hits:?}"
    );
}

#[tokio::test]
async fn create_limitations_on_the_parent() {
    let app = TestApp::new().await;
    let (_, deep) = published_folder(&app, "Deep", "1/2").await;
    let create = |parent: &str| {
        json!({"ContentType": {"_href": "/api/ibexa/v2/content/types/1"}, "mainLanguageCode": "eng-GB",
            "LocationCreate": {"ParentLocation": {"_href": format!("/api/ibexa/v2/content/locations/{parent}")}},
            "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "New"}]}})
    };
    let cases: Vec<Case> = vec![
        (
            "depth",
            json!(["content", "create", [["ParentDepth", ["2"]]]]),
            vec![(deep.clone(), 201), ("1/2".into(), 401)],
        ),
        (
            "parentclass",
            json!(["content", "create", [["ParentClass", ["1"]]]]),
            vec![("1/2".into(), 201), ("1/5".into(), 401)],
        ),
        (
            "subtree",
            json!(["content", "create", [["Subtree", ["/1/43/"]]]]),
            vec![("1/43/51".into(), 201), ("1/2".into(), 401)],
        ),
        (
            "class",
            json!(["content", "create", [["Class", ["2"]]]]),
            vec![("1/2".into(), 401)],
        ),
    ];
    for (login, policy, checks) in cases {
        let user = plain_user(&app, login).await;
        role_for(&app, user, &format!("C-{login}"), &[policy], None).await;
        for (parent, want) in checks {
            let before = app
                .query("SELECT COUNT(*) AS n FROM contents", vec![])
                .await;
            let got = status(
                as_user(app.req("POST", "/content/objects"), login)
                    .json_body("ContentCreate", create(&parent)),
            )
            .await;
            assert_eq!(got, want, "{login}: under {parent}");
            if want != 201 {
                let after = app
                    .query("SELECT COUNT(*) AS n FROM contents", vec![])
                    .await;
                assert_eq!(before, after, "a refused create wrote nothing");
            }
        }
    }
}

#[tokio::test]
async fn sections_states_and_roles_are_assigned_within_their_limitations() {
    let app = TestApp::new().await;
    let (folder, _) = published_folder(&app, "Movable", "1/2").await;
    let user = plain_user(&app, "assigner").await;
    role_for(
        &app,
        user,
        "Assigner",
        &[
            json!(["content", "read", []]),
            json!(["content", "edit", []]),
            json!(["section", "assign", [["NewSection", ["3"]]]]),
            json!(["state", "assign", [["NewState", ["1"]]]]),
            json!(["role", "assign", [["Role", ["4"]]]]),
        ],
        None,
    )
    .await;
    fn a(r: Req<'_>) -> Req<'_> {
        as_user(r, "assigner")
    }
    let section =
        |s: i64| json!({"Section": {"_href": format!("/api/ibexa/v2/content/sections/{s}")}});
    a(app.req("PATCH", &format!("/content/objects/{folder}")))
        .json_body("ContentUpdate", section(2))
        .send()
        .await
        .assert_error(401);
    a(app.req("PATCH", &format!("/content/objects/{folder}")))
        .json_body("ContentUpdate", section(3))
        .send()
        .await
        .assert(200);
    let states = |s: i64| json!({"ObjectState": [{"_href": format!("/api/ibexa/v2/content/objectstategroups/2/objectstates/{s}")}]});
    a(app.req("PATCH", &format!("/content/objects/{folder}/objectstates")))
        .json_body("ContentObjectStates", states(2))
        .send()
        .await
        .assert_error(401);
    let r = a(app.req("PATCH", &format!("/content/objects/{folder}/objectstates")))
        .json_body("ContentObjectStates", states(1))
        .send()
        .await;
    assert!(r.status.is_success(), "{}", r.body);
    let target = plain_user(&app, "target").await;
    let assign = |role: i64| json!({"Role": {"_href": format!("{PREFIX}/user/roles/{role}")}});
    a(app.req("POST", &format!("/user/users/{target}/roles")))
        .json_body("RoleAssignInput", assign(2))
        .send()
        .await
        .assert_error(401);
    a(app.req("POST", &format!("/user/users/{target}/roles")))
        .json_body("RoleAssignInput", assign(4))
        .send()
        .await
        .assert(200);
}

#[tokio::test]
async fn a_state_limitation_follows_the_contents_state() {
    let app = TestApp::new().await;
    let (folder, _) = published_folder(&app, "Stateful", "1/2").await;
    let user = plain_user(&app, "unlocked").await;
    role_for(
        &app,
        user,
        "Unlocked",
        &[json!(["content", "read", [["State", ["1"]]]])],
        None,
    )
    .await;
    let path = format!("/content/objects/{folder}");
    assert_eq!(status(as_user(app.get(&path), "unlocked")).await, 200);
    app.req("PATCH", &format!("{path}/objectstates"))
        .admin()
        .json_body(
            "ContentObjectStates",
            json!({"ObjectState": [{"_href": "/api/ibexa/v2/content/objectstategroups/2/objectstates/2"}]}),
        )
        .send()
        .await;
    assert_eq!(status(as_user(app.get(&path), "unlocked")).await, 401);
}
