//! Permissions (issue 9): the clean-install Roles, custom Roles with each limitation, lists
//! and search filtered in SQL, refused writes that change nothing, and accounts whose
//! sessions end with their credentials.

use crate::content::{publish, published_folder};
use crate::support::*;
use serde_json::{Value, json};

pub const PW: &str = "Secret-12345";

/// A user's login, the Policy its Role gives, and the paths with the status each answers.
type Case = (&'static str, Value, Vec<(String, u16)>);

/// A user `login` created by admin in the group at `group` (a path); its content id.
async fn user_in(app: &TestApp, group: &str, login: &str) -> i64 {
    let r = app
        .req("POST", &format!("/user/groups/{group}/users"))
        .admin()
        .json_body(
            "UserCreate",
            json!({"mainLanguageCode": "eng-GB", "login": login, "email": format!("{login}@example.com"),
                "password": PW, "fields": {"field": [
                    {"fieldDefinitionIdentifier": "first_name", "fieldValue": "Pat"},
                    {"fieldDefinitionIdentifier": "last_name", "fieldValue": login}]}}),
        )
        .accept("User+json")
        .send()
        .await;
    r.assert(201);
    r.json()["User"]["_id"].as_i64().unwrap()
}

fn as_user<'a>(r: Req<'a>, login: &str) -> Req<'a> {
    r.basic(login, PW)
}

/// A Role `name` with `user/login` and the Policies `policies` (`[module, function,
/// limitations]`), assigned to the user `user` (with the assignment limitation `limit`).
pub async fn role_for(
    app: &TestApp,
    user: i64,
    name: &str,
    policies: &[Value],
    limit: Option<Value>,
) {
    let r = app
        .req("POST", "/user/roles?publish=true")
        .admin()
        .json_body("RoleInput", json!({"identifier": name}))
        .accept("Role+json")
        .send()
        .await;
    r.assert(201);
    let role = last_id(r.json()["Role"]["_href"].as_str().unwrap());
    let mut all = vec![json!(["user", "login", []])];
    all.extend_from_slice(policies);
    for p in all {
        let limitations: Vec<Value> = p[2]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                let refs: Vec<Value> = l[1]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| json!({"_href": v}))
                    .collect();
                json!({"_identifier": l[0], "values": {"ref": refs}})
            })
            .collect();
        let mut create = json!({"module": p[0], "function": p[1]});
        if !limitations.is_empty() {
            create["limitations"] = json!({"limitation": limitations});
        }
        app.req("POST", &format!("/user/roles/{role}/policies"))
            .admin()
            .json_body("PolicyCreate", create)
            .send()
            .await
            .assert(201);
    }
    let mut assign = json!({"Role": {"_href": format!("{PREFIX}/user/roles/{role}")}});
    if let Some(l) = limit {
        assign["limitation"] = l;
    }
    app.req("POST", &format!("/user/users/{user}/roles"))
        .admin()
        .json_body("RoleAssignInput", assign)
        .send()
        .await
        .assert(200);
}

/// A user in a group of its own (no Roles but the one `role_for` gives it).
pub async fn plain_user(app: &TestApp, login: &str) -> i64 {
    let r = app
        .req("POST", "/user/groups/1/5/subgroups")
        .admin()
        .json_body(
            "UserGroupCreate",
            json!({"mainLanguageCode": "eng-GB", "fields": {"field": [
                {"fieldDefinitionIdentifier": "name", "fieldValue": format!("{login}s")}]}}),
        )
        .accept("UserGroup+json")
        .send()
        .await;
    r.assert(201);
    let group = r.json()["UserGroup"]["_href"]
        .as_str()
        .unwrap()
        .replace(&format!("{PREFIX}/user/groups/"), "");
    user_in(app, &group, login).await
}

async fn status(r: Req<'_>) -> u16 {
    r.send().await.status.as_u16()
}

/// The hits of a content search as `login` (None: anonymous) and its count.
async fn search(app: &TestApp, login: Option<&str>, filter: Value) -> (i64, Vec<i64>) {
    let mut r = app.req("POST", "/views");
    if let Some(l) = login {
        r = as_user(r, l);
    }
    let r = r
        .raw_body(
            "application/vnd.ibexa.api.ViewInput+json; version=1.1",
            &json!({"ViewInput": {"identifier": "p", "ContentQuery": {"Filter": filter, "limit": 100}}})
                .to_string(),
        )
        .accept("View+json")
        .send()
        .await;
    r.assert(200);
    let result = &r.json()["View"]["Result"];
    let ids = result["searchHits"]["searchHit"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["value"]["Content"]["_id"].as_i64().unwrap())
        .collect();
    (result["count"].as_i64().unwrap(), ids)
}

/// The Location ids of the children of `path` as `login`.
async fn children(app: &TestApp, login: &str, path: &str) -> Vec<i64> {
    let r = as_user(
        app.get(&format!("/content/locations/{path}/children")),
        login,
    )
    .accept("LocationList+json")
    .send()
    .await;
    r.assert(200);
    r.json()["LocationList"]["Location"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| last_id(l["_href"].as_str().unwrap()))
        .collect()
}

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

#[tokio::test]
async fn policies_change_at_once_when_roles_and_groups_change() {
    let app = TestApp::new().await;
    let user = plain_user(&app, "late").await;
    // Without a Role the user cannot even log in.
    assert_eq!(status(as_user(app.get("/"), "late")).await, 401);
    role_for(&app, user, "Late", &[json!(["section", "view", []])], None).await;
    assert_eq!(
        status(as_user(app.get("/content/sections/1"), "late")).await,
        200
    );
    // Unassigned: refused at once (the cached Policies are dropped).
    let roles = app
        .get(&format!("/user/users/{user}/roles"))
        .admin()
        .accept("RoleAssignmentList+json")
        .send()
        .await
        .json();
    let href = roles["RoleAssignmentList"]["RoleAssignment"][0]["Role"]["_href"]
        .as_str()
        .unwrap()
        .to_string();
    let role = last_id(&href);
    app.req("DELETE", &format!("/user/users/{user}/roles/{role}"))
        .admin()
        .send()
        .await
        .assert(200);
    assert_eq!(status(as_user(app.get("/"), "late")).await, 401);
    // Joining the Editors group gives the Editor Role.
    app.req(
        "POST",
        &format!("/user/users/{user}/groups?group={PREFIX}/user/groups/1/5/14"),
    )
    .admin()
    .send()
    .await
    .assert(200);
    assert_eq!(
        status(as_user(app.get("/content/locations/1/2"), "late")).await,
        200
    );
}

#[tokio::test]
async fn sessions_end_when_the_account_is_disabled_or_its_password_changes() {
    let app = TestApp::new().await;
    let user = user_in(&app, "1/5/14", "sess").await;
    role_for(
        &app,
        user,
        "Own password",
        &[json!(["user", "password", []])],
        None,
    )
    .await;
    let login = async || {
        let r = app
            .req("POST", "/user/sessions")
            .json_body("SessionInput", json!({"login": "sess", "password": PW}))
            .accept("Session+json")
            .send()
            .await;
        r.assert(201);
        let cookie = r.header("set-cookie").unwrap();
        let pair = cookie.split(';').next().unwrap().to_string();
        let token = r.json()["Session"]["csrfToken"]
            .as_str()
            .unwrap()
            .to_string();
        (pair, token)
    };
    let write = async |(cookie, token): &(String, String)| {
        app.req("POST", "/content/objects")
            .header("cookie", cookie)
            .header("x-csrf-token", token)
            .json_body(
                "ContentCreate",
                json!({"ContentType": {"_href": "/api/ibexa/v2/content/types/1"}, "mainLanguageCode": "eng-GB",
                    "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
                    "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "S"}]}}),
            )
            .send()
            .await
            .status
            .as_u16()
    };
    let s = login().await;
    assert_eq!(write(&s).await, 201);
    // Disabled by admin: the session no longer writes.
    app.req("PATCH", &format!("/user/users/{user}"))
        .admin()
        .json_body("UserUpdate", json!({"enabled": false}))
        .send()
        .await
        .assert(200);
    assert_eq!(write(&s).await, 401);
    app.req("PATCH", &format!("/user/users/{user}"))
        .admin()
        .json_body("UserUpdate", json!({"enabled": true}))
        .send()
        .await
        .assert(200);
    // A password changed by admin ends the session; one the user changes itself keeps the
    // session it changed it in.
    let s = login().await;
    app.req("PATCH", &format!("/user/users/{user}"))
        .admin()
        .json_body("UserUpdate", json!({"password": "Other-12345"}))
        .send()
        .await
        .assert(200);
    assert_eq!(write(&s).await, 401);
    app.req("PATCH", &format!("/user/users/{user}"))
        .admin()
        .json_body("UserUpdate", json!({"password": PW}))
        .send()
        .await
        .assert(200);
    let s = login().await;
    let other = login().await;
    let r = app
        .req("PATCH", &format!("/user/users/{user}"))
        .header("cookie", &s.0)
        .header("x-csrf-token", &s.1)
        .json_body("UserUpdate", json!({"password": "Mine-12345678"}))
        .send()
        .await;
    r.assert(200);
    assert_eq!(write(&s).await, 201);
    assert_eq!(write(&other).await, 401);
    // Deleted: gone.
    app.req("DELETE", &format!("/user/users/{user}"))
        .admin()
        .send()
        .await
        .assert(204);
    assert_eq!(write(&s).await, 401);
}

#[tokio::test]
async fn a_user_changes_its_own_password_with_user_password_only() {
    let app = TestApp::new().await;
    let user = plain_user(&app, "pw").await;
    role_for(
        &app,
        user,
        "Pw",
        &[
            json!(["user", "password", []]),
            json!(["content", "read", [["Owner", ["1"]]]]),
        ],
        None,
    )
    .await;
    fn p(r: Req<'_>) -> Req<'_> {
        as_user(r, "pw")
    }
    // Another user's password, or its own email: not with user/password alone.
    p(app.req("PATCH", "/user/users/14"))
        .json_body("UserUpdate", json!({"password": "Taken-over-1"}))
        .send()
        .await
        .assert_error(401);
    p(app.req("PATCH", &format!("/user/users/{user}")))
        .json_body("UserUpdate", json!({"email": "x@example.com"}))
        .send()
        .await
        .assert_error(401);
    p(app.req("PATCH", &format!("/user/users/{user}")))
        .json_body("UserUpdate", json!({"password": "Brand-new-123"}))
        .send()
        .await
        .assert(200);
    let r = app
        .get("/user/current")
        .basic("pw", "Brand-new-123")
        .send()
        .await;
    r.assert(307);
}

#[tokio::test]
async fn another_instance_on_the_same_database_sees_role_changes() {
    // Several instances share a PostgreSQL database; SQLite is one process's.
    if backend() != "postgres" {
        return;
    }
    let app = TestApp::new().await;
    let other = app.another_instance().await;
    let user = plain_user(&app, "two").await;
    role_for(&app, user, "Two", &[json!(["section", "view", []])], None).await;
    let sections = async || status(as_user(other.get("/content/sections/1"), "two")).await;
    assert_eq!(sections().await, 200);
    let role = app
        .get("/user/roles?identifier=Two")
        .admin()
        .accept("RoleList+json")
        .send()
        .await
        .json();
    let role = last_id(role["RoleList"]["Role"][0]["_href"].as_str().unwrap());
    app.req("DELETE", &format!("/user/users/{user}/roles/{role}"))
        .admin()
        .send()
        .await
        .assert(200);
    // The other instance hears of the change (LISTEN/NOTIFY) within moments.
    let mut got = sections().await;
    for _ in 0..50 {
        if got == 401 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        got = sections().await;
    }
    assert_eq!(got, 401);
}

#[tokio::test]
async fn authentication_looks_users_up_by_index_whatever_the_repository_size() {
    let app = TestApp::with_args(&["--cache-mib", "0"]).await; // the rendering path
    // The statement that finds a login: no scan of the content items (SQLite's plan).
    if backend() == "sqlite" {
        let plan = app
            .query(
                "EXPLAIN QUERY PLAN SELECT users.* FROM users JOIN contents ON contents.id = users.id \
                 WHERE users.login = ? AND contents.status = ?",
                vec!["admin".into(), 1.into()],
            )
            .await;
        let text = serde_json::to_string(&plan).unwrap();
        assert!(!text.contains("SCAN contents"), "{text}");
        assert!(!text.contains("SCAN users"), "{text}");
    }
    // A warm request with credentials: the login, nothing else (Policies are cached).
    app.get("/content/locations/1/2")
        .admin()
        .send()
        .await
        .assert(200);
    let before = app.statements();
    app.get("/content/sections/1")
        .admin()
        .send()
        .await
        .assert(200);
    assert_eq!(app.statements() - before, 2, "the login and the Section");
    let before = app.statements();
    app.get("/content/sections/1")
        .basic("nobody", "x")
        .send()
        .await
        .assert_error(401);
    assert_eq!(app.statements() - before, 1, "the login only");
}

/// A check on one resource costs no statement on a warm cache: an anonymous (Section
/// limited) Location read runs the same statements as an administrator's, and one more than
/// reading it needs only for the administrator's login.
#[tokio::test]
async fn a_check_on_one_resource_adds_no_statement() {
    let app = TestApp::with_args(&["--cache-mib", "0"]).await; // the rendering path
    let cost = async |admin: bool| {
        let req = || {
            let r = app.get("/content/locations/1/2").accept("Location+json");
            if admin { r.admin() } else { r }
        };
        req().send().await.assert(200);
        let before = app.statements();
        req().send().await.assert(200);
        app.statements() - before
    };
    let anonymous = cost(false).await;
    let admin = cost(true).await;
    assert_eq!(admin, anonymous + 1, "the login is the only difference");
    assert_eq!(
        anonymous, 3,
        "the Location, its child count, its content item"
    );
}
