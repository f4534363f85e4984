//! Role assignments to users and groups: limited and unlimited, in JSON and XML, ETags,
//! unassignment, the user's Policies, and every refused assignment.

use super::{assign, id_of, policy_ids};
use crate::support::*;
use serde_json::json;

/// The assignments of a `RoleAssignmentList` in JSON.
fn assignments(list: &serde_json::Value) -> Vec<serde_json::Value> {
    items(list, "RoleAssignmentList", "RoleAssignment")
}

#[tokio::test]
async fn assignments_to_users_and_groups() {
    let app = TestApp::new().await;
    // The reference's RoleAssignInput: Administrator limited to Sections 1 and 2, to the admin.
    let j = (app.req("POST", "/user/users/14/roles").admin())
        .accept("RoleAssignmentList+json")
        .raw_body(
            "application/vnd.ibexa.api.RoleAssignInput+json",
            &reference_example("user/users/user_id/roles/POST/RoleAssignInput.json.example"),
        )
        .json_of(200)
        .await;
    let items = assignments(&j);
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
    let again = (app.req("POST", "/user/users/14/roles").admin()).xml_body(
        "RoleAssignInput",
        &reference_example("user/users/user_id/roles/POST/RoleAssignInput.xml.example"),
    );
    again.send().await.assert_error(406);
    let sections = json!({"_identifier": "Section", "values": {"ref": [
        {"_href": "/api/ibexa/v2/content/sections/2"},
        {"_href": "/api/ibexa/v2/content/sections/3"}]}});
    let more = assign(&app, "/user/users/14", 2, Some(sections));
    let more = more.accept("RoleAssignmentList+json").json_of(200).await;
    assert_eq!(assignments(&more).len(), 3);
    // Unlimited, then unlimited again: 406.
    expect_all(vec![
        (assign(&app, "/user/users/14", 4, None), 200),
        (assign(&app, "/user/users/14", 4, None), 406),
    ])
    .await;
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
    let p = app.get_json("/user/policies?userId=14", "PolicyList+json");
    assert_eq!(policy_ids(&p.await), [332, 333]);

    // Unassign: If-Match, then all assignments of the Role go; a Role not assigned: 200.
    let unassign = || app.req("DELETE", "/user/users/14/roles/2").admin();
    unassign().if_match("\"x\"").send().await.assert_error(412);
    let left = unassign().if_match(&etag).accept("RoleAssignmentList+json");
    let left = assignments(&left.json_of(200).await);
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["Role"]["_href"], "/api/ibexa/v2/user/roles/4");
    expect_all(admin_rows(
        &app,
        &[
            ("DELETE", "/user/users/14/roles/3", 200),
            ("GET", "/user/users/14/roles/2", 404),
        ],
    ))
    .await;

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
    let one = app.get_json("/user/groups/1/5/12/roles/3", "RoleAssignment+json");
    let one = one.await;
    assert_eq!(
        one["RoleAssignment"]["limitation"]["values"]["ref"][0]["_href"],
        "/1/43/"
    );
    let u = app.req("DELETE", "/user/groups/1/5/12/roles/3").admin();
    let u = u.accept("RoleAssignmentList+json").json_of(200).await;
    let roles: Vec<i64> = assignments(&u)
        .iter()
        .map(|a| id_of(&a["Role"]["_href"]))
        .collect();
    assert_eq!(roles, [1]);
}

#[tokio::test]
async fn assignment_errors() {
    let app = TestApp::new().await;
    let admin = "/user/users/14";
    let mut rows: Vec<_> = [
        json!({"_identifier": "Class", "values": {"ref": [{"_href": "1"}]}}),
        json!({"_identifier": "Section", "values": {"ref": [{"_href": "/api/ibexa/v2/content/sections/99"}]}}),
        json!({"_identifier": "Section", "values": {"ref": [{"_href": "1"}]}}),
        json!({"_identifier": "Subtree", "values": {"ref": [{"_href": "/api/ibexa/v2/content/locations/1/99"}]}}),
        json!({"_identifier": "Subtree", "values": {"ref": [{"_href": "/api/ibexa/v2/content/locations/1/43/51/"}, {"_href": "/api/ibexa/v2/content/locations/2/43"}]}}),
        json!({"_identifier": "Section", "values": {"ref": []}}),
    ]
    .into_iter()
    .map(|lim| (assign(&app, admin, 1, Some(lim)), 400))
    .collect();
    rows.push((assign(&app, admin, 99, None), 404));
    // Unknown users and groups, no assignment.
    rows.extend(admin_rows(
        &app,
        &[
            ("GET", "/user/users/4/roles", 404),
            ("GET", "/user/users/999/roles", 404),
            ("GET", "/user/users/999/roles/1", 404),
            ("GET", "/user/users/14/roles/1", 404),
            ("GET", "/user/groups/1/5/99/roles", 404),
            ("GET", "/user/groups/1/2/999/roles", 404),
            ("GET", "/user/groups/1/5/12/roles/2", 404),
            ("DELETE", "/user/users/999/roles/1", 404),
            ("DELETE", "/user/groups/1/2/999/roles/1", 404),
        ],
    ));
    let anonymous = app.req("POST", "/user/users/14/roles").json_body(
        "RoleAssignInput",
        json!({"Role": {"_href": "/api/ibexa/v2/user/roles/1"}}),
    );
    rows.push((anonymous, 401));
    expect_all(rows).await;
}
