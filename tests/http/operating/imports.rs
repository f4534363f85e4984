//! `cairn import`: JSON Lines of ContentCreate bodies published in batches, stopping at a bad
//! line.

use crate::support::*;
use serde_json::json;

fn import_line(name: &str) -> String {
    let body = serde_json::json!({"ContentCreate": {
        "ContentType": {"_href": "/api/ibexa/v2/content/types/1"},
        "mainLanguageCode": "eng-GB",
        "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
        "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": name}]}
    }});
    format!("{body}\n")
}

pub(crate) async fn import(
    app: &TestApp,
    text: &str,
    login: &str,
) -> (anyhow::Result<usize>, Vec<usize>) {
    let dialect = std::sync::Arc::new(cairn_runtime::http::Settings {
        wire: cairn_runtime::media::Wire::new("ibexa", "/api/ibexa/v2"),
        cors_origins: vec![],
        max_body: 1 << 20,
        edge: Default::default(),
    });
    let how = cairn::admin::Import {
        login: login.into(),
        batch: 2,
        publish: true,
    };
    let mut seen = Vec::new();
    let n = cairn::admin::import(&app.service, dialect, text.as_bytes(), &how, |n| {
        seen.push(n)
    })
    .await;
    (n, seen)
}

/// `cairn import` (issue 14): JSON Lines of ContentCreate bodies, published, a transaction per
/// batch; a bad line stops the import, names the line and rolls its batch back; the user it
/// acts as needs the Policies the API would ask for.
#[tokio::test]
async fn import_creates_and_publishes_in_batches_and_stops_at_a_bad_line() {
    let app = TestApp::new().await;
    let children = async || {
        let r = app
            .get_json("/content/locations/1/2/children", "LocationList+json")
            .await;
        r["LocationList"]["Location"].as_array().unwrap().len()
    };
    // Blank lines are skipped.
    let text = [
        import_line("One"),
        import_line("Two"),
        "\n".into(),
        import_line("Three"),
    ]
    .concat();
    let (n, seen) = import(&app, &text, "admin").await;
    assert_eq!(n.unwrap(), 3);
    assert_eq!(seen, [2, 3]);
    assert_eq!(children().await, 3);
    // Every item of a batch is in the full-text index (its documents are written last in the
    // batch's transaction), and none of a batch rolled back.
    let found = async |word: &str| {
        let query = json!({"identifier": "ft", "ContentQuery": {
            "Query": {"FullTextCriterion": word}}});
        crate::views::view(&app, query).await["Result"]["count"].clone()
    };
    for word in ["One", "Two", "Three"] {
        assert_eq!(found(word).await, 1, "{word}");
    }
    let r = app
        .get("/content/locations/1/2/children")
        .accept("LocationList+json")
        .send()
        .await;
    r.assert(200);

    // Batch 1 (lines 1-2) stays; line 4 fails, so batch 2 (lines 3-4) goes.
    let bad = import_line("Bad").replace("\"name\"", "\"no_such_field\"");
    let text = [
        import_line("Four"),
        import_line("Five"),
        import_line("Six"),
        bad,
    ]
    .concat();
    let (n, seen) = import(&app, &text, "admin").await;
    let e = n.unwrap_err().to_string();
    assert!(e.starts_with("line 4: "), "{e}");
    assert_eq!(seen, [2]);
    assert_eq!(children().await, 5);
    assert_eq!(found("Five").await, 1);
    assert_eq!(found("Six").await, 0);
    let (n, _) = import(&app, "{\"ContentCreate\": 1}\n", "admin").await;
    assert!(n.unwrap_err().to_string().starts_with("line 1: "));

    // The anonymous user may not create content; nobody is no one.
    let (n, seen) = import(&app, &import_line("Seven"), "anonymous").await;
    assert!(n.is_err() && seen.is_empty());
    let (n, _) = import(&app, &import_line("Seven"), "nobody").await;
    assert!(n.unwrap_err().to_string().contains("nobody"));
    assert_eq!(children().await, 5);
}
