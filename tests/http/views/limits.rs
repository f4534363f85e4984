//! What a view may not ask: the deprecated endpoint and stored views, bad views (400), the
//! bounds of one query, each named in its 400; and the fixed statement cost of a page of
//! hits.

use super::*;

#[tokio::test]
async fn the_deprecated_endpoint_redirects_and_stored_views_are_not_implemented() {
    let app = TestApp::new().await;
    let r = app
        .req("POST", "/content/views")
        .json_body(
            "ViewInput",
            json!({"identifier": "old", "Query": {"Filter": {"ContentIdCriterion": "1"}}}),
        )
        .accept("View+json")
        .send()
        .await;
    r.assert(301);
    assert_eq!(r.header("location").unwrap(), format!("{PREFIX}/views"));
    assert_eq!(names(&r.json()["View"]), ["Ibexa Platform"]);
    let get = |path: &str| app.get(path).accept("View+json");
    expect_all(vec![
        (get("/views"), 501),
        (get("/views/old"), 501),
        (get("/views/old/results"), 501),
    ])
    .await;
}

#[tokio::test]
async fn bad_views_are_400() {
    let app = TestApp::new().await;
    let cases = [
        json!({"identifier": "x"}),
        json!({"identifier": "x", "ContentQuery": {"Filter": {"NoSuchCriterion": 1}}}),
        json!({"identifier": "x", "ContentQuery": {"SortClauses": {"ContentName": "up"}}}),
        json!({"identifier": "x", "ContentQuery": {"SortClauses": {"Nope": "ascending"}}}),
        json!({"identifier": "x", "ContentQuery": {"limit": -1}}),
        json!({"identifier": "x", "ContentQuery": {"Filter": {"ContentIdCriterion": "a"}}}),
        json!({"identifier": "x", "ContentQuery": {"Filter": {"Field": {"name": "name", "operator": "NEAR", "value": 1}}}}),
        json!({"identifier": "x", "ContentQuery": {"Aggregations": [{"NoSuchTermAggregation": {"name": "t"}}]}}),
    ];
    let rows = cases.into_iter();
    expect_all(
        rows.map(|input| (view_req(&app, input).accept("View+json"), 400))
            .collect(),
    )
    .await;
}

/// What one query may ask is bounded (issue 10), each limit named in its 400; a criterion at
/// the limit runs on both databases.
#[tokio::test]
async fn queries_are_bounded_and_say_which_limit() {
    let app = TestApp::new().await;
    let post = |filter: Value| {
        view_req(
            &app,
            json!({"identifier": "b", "ContentQuery": {"Filter": filter}}),
        )
        .admin()
    };
    let ids = |n: i64| json!({"ContentIdCriterion": (1..=n).collect::<Vec<i64>>()});
    post(ids(1000)).send().await.assert(200);
    let listed = |n: i64| {
        let list: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
        json!({"ContentIdCriterion": list.join(",")})
    };
    let mut deep = json!({"ContentIdCriterion": 1});
    for _ in 0..11 {
        deep = json!({"NOT": deep});
    }
    let many: Vec<Value> = (0..101).map(|i| json!({"ContentIdCriterion": i})).collect();
    // Each filter over a bound, with the bound its 400 names. Words are counted as the query
    // reads them, not by spaces.
    for (filter, bound) in [
        (
            json!({"FullTextCriterion": vec!["word"; 1000].join(" ")}),
            "100 at most",
        ),
        (
            json!({"FullTextCriterion": "a-".repeat(5000)}),
            "100 at most",
        ),
        (ids(1001), "1000 at most"),
        (listed(33_000), "1000 at most"),
        (listed(70_000), "1000 at most"),
        (deep, "10 deep"),
        (json!({"OR": many}), "100 criteria"),
    ] {
        let why = post(filter).send().await.assert_error(400);
        assert!(why.contains(bound), "{bound}: {why}");
    }
}

#[tokio::test]
async fn a_page_of_hits_costs_a_fixed_number_of_statements() {
    let app = TestApp::new().await;
    // The caller's Policies are loaded once, by the first request.
    view(
        &app,
        json!({"identifier": "w", "ContentQuery": {"Filter": {}}}),
    )
    .await;
    let cost = async |input: Value| {
        let before = app.statements();
        view(&app, input).await;
        app.statements() - before
    };
    // A content query and a Location query, each at two limits: the same statements.
    let content = |limit: i64| json!({"identifier": "c", "ContentQuery": {"Filter": {"ContentTypeIdentifierCriterion": "folder"}, "limit": limit}});
    let location = |limit: i64| json!({"identifier": "l", "LocationQuery": {"Filter": {"SubtreeCriterion": "/1/"}, "limit": limit}});
    for (small, large) in [(content(1), content(5)), (location(1), location(10))] {
        assert_eq!(cost(small).await, cost(large).await);
    }
}
