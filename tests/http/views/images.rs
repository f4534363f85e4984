//! The image criteria (issue 43) in both formats, on image and image asset fields: over the
//! width, height, MIME type and size read from the files' bytes, and the reference's
//! orientation; bad input a 400 naming the criterion.

use super::*;
use crate::content_types::teaser_type;
use crate::images::{jpeg, png, post_image};

/// Publishes version 1 of the content item of a `POST /content/objects` response; its id
/// and image field value.
async fn published(app: &TestApp, r: Resp) -> (i64, Value) {
    r.assert(201);
    let content = r.json()["Content"].clone();
    let id = content["_id"].as_i64().unwrap();
    app.req("PUBLISH", &format!("/content/objects/{id}/versions/1"))
        .admin()
        .send()
        .await
        .assert(204);
    let value = content["CurrentVersion"]["Version"]["Fields"]["field"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["fieldDefinitionIdentifier"] == "image")
        .map(|f| f["fieldValue"].clone())
        .unwrap_or_default();
    (id, value)
}

/// The names of the hits of the JSON `filter`.
async fn found(app: &TestApp, filter: Value) -> Vec<String> {
    names(
        &view(
            app,
            content_query(filter, json!({"ContentName": "ascending"})),
        )
        .await,
    )
}

/// The names of the hits of the XML `criterion`.
async fn found_in_xml(app: &TestApp, criterion: &str) -> Vec<String> {
    let r = xml_view(app, criterion).await;
    r.assert(200);
    names(&r.json()["View"])
}

/// `POST /views` of an XML ViewInput filtering with `criterion`, as admin.
async fn xml_view(app: &TestApp, criterion: &str) -> Resp {
    let xml = format!(
        "<ViewInput><identifier>i</identifier><ContentQuery><Filter>{criterion}</Filter>\
         <limit>10</limit><SortClauses><ContentName>ascending</ContentName></SortClauses>\
         </ContentQuery></ViewInput>"
    );
    app.req("POST", "/views")
        .admin()
        .raw_body("application/vnd.ibexa.api.ViewInput+xml; version=1.1", &xml)
        .accept("View+json")
        .send()
        .await
}

#[tokio::test]
async fn image_criteria_filter_on_the_files_metadata_in_both_formats() {
    let storage = tempfile::tempdir().unwrap();
    let app = TestApp::with_args(&["--storage-dir", storage.path().to_str().unwrap()]).await;
    // The names say what the bytes are; the file names claim otherwise (never believed).
    let mut sizes = Vec::new();
    let mut portrait_id = 0;
    for (name, bytes) in [
        ("landscape", jpeg(120, 80, None)),
        ("portrait", jpeg(60, 90, None)),
        ("square", png(50, 50)),
    ] {
        let (id, value) = published(&app, post_image(&app, name, &bytes).await).await;
        assert_eq!(value["fileSize"], bytes.len());
        sizes.push((bytes.len() as f64, name));
        if name == "portrait" {
            portrait_id = id;
        }
    }
    // A teaser whose image asset names the portrait.
    let ty = teaser_type(&app).await;
    let teaser = app
        .req("POST", "/content/objects")
        .admin()
        .accept("Content+json")
        .json_body(
            "ContentCreate",
            json!({
                "ContentType": {"_href": format!("{PREFIX}/content/types/{ty}")},
                "mainLanguageCode": "eng-GB",
                "LocationCreate": {"ParentLocation": {"_href": format!("{PREFIX}/content/locations/1/2")}},
                "fields": {"field": [
                    {"fieldDefinitionIdentifier": "title", "fieldValue": "teaser"},
                    {"fieldDefinitionIdentifier": "picture", "fieldValue": {"destinationContentId": portrait_id}}
                ]}
            }),
        )
        .send()
        .await;
    published(&app, teaser).await;

    let image = |criterion: &str, v: Value| {
        let mut m = serde_json::Map::new();
        m.insert("fieldDefIdentifier".into(), json!("image"));
        if let Value::Object(o) = v {
            m.extend(o);
        }
        json!({ criterion: m })
    };
    // Dimensions.
    let dims = |v| image("ImageDimensionsCriterion", v);
    assert_eq!(
        found(&app, dims(json!({"width": {"min": 0, "max": 100}}))).await,
        ["portrait", "square"]
    );
    assert_eq!(
        found(&app, dims(json!({"width": {"min": 100}}))).await,
        ["landscape"]
    );
    assert_eq!(
        found(&app, dims(json!({"height": {"min": 60, "max": 85}}))).await,
        ["landscape"]
    );
    // A maximum of 0 is no upper bound, as in the reference (and below a minimum, a 400).
    assert_eq!(
        found(&app, dims(json!({"width": {"max": 0}}))).await,
        ["landscape", "portrait", "square"]
    );
    assert_eq!(
        found(
            &app,
            dims(json!({"width": {"min": 101, "max": 200}, "height": {"max": 100}}))
        )
        .await,
        ["landscape"]
    );
    // File size, in megabytes: between the smallest and the others.
    sizes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mb = 1024.0 * 1024.0;
    let cut = (sizes[0].0 + 1.0) / mb;
    let mut larger: Vec<&str> = sizes[1..].iter().map(|s| s.1).collect();
    larger.sort();
    let size = |v| image("ImageFileSizeCriterion", json!({ "size": v }));
    assert_eq!(found(&app, size(json!({"min": cut}))).await, larger);
    assert_eq!(found(&app, size(json!({"max": cut}))).await, [sizes[0].1]);
    assert_eq!(
        found(&app, size(json!({"min": "0.0", "max": "2.5"}))).await,
        ["landscape", "portrait", "square"]
    );
    assert_eq!(
        found(&app, size(json!({"min": 1, "max": 2}))).await,
        Vec::<String>::new()
    );
    // MIME types from the bytes.
    let mime = |v| image("ImageMimeTypeCriterion", json!({ "type": v }));
    assert_eq!(
        found(&app, mime(json!("image/jpeg"))).await,
        ["landscape", "portrait"]
    );
    assert_eq!(
        found(&app, mime(json!(["image/png", "image/gif"]))).await,
        ["square"]
    );
    // Orientation.
    let orient = |v| image("ImageOrientationCriterion", json!({ "orientation": v }));
    assert_eq!(found(&app, orient(json!("portrait"))).await, ["portrait"]);
    assert_eq!(
        found(&app, orient(json!(["landscape", "square"]))).await,
        ["landscape", "square"]
    );
    // All in one.
    let all = image(
        "ImageCriterion",
        json!({"mimeTypes": ["image/jpeg", "image/png"], "size": {"min": 0, "max": 1},
               "width": {"max": 100}, "height": {"min": 0, "max": 100},
               "orientation": ["landscape", "portrait"]}),
    );
    assert_eq!(found(&app, all).await, ["portrait"]);
    // Inside NOT and OR.
    assert_eq!(
        found(
            &app,
            json!({"AND": {"ContentTypeIdentifierCriterion": "image", "NOT": orient(json!("square"))}})
        )
        .await,
        ["landscape", "portrait"]
    );

    // On an image asset: the image of the item it names.
    let picture = |criterion: &str, v: Value| {
        let mut m = v.as_object().unwrap().clone();
        m.insert("fieldDefIdentifier".into(), json!("picture"));
        json!({ criterion: m })
    };
    assert_eq!(
        found(
            &app,
            picture(
                "ImageOrientationCriterion",
                json!({"orientation": "portrait"})
            )
        )
        .await,
        ["teaser"]
    );
    assert!(
        found(
            &app,
            picture(
                "ImageOrientationCriterion",
                json!({"orientation": "landscape"})
            )
        )
        .await
        .is_empty()
    );
    assert_eq!(
        found(
            &app,
            picture(
                "ImageCriterion",
                json!({"mimeTypes": "image/jpeg", "height": {"min": 90}})
            )
        )
        .await,
        ["teaser"]
    );

    // XML: repeated elements are lists, numbers are text.
    assert_eq!(
        found_in_xml(
            &app,
            "<ImageDimensionsCriterion><fieldDefIdentifier>image</fieldDefIdentifier>\
             <width><min>0</min><max>100</max></width></ImageDimensionsCriterion>"
        )
        .await,
        ["portrait", "square"]
    );
    assert_eq!(
        found_in_xml(
            &app,
            "<ImageCriterion><fieldDefIdentifier>image</fieldDefIdentifier>\
             <mimeTypes>image/jpeg</mimeTypes><mimeTypes>image/png</mimeTypes>\
             <orientation>landscape</orientation><orientation>square</orientation>\
             <size><max>1</max></size></ImageCriterion>"
        )
        .await,
        ["landscape", "square"]
    );
    assert_eq!(
        found_in_xml(
            &app,
            "<ImageMimeTypeCriterion><fieldDefIdentifier>picture</fieldDefIdentifier>\
             <type>image/jpeg</type></ImageMimeTypeCriterion>"
        )
        .await,
        ["teaser"]
    );
    assert_eq!(
        found_in_xml(
            &app,
            "<ImageFileSizeCriterion><fieldDefIdentifier>image</fieldDefIdentifier>\
             <size><min>1</min></size></ImageFileSizeCriterion>"
        )
        .await,
        Vec::<String>::new()
    );
    assert_eq!(
        found_in_xml(
            &app,
            "<ImageOrientationCriterion><fieldDefIdentifier>image</fieldDefIdentifier>\
             <orientation>square</orientation></ImageOrientationCriterion>"
        )
        .await,
        ["square"]
    );

    // Bad input: a 400 naming the criterion and what is wrong.
    let bad_json = [
        (
            orient(json!("round")),
            "Invalid image orientation: \"round\"",
        ),
        (orient(json!([])), "orientation"),
        (dims(json!({"width": {"min": -1}})), "greater or equal 0"),
        (dims(json!({"width": {"min": 5, "max": 2}})), "minimum"),
        (dims(json!({"width": {"min": 55, "max": 0}})), "minimum"),
        (dims(json!({"width": {"min": "wide"}})), "width.min"),
        (dims(json!({"width": {"least": 2}})), "least"),
        (dims(json!({"width": 3})), "range"),
        (dims(json!({"colour": "red"})), "not supported: \"colour\""),
        (dims(json!({})), "At least one of the supported criteria"),
        (size(json!({})), "At least one value"),
        (size(json!({"max": -1})), "greater than 0"),
        (mime(json!({"a": "b"})), "type"),
        (mime(json!(["image/png", 4])), "type"),
        (
            json!({"ImageCriterion": {"width": {"min": 1}}}),
            "fieldDefIdentifier",
        ),
        (json!({"ImageCriterion": "image"}), "fieldDefIdentifier"),
    ];
    for (filter, says) in bad_json {
        let r = view_req(&app, content_query(filter.clone(), json!({})))
            .admin()
            .send()
            .await;
        let message = r.assert_error(400);
        assert!(message.contains(says), "{filter}: {message}");
        assert!(message.contains("Image"), "{filter}: {message}");
    }
    let bad_xml = [
        (
            "<ImageOrientationCriterion><fieldDefIdentifier>image</fieldDefIdentifier>\
             <orientation>round</orientation></ImageOrientationCriterion>",
            "round",
        ),
        (
            "<ImageDimensionsCriterion><fieldDefIdentifier>image</fieldDefIdentifier>\
             <width><min>x</min></width></ImageDimensionsCriterion>",
            "width.min",
        ),
        (
            "<ImageFileSizeCriterion><fieldDefIdentifier>image</fieldDefIdentifier>\
             </ImageFileSizeCriterion>",
            "At least one value",
        ),
        (
            "<ImageMimeTypeCriterion><type>image/png</type></ImageMimeTypeCriterion>",
            "fieldDefIdentifier",
        ),
    ];
    for (criterion, says) in bad_xml {
        let message = xml_view(&app, criterion).await.assert_error(400);
        assert!(message.contains(says), "{criterion}: {message}");
    }
}
