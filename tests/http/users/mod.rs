//! Users and user groups (formats.md 7): the clean-install accounts and groups, lookups, the
//! life of a group and of a user in both formats, membership, moves, and every error. Shared
//! here: the bodies and fixtures that make groups and users.

mod install;
mod lifecycle;
mod lookups;

use crate::support::*;
use serde_json::{Value, json};

pub(crate) const PASSWORD: &str = "Secret-12345";

fn user_create(login: &str, email: &str) -> Value {
    json!({"mainLanguageCode": "eng-GB", "login": login, "email": email, "password": PASSWORD,
        "fields": {"field": [
            {"fieldDefinitionIdentifier": "first_name", "languageCode": "eng-GB", "fieldValue": "Jo"},
            {"fieldDefinitionIdentifier": "last_name", "languageCode": "eng-GB", "fieldValue": login}]}})
}

fn group_create(name: &str) -> Value {
    json!({"mainLanguageCode": "eng-GB", "fields": {"field": [
        {"fieldDefinitionIdentifier": "name", "languageCode": "eng-GB", "fieldValue": name}]}})
}

/// Creates a group under `parent` (a group path); its path.
async fn new_group(app: &TestApp, parent: &str, name: &str) -> String {
    let r = app
        .req("POST", &format!("/user/groups/{parent}/subgroups"))
        .admin()
        .json_body("UserGroupCreate", group_create(name))
        .accept("UserGroup+json")
        .send()
        .await;
    r.assert(201);
    let href = r.json()["UserGroup"]["_href"].as_str().unwrap().to_string();
    assert_eq!(r.header("location").unwrap(), href);
    href.strip_prefix(&format!("{PREFIX}/user/groups/"))
        .unwrap()
        .to_string()
}

/// Creates a user in the group at `group`; its id.
pub(crate) async fn new_user(app: &TestApp, group: &str, login: &str) -> i64 {
    let r = app
        .req("POST", &format!("/user/groups/{group}/users"))
        .admin()
        .json_body(
            "UserCreate",
            user_create(login, &format!("{login}@example.com")),
        )
        .accept("User+json")
        .send()
        .await;
    r.assert(201);
    r.json()["User"]["_id"].as_i64().unwrap()
}

/// The group hrefs of a user's UserGroupRefList (JSON) and whether each has an unassign link.
async fn groups_of(app: &TestApp, user: i64) -> Vec<(String, bool)> {
    let r = app
        .get(&format!("/user/users/{user}/groups"))
        .admin()
        .accept("UserGroupRefList+json")
        .send()
        .await;
    r.assert(200);
    r.json()["UserGroupRefList"]["UserGroup"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["_href"].as_str().unwrap().replace(PREFIX, ""),
                g.get("unassign").is_some(),
            )
        })
        .collect()
}

/// Gives the members of the group at `path` the clean install's Anonymous Role, whose
/// `user/login` Policy lets them log in.
async fn let_log_in(app: &TestApp, path: &str) {
    app.req("POST", &format!("/user/groups/{path}/roles"))
        .admin()
        .json_body(
            "RoleAssignInput",
            serde_json::json!({"Role": {"_href": format!("{PREFIX}/user/roles/1")}}),
        )
        .send()
        .await
        .assert(200);
}

async fn can_log_in(app: &TestApp, login: &str, password: &str) -> bool {
    let r = app.get("/user/current").basic(login, password).send().await;
    r.status.as_u16() == 307
}
