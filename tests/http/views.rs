//! Search views (formats.md 8): content and Location queries with criteria, logical
//! operators, sort clauses and paging, in both formats; the deprecated endpoint; errors.

use crate::content::published_folder;
use crate::support::*;
use serde_json::{Value, json};

/// Runs a JSON view (ViewInput 1.1) as admin (the permission tests run them as other users)
/// and returns the View.
pub(crate) async fn view(app: &TestApp, input: Value) -> Value {
    let r = app
        .req("POST", "/views")
        .admin()
        .raw_body(
            "application/vnd.ibexa.api.ViewInput+json; version=1.1",
            &json!({ "ViewInput": input }).to_string(),
        )
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

#[tokio::test]
async fn content_queries_filter_sort_and_page() {
    let app = TestApp::new().await;
    let (_, news) = published_folder(&app, "News", "1/2").await;
    published_folder(&app, "Alpha", &news).await;
    published_folder(&app, "Beta", &news).await;

    let v = view(
        &app,
        content_query(
            json!({"ContentTypeIdentifierCriterion": "folder"}),
            json!({"ContentName": "ascending"}),
        ),
    )
    .await;
    assert_eq!(v["identifier"], "test");
    assert_eq!(v["_href"], format!("{PREFIX}/views/test"));
    assert_eq!(v["Result"]["_href"], format!("{PREFIX}/views/test/results"));
    assert_eq!(v["Result"]["count"], 8);
    assert_eq!(
        names(&v),
        [
            "Alpha",
            "Beta",
            "Files",
            "Ibexa Platform",
            "Images",
            "Media",
            "Multimedia",
            "News"
        ]
    );
    let hit = &v["Result"]["searchHits"]["searchHit"][0];
    assert_eq!(hit["_score"], 1.0);
    assert_eq!(
        hit["value"]["Content"]["CurrentVersion"]["Version"]["VersionInfo"]["status"],
        "PUBLISHED"
    );

    // Paging keeps the count of all matches.
    let v = view(
        &app,
        json!({"identifier": "page", "ContentQuery": {
            "Filter": {"ContentTypeIdentifierCriterion": "folder"},
            "SortClauses": {"ContentName": "descending"}, "limit": 2, "offset": 1}}),
    )
    .await;
    assert_eq!(v["Result"]["count"], 8);
    assert_eq!(names(&v), ["Multimedia", "Media"]);

    // Subtree, logical operators, names, fields, users.
    let v = view(
        &app,
        content_query(
            json!({"SubtreeCriterion": format!("/{news}/"), "NOT": {"ContentNameCriterion": "n*"}}),
            json!({"ContentName": "ascending"}),
        ),
    )
    .await;
    assert_eq!(names(&v), ["Alpha", "Beta"]);
    let v = view(
        &app,
        content_query(
            json!({"OR": [{"ContentNameCriterion": "alp*"}, {"ContentIdCriterion": "41,1"}]}),
            json!({"ContentId": "ascending"}),
        ),
    )
    .await;
    assert_eq!(names(&v), ["Ibexa Platform", "Media", "Alpha"]);
    let v = view(
        &app,
        content_query(
            json!({"Field": {"name": "name", "operator": "EQ", "value": "Images"}}),
            json!({}),
        ),
    )
    .await;
    assert_eq!(names(&v), ["Images"]);
    let v = view(
        &app,
        content_query(
            json!({"AND": {"IsUserBasedCriterion": true, "UserLoginCriterion": "adm*"}}),
            json!({}),
        ),
    )
    .await;
    assert_eq!(names(&v), ["Administrator User"]);
    let v = view(
        &app,
        content_query(
            json!({"ParentLocationIdCriterion": 43, "SectionIdentifierCriterion": "media",
                "DateMetadataCriterion": {"Target": "modified", "Operator": "gte", "Value": 0}}),
            json!({"LocationPriority": "ascending", "ContentId": "ascending"}),
        ),
    )
    .await;
    assert_eq!(names(&v), ["Images", "Files", "Multimedia"]);
    let v = view(
        &app,
        content_query(json!({"FullTextCriterion": "multimed*"}), json!({})),
    )
    .await;
    assert_eq!(names(&v), ["Multimedia"]);
    let v = view(
        &app,
        content_query(
            json!({"ContentTypeIdentifierCriterion": "image"}),
            json!({}),
        ),
    )
    .await;
    assert_eq!(v["Result"]["count"], 0);
    assert!(v["Result"].get("maxScore").is_none_or(Value::is_null));
}

#[tokio::test]
async fn location_queries_answer_locations_in_xml_and_json() {
    let app = TestApp::new().await;
    let v = view(
        &app,
        json!({"identifier": "children", "LocationQuery": {
            "Filter": {"ParentLocationIdCriterion": "43"},
            "SortClauses": {"LocationId": "descending"}}}),
    )
    .await;
    let ids: Vec<i64> = v["Result"]["searchHits"]["searchHit"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["value"]["Location"]["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [53, 52, 51]);

    let body = "<ViewInput><identifier>x</identifier><LocationQuery><Filter><ParentLocationIdCriterion>43</ParentLocationIdCriterion></Filter><limit>2</limit><SortClauses><LocationPath>ascending</LocationPath></SortClauses></LocationQuery></ViewInput>";
    let r = app
        .req("POST", "/views")
        .admin()
        .raw_body("application/vnd.ibexa.api.ViewInput+xml; version=1.1", body)
        .accept("View+xml")
        .send()
        .await;
    r.assert(200);
    let x = r.xml();
    assert_eq!(x.name, "View");
    assert_eq!(child_text(&x, "identifier"), "x");
    let result = x.children.iter().find(|c| c.name == "Result").unwrap();
    assert_eq!(child_text(result, "count"), "3");
    let hits = result
        .children
        .iter()
        .find(|c| c.name == "searchHits")
        .unwrap();
    assert_eq!(hits.children.len(), 2);
    let location = &hits.children[0].children[0].children[0];
    assert_eq!(location.name, "Location");
    assert_eq!(child_text(location, "id"), "51");

    // The reference's 1.0 example (an image query) in XML and JSON.
    for (file, ct) in [
        (
            "ViewInput.json.example",
            "application/vnd.ibexa.api.ViewInput+json",
        ),
        (
            "ViewInput.xml.example",
            "application/vnd.ibexa.api.ViewInput+xml",
        ),
    ] {
        let mut input = reference_example(&format!("views/POST/{file}"));
        // Aggregations are not supported: the same query without them.
        if file.ends_with("json.example") {
            let mut j: Value = serde_json::from_str(&input).unwrap();
            j["ViewInput"]["Query"]
                .as_object_mut()
                .unwrap()
                .remove("Aggregations");
            input = j.to_string();
        } else {
            let start = input.find("<Aggregations>").unwrap();
            let end = input.find("</Aggregations>").unwrap() + "</Aggregations>".len();
            input.replace_range(start..end, "");
        }
        let r = app
            .req("POST", "/views")
            .raw_body(ct, &input)
            .accept("View+json")
            .send()
            .await;
        r.assert(200);
        assert_eq!(r.json()["View"]["identifier"], "TitleView");
        assert_eq!(r.json()["View"]["Result"]["count"], 0);
    }
}

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
    for path in ["/views", "/views/old", "/views/old/results"] {
        app.get(path)
            .accept("View+json")
            .send()
            .await
            .assert_error(501);
    }
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
        json!({"identifier": "x", "ContentQuery": {"Aggregations": [{"ContentTypeTermAggregation": {"name": "t"}}]}}),
    ];
    for input in cases {
        let r = app
            .req("POST", "/views")
            .raw_body(
                "application/vnd.ibexa.api.ViewInput+json; version=1.1",
                &json!({ "ViewInput": input }).to_string(),
            )
            .accept("View+json")
            .send()
            .await;
        let why = r.assert_error(400);
        assert!(!why.is_empty(), "{input}");
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
    let cost = async |limit: i64| {
        let before = app.statements();
        view(
            &app,
            json!({"identifier": "c", "ContentQuery": {"Filter": {"ContentTypeIdentifierCriterion": "folder"}, "limit": limit}}),
        )
        .await;
        app.statements() - before
    };
    assert_eq!(cost(1).await, cost(5).await);
    let cost = async |limit: i64| {
        let before = app.statements();
        view(
            &app,
            json!({"identifier": "l", "LocationQuery": {"Filter": {"SubtreeCriterion": "/1/"}, "limit": limit}}),
        )
        .await;
        app.statements() - before
    };
    assert_eq!(cost(1).await, cost(10).await);
}

/// What one query may ask is bounded (issue 10), each limit named in its 400; a criterion at
/// the limit runs on both databases.
#[tokio::test]
async fn queries_are_bounded_and_say_which_limit() {
    let app = TestApp::new().await;
    let post = async |filter: serde_json::Value| {
        app.req("POST", "/views")
            .admin()
            .raw_body(
                "application/vnd.ibexa.api.ViewInput+json; version=1.1",
                &json!({"ViewInput": {"identifier": "b", "ContentQuery": {"Filter": filter}}})
                    .to_string(),
            )
            .send()
            .await
    };
    let words = vec!["word"; 1000].join(" ");
    let why = post(json!({"FullTextCriterion": words}))
        .await
        .assert_error(400);
    assert!(why.contains("100 at most"), "{why}");
    // Words are counted as the query reads them, not by spaces.
    let why = post(json!({"FullTextCriterion": "a-".repeat(5000)}))
        .await
        .assert_error(400);
    assert!(why.contains("100 at most"), "{why}");
    let ids: Vec<i64> = (1..=1000).collect();
    post(json!({"ContentIdCriterion": ids})).await.assert(200);
    let ids: Vec<i64> = (1..=1001).collect();
    let why = post(json!({"ContentIdCriterion": ids}))
        .await
        .assert_error(400);
    assert!(why.contains("1000 at most"), "{why}");
    for n in [33_000, 70_000] {
        let list: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
        let why = post(json!({"ContentIdCriterion": list.join(",")}))
            .await
            .assert_error(400);
        assert!(why.contains("1000 at most"), "{why}");
    }
    let mut deep = json!({"ContentIdCriterion": 1});
    for _ in 0..11 {
        deep = json!({"NOT": deep});
    }
    let why = post(deep).await.assert_error(400);
    assert!(why.contains("10 deep"), "{why}");
    let many: Vec<serde_json::Value> = (0..101).map(|i| json!({"ContentIdCriterion": i})).collect();
    let why = post(json!({"OR": many})).await.assert_error(400);
    assert!(why.contains("100 criteria"), "{why}");
}

/// Criteria of one name repeated under OR (XML elements, or a JSON array) match either; an
/// XML `Field` sort clause takes its identifier as an attribute (issue 11).
#[tokio::test]
async fn repeated_criteria_join_as_their_operator_and_field_sorts_read_attributes() {
    let app = TestApp::new().await;
    // Content 1 (Home) and 41 (Media) by remote id.
    let json_or = json!({"identifier": "or", "ContentQuery": {"Filter": {"OR": {"ContentRemoteIdCriterion": [
        "9459d3c29e15006e45197295722c7ade", "a6e35cbcb7cd6ae4b691f3eee30cd262"]}}, "limit": 10}});
    let v = view(&app, json_or).await;
    assert_eq!(v["Result"]["count"], 2);
    let xml = r#"<ViewInput><identifier>or</identifier><ContentQuery><Filter><OR>
        <ContentRemoteIdCriterion>9459d3c29e15006e45197295722c7ade</ContentRemoteIdCriterion>
        <ContentRemoteIdCriterion>a6e35cbcb7cd6ae4b691f3eee30cd262</ContentRemoteIdCriterion>
        </OR></Filter><limit>10</limit>
        <SortClauses><Field identifier="folder/name">descending</Field></SortClauses></ContentQuery></ViewInput>"#;
    let r = app
        .req("POST", "/views")
        .admin()
        .raw_body("application/vnd.ibexa.api.ViewInput+xml; version=1.1", xml)
        .accept("View+json")
        .send()
        .await;
    r.assert(200);
    let hits: Vec<String> = r.json()["View"]["Result"]["searchHits"]["searchHit"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["value"]["Content"]["Name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(hits, ["Media", "Ibexa Platform"]);
    // Under AND (the filter's own), two remote ids match nothing.
    let and = json!({"identifier": "and", "ContentQuery": {"Filter": {"ContentRemoteIdCriterion": [
        "9459d3c29e15006e45197295722c7ade", "a6e35cbcb7cd6ae4b691f3eee30cd262"]}}});
    assert_eq!(view(&app, and).await["Result"]["count"], 0);
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

/// Object state criteria: by state id, and by state identifier within a group (the clean
/// install's `ez_lock`, where every item starts `not_locked`).
#[tokio::test]
async fn object_state_criteria_find_the_items_in_a_state() {
    let app = TestApp::new().await;
    let (locked, _) = published_folder(&app, "Locked one", "/content/locations/1/2").await;
    published_folder(&app, "Open one", "/content/locations/1/2").await;
    app.req("PATCH", &format!("/content/objects/{locked}/objectstates"))
        .admin()
        .json_body(
            "ContentObjectStates",
            json!({"ObjectState": [{"_href": format!("{PREFIX}/content/objectstategroups/2/objectstates/2")}]}),
        )
        .send()
        .await
        .assert(200);
    let folders = |criterion: Value| {
        json!({"identifier": "states", "ContentQuery": {"Filter": {"AND": [
            {"ContentTypeIdentifierCriterion": "folder"}, criterion]},
            "SortClauses": {"ContentName": "ascending"}}})
    };
    for criterion in [
        json!({"ObjectStateIdCriterion": 2}),
        json!({"ObjectStateIdentifierCriterion": "locked"}),
        json!({"ObjectStateIdentifierCriterion": {"value": "locked", "target": "ez_lock"}}),
    ] {
        let v = view(&app, folders(criterion.clone())).await;
        assert_eq!(names(&v), ["Locked one"], "{criterion}");
        assert_eq!(v["Result"]["count"], 1);
    }
    let open = view(&app, folders(json!({"ObjectStateIdCriterion": 1}))).await;
    let open = names(&open);
    assert!(open.contains(&"Open one".to_string()) && !open.contains(&"Locked one".to_string()));
    let none = view(
        &app,
        folders(json!({"ObjectStateIdentifierCriterion": {"value": "locked", "target": "other"}})),
    )
    .await;
    assert_eq!(none["Result"]["count"], 0);
}
