//! Roles and Policies (spec 4.6): clean-install data, the life of a Role through drafts,
//! Policies with limitations, assignments to users and groups, the Policies of a user, and
//! every error.

use crate::support::*;
use serde_json::{Value, json};

async fn create_role(app: &TestApp, identifier: &str) -> i64 {
    let r = app
        .req("POST", "/user/roles")
        .admin()
        .accept("Role+json")
        .json_body("RoleInput", json!({"identifier": identifier}))
        .send()
        .await;
    r.assert(201);
    id_of(&r.json()["Role"]["_href"])
}

fn id_of(href: &Value) -> i64 {
    last_id(href.as_str().unwrap())
}

fn policy_ids(list: &Value) -> Vec<i64> {
    list["PolicyList"]["Policy"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect()
}

async fn policies(app: &TestApp, role: i64) -> Value {
    let r = app
        .get(&format!("/user/roles/{role}/policies"))
        .admin()
        .accept("PolicyList+json")
        .send()
        .await;
    r.assert(200);
    r.json()
}

#[tokio::test]
async fn clean_install_roles_policies_and_assignments_load_with_their_ids() {
    let app = TestApp::new().await;
    let r = app
        .get("/user/roles")
        .admin()
        .accept("RoleList+json")
        .send()
        .await;
    r.assert(200);
    let j = r.json();
    assert_eq!(j["RoleList"]["_href"], "/api/ibexa/v2/user/roles");
    let roles: Vec<(i64, &str)> = j["RoleList"]["Role"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (id_of(&r["_href"]), r["identifier"].as_str().unwrap()))
        .collect();
    assert_eq!(
        roles,
        [
            (1, "Anonymous"),
            (2, "Administrator"),
            (3, "Editor"),
            (4, "Member")
        ]
    );
    assert_eq!(
        j["RoleList"]["Role"][0]["Policies"]["_href"],
        "/api/ibexa/v2/user/roles/1/policies"
    );

    let x = app.get("/user/roles/1/policies").admin().send().await;
    x.assert(200);
    let x = x.xml();
    assert_eq!(x.name, "PolicyList");
    let ps: Vec<_> = x.children.iter().filter(|c| c.name == "Policy").collect();
    assert_eq!(ps.len(), 3);
    assert_eq!(child_text(ps[0], "id"), "328");
    assert_eq!(
        attr(ps[0], "href"),
        "/api/ibexa/v2/user/roles/1/policies/328"
    );
    assert_eq!(child_text(ps[0], "module"), "content");
    assert_eq!(child_text(ps[0], "function"), "read");
    let lim = &ps[0]
        .children
        .iter()
        .find(|c| c.name == "limitations")
        .unwrap()
        .children[0];
    assert_eq!(attr(lim, "identifier"), "Section");
    assert_eq!(attr(&lim.children[0].children[0], "href"), "1");

    let p = app
        .get("/user/roles/1/policies/334")
        .admin()
        .accept("Policy+json")
        .send()
        .await;
    p.assert(200);
    assert!(p.header("etag").is_some());
    let values = &p.json()["Policy"]["limitations"]["limitation"][0]["values"]["ref"];
    assert_eq!(values[0]["_href"], "5");
    assert_eq!(values[1]["_href"], "12");

    // Editors (content 13, Location /1/5/14/): Editor twice (Subtree), Member.
    let a = app
        .get("/user/groups/1/5/14/roles")
        .admin()
        .accept("RoleAssignmentList+json")
        .send()
        .await;
    a.assert(200);
    let a = a.json();
    let list = &a["RoleAssignmentList"];
    assert_eq!(list["_href"], "/api/ibexa/v2/user/groups/1/5/14/roles");
    let items = list["RoleAssignment"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(
        items[0]["_href"],
        "/api/ibexa/v2/user/groups/1/5/14/roles/3"
    );
    assert_eq!(items[0]["Role"]["_href"], "/api/ibexa/v2/user/roles/3");
    assert_eq!(items[0]["limitation"]["_identifier"], "Subtree");
    assert_eq!(items[0]["limitation"]["values"]["ref"][0]["_href"], "/1/2/");
    assert_eq!(
        items[1]["limitation"]["values"]["ref"][0]["_href"],
        "/1/43/"
    );
    assert!(items[2]["limitation"].is_null());

    // The admin (14, in Administrator users 12 at /1/5/13/): Administrator's */*.
    let p = app
        .get("/user/policies?userId=14")
        .admin()
        .accept("PolicyList+json")
        .send()
        .await;
    p.assert(200);
    assert_eq!(policy_ids(&p.json()), [332]);
    // The anonymous user (10, in Anonymous users 42): the Anonymous Role.
    let p = app
        .get("/user/policies?userId=10")
        .admin()
        .accept("PolicyList+json")
        .send()
        .await;
    assert_eq!(policy_ids(&p.json()), [328, 331, 334]);
    assert_eq!(
        p.json()["PolicyList"]["_href"],
        "/api/ibexa/v2/user/policies"
    );
}

#[tokio::test]
async fn list_roles_by_identifier_and_window() {
    let app = TestApp::new().await;
    let one = app
        .get("/user/roles?identifier=Editor")
        .admin()
        .accept("RoleList+json")
        .send()
        .await;
    let j = one.json();
    assert_eq!(j["RoleList"]["Role"].as_array().unwrap().len(), 1);
    assert_eq!(
        j["RoleList"]["Role"][0]["_href"],
        "/api/ibexa/v2/user/roles/3"
    );
    let none = app
        .get("/user/roles?identifier=Nope")
        .admin()
        .accept("RoleList+json")
        .send()
        .await;
    none.assert(200);
    assert!(
        none.json()["RoleList"]["Role"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let window = app
        .get("/user/roles?offset=1&limit=2")
        .admin()
        .accept("RoleList+json")
        .send()
        .await;
    let ids: Vec<i64> = window.json()["RoleList"]["Role"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| id_of(&r["_href"]))
        .collect();
    assert_eq!(ids, [2, 3]);
    app.get("/user/roles?offset=-1")
        .admin()
        .send()
        .await
        .assert_error(400);
}

#[tokio::test]
async fn the_life_of_a_role_through_drafts_and_policies() {
    let app = TestApp::new().await;
    // The reference's RoleInput example, in XML.
    let r = app
        .req("POST", "/user/roles")
        .admin()
        .xml_body(
            "RoleInput",
            &reference_example("user/roles/POST/RoleInput.xml.example"),
        )
        .send()
        .await;
    r.assert(201);
    assert_eq!(r.content_type(), "application/vnd.ibexa.api.Role+xml");
    let x = r.xml();
    assert_eq!(x.name, "Role");
    assert_eq!(child_text(&x, "identifier"), "NewRole");
    let href = attr(&x, "href");
    let role: i64 = href.rsplit('/').next().unwrap().parse().unwrap();
    assert_eq!(role, 5, "role ids continue after the clean install's");
    let policies_ref = x.children.iter().find(|c| c.name == "Policies").unwrap();
    assert_eq!(attr(policies_ref, "href"), format!("{href}/policies"));

    // A draft: 201 RoleDraft with its own id; a second one is 403.
    let d = app
        .req("POST", &format!("/user/roles/{role}"))
        .admin()
        .accept("RoleDraft+json")
        .send()
        .await;
    d.assert(201);
    assert_eq!(d.content_type(), "application/vnd.ibexa.api.RoleDraft+json");
    let draft = id_of(&d.json()["Role"]["_href"]);
    assert_ne!(draft, role);
    app.req("POST", &format!("/user/roles/{role}"))
        .admin()
        .send()
        .await
        .assert_error(403);
    // Loaded by the Role's id or its own.
    for id in [role, draft] {
        let g = app
            .get(&format!("/user/roles/{id}/draft"))
            .admin()
            .accept("RoleDraft+json")
            .send()
            .await;
        g.assert(200);
        assert_eq!(id_of(&g.json()["Role"]["_href"]), draft);
    }
    // Rename the draft (the reference's example), add the reference's PolicyCreate to it.
    let u = app
        .req("PATCH", &format!("/user/roles/{role}/draft"))
        .admin()
        .accept("RoleDraft+json")
        .raw_body(
            "application/vnd.ibexa.api.RoleInput+json",
            &reference_example("user/roles/id/draft/PATCH/RoleInput.json.example"),
        )
        .send()
        .await;
    u.assert(200);
    assert_eq!(u.json()["Role"]["identifier"], "UpdatedIdentifier");
    let p = app
        .req("POST", &format!("/user/roles/{draft}/policies"))
        .admin()
        .xml_body(
            "PolicyCreate",
            &reference_example("user/roles/id/policies/POST/PolicyCreate.xml.example"),
        )
        .send()
        .await;
    p.assert(201);
    let px = p.xml();
    assert_eq!(px.name, "Policy");
    assert_eq!(child_text(&px, "module"), "content");
    assert_eq!(child_text(&px, "function"), "create");
    let lims: Vec<_> = px
        .children
        .iter()
        .find(|c| c.name == "limitations")
        .unwrap()
        .children
        .iter()
        .collect();
    assert_eq!(attr(lims[0], "identifier"), "Class");
    assert_eq!(attr(lims[1], "identifier"), "ParentClass");
    assert_eq!(attr(&lims[1].children[0].children[0], "href"), "1");
    let in_draft: i64 = child_text(&px, "id").parse().unwrap();
    // The published Role is unchanged until the draft is published.
    assert!(policy_ids(&policies(&app, role).await).is_empty());
    assert_eq!(policy_ids(&policies(&app, draft).await), [in_draft]);

    // Replace the limitations (the reference's PolicyUpdate, then none).
    let e = app
        .req("PATCH", &format!("/user/roles/{draft}/policies/{in_draft}"))
        .admin()
        .accept("Policy+json")
        .xml_body(
            "PolicyUpdate",
            &reference_example("user/roles/id/policies/id/PATCH/PolicyUpdate.xml.example"),
        )
        .send()
        .await;
    e.assert(200);
    assert_eq!(
        e.json()["Policy"]["limitations"]["limitation"]
            .as_array()
            .unwrap()
            .len(),
        2
    );

    // Publish: 204 with the Role's Location; the draft is gone.
    let pb = app
        .req("PUBLISH", &format!("/user/roles/{role}/draft"))
        .admin()
        .send()
        .await;
    pb.assert(204);
    assert_eq!(
        pb.header("location").unwrap(),
        format!("/api/ibexa/v2/user/roles/{role}")
    );
    app.get(&format!("/user/roles/{role}/draft"))
        .admin()
        .send()
        .await
        .assert_error(404);
    let g = app
        .get(&format!("/user/roles/{role}"))
        .admin()
        .accept("Role+json")
        .send()
        .await;
    assert_eq!(g.json()["Role"]["identifier"], "UpdatedIdentifier");
    assert_eq!(policy_ids(&policies(&app, role).await), [in_draft]);

    // Directly on the published Role (through a draft published at once), JSON.
    let add = app
        .req("POST", &format!("/user/roles/{role}/policies"))
        .admin()
        .accept("Policy+json")
        .json_body(
            "PolicyCreate",
            json!({"module": "user", "function": "login",
                   "limitations": {"limitation": [{"_identifier": "SiteAccess",
                       "values": {"ref": [{"_href": "1766001124"}]}}]}}),
        )
        .send()
        .await;
    add.assert(201);
    let added = add.json()["Policy"]["id"].as_i64().unwrap();
    assert_eq!(
        add.json()["Policy"]["_href"],
        format!("/api/ibexa/v2/user/roles/{role}/policies/{added}")
    );
    let ids = policy_ids(&policies(&app, role).await);
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&added));
    // As the reference, the Role's Policies are the draft's copies now (new ids).
    let content_create = *ids.iter().find(|i| **i != added).unwrap();
    let get = app
        .get(&format!("/user/roles/{role}/policies/{content_create}"))
        .admin()
        .accept("Policy+json")
        .send()
        .await;
    let etag = get.header("etag").unwrap();
    app.req(
        "PATCH",
        &format!("/user/roles/{role}/policies/{content_create}"),
    )
    .admin()
    .header("if-match", "\"stale\"")
    .json_body("PolicyUpdate", json!({}))
    .send()
    .await
    .assert_error(412);
    let upd = app
        .req(
            "PATCH",
            &format!("/user/roles/{role}/policies/{content_create}"),
        )
        .admin()
        .header("if-match", &etag)
        .accept("Policy+json")
        .json_body("PolicyUpdate", json!({}))
        .send()
        .await;
    upd.assert(200);
    assert!(upd.json()["Policy"]["limitations"].is_null());
    let updated = upd.json()["Policy"]["id"].as_i64().unwrap();
    let del = app
        .req("DELETE", &format!("/user/roles/{role}/policies/{updated}"))
        .admin()
        .send()
        .await;
    del.assert(204);
    assert_eq!(policy_ids(&policies(&app, role).await).len(), 1);
    app.req("DELETE", &format!("/user/roles/{role}/policies"))
        .admin()
        .send()
        .await
        .assert(204);
    assert!(policy_ids(&policies(&app, role).await).is_empty());

    // Rename the published Role; If-Match applies.
    let etag = app
        .get(&format!("/user/roles/{role}"))
        .admin()
        .send()
        .await
        .header("etag")
        .unwrap();
    app.req("PATCH", &format!("/user/roles/{role}"))
        .admin()
        .header("if-match", "\"stale\"")
        .json_body("RoleInput", json!({"identifier": "Renamed"}))
        .send()
        .await
        .assert_error(412);
    let ren = app
        .req("PATCH", &format!("/user/roles/{role}"))
        .admin()
        .header("if-match", &etag)
        .accept("Role+json")
        .raw_body(
            "application/vnd.ibexa.api.RoleInput+json",
            &reference_example("user/roles/id/PATCH/RoleInput.json.example"),
        )
        .send()
        .await;
    ren.assert(200);
    assert!(ren.header("etag").is_some());

    // Delete it with its assignments.
    app.req("POST", "/user/users/14/roles")
        .admin()
        .json_body(
            "RoleAssignInput",
            json!({"Role": {"_href": format!("/api/ibexa/v2/user/roles/{role}")}}),
        )
        .send()
        .await
        .assert(200);
    app.req("DELETE", &format!("/user/roles/{role}"))
        .admin()
        .header("if-match", "\"stale\"")
        .send()
        .await
        .assert_error(412);
    app.req("DELETE", &format!("/user/roles/{role}"))
        .admin()
        .send()
        .await
        .assert(204);
    app.get(&format!("/user/roles/{role}"))
        .admin()
        .send()
        .await
        .assert_error(404);
    let left = app
        .get("/user/users/14/roles")
        .admin()
        .accept("RoleAssignmentList+json")
        .send()
        .await;
    assert!(
        left.json()["RoleAssignmentList"]["RoleAssignment"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn a_role_created_as_a_draft_is_published_or_discarded() {
    let app = TestApp::new().await;
    let r = app
        .req("POST", "/user/roles?publish=false")
        .admin()
        .accept("RoleDraft+json")
        .json_body("RoleInput", json!({"identifier": "Drafty"}))
        .send()
        .await;
    r.assert(201);
    assert_eq!(r.content_type(), "application/vnd.ibexa.api.RoleDraft+json");
    let id = id_of(&r.json()["Role"]["_href"]);
    app.get(&format!("/user/roles/{id}"))
        .admin()
        .send()
        .await
        .assert_error(404);
    let none = app
        .get("/user/roles?identifier=Drafty")
        .admin()
        .accept("RoleList+json")
        .send()
        .await;
    assert!(
        none.json()["RoleList"]["Role"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    app.req("PUBLISH", &format!("/user/roles/{id}/draft"))
        .admin()
        .send()
        .await
        .assert(204);
    app.get(&format!("/user/roles/{id}"))
        .admin()
        .send()
        .await
        .assert(200);

    let r = app
        .req("POST", "/user/roles?publish=false")
        .admin()
        .accept("RoleDraft+json")
        .json_body("RoleInput", json!({"identifier": "Gone"}))
        .send()
        .await;
    let id = id_of(&r.json()["Role"]["_href"]);
    let etag = app
        .get(&format!("/user/roles/{id}/draft"))
        .admin()
        .send()
        .await
        .header("etag")
        .unwrap();
    app.req("DELETE", &format!("/user/roles/{id}/draft"))
        .admin()
        .header("if-match", "\"x\"")
        .send()
        .await
        .assert_error(412);
    app.req("DELETE", &format!("/user/roles/{id}/draft"))
        .admin()
        .header("if-match", &etag)
        .send()
        .await
        .assert(204);
    app.get(&format!("/user/roles/{id}/draft"))
        .admin()
        .send()
        .await
        .assert_error(404);
}

#[tokio::test]
async fn role_and_policy_errors() {
    let app = TestApp::new().await;
    // Duplicate identifier: 403 on create, rename, draft rename.
    let dup = app
        .req("POST", "/user/roles")
        .admin()
        .json_body("RoleInput", json!({"identifier": "Editor"}))
        .send()
        .await;
    assert!(dup.assert_error(403).contains("Editor"));
    app.req("PATCH", "/user/roles/4")
        .admin()
        .json_body("RoleInput", json!({"identifier": "Editor"}))
        .send()
        .await
        .assert_error(403);
    app.req("POST", "/user/roles/4")
        .admin()
        .send()
        .await
        .assert(201);
    app.req("PATCH", "/user/roles/4/draft")
        .admin()
        .json_body("RoleInput", json!({"identifier": "Editor"}))
        .send()
        .await
        .assert_error(403);
    // A Role with a draft is still changed directly, as in the reference; the draft stays,
    // and a second explicit draft is refused.
    let r = app
        .req("PATCH", "/user/roles/4")
        .admin()
        .accept("Role+json")
        .json_body("RoleInput", json!({"identifier": "X"}))
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["Role"]["identifier"], "X");
    app.req("POST", "/user/roles/4/policies")
        .admin()
        .json_body(
            "PolicyCreate",
            json!({"module": "content", "function": "read"}),
        )
        .send()
        .await
        .assert(201);
    app.get("/user/roles/4/draft")
        .admin()
        .send()
        .await
        .assert(200);
    app.req("POST", "/user/roles/4")
        .admin()
        .send()
        .await
        .assert_error(403);
    // Deleting the Role keeps its draft, which publishes as a Role of its own.
    app.req("DELETE", "/user/roles/4")
        .admin()
        .send()
        .await
        .assert(204);
    app.get("/user/roles/4/draft")
        .admin()
        .send()
        .await
        .assert(200);
    app.req("PUBLISH", "/user/roles/4/draft")
        .admin()
        .send()
        .await
        .assert(204);
    let r = app
        .get("/user/roles?identifier=Member")
        .admin()
        .accept("RoleList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["RoleList"]["Role"].as_array().unwrap().len(), 1);
    // Missing identifier, bad input, anonymous.
    app.req("POST", "/user/roles")
        .admin()
        .json_body("RoleInput", json!({}))
        .send()
        .await
        .assert_error(400);
    app.req("POST", "/user/roles")
        .admin()
        .xml_body("RoleInput", "<RoleInput>")
        .send()
        .await
        .assert_error(400);
    app.req("POST", "/user/roles")
        .json_body("RoleInput", json!({"identifier": "A"}))
        .send()
        .await
        .assert_error(401);
    // Unknown Roles, drafts and Policies: 404.
    for (m, p) in [
        ("GET", "/user/roles/99"),
        ("POST", "/user/roles/99"),
        ("DELETE", "/user/roles/99"),
        ("GET", "/user/roles/1/draft"),
        ("PUBLISH", "/user/roles/99/draft"),
        ("DELETE", "/user/roles/1/draft"),
        ("GET", "/user/roles/99/policies"),
        ("GET", "/user/roles/1/policies/332"),
        ("DELETE", "/user/roles/1/policies/332"),
        ("DELETE", "/user/roles/99/policies"),
    ] {
        app.req(m, p).admin().send().await.assert_error(404);
    }
    app.req("PATCH", "/user/roles/1/policies/9999")
        .admin()
        .json_body("PolicyUpdate", json!({}))
        .send()
        .await
        .assert_error(404);
    // A failed change leaves no draft behind.
    app.get("/user/roles/1/draft")
        .admin()
        .send()
        .await
        .assert_error(404);
    // Unknown module or function: 400; a limitation twice: 406.
    for (module, function) in [("nope", "read"), ("content", "nope"), ("*", "read")] {
        app.req("POST", "/user/roles/1/policies")
            .admin()
            .json_body(
                "PolicyCreate",
                json!({"module": module, "function": function}),
            )
            .send()
            .await
            .assert_error(400);
    }
    let lim = json!({"_identifier": "Class", "values": {"ref": [{"_href": "1"}]}});
    app.req("POST", "/user/roles/1/policies")
        .admin()
        .json_body("PolicyCreate", json!({"module": "content", "function": "read", "limitations": {"limitation": [lim, lim]}}))
        .send()
        .await
        .assert_error(406);
    app.req("POST", "/user/roles/1/policies")
        .admin()
        .json_body("PolicyCreate", json!({"module": "content", "function": "read", "limitations": {"limitation": [{"_identifier": "Class", "values": {"ref": []}}]}}))
        .send()
        .await
        .assert_error(400);
    assert_eq!(policy_ids(&policies(&app, 1).await), [328, 331, 334]);
    // userId is required and must be a user.
    app.get("/user/policies")
        .admin()
        .send()
        .await
        .assert_error(400);
    app.get("/user/policies?userId=4")
        .admin()
        .send()
        .await
        .assert_error(404);
}

#[tokio::test]
async fn assignments_to_users_and_groups() {
    let app = TestApp::new().await;
    // The reference's RoleAssignInput: Administrator limited to Sections 1 and 2, to the admin.
    let a = app
        .req("POST", "/user/users/14/roles")
        .admin()
        .accept("RoleAssignmentList+json")
        .raw_body(
            "application/vnd.ibexa.api.RoleAssignInput+json",
            &reference_example("user/users/user_id/roles/POST/RoleAssignInput.json.example"),
        )
        .send()
        .await;
    a.assert(200);
    let j = a.json();
    let items = j["RoleAssignmentList"]["RoleAssignment"]
        .as_array()
        .unwrap();
    assert_eq!(
        j["RoleAssignmentList"]["_href"],
        "/api/ibexa/v2/user/users/14/roles"
    );
    assert_eq!(items.len(), 2, "one assignment per value, as the reference");
    assert_eq!(items[0]["_href"], "/api/ibexa/v2/user/users/14/roles/2");
    assert_eq!(items[0]["limitation"]["_identifier"], "Section");
    assert_eq!(items[0]["limitation"]["values"]["ref"][0]["_href"], "1");
    assert_eq!(items[1]["limitation"]["values"]["ref"][0]["_href"], "2");
    // The same again: 406; with one more Section: only the new one is added.
    let again = app
        .req("POST", "/user/users/14/roles")
        .admin()
        .xml_body(
            "RoleAssignInput",
            &reference_example("user/users/user_id/roles/POST/RoleAssignInput.xml.example"),
        )
        .send()
        .await;
    again.assert_error(406);
    let more = app
        .req("POST", "/user/users/14/roles")
        .admin()
        .accept("RoleAssignmentList+json")
        .json_body(
            "RoleAssignInput",
            json!({"Role": {"_href": "/api/ibexa/v2/user/roles/2"},
                   "limitation": {"_identifier": "Section", "values": {"ref": [
                       {"_href": "/api/ibexa/v2/content/sections/2"},
                       {"_href": "/api/ibexa/v2/content/sections/3"}]}}}),
        )
        .send()
        .await;
    more.assert(200);
    assert_eq!(
        more.json()["RoleAssignmentList"]["RoleAssignment"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    // Unlimited, then unlimited again: 406.
    let plain = json!({"Role": {"_href": "/api/ibexa/v2/user/roles/4"}});
    app.req("POST", "/user/users/14/roles")
        .admin()
        .json_body("RoleAssignInput", plain.clone())
        .send()
        .await
        .assert(200);
    app.req("POST", "/user/users/14/roles")
        .admin()
        .json_body("RoleAssignInput", plain)
        .send()
        .await
        .assert_error(406);
    // One assignment, in XML, with an ETag.
    let one = app.get("/user/users/14/roles/2").admin().send().await;
    one.assert(200);
    let x = one.xml();
    assert_eq!(x.name, "RoleAssignment");
    assert_eq!(attr(&x, "href"), "/api/ibexa/v2/user/users/14/roles/2");
    let role = x.children.iter().find(|c| c.name == "Role").unwrap();
    assert_eq!(attr(role, "href"), "/api/ibexa/v2/user/roles/2");
    let etag = one.header("etag").unwrap();

    // The Policies of the admin: Administrator (group and own), Member (own).
    let p = app
        .get("/user/policies?userId=14")
        .admin()
        .accept("PolicyList+json")
        .send()
        .await;
    assert_eq!(policy_ids(&p.json()), [332, 333]);

    // Unassign: If-Match, then all assignments of the Role go; a Role not assigned: 200.
    app.req("DELETE", "/user/users/14/roles/2")
        .admin()
        .header("if-match", "\"x\"")
        .send()
        .await
        .assert_error(412);
    let u = app
        .req("DELETE", "/user/users/14/roles/2")
        .admin()
        .header("if-match", &etag)
        .accept("RoleAssignmentList+json")
        .send()
        .await;
    u.assert(200);
    let left = u.json();
    let left = left["RoleAssignmentList"]["RoleAssignment"]
        .as_array()
        .unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["Role"]["_href"], "/api/ibexa/v2/user/roles/4");
    app.req("DELETE", "/user/users/14/roles/3")
        .admin()
        .send()
        .await
        .assert(200);
    app.get("/user/users/14/roles/2")
        .admin()
        .send()
        .await
        .assert_error(404);

    // A group (Guest accounts, /1/5/12), with a Subtree limitation, in XML.
    let g = app
        .req("POST", "/user/groups/1/5/12/roles")
        .admin()
        .xml_body(
            "RoleAssignInput",
            r#"<RoleAssignInput><Role href="/api/ibexa/v2/user/roles/3"/>
               <limitation identifier="Subtree"><values>
               <ref href="/api/ibexa/v2/content/locations/1/43/"/></values></limitation></RoleAssignInput>"#,
        )
        .send()
        .await;
    g.assert(200);
    let gx = g.xml();
    assert_eq!(gx.name, "RoleAssignmentList");
    assert_eq!(attr(&gx, "href"), "/api/ibexa/v2/user/groups/1/5/12/roles");
    let one = app
        .get("/user/groups/1/5/12/roles/3")
        .admin()
        .accept("RoleAssignment+json")
        .send()
        .await;
    one.assert(200);
    assert_eq!(
        one.json()["RoleAssignment"]["limitation"]["values"]["ref"][0]["_href"],
        "/1/43/"
    );
    let u = app
        .req("DELETE", "/user/groups/1/5/12/roles/3")
        .admin()
        .accept("RoleAssignmentList+json")
        .send()
        .await;
    u.assert(200);
    let roles: Vec<i64> = u.json()["RoleAssignmentList"]["RoleAssignment"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| id_of(&a["Role"]["_href"]))
        .collect();
    assert_eq!(roles, [1]);
}

#[tokio::test]
async fn assignment_errors() {
    let app = TestApp::new().await;
    let body =
        |lim: Value| json!({"Role": {"_href": "/api/ibexa/v2/user/roles/1"}, "limitation": lim});
    for lim in [
        json!({"_identifier": "Class", "values": {"ref": [{"_href": "1"}]}}),
        json!({"_identifier": "Section", "values": {"ref": [{"_href": "/api/ibexa/v2/content/sections/99"}]}}),
        json!({"_identifier": "Section", "values": {"ref": [{"_href": "1"}]}}),
        json!({"_identifier": "Subtree", "values": {"ref": [{"_href": "/api/ibexa/v2/content/locations/1/99"}]}}),
        json!({"_identifier": "Subtree", "values": {"ref": [{"_href": "/api/ibexa/v2/content/locations/1/43/51/"}, {"_href": "/api/ibexa/v2/content/locations/2/43"}]}}),
        json!({"_identifier": "Section", "values": {"ref": []}}),
    ] {
        app.req("POST", "/user/users/14/roles")
            .admin()
            .json_body("RoleAssignInput", body(lim))
            .send()
            .await
            .assert_error(400);
    }
    let unknown_role = json!({"Role": {"_href": "/api/ibexa/v2/user/roles/99"}});
    app.req("POST", "/user/users/14/roles")
        .admin()
        .json_body("RoleAssignInput", unknown_role)
        .send()
        .await
        .assert_error(404);
    // Unknown users and groups, no assignment.
    for p in [
        "/user/users/4/roles",
        "/user/users/999/roles",
        "/user/users/999/roles/1",
        "/user/users/14/roles/1",
        "/user/groups/1/5/99/roles",
        "/user/groups/1/2/999/roles",
        "/user/groups/1/5/12/roles/2",
    ] {
        app.get(p).admin().send().await.assert_error(404);
    }
    app.req("DELETE", "/user/users/999/roles/1")
        .admin()
        .send()
        .await
        .assert_error(404);
    app.req("DELETE", "/user/groups/1/2/999/roles/1")
        .admin()
        .send()
        .await
        .assert_error(404);
    app.req("POST", "/user/users/14/roles")
        .json_body(
            "RoleAssignInput",
            json!({"Role": {"_href": "/api/ibexa/v2/user/roles/1"}}),
        )
        .send()
        .await
        .assert_error(401);
}

#[tokio::test]
async fn lists_render_in_a_fixed_number_of_statements() {
    let app = TestApp::new().await;
    // The second of two requests: the first loads the caller's Policies after a write.
    let count = async |path: &str| {
        app.get(path).admin().send().await.assert(200);
        let before = app.statements();
        app.get(path).admin().send().await.assert(200);
        app.statements() - before
    };
    let few_policies = count("/user/policies?userId=14").await;
    let few_roles = count("/user/roles").await;
    for i in 0..5 {
        let role = create_role(&app, &format!("R{i}")).await;
        for f in ["read", "edit"] {
            app.req("POST", &format!("/user/roles/{role}/policies"))
                .admin()
                .json_body(
                    "PolicyCreate",
                    json!({"module": "content", "function": f, "limitations": {"limitation": [
                        {"_identifier": "Section", "values": {"ref": [{"_href": "1"}]}}]}}),
                )
                .send()
                .await
                .assert(201);
        }
        app.req("POST", "/user/groups/1/5/13/roles")
            .admin()
            .json_body(
                "RoleAssignInput",
                json!({"Role": {"_href": format!("/api/ibexa/v2/user/roles/{role}")}}),
            )
            .send()
            .await
            .assert(200);
    }
    let p = app
        .get("/user/policies?userId=14")
        .admin()
        .accept("PolicyList+json")
        .send()
        .await;
    assert_eq!(policy_ids(&p.json()).len(), 11);
    assert_eq!(count("/user/policies?userId=14").await, few_policies);
    assert_eq!(count("/user/roles").await, few_roles);
}
