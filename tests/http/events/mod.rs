//! The change feed: every committed change once, in commit order, with what made it. The
//! family's fixtures live here.

mod access;
mod creations;
mod feed;
mod stream;

use crate::support::*;
use serde_json::json;

fn events<'a>(app: &'a TestApp, query: &str) -> Req<'a> {
    app.get(&format!("/events{query}")).accept("EventList+json")
}

fn rename_section<'a>(app: &'a TestApp, name: &str) -> Req<'a> {
    app.req("PATCH", "/content/sections/1")
        .admin()
        .json_body("SectionInput", json!({"name": name}))
}

fn ids_of(page: &serde_json::Value) -> Vec<i64> {
    (page["EventList"]["Event"].as_array().unwrap())
        .iter()
        .map(|e| e["id"].as_i64().unwrap())
        .collect()
}
