//! Object state groups and Object states (spec 4.4): the clean-install group, the life of a
//! group and its states in JSON and XML, priorities, every error, and the content items'
//! states (read straight from the database). The family's fixtures live here.

mod content_states;
mod errors;
mod languages;
mod lifecycle;
mod listing;
mod xml;

use crate::support::*;
use serde_json::{Value, json};

const GROUP_CHILDREN: [&str; 7] = [
    "id",
    "identifier",
    "defaultLanguageCode",
    "languageCodes",
    "ObjectStates",
    "names",
    "descriptions",
];

const STATE_CHILDREN: [&str; 8] = [
    "id",
    "identifier",
    "priority",
    "ObjectStateGroup",
    "defaultLanguageCode",
    "languageCodes",
    "names",
    "descriptions",
];

fn names(text: &str) -> Value {
    json!({"value": [{"_languageCode": "eng-GB", "#text": text}]})
}

pub(crate) fn group_input(identifier: &str) -> Value {
    json!({
        "identifier": identifier,
        "defaultLanguageCode": "eng-GB",
        "names": names(&format!("Group {identifier}")),
        "descriptions": names("A group"),
    })
}

pub(crate) fn state_input(identifier: &str, priority: i64) -> Value {
    json!({
        "identifier": identifier,
        "priority": priority,
        "defaultLanguageCode": "eng-GB",
        "names": names(&format!("State {identifier}")),
    })
}

async fn create_group(app: &TestApp, identifier: &str) -> i64 {
    let r = app
        .req("POST", "/content/objectstategroups")
        .admin()
        .accept("ObjectStateGroup+json")
        .json_body("ObjectStateGroupCreate", group_input(identifier))
        .send()
        .await;
    r.assert(201);
    r.json()["ObjectStateGroup"]["id"].as_i64().unwrap()
}

/// Creates a state; its (id, priority).
async fn create_state(app: &TestApp, group: i64, identifier: &str, priority: i64) -> (i64, i64) {
    let r = app
        .req(
            "POST",
            &format!("/content/objectstategroups/{group}/objectstates"),
        )
        .admin()
        .accept("ObjectState+json")
        .json_body("ObjectStateCreate", state_input(identifier, priority))
        .send()
        .await;
    r.assert(201);
    let s = &r.json()["ObjectState"];
    (s["id"].as_i64().unwrap(), s["priority"].as_i64().unwrap())
}

/// The group's states as the list gives them: (identifier, priority).
async fn states(app: &TestApp, group: i64) -> Vec<(String, i64)> {
    let r = app
        .get(&format!("/content/objectstategroups/{group}/objectstates"))
        .accept("ObjectStateList+json")
        .send()
        .await;
    r.assert(200);
    r.json()["ObjectStateList"]["ObjectState"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["identifier"].as_str().unwrap().to_string(),
                s["priority"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// How many groups the list gives (read anonymously, in JSON).
async fn group_count(app: &TestApp) -> usize {
    let list = app.get("/content/objectstategroups");
    let list = list.accept("ObjectStateGroupList+json").json_of(200).await;
    items(&list, "ObjectStateGroupList", "ObjectStateGroup").len()
}

fn order(list: &[(&str, i64)]) -> Vec<(String, i64)> {
    list.iter().map(|(i, p)| (i.to_string(), *p)).collect()
}

fn child_names(el: &cairn_runtime::xml::XmlElement) -> Vec<&str> {
    el.children.iter().map(|c| c.name.as_str()).collect()
}

fn child<'a>(
    el: &'a cairn_runtime::xml::XmlElement,
    name: &str,
) -> &'a cairn_runtime::xml::XmlElement {
    el.children.iter().find(|c| c.name == name).unwrap()
}

/// The harness's app with the calls these tests make: JSON as admin, and reads of the
/// assignments straight from the database.
struct DbApp(TestApp);

impl DbApp {
    async fn new() -> DbApp {
        DbApp(TestApp::new().await)
    }

    /// A JSON request as admin; the status and the body (null when empty).
    async fn call(&self, method: &str, path: &str, input: Option<(&str, Value)>) -> (u16, Value) {
        let mut r = self.0.req(method, path).admin().accept("ObjectState+json");
        if let Some((name, value)) = input {
            r = r.json_body(name, value);
        }
        let resp = r.send().await;
        let value = if resp.body.is_empty() {
            Value::Null
        } else {
            resp.json()
        };
        (resp.status.as_u16(), value)
    }

    async fn sql(&self, sql: &str) -> Vec<Value> {
        self.0.query(sql, vec![]).await
    }

    /// `(content id, state id)` of every content item in group `group`, by content id.
    async fn states_in_group(&self, group: i64) -> Vec<(i64, i64)> {
        self.sql(&format!(
            "SELECT content_id, state_id FROM content_object_states WHERE group_id = {group} ORDER BY content_id"
        ))
        .await
        .iter()
        .map(|r| {
            (
                r["content_id"].as_i64().unwrap(),
                r["state_id"].as_i64().unwrap(),
            )
        })
        .collect()
    }

    async fn content_ids(&self) -> Vec<i64> {
        self.sql("SELECT id FROM contents ORDER BY id")
            .await
            .iter()
            .map(|r| r["id"].as_i64().unwrap())
            .collect()
    }
}
