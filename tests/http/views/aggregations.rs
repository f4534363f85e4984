//! Aggregations of content and Location queries (issue 45): every kind the reference's
//! parsers read, counted against hand-computed numbers in both formats, the reference's
//! result shape, limits, and a user whose limitations hide items (they never count).

use super::*;
use crate::permissions::{PW, plain_user, role_for};

/// A folder `Agg` under the root with folders A, B (standard Section), C (media Section)
/// and D under A: returns (path of Agg, path of A, content ids of Agg, A, B, C, D).
async fn tree(app: &TestApp) -> (String, String, Vec<i64>) {
    let (agg, agg_path) = published_folder(app, "Agg", "1/2").await;
    let (a, a_path) = published_folder(app, "A", &agg_path).await;
    let (b, _) = published_folder(app, "B", &agg_path).await;
    let (c, _) = published_folder(app, "C", &agg_path).await;
    let (d, _) = published_folder(app, "D", &a_path).await;
    app.set_section(c, 3).await;
    (agg_path, a_path, vec![agg, a, b, c, d])
}

fn query(kind: &str, path: &str, aggregations: Value) -> Value {
    json!({"identifier": "agg", kind: {
        "Filter": {"SubtreeCriterion": format!("/{path}/")},
        "limit": 0,
        "Aggregations": aggregations}})
}

/// The aggregation results of a View by name.
fn results(v: &Value) -> std::collections::HashMap<String, Value> {
    v["Result"]["aggregations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["name"].as_str().unwrap().to_string(), a.clone()))
        .collect()
}

/// The (key, count) of a term result, its key read by `key`.
fn buckets(r: &Value, key: impl Fn(&Value) -> Value) -> Vec<(Value, i64)> {
    r["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (key(&e["key"]), e["count"].as_i64().unwrap()))
        .collect()
}

fn last_segment(path: &str) -> i64 {
    path.rsplit('/').next().unwrap().parse().unwrap()
}

#[tokio::test]
async fn metadata_aggregations_count_the_hits_in_the_references_shape() {
    let app = TestApp::new().await;
    let (agg_path, a_path, ids) = tree(&app).await;
    let (agg, a) = (last_segment(&agg_path), last_segment(&a_path));
    let all = json!([
        {"ContentTypeTermAggregation": {"name": "types"}},
        {"ContentTypeGroupTermAggregation": {"name": "groups"}},
        {"SectionTermAggregation": {"name": "sections"}},
        {"SectionTermAggregation": {"name": "first", "limit": 1}},
        {"SectionTermAggregation": {"name": "common", "minCount": 2}},
        {"LanguageTermAggregation": {"name": "languages"}},
        {"VisibilityTermAggregation": {"name": "visible"}},
        {"UserMetadataTermAggregation": {"name": "owners", "type": "owner"}},
        {"ObjectStateTermAggregation": {"name": "lock", "objectStateGroupIdentifier": "ez_lock"}},
        {"LocationChildrenTermAggregation": {"name": "children"}},
        {"SubtreeTermAggregation": {"name": "subtree", "pathString": format!("/{agg_path}/")}},
        {"RawTermAggregation": {"name": "raw", "fieldName": "content_section_id_id"}},
        {"DateMetadataRangeAggregation": {"name": "published", "type": "published",
            "ranges": [{"from": null, "to": "1970-01-02T00:00:00+00:00"}, {"from": 86400, "to": null}]}},
        {"RawRangeAggregation": {"name": "ids", "fieldName": "content_id_id",
            "ranges": [{"from": ids[0], "to": ids[2]}, {"from": ids[2], "to": null}]}},
        {"RawStatsAggregation": {"name": "stats", "fieldName": "content_id_id"}},
    ]);
    let v = view(&app, query("LocationQuery", &agg_path, all.clone())).await;
    assert_eq!(v["Result"]["count"], 5);
    let r = results(&v);
    assert_eq!(r.len(), 15);
    let types = &r["types"];
    assert_eq!(
        types["_media-type"],
        "application/vnd.ibexa.api.TermAggregationResult+json"
    );
    let entry = &types["entries"][0];
    assert_eq!(
        entry["_media-type"],
        "application/vnd.ibexa.api.TermAggregationResultEntry+json"
    );
    assert_eq!(entry["key"]["ContentType"]["identifier"], "folder");
    assert_eq!(
        entry["key"]["ContentType"]["_href"],
        format!("{PREFIX}/content/types/1")
    );
    assert_eq!(entry["count"], 5);
    let id_of = |name: &'static str, field: &'static str| move |k: &Value| k[name][field].clone();
    assert_eq!(
        buckets(&r["groups"], id_of("ContentTypeGroup", "identifier")),
        [(json!("Content"), 5)]
    );
    assert_eq!(
        buckets(&r["sections"], id_of("Section", "identifier")),
        [(json!("standard"), 4), (json!("media"), 1)]
    );
    assert_eq!(
        buckets(&r["first"], id_of("Section", "identifier")),
        [(json!("standard"), 4)]
    );
    assert_eq!(
        buckets(&r["common"], id_of("Section", "identifier")),
        [(json!("standard"), 4)]
    );
    assert_eq!(
        buckets(&r["languages"], id_of("Language", "languageCode")),
        [(json!("eng-GB"), 5)]
    );
    assert_eq!(buckets(&r["visible"], |k| k.clone()), [(json!(true), 5)]);
    assert_eq!(
        buckets(&r["owners"], id_of("User", "login")),
        [(json!("admin"), 5)]
    );
    assert_eq!(
        buckets(&r["lock"], id_of("ObjectState", "identifier")),
        [(json!("not_locked"), 5)]
    );
    // Agg's parent holds Agg; Agg holds A, B and C; A holds D.
    assert_eq!(
        buckets(&r["children"], id_of("Location", "id")),
        [(json!(agg), 3), (json!(2), 1), (json!(a), 1)]
    );
    // Under Agg: A, B, C and D; under A: D (a Location does not count under itself).
    assert_eq!(
        buckets(&r["subtree"], id_of("Location", "id")),
        [(json!(agg), 4), (json!(a), 1)]
    );
    assert_eq!(
        buckets(&r["raw"], |k| k.clone()),
        [(json!("1"), 4), (json!("3"), 1)]
    );
    let ranges = &r["published"];
    assert_eq!(
        ranges["_media-type"],
        "application/vnd.ibexa.api.RangeAggregationResult+json"
    );
    assert_eq!(ranges["entries"][0]["key"]["Range"]["from"], Value::Null);
    assert_eq!(
        ranges["entries"][0]["key"]["Range"]["to"],
        "1970-01-02T00:00:00+00:00"
    );
    assert_eq!(ranges["entries"][0]["count"], 0);
    assert_eq!(ranges["entries"][1]["count"], 5);
    let ids_counts: Vec<i64> = (r["ids"]["entries"].as_array().unwrap().iter())
        .map(|e| e["count"].as_i64().unwrap())
        .collect();
    assert_eq!(ids_counts, [2, 3]);
    let stats = &r["stats"];
    let sum: i64 = ids.iter().sum();
    assert_eq!(
        stats["_media-type"],
        "application/vnd.ibexa.api.StatsAggregationResult+json"
    );
    assert_eq!(stats["sum"].as_f64().unwrap(), sum as f64);
    assert_eq!(stats["count"], 5);
    assert_eq!(stats["min"].as_f64().unwrap(), ids[0] as f64);
    assert_eq!(stats["max"].as_f64().unwrap(), ids[4] as f64);
    assert_eq!(stats["avg"].as_f64().unwrap(), sum as f64 / 5.0);

    // A content search counts items: the same numbers for what does not depend on Locations.
    let v = view(&app, query("ContentQuery", &agg_path, all)).await;
    let r = results(&v);
    assert_eq!(
        buckets(&r["sections"], id_of("Section", "identifier")),
        [(json!("standard"), 4), (json!("media"), 1)]
    );
    assert_eq!(
        buckets(&r["subtree"], id_of("Location", "id")),
        [(json!(agg), 4), (json!(a), 1)]
    );

    // XML: the results are the Result's own elements, entries theirs, keys hold the object.
    let xml = format!(
        r#"<ViewInput><identifier>agg</identifier><LocationQuery>
        <Filter><SubtreeCriterion>/{agg_path}/</SubtreeCriterion></Filter><limit>0</limit>
        <Aggregations>
          <Aggregation><SectionTermAggregation><name>sections</name></SectionTermAggregation></Aggregation>
          <Aggregation><VisibilityTermAggregation><name>visible</name></VisibilityTermAggregation></Aggregation>
          <Aggregation><DateMetadataRangeAggregation><name>published</name><type>published</type>
            <ranges><Range><from></from><to>86400</to></Range><Range><from>86400</from><to></to></Range></ranges>
          </DateMetadataRangeAggregation></Aggregation>
          <Aggregation><RawStatsAggregation><name>stats</name><fieldName>content_id_id</fieldName></RawStatsAggregation></Aggregation>
        </Aggregations></LocationQuery></ViewInput>"#
    );
    let r = app
        .req("POST", "/views")
        .admin()
        .raw_body("application/vnd.ibexa.api.ViewInput+xml; version=1.1", &xml)
        .accept("View+xml")
        .send()
        .await;
    r.assert(200);
    let body = r.body.clone();
    for expected in [
        r#"<TermAggregationResult media-type="application/vnd.ibexa.api.TermAggregationResult+xml"><name>sections</name><TermAggregationResultEntry media-type="application/vnd.ibexa.api.TermAggregationResultEntry+xml"><key><Section media-type="application/vnd.ibexa.api.Section+xml" href="/api/ibexa/v2/content/sections/1">"#,
        "<count>4</count></TermAggregationResultEntry>",
        "<name>visible</name><TermAggregationResultEntry media-type=\"application/vnd.ibexa.api.TermAggregationResultEntry+xml\"><key>true</key><count>5</count>",
        r#"<RangeAggregationResult media-type="application/vnd.ibexa.api.RangeAggregationResult+xml"><name>published</name><RangeAggregationResultEntry media-type="application/vnd.ibexa.api.RangeAggregationResultEntry+xml"><key><Range media-type="application/vnd.ibexa.api.Range+xml"><from/><to>1970-01-02T00:00:00+00:00</to></Range></key><count>0</count>"#,
        "<count>5</count></RangeAggregationResultEntry></RangeAggregationResult>",
        r#"<StatsAggregationResult media-type="application/vnd.ibexa.api.StatsAggregationResult+xml"><name>stats</name>"#,
        "<count>5</count>",
    ] {
        assert!(body.contains(expected), "{expected} not in {body}");
    }
    assert!(!body.contains("<aggregations"), "{body}");
}

/// A denied item never counts: a user who reads the standard Section only sees four.
#[tokio::test]
async fn a_denied_item_never_counts() {
    let app = TestApp::new().await;
    let (agg_path, _, _) = tree(&app).await;
    let user = plain_user(&app, "standard_reader").await;
    role_for(
        &app,
        user,
        "standard_reader",
        &[json!(["content", "read", [["Section", ["1"]]]])],
        None,
    )
    .await;
    let input = query(
        "ContentQuery",
        &agg_path,
        json!([
            {"SectionTermAggregation": {"name": "sections"}},
            {"ContentTypeTermAggregation": {"name": "types"}},
            {"RawStatsAggregation": {"name": "stats", "fieldName": "content_id_id"}},
        ]),
    );
    let r = view_req(&app, input)
        .basic("standard_reader", PW)
        .accept("View+json")
        .send()
        .await;
    r.assert(200);
    let v = r.json()["View"].clone();
    assert_eq!(v["Result"]["count"], 4);
    let r = results(&v);
    assert_eq!(
        buckets(&r["sections"], |k| k["Section"]["identifier"].clone()),
        [(json!("standard"), 4)]
    );
    assert_eq!(r["types"]["entries"][0]["count"], 4);
    assert_eq!(r["stats"]["count"], 4);
}

/// Field aggregations over a type of their own: keywords, selections, countries, checkboxes,
/// authors, integer and float ranges and stats, dates.
#[tokio::test]
async fn field_aggregations_count_the_values_of_the_current_versions() {
    let app = TestApp::new().await;
    let field = |id: &str, ty: &str, pos: i64, settings: Value| {
        json!({"identifier": id, "fieldType": ty, "position": pos, "isRequired": false,
            "isTranslatable": true, "fieldSettings": settings,
            "names": {"value": [{"_languageCode": "eng-GB", "#text": id}]}})
    };
    let r = app
        .req("POST", "/content/typegroups/1/types?publish=true")
        .admin()
        .accept("ContentType+json")
        .json_body(
            "ContentTypeCreate",
            json!({"identifier": "product", "mainLanguageCode": "eng-GB", "nameSchema": "<title>",
                "names": {"value": [{"_languageCode": "eng-GB", "#text": "Product"}]},
                "FieldDefinitions": {"FieldDefinition": [
                    field("title", "ezstring", 1, json!({})),
                    field("tags", "ezkeyword", 2, json!({})),
                    field("color", "ezselection", 3, json!({"isMultiple": true, "options": ["Red", "Green", "Blue"]})),
                    field("origin", "ezcountry", 4, json!({"isMultiple": true})),
                    field("on_sale", "ezboolean", 5, json!({})),
                    field("stock", "ezinteger", 6, json!({})),
                    field("price", "ezfloat", 7, json!({})),
                    field("released", "ezdate", 8, json!({"defaultType": "DEFAULT_EMPTY"})),
                    field("writer", "ezauthor", 9, json!({})),
                ]}}),
        )
        .send()
        .await;
    r.assert(201);
    let type_id = r.json()["ContentType"]["id"].as_i64().unwrap();
    let (_, shop) = published_folder(&app, "Shop", "1/2").await;
    let products = [
        json!({"title": "P1", "tags": ["a", "b"], "color": [0], "origin": ["NO"], "on_sale": true,
            "stock": 5, "price": 1.5, "released": 86400 * 2,
            "writer": [{"name": "Ann", "email": "ann@example.com"}]}),
        json!({"title": "P2", "tags": ["a"], "color": [0, 2], "origin": ["PL", "NO"], "on_sale": false,
            "stock": 10, "price": 2.5, "released": 86400 * 40}),
        json!({"title": "P3", "tags": ["b", "c"], "color": [2], "on_sale": false,
            "stock": 20, "price": 3.0}),
    ];
    for p in products {
        let fields: Vec<Value> = p
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| json!({"fieldDefinitionIdentifier": k, "fieldValue": v}))
            .collect();
        let r = app
            .req("POST", "/content/objects")
            .admin()
            .accept("ContentInfo+json")
            .json_body(
                "ContentCreate",
                json!({"ContentType": {"_href": format!("{PREFIX}/content/types/{type_id}")},
                    "mainLanguageCode": "eng-GB",
                    "LocationCreate": {"ParentLocation": {"_href": format!("{PREFIX}/content/locations/{shop}")}},
                    "fields": {"field": fields}}),
            )
            .send()
            .await;
        r.assert(201);
        crate::content::publish(&app, r.json()["Content"]["_id"].as_i64().unwrap(), 1).await;
    }
    let f = |kind: &str, name: &str, field: &str, extra: Value| {
        let mut a = json!({"name": name, "contentTypeIdentifier": "product", "fieldDefinitionIdentifier": field});
        for (k, v) in extra.as_object().unwrap() {
            a[k] = v.clone();
        }
        json!({ kind: a })
    };
    let input = json!({"identifier": "fields", "ContentQuery": {
    "Filter": {"ContentTypeIdentifierCriterion": "product"}, "limit": 0,
    "Aggregations": [
        f("KeywordTermAggregation", "tags", "tags", json!({})),
        f("SelectionTermAggregation", "colors", "color", json!({})),
        f("CountryTermAggregation", "origins", "origin", json!({})),
        f("CountryTermAggregation", "origin_names", "origin", json!({"type": "name"})),
        f("CheckboxTermAggregation", "sale", "on_sale", json!({})),
        f("AuthorTermAggregation", "writers", "writer", json!({})),
        f("IntegerStatsAggregation", "stock", "stock", json!({})),
        f("IntegerRangeAggregation", "stock_ranges", "stock", json!({"ranges": [{"from": null, "to": 10}, {"from": 10, "to": null}]})),
        f("FloatStatsAggregation", "price", "price", json!({})),
        f("FloatRangeAggregation", "price_ranges", "price", json!({"ranges": [{"from": 0, "to": 2}, {"from": 2, "to": 3}, {"from": 3, "to": null}]})),
        f("DateRangeAggregation", "released", "released", json!({"ranges": [{"from": null, "to": "1970-01-10"}, {"from": "1970-01-10", "to": null}]})),
    ]}});
    let v = view(&app, input).await;
    assert_eq!(v["Result"]["count"], 3);
    let r = results(&v);
    let plain = |k: &Value| k.clone();
    assert_eq!(
        buckets(&r["tags"], plain),
        [(json!("a"), 2), (json!("b"), 2), (json!("c"), 1)]
    );
    assert_eq!(
        buckets(&r["colors"], plain),
        [(json!("Red"), 2), (json!("Blue"), 2)]
    );
    assert_eq!(
        buckets(&r["origins"], plain),
        [(json!("NOR"), 2), (json!("POL"), 1)]
    );
    assert_eq!(
        buckets(&r["origin_names"], plain),
        [(json!("Norway"), 2), (json!("Poland"), 1)]
    );
    assert_eq!(
        buckets(&r["sale"], plain),
        [(json!(false), 2), (json!(true), 1)]
    );
    assert_eq!(r["writers"]["entries"][0]["key"]["name"], "Ann");
    assert_eq!(r["writers"]["entries"][0]["count"], 1);
    let stock = &r["stock"];
    assert_eq!(stock["sum"].as_f64().unwrap(), 35.0);
    assert_eq!(stock["count"], 3);
    assert_eq!(stock["min"].as_f64().unwrap(), 5.0);
    assert_eq!(stock["max"].as_f64().unwrap(), 20.0);
    let counts = |name: &str| -> Vec<i64> {
        (r[name]["entries"].as_array().unwrap().iter())
            .map(|e| e["count"].as_i64().unwrap())
            .collect()
    };
    assert_eq!(counts("stock_ranges"), [1, 2]);
    assert_eq!(r["price"]["sum"].as_f64().unwrap(), 7.0);
    assert_eq!(r["price"]["max"].as_f64().unwrap(), 3.0);
    assert_eq!(counts("price_ranges"), [1, 1, 1]);
    assert_eq!(counts("released"), [1, 1]);
}

/// Unknown aggregations, bad values and too many aggregations or ranges are 400s that name
/// them.
#[tokio::test]
async fn bad_aggregations_are_400_naming_them() {
    let app = TestApp::new().await;
    let post = |aggregations: Value| {
        view_req(
            &app,
            json!({"identifier": "x", "ContentQuery": {"Aggregations": aggregations}}),
        )
        .admin()
        .accept("View+json")
    };
    let many: Vec<Value> = (0..21)
        .map(|i| json!({"SectionTermAggregation": {"name": format!("s{i}")}}))
        .collect();
    let ranges: Vec<Value> = (0..51).map(|i| json!({"from": i, "to": i + 1})).collect();
    for (aggregations, said) in [
        (
            json!([{"NoSuchAggregation": {"name": "x"}}]),
            "NoSuchAggregation",
        ),
        (json!([{"SectionTermAggregation": {}}]), "'name'"),
        (
            json!([{"SectionTermAggregation": {"name": "s", "limit": 5000}}]),
            "'limit'",
        ),
        (
            json!([{"UserMetadataTermAggregation": {"name": "u", "type": "nobody"}}]),
            "nobody",
        ),
        (
            json!([{"RawTermAggregation": {"name": "r", "fieldName": "secret"}}]),
            "secret",
        ),
        (
            json!([{"IntegerRangeAggregation": {"name": "r", "contentTypeIdentifier": "a",
            "fieldDefinitionIdentifier": "b"}}]),
            "'ranges'",
        ),
        (
            json!([{"DateMetadataRangeAggregation": {"name": "d", "type": "published",
            "ranges": [{"from": "yesterday", "to": null}]}}]),
            "yesterday",
        ),
        (json!(many), "20 aggregations"),
        (
            json!([{"RawRangeAggregation": {"name": "r", "fieldName": "content_id_id", "ranges": ranges}}]),
            "50 ranges",
        ),
    ] {
        let r = post(aggregations).send().await;
        r.assert(400);
        assert!(r.body.contains(said), "{said} not in {}", r.body);
    }
}
