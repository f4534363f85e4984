//! Types as content sees them: a published type change at once, and an image asset's
//! variations of its target's image.

use super::*;

/// Content types are kept in memory: a published change is what the next content write and
/// read see (and a warm read of content loads no type).
#[tokio::test]
async fn content_sees_a_published_type_change_at_once() {
    let app = TestApp::new().await;
    let create = |name: &str, extra: bool| {
        let mut fields = vec![json!({"fieldDefinitionIdentifier": "name", "fieldValue": name})];
        if extra {
            fields.push(json!({"fieldDefinitionIdentifier": "tags", "fieldValue": "a, b"}));
        }
        json!({"ContentType": {"_href": "/api/ibexa/v2/content/types/1"}, "mainLanguageCode": "eng-GB",
            "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
            "fields": {"field": fields}})
    };
    let post = |body: Value| {
        (app.req("POST", "/content/objects").admin()).json_body("ContentCreate", body)
    };
    expect_all(vec![
        // Warm: the folder type is loaded once.
        (post(create("Before", false)), 201),
        (post(create("Tagged too early", true)), 400),
        // The folder type gains a field.
        (
            new_draft(&app, 1).json_body("ContentTypeUpdate", json!({})),
            201,
        ),
        (
            (app.req("POST", "/content/types/1/draft/fieldDefinitions")
                .admin())
            .json_body("FieldDefinitionCreate", field("tags", "ezkeyword", 9)),
            201,
        ),
        (publish_draft(&app, 1), 200),
    ])
    .await;
    let r = post(create("Tagged", true))
        .accept("Content+json")
        .send()
        .await;
    r.assert(201);
    let id = r.json()["Content"]["_id"].as_i64().unwrap();
    let read = app
        .get(&format!("/content/objects/{id}"))
        .admin()
        .accept("Content+json")
        .send()
        .await
        .json();
    // The item read back has the new field (field_of panics without it).
    assert_eq!(
        field_of(&read["Content"], "tags")["fieldDefinitionIdentifier"],
        "tags"
    );
}

/// An `ezimageasset` value carries the variations of its target's image, as the reference's
/// `ImageAssetFieldTypeProcessor` adds them, in both formats; none when the target has no
/// published image.
#[tokio::test]
async fn an_image_asset_names_the_variations_of_its_targets_image() {
    let storage = tempfile::tempdir().unwrap();
    let app = TestApp::with_args(&["--storage-dir", storage.path().to_str().unwrap()]).await;
    let ty = teaser_type(&app).await;
    // A published image (type 5) holding a 1x1 PNG.
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("Content+json")
        .json_body(
            "ContentCreate",
            json!({
                "ContentType": {"_href": "/api/ibexa/v2/content/types/5"},
                "mainLanguageCode": "eng-GB",
                "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/43/51"}},
                "fields": {"field": [
                    {"fieldDefinitionIdentifier": "name", "fieldValue": "Pixel"},
                    {"fieldDefinitionIdentifier": "image", "fieldValue": {"fileName": "pixel.png", "data": png}}
                ]}
            }),
        )
        .send()
        .await;
    r.assert(201);
    let image = r.json()["Content"].clone();
    let image_id = image["_id"].as_i64().unwrap();
    let image_field = field_of(&image, "image")["id"].as_i64().unwrap();
    app.req(
        "PUBLISH",
        &format!("/content/objects/{image_id}/versions/1"),
    )
    .admin()
    .send()
    .await
    .assert(204);
    let teaser = |target: i64| {
        json!({
            "ContentType": {"_href": format!("/api/ibexa/v2/content/types/{ty}")},
            "mainLanguageCode": "eng-GB",
            "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
            "fields": {"field": [
                {"fieldDefinitionIdentifier": "title", "fieldValue": "Teaser"},
                {"fieldDefinitionIdentifier": "picture", "fieldValue": {"destinationContentId": target, "alternativeText": "A pixel"}}
            ]}
        })
    };
    let picture = |content: &Value| field_of(content, "picture")["fieldValue"].clone();
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("Content+json")
        .json_body("ContentCreate", teaser(image_id))
        .send()
        .await;
    r.assert(201);
    let id = r.json()["Content"]["_id"].as_i64().unwrap();
    let value = picture(&r.json()["Content"]);
    assert_eq!(value["destinationContentId"], image_id);
    assert_eq!(value["alternativeText"], "A pixel");
    let small =
        format!("/api/ibexa/v2/content/binary/images/{image_id}-{image_field}-1/variations/small");
    assert_eq!(value["variations"]["small"]["href"], small.as_str());
    let aliases: Vec<&String> = value["variations"].as_object().unwrap().keys().collect();
    assert_eq!(
        aliases,
        ["large", "medium", "original", "reference", "small", "tiny"]
    );
    // The href serves the variation.
    app.abs("GET", &small)
        .admin()
        .accept("ContentImageVariation+json")
        .send()
        .await
        .assert(200);
    // XML names the same.
    let r = app
        .get(&format!("/content/objects/{id}"))
        .admin()
        .accept("Content+xml")
        .send()
        .await;
    r.assert(200);
    assert!(
        r.body
            .contains(&format!("<value key=\"href\">{small}</value>")),
        "{}",
        r.body
    );
    // A target without a published image: no variations.
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("Content+json")
        .json_body("ContentCreate", teaser(41))
        .send()
        .await;
    r.assert(201);
    let value = picture(&r.json()["Content"]);
    assert_eq!(value["destinationContentId"], 41);
    assert!(value.get("variations").is_none(), "{value}");
}
