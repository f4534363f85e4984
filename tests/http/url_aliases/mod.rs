//! URL aliases and URL wildcards (spec 2.11, 4.7, 4.5 urlAlias lookup; formats.md 11): the
//! clean install's aliases, global and custom aliases, wildcards, lookups, and the aliases
//! the tree generates as content is published, renamed, moved, swapped and deleted. The
//! family's fixtures live here; `resolve` serves the trash tests too.

mod clean_install;
mod custom;
mod generated;
mod global;
mod wildcards;

use crate::support::*;
use serde_json::{Value, json};

const USERS: &str = "0-9bc65c2abec141778ffaa729489f3e87";

const ROOT: &str = "0-d41d8cd98f00b204e9800998ecf8427e";

/// The alias ids of a UrlAliasRefList.
fn ids(list: &Value) -> Vec<String> {
    list["UrlAliasRefList"]["UrlAlias"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["_href"]
                .as_str()
                .unwrap()
                .trim_start_matches("/api/ibexa/v2/content/urlaliases/")
                .to_string()
        })
        .collect()
}

async fn location_aliases(app: &TestApp, path: &str, custom: bool) -> Vec<String> {
    let r = app
        .get(&format!(
            "/content/locations/{path}/urlaliases?custom={custom}"
        ))
        .admin()
        .accept("UrlAliasRefList+json")
        .send()
        .await;
    r.assert(200);
    ids(&r.json())
}

async fn alias(app: &TestApp, id: &str) -> Value {
    let r = app
        .get(&format!("/content/urlaliases/{id}"))
        .accept("UrlAlias+json")
        .send()
        .await;
    r.assert(200);
    r.json()["UrlAlias"].clone()
}

/// The paths of a Location's aliases.
async fn alias_paths(app: &TestApp, path: &str, custom: bool) -> Vec<String> {
    let mut paths = Vec::new();
    for id in location_aliases(app, path, custom).await {
        paths.push(alias(app, &id).await["path"].as_str().unwrap().to_string());
    }
    paths.sort();
    paths
}

/// `GET /content/locations?urlAlias=`: the redirect target's Location path, or the status.
pub async fn resolve(app: &TestApp, alias: &str) -> Result<String, u16> {
    let r = app
        .get(&format!("/content/locations?urlAlias={alias}"))
        .admin()
        .send()
        .await;
    if r.status.as_u16() != 307 {
        return Err(r.status.as_u16());
    }
    Ok(r.header("location")
        .unwrap()
        .trim_start_matches("/api/ibexa/v2/content/locations/")
        .to_string())
}

fn create_global(path: &str, resource: &str) -> Value {
    json!({
        "_type": "GLOBAL",
        "resource": resource,
        "path": path,
        "languageCode": "eng-GB",
        "alwaysAvailable": "true",
        "forward": "true"
    })
}

fn create_custom(location: &str, path: &str) -> Value {
    json!({
        "_type": "LOCATION",
        "location": {"_href": format!("/api/ibexa/v2/content/locations/{location}")},
        "path": path,
        "languageCode": "eng-GB"
    })
}

async fn create(app: &TestApp, input: Value) -> crate::support::Resp {
    create_req(app, input).send().await
}

/// The `UrlAliasCreate` request (JSON, as admin) that `create` sends, for tables.
fn create_req(app: &TestApp, input: Value) -> Req<'_> {
    app.req("POST", "/content/urlaliases")
        .admin()
        .accept("UrlAlias+json")
        .json_body("UrlAliasCreate", input)
}

/// Creates an alias from a `UrlAliasCreate` in XML as admin (201); the `UrlAlias` in XML.
async fn create_xml(app: &TestApp, xml: &str) -> cairn_runtime::xml::XmlElement {
    let r = app
        .req("POST", "/content/urlaliases")
        .admin()
        .accept("UrlAlias+xml");
    let r = r.xml_body("UrlAliasCreate", xml).send().await;
    r.assert(201);
    r.xml()
}
