//! Refused Role and Policy changes: duplicate identifiers, drafts beside changed Roles, bad
//! input, anonymous callers, unknown Roles, drafts and Policies, and bad `userId`s.

use super::{add_policy, policies, policy_ids};
use crate::support::*;
use serde_json::json;

#[tokio::test]
async fn role_and_policy_errors() {
    let app = TestApp::new().await;
    let role_input = |method: &str, path: &str, id: &str| {
        (app.req(method, path).admin()).json_body("RoleInput", json!({"identifier": id}))
    };
    // Duplicate identifier: 403 on create, rename, draft rename.
    let dup = role_input("POST", "/user/roles", "Editor").send().await;
    assert!(dup.assert_error(403).contains("Editor"));
    expect_all(vec![
        (role_input("PATCH", "/user/roles/4", "Editor"), 403),
        (app.req("POST", "/user/roles/4").admin(), 201),
        (role_input("PATCH", "/user/roles/4/draft", "Editor"), 403),
    ])
    .await;
    // A Role with a draft is still changed directly, as in the reference; the draft stays,
    // and a second explicit draft is refused.
    let r = role_input("PATCH", "/user/roles/4", "X")
        .accept("Role+json")
        .json_of(200);
    assert_eq!(r.await["Role"]["identifier"], "X");
    let mut rows = vec![(add_policy(&app, 4, "content", "read", None), 201)];
    // Deleting the Role keeps its draft, which publishes as a Role of its own.
    rows.extend(admin_rows(
        &app,
        &[
            ("GET", "/user/roles/4/draft", 200),
            ("POST", "/user/roles/4", 403),
            ("DELETE", "/user/roles/4", 204),
            ("GET", "/user/roles/4/draft", 200),
            ("PUBLISH", "/user/roles/4/draft", 204),
        ],
    ));
    expect_all(rows).await;
    let r = app
        .get("/user/roles?identifier=Member")
        .admin()
        .accept("RoleList+json");
    assert_eq!(items(&r.json_of(200).await, "RoleList", "Role").len(), 1);
    // Missing identifier, bad input, anonymous.
    let post = || app.req("POST", "/user/roles");
    expect_all(vec![
        (post().admin().json_body("RoleInput", json!({})), 400),
        (post().admin().xml_body("RoleInput", "<RoleInput>"), 400),
        (
            post().json_body("RoleInput", json!({"identifier": "A"})),
            401,
        ),
    ])
    .await;
    // Unknown Roles, drafts and Policies: 404; a failed change leaves no draft behind.
    let mut rows = admin_rows(
        &app,
        &[
            ("GET", "/user/roles/99", 404),
            ("POST", "/user/roles/99", 404),
            ("DELETE", "/user/roles/99", 404),
            ("GET", "/user/roles/1/draft", 404),
            ("PUBLISH", "/user/roles/99/draft", 404),
            ("DELETE", "/user/roles/1/draft", 404),
            ("GET", "/user/roles/99/policies", 404),
            ("GET", "/user/roles/1/policies/332", 404),
            ("DELETE", "/user/roles/1/policies/332", 404),
            ("DELETE", "/user/roles/99/policies", 404),
        ],
    );
    let patch = app.req("PATCH", "/user/roles/1/policies/9999").admin();
    rows.push((patch.json_body("PolicyUpdate", json!({})), 404));
    rows.push((app.get("/user/roles/1/draft").admin(), 404));
    expect_all(rows).await;
    // Unknown module or function: 400; a limitation twice: 406; a limitation without
    // values: 400 (all on Role 1, which keeps its Policies).
    let on_role_1 =
        |module, function, limitations| add_policy(&app, 1, module, function, limitations);
    let lim = json!({"_identifier": "Class", "values": {"ref": [{"_href": "1"}]}});
    let empty = json!({"_identifier": "Class", "values": {"ref": []}});
    expect_all(vec![
        (on_role_1("nope", "read", None), 400),
        (on_role_1("content", "nope", None), 400),
        (on_role_1("*", "read", None), 400),
        (on_role_1("content", "read", Some(json!([lim, lim]))), 406),
        (on_role_1("content", "read", Some(json!([empty]))), 400),
    ])
    .await;
    assert_eq!(policy_ids(&policies(&app, 1).await), [328, 331, 334]);
    // userId is required and must be a user.
    expect_all(admin_rows(
        &app,
        &[
            ("GET", "/user/policies", 400),
            ("GET", "/user/policies?userId=4", 404),
        ],
    ))
    .await;
}
