//! The clean install's Roles, Policies and assignments, Role lists by identifier and window,
//! and lists that render in a fixed number of statements.

use super::{add_policy, assign, create_role, id_of, policy_ids};
use crate::support::*;
use serde_json::json;

#[tokio::test]
async fn clean_install_roles_policies_and_assignments_load_with_their_ids() {
    let app = TestApp::new().await;
    let j = app.get_json("/user/roles", "RoleList+json").await;
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
        .get_json("/user/groups/1/5/14/roles", "RoleAssignmentList+json")
        .await;
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
        .get_json("/user/policies?userId=14", "PolicyList+json")
        .await;
    assert_eq!(policy_ids(&p), [332]);
    // The anonymous user (10, in Anonymous users 42): the Anonymous Role.
    let p = app
        .get_json("/user/policies?userId=10", "PolicyList+json")
        .await;
    assert_eq!(policy_ids(&p), [328, 331, 334]);
    assert_eq!(p["PolicyList"]["_href"], "/api/ibexa/v2/user/policies");
}

#[tokio::test]
async fn list_roles_by_identifier_and_window() {
    let app = TestApp::new().await;
    let list = async |query: &str| {
        let r = app.get(&format!("/user/roles{query}")).admin();
        r.accept("RoleList+json").send().await
    };
    let j = list("?identifier=Editor").await.json();
    assert_eq!(j["RoleList"]["Role"].as_array().unwrap().len(), 1);
    assert_eq!(
        j["RoleList"]["Role"][0]["_href"],
        "/api/ibexa/v2/user/roles/3"
    );
    let none = list("?identifier=Nope").await;
    none.assert(200);
    assert!(
        none.json()["RoleList"]["Role"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let window = list("?offset=1&limit=2").await.json();
    let ids: Vec<i64> = window["RoleList"]["Role"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| id_of(&r["_href"]))
        .collect();
    assert_eq!(ids, [2, 3]);
    // As the reference's controller reads them: a negative offset counts as 0, a negative
    // limit asks for all; what is not a number is refused.
    assert_eq!(list("?offset=-1").await.json(), list("").await.json());
    assert_eq!(
        list("?offset=-3&limit=-7").await.json(),
        list("").await.json()
    );
    app.get("/user/roles?offset=x")
        .admin()
        .send()
        .await
        .assert_error(400);
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
        let section = json!([{"_identifier": "Section", "values": {"ref": [{"_href": "1"}]}}]);
        expect_all(vec![
            (
                add_policy(&app, role, "content", "read", Some(section.clone())),
                201,
            ),
            (
                add_policy(&app, role, "content", "edit", Some(section)),
                201,
            ),
            (assign(&app, "/user/groups/1/5/13", role, None), 200),
        ])
        .await;
    }
    let p = app
        .get_json("/user/policies?userId=14", "PolicyList+json")
        .await;
    assert_eq!(policy_ids(&p).len(), 11);
    assert_eq!(count("/user/policies?userId=14").await, few_policies);
    assert_eq!(count("/user/roles").await, few_roles);
}
