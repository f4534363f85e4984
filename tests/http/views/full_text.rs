//! Full-text search: ranking with scores, prefixes and accents, the index following
//! publishing, and long queries ranked by their rarest words.

use super::*;

/// Full-text search (issue 10) runs on the database's full-text engine: any word of the query
/// matches (as the reference's), hits are ranked best first with their score, prefixes and
/// words without accents match, and the index follows publishing, copying and deleting in the
/// same transaction; documents missing at start-up are written then.
#[tokio::test]
async fn full_text_search_ranks_hits_and_follows_publishing() {
    let app = TestApp::new().await;
    let (_, top) = published_folder(&app, "Trips", "1/2").await;
    let (lake, _) = published_folder(&app, "Quiet lake", &top).await;
    published_folder(&app, "Alpine lake alpine", &top).await;
    published_folder(&app, "Alpine hut in Zürich", &top).await;
    let search = async |text: &str| {
        let v = view(
            &app,
            json!({"identifier": "ft", "ContentQuery": {
                "Query": {"FullTextCriterion": text},
                "Filter": {"ContentTypeIdentifierCriterion": "folder"}}}),
        )
        .await;
        (v.clone(), scored(&v))
    };

    let (v, hits) = search("alpine lake").await;
    let names: Vec<&str> = hits.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names[0], "Alpine lake alpine", "{hits:?}");
    assert_eq!(names.len(), 3, "{hits:?}");
    assert!(hits.windows(2).all(|w| w[0].1 >= w[1].1), "{hits:?}");
    assert!(hits[0].1 > hits[2].1, "{hits:?}");
    assert_eq!(v["Result"]["maxScore"].as_f64().unwrap(), hits[0].1);
    assert_eq!(v["Result"]["count"], 3);

    let (_, hits) = search("alp*").await;
    assert_eq!(hits.len(), 2, "{hits:?}");
    let (_, hits) = search("ZURICH").await;
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0].0, "Alpine hut in Zürich");
    let (_, hits) = search("lak").await;
    assert!(hits.is_empty(), "whole words only: {hits:?}");

    // A sort clause orders; the score is still given.
    let v = view(
        &app,
        json!({"identifier": "ft", "ContentQuery": {
            "Query": {"AND": [{"FullTextCriterion": "lake"}, {"ContentTypeIdentifierCriterion": "folder"}]},
            "SortClauses": {"ContentName": "descending"}}}),
    )
    .await;
    let hits = scored(&v);
    assert_eq!(hits.len(), 2);
    assert_eq!(hits[0].0, "Quiet lake");
    assert!(hits.iter().all(|(_, s)| *s > 0.0 && *s != 1.0), "{hits:?}");

    // A new version replaces the document when it is published, not before.
    let r = app
        .req("COPY", &format!("/content/objects/{lake}/currentversion"))
        .admin()
        .send()
        .await;
    r.assert(201);
    app.req("PATCH", &format!("/content/objects/{lake}/versions/2"))
        .admin()
        .json_body(
            "VersionUpdate",
            json!({"fields": {"field": [{"fieldDefinitionIdentifier": "name", "languageCode": "eng-GB", "fieldValue": "Quiet pond"}]}}),
        )
        .send()
        .await
        .assert(200);
    assert_eq!(search("pond").await.1.len(), 0);
    crate::content::publish(&app, lake, 2).await;
    assert_eq!(search("pond").await.1.len(), 1);
    assert_eq!(search("lake").await.1.len(), 1);

    // A copy is found; a deleted item is not.
    let r = app
        .req("COPY", &format!("/content/objects/{lake}"))
        .admin()
        .header(
            "destination",
            &format!("/api/ibexa/v2/content/locations/{top}"),
        )
        .send()
        .await;
    r.assert(201);
    assert_eq!(search("pond").await.1.len(), 2);
    app.req("DELETE", &format!("/content/objects/{lake}"))
        .admin()
        .send()
        .await
        .assert(204);
    assert_eq!(search("pond").await.1.len(), 1);

    // Documents lost (an index built after the content) are written at start-up.
    app.sql("DELETE FROM content_text", vec![]).await;
    assert_eq!(search("alpine").await.1.len(), 0);
    let again = app.another_instance().await;
    let v = view(
        &again,
        json!({"identifier": "ft", "ContentQuery": {"Query": {"FullTextCriterion": "alpine"}}}),
    )
    .await;
    assert_eq!(v["Result"]["count"], 2);
    // The clean-install content is indexed too.
    let v = view(
        &again,
        json!({"identifier": "ft", "ContentQuery": {"Query": {"FullTextCriterion": "administrator"}}}),
    )
    .await;
    assert!(v["Result"]["count"].as_i64().unwrap() >= 1);
}

/// Ranking reads the documents of a query's rarest words only (`--rank-documents`, here 2):
/// their hits come first, best first; the hits of the other words follow by id with score 0,
/// through every page; sort clauses sort every match, each with that score.
#[tokio::test]
async fn long_full_text_queries_rank_by_their_rarest_words() {
    let app = TestApp::with_args(&["--rank-documents", "2"]).await;
    let (_, top) = published_folder(&app, "Words", "1/2").await;
    for name in [
        "Alpha beta",
        "Alpha gamma",
        "Alpha",
        "Beta delta",
        "Alpha beta two",
    ] {
        published_folder(&app, name, &top).await;
    }
    if backend() == "postgres" {
        // PostgreSQL counts words from the planner's statistics.
        app.sql("ANALYZE content_text", vec![]).await;
    }
    let search = async |body: Value| {
        let v = view(&app, json!({"identifier": "ft", "ContentQuery": body})).await;
        (v["Result"]["count"].as_i64().unwrap(), scored(&v))
    };
    let page = async |limit: i64, offset: i64| {
        search(json!({"Query": {"FullTextCriterion": "delta beta alpha"},
            "Filter": {"ContentTypeIdentifierCriterion": "folder"},
            "limit": limit, "offset": offset}))
        .await
    };
    // "delta" (one document) ranks; "beta" (three) would pass the budget.
    let (count, hits) = page(10, 0).await;
    assert_eq!(count, 5, "{hits:?}");
    let names: Vec<&str> = hits.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "Beta delta",
            "Alpha beta",
            "Alpha gamma",
            "Alpha",
            "Alpha beta two"
        ]
    );
    assert!(hits[0].1 > 0.0, "{hits:?}");
    assert!(hits[1..].iter().all(|(_, s)| *s == 0.0), "{hits:?}");
    // Pages cut across the two parts in the same order.
    for (limit, offset) in [(2, 0), (2, 1), (2, 3), (3, 2), (1, 4), (2, 5)] {
        let (count, part) = page(limit, offset).await;
        assert_eq!(count, 5);
        let end = (offset + limit).min(5) as usize;
        assert_eq!(
            part,
            hits[offset as usize..end],
            "limit {limit} offset {offset}"
        );
    }
    // Sort clauses sort every match; the score is still that of the ranking words.
    let (_, sorted) = search(json!({"Query": {"AND": [
            {"FullTextCriterion": "delta beta alpha"},
            {"ContentTypeIdentifierCriterion": "folder"}]},
        "SortClauses": {"ContentName": "descending"}}))
    .await;
    let names: Vec<&str> = sorted.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "Beta delta",
            "Alpha gamma",
            "Alpha beta two",
            "Alpha beta",
            "Alpha"
        ]
    );
    assert!(sorted[0].1 > 0.0 && sorted[1..].iter().all(|(_, s)| *s == 0.0));
    // The rarest word ranks even past the budget.
    let (_, hits) = search(json!({"Query": {"FullTextCriterion": "alpha"}})).await;
    assert_eq!(hits.len(), 4);
    assert!(hits.iter().all(|(_, s)| *s > 0.0), "{hits:?}");
}
