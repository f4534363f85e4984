//! Content and Location queries: criteria, logical operators, sort clauses and paging in both
//! formats, repeated criteria joined as their operator, and Object state criteria.

use super::*;

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
    // Each hit's ContentInfo holds the full content item with its current version, as the
    // reference's Location visitor writes a hit (a GET of the Location holds its ContentInfo).
    let hit = &v["Result"]["searchHits"]["searchHit"][0]["value"]["Location"];
    let content = &hit["ContentInfo"]["Content"];
    assert_eq!(
        content["_media-type"],
        "application/vnd.ibexa.api.Content+json"
    );
    let version = &content["CurrentVersion"]["Version"];
    assert_eq!(version["VersionInfo"]["versionNo"], 1, "{content}");
    assert!(
        version["Fields"]["field"]
            .as_array()
            .is_some_and(|f| !f.is_empty()),
        "{content}"
    );
    let got = app
        .get_json("/content/locations/1/43/53", "Location+json")
        .await;
    let info = &got["Location"]["ContentInfo"]["Content"];
    assert_eq!(
        info["_media-type"],
        "application/vnd.ibexa.api.ContentInfo+json"
    );
    assert!(info["CurrentVersion"].get("Version").is_none(), "{info}");

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
    let info = location
        .children
        .iter()
        .find(|c| c.name == "ContentInfo")
        .unwrap();
    let content = &info.children[0];
    assert_eq!(content.name, "Content");
    let current = content
        .children
        .iter()
        .find(|c| c.name == "CurrentVersion")
        .unwrap();
    assert_eq!(current.children[0].name, "Version", "{current:?}");

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
        let input = reference_example(&format!("views/POST/{file}"));
        let r = app
            .req("POST", "/views")
            .raw_body(ct, &input)
            .accept("View+json")
            .send()
            .await;
        r.assert(200);
        assert_eq!(r.json()["View"]["identifier"], "TitleView");
        assert_eq!(r.json()["View"]["Result"]["count"], 0);
        // Its content type aggregation has no bucket: no hit.
        let aggregations = &r.json()["View"]["Result"]["aggregations"];
        assert_eq!(aggregations[0]["name"], "some name", "{aggregations}");
        assert_eq!(aggregations[0]["entries"], json!([]));
    }
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

/// A `Field` criterion in XML, as the reference's parser reads it (`name`, `operator` and
/// `value` elements; several `value` elements for IN), and the same in JSON (issue 45).
#[tokio::test]
async fn field_criteria_read_in_xml_as_in_json() {
    let app = TestApp::new().await;
    let xml_names = async |criterion: &str| {
        let xml = format!(
            "<ViewInput><identifier>f</identifier><ContentQuery><Filter>{criterion}</Filter>\
             <limit>10</limit><SortClauses><ContentName>ascending</ContentName></SortClauses>\
             </ContentQuery></ViewInput>"
        );
        let r = app
            .req("POST", "/views")
            .admin()
            .raw_body("application/vnd.ibexa.api.ViewInput+xml; version=1.1", &xml)
            .accept("View+json")
            .send()
            .await;
        r.assert(200);
        names(&r.json()["View"])
    };
    let eq = "<Field><name>name</name><operator>EQ</operator><value>Images</value></Field>";
    assert_eq!(xml_names(eq).await, ["Images"]);
    let within = "<Field><name>name</name><operator>IN</operator><value>Images</value>\
                  <value>Files</value><value>Nothing</value></Field>";
    assert_eq!(xml_names(within).await, ["Files", "Images"]);
    let both = format!(
        "<AND>{eq}<Field><name>name</name><operator>LIKE</operator><value>Im*</value></Field></AND>"
    );
    assert_eq!(xml_names(&both).await, ["Images"]);
    let v = view(
        &app,
        content_query(
            json!({"Field": {"name": "name", "operator": "IN", "value": ["Images", "Files", "Nothing"]}}),
            json!({"ContentName": "ascending"}),
        ),
    )
    .await;
    assert_eq!(names(&v), ["Files", "Images"]);
    // Without a name the XML criterion is refused, saying so.
    let r = app
        .req("POST", "/views")
        .admin()
        .raw_body(
            "application/vnd.ibexa.api.ViewInput+xml; version=1.1",
            "<ViewInput><identifier>f</identifier><ContentQuery><Filter><Field><operator>EQ</operator>\
             <value>x</value></Field></Filter></ContentQuery></ViewInput>",
        )
        .send()
        .await;
    assert!(r.assert_error(400).contains("name"));
}
