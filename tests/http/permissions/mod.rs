//! Permissions (issue 9): the clean-install Roles, custom Roles with each limitation, lists
//! and search filtered in SQL, refused writes that change nothing, and accounts whose
//! sessions end with their credentials. The family's fixtures (users, Roles made for them,
//! reads as them) live here; `PW`, `role_for` and `plain_user` serve other families too.

mod administrators;
mod anonymous;
mod changes;
mod languages;
mod limitations;
mod matrix;
mod sections;
mod sessions;
mod tokens;

use crate::support::*;
use serde_json::{Value, json};

pub const PW: &str = "Secret-12345";

/// A user's login, the Policy its Role gives, and the paths with the status each answers.
type Case = (&'static str, Value, Vec<(String, u16)>);

/// A user `login` among the editors (`1/5/14`) whose only Role lets it change its own
/// password (`user/password`); its content id.
async fn user_with_own_password(app: &TestApp, login: &str) -> i64 {
    let user = user_in(app, "1/5/14", login).await;
    let policies = [json!(["user", "password", []])];
    role_for(app, user, "Own password", &policies, None).await;
    user
}

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

/// A Role `name` with `user/login` (unless `policies` has its own) and the Policies
/// `policies` (`[module, function, limitations]`), assigned to the user `user` (with the
/// assignment limitation `limit`).
pub async fn role_for(
    app: &TestApp,
    user: i64,
    name: &str,
    policies: &[Value],
    limit: Option<Value>,
) {
    // A draft first, its Policies added to it, then published once (each Policy added to a
    // published Role would go through a draft of its own).
    let r = app
        .req("POST", "/user/roles?publish=false")
        .admin()
        .json_body("RoleInput", json!({"identifier": name}))
        .accept("RoleDraft+json")
        .send()
        .await;
    r.assert(201);
    let draft = last_id(r.json()["Role"]["_href"].as_str().unwrap());
    // `user/login` without limitation, unless the Policies name one of their own.
    let mut all = Vec::new();
    if !policies.iter().any(|p| p[0] == "user" && p[1] == "login") {
        all.push(json!(["user", "login", []]));
    }
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
        app.req("POST", &format!("/user/roles/{draft}/policies"))
            .admin()
            .json_body("PolicyCreate", create)
            .send()
            .await
            .assert(201);
    }
    let r = app
        .req("PUBLISH", &format!("/user/roles/{draft}/draft"))
        .admin()
        .send()
        .await;
    r.assert(204);
    let role = last_id(&r.header("location").unwrap());
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
