//! Search views (formats.md 8): content and Location queries with criteria, logical
//! operators, sort clauses and paging, in both formats; the deprecated endpoint; errors.
//! Shared here: running a view and reading its hits.

mod aggregations;
mod full_text;
mod images;
mod limits;
mod queries;

use crate::content::published_folder;
use crate::support::*;
use serde_json::{Value, json};

/// Runs a JSON view (ViewInput 1.1) as admin (the permission tests run them as other users)
/// and returns the View.
pub(crate) async fn view(app: &TestApp, input: Value) -> Value {
    let r = view_req(app, input)
        .admin()
        .accept("View+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.content_type(), "application/vnd.ibexa.api.View+json");
    r.json()["View"].clone()
}

/// The names of the content hits of a View (content or Location hits).
fn names(v: &Value) -> Vec<String> {
    v["Result"]["searchHits"]["searchHit"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| match &h["value"] {
            value if value.get("Content").is_some() => {
                value["Content"]["Name"].as_str().unwrap().to_string()
            }
            value => value["Location"]["ContentInfo"]["Content"]["Name"]
                .as_str()
                .unwrap()
                .to_string(),
        })
        .collect()
}

fn content_query(filter: Value, sort: Value) -> Value {
    json!({"identifier": "test", "ContentQuery": {"Filter": filter, "SortClauses": sort, "limit": 50}})
}

/// The hits of a View with their scores.
fn scored(v: &Value) -> Vec<(String, f64)> {
    let scores = v["Result"]["searchHits"]["searchHit"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["_score"].as_f64().unwrap());
    names(v).into_iter().zip(scores).collect()
}

/// `POST /views` of a JSON ViewInput 1.1, anonymous; credentials and Accept to come.
fn view_req(app: &TestApp, input: Value) -> Req<'_> {
    app.req("POST", "/views").raw_body(
        "application/vnd.ibexa.api.ViewInput+json; version=1.1",
        &json!({ "ViewInput": input }).to_string(),
    )
}
