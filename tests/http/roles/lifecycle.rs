//! The life of a Role: drafts, Policies added, changed and deleted in them, publication,
//! renames under If-Match, deletion with its assignments, and Roles created as drafts.

use super::{add_policy, assign, id_of, policies, policy_ids};
use crate::support::*;
use serde_json::json;

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
    let new_draft = || app.req("POST", &format!("/user/roles/{role}")).admin();
    let d = new_draft().accept("RoleDraft+json").send().await;
    d.assert(201);
    assert_eq!(d.content_type(), "application/vnd.ibexa.api.RoleDraft+json");
    let draft = id_of(&d.json()["Role"]["_href"]);
    assert_ne!(draft, role);
    new_draft().send().await.assert_error(403);
    // Loaded by the Role's id or its own.
    for id in [role, draft] {
        let path = format!("/user/roles/{id}/draft");
        let g = app.get_json(&path, "RoleDraft+json").await;
        assert_eq!(id_of(&g["Role"]["_href"]), draft);
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
        .json_of(200)
        .await;
    assert_eq!(u["Role"]["identifier"], "UpdatedIdentifier");
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
        .json_of(200)
        .await;
    let limitations = e["Policy"]["limitations"]["limitation"].as_array().unwrap();
    assert_eq!(limitations.len(), 2);

    // Publish: 204 with the Role's Location; the draft is gone.
    let pb = app.req("PUBLISH", &format!("/user/roles/{role}/draft"));
    let pb = pb.admin().send().await;
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
        .get_json(&format!("/user/roles/{role}"), "Role+json")
        .await;
    assert_eq!(g["Role"]["identifier"], "UpdatedIdentifier");
    assert_eq!(policy_ids(&policies(&app, role).await), [in_draft]);

    // Directly on the published Role (through a draft published at once), JSON.
    let site_access = json!([{"_identifier": "SiteAccess",
                              "values": {"ref": [{"_href": "1766001124"}]}}]);
    let add = add_policy(&app, role, "user", "login", Some(site_access));
    let add = add.accept("Policy+json").json_of(201).await;
    let added = add["Policy"]["id"].as_i64().unwrap();
    assert_eq!(
        add["Policy"]["_href"],
        format!("/api/ibexa/v2/user/roles/{role}/policies/{added}")
    );
    let ids = policy_ids(&policies(&app, role).await);
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&added));
    // As the reference, the Role's Policies are the draft's copies now (new ids).
    let content_create = *ids.iter().find(|i| **i != added).unwrap();
    let policy = format!("/user/roles/{role}/policies/{content_create}");
    let get = app.get(&policy).admin().accept("Policy+json").send().await;
    let etag = get.header("etag").unwrap();
    let update = || app.req("PATCH", &policy).admin();
    let stale = update().if_match("\"stale\"");
    stale
        .json_body("PolicyUpdate", json!({}))
        .send()
        .await
        .assert_error(412);
    let upd = update().if_match(&etag).accept("Policy+json");
    let upd = upd.json_body("PolicyUpdate", json!({})).json_of(200).await;
    assert!(upd["Policy"]["limitations"].is_null());
    let updated = upd["Policy"]["id"].as_i64().unwrap();
    let del = app.req("DELETE", &format!("/user/roles/{role}/policies/{updated}"));
    del.admin().send().await.assert(204);
    assert_eq!(policy_ids(&policies(&app, role).await).len(), 1);
    let all = app.req("DELETE", &format!("/user/roles/{role}/policies"));
    all.admin().send().await.assert(204);
    assert!(policy_ids(&policies(&app, role).await).is_empty());

    // Rename the published Role; If-Match applies.
    let path = format!("/user/roles/{role}");
    let etag = app.get(&path).admin().send().await.header("etag").unwrap();
    let rename = || app.req("PATCH", &path).admin();
    let stale = rename().if_match("\"stale\"");
    let stale = stale.json_body("RoleInput", json!({"identifier": "Renamed"}));
    stale.send().await.assert_error(412);
    let ren = rename()
        .if_match(&etag)
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
    expect_all(vec![
        (assign(&app, "/user/users/14", role, None), 200),
        (app.req("DELETE", &path).admin().if_match("\"stale\""), 412),
        (app.req("DELETE", &path).admin(), 204),
        (app.get(&path).admin(), 404),
    ])
    .await;
    let left = app.get_json("/user/users/14/roles", "RoleAssignmentList+json");
    let left = left.await;
    let left = left["RoleAssignmentList"]["RoleAssignment"].as_array();
    assert!(left.unwrap().is_empty());
}

#[tokio::test]
async fn a_role_created_as_a_draft_is_published_or_discarded() {
    let app = TestApp::new().await;
    let draft = |identifier: &str| {
        (app.req("POST", "/user/roles?publish=false").admin())
            .accept("RoleDraft+json")
            .json_body("RoleInput", json!({ "identifier": identifier }))
    };
    let r = draft("Drafty").send().await;
    r.assert(201);
    assert_eq!(r.content_type(), "application/vnd.ibexa.api.RoleDraft+json");
    let id = id_of(&r.json()["Role"]["_href"]);
    app.get(&format!("/user/roles/{id}"))
        .admin()
        .send()
        .await
        .assert_error(404);
    let none = app.get("/user/roles?identifier=Drafty").admin();
    let none = none.accept("RoleList+json").send().await.json();
    assert!(none["RoleList"]["Role"].as_array().unwrap().is_empty());
    expect_all(admin_rows(
        &app,
        &[
            ("PUBLISH", &format!("/user/roles/{id}/draft"), 204),
            ("GET", &format!("/user/roles/{id}"), 200),
        ],
    ))
    .await;

    let id = id_of(&draft("Gone").send().await.json()["Role"]["_href"]);
    let path = format!("/user/roles/{id}/draft");
    let etag = app.etag(&path).await;
    let delete = || app.req("DELETE", &path).admin();
    expect_all(vec![
        (delete().if_match("\"x\""), 412),
        (delete().if_match(&etag), 204),
        (app.get(&path).admin(), 404),
    ])
    .await;
}
