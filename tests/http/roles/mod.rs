//! Roles and Policies (spec 4.6): clean-install data, the life of a Role through drafts,
//! Policies with limitations, assignments to users and groups, the Policies of a user, and
//! every error. The family's fixtures live here.

mod assignments;
mod errors;
mod lifecycle;
mod listing;
mod policy_map;

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
    app.get_json(&format!("/user/roles/{role}/policies"), "PolicyList+json")
        .await
}

/// A `PolicyCreate` (JSON, as admin) of `module`/`function` on Role `role`, with these
/// limitations (the items of `limitations.limitation`) when some are given.
fn add_policy<'a>(
    app: &'a TestApp,
    role: i64,
    module: &str,
    function: &str,
    limitations: Option<Value>,
) -> Req<'a> {
    let mut body = json!({"module": module, "function": function});
    if let Some(l) = limitations {
        body["limitations"] = json!({ "limitation": l });
    }
    (app.req("POST", &format!("/user/roles/{role}/policies"))
        .admin())
    .json_body("PolicyCreate", body)
}

/// A `RoleAssignInput` (JSON, as admin) of Role `role` to the user or group at `to`
/// (`/user/users/14`), with this limitation when one is given.
fn assign<'a>(app: &'a TestApp, to: &str, role: i64, limitation: Option<Value>) -> Req<'a> {
    let mut body = json!({"Role": {"_href": format!("/api/ibexa/v2/user/roles/{role}")}});
    if let Some(l) = limitation {
        body["limitation"] = l;
    }
    (app.req("POST", &format!("{to}/roles")).admin()).json_body("RoleAssignInput", body)
}
