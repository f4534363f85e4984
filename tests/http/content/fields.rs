//! Fields outside the ordinary: binary fields stored outside the row and served, and the
//! rules a content type with content keeps (no deletion, singular fields).

use super::*;

#[tokio::test]
async fn binary_fields_are_stored_outside_the_row_and_served() {
    let storage = tempfile::tempdir().unwrap();
    let dir = storage.path().to_str().unwrap().to_string();
    let app = TestApp::with_args(&["--storage-dir", &dir]).await;
    // A 1x1 PNG.
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    let body = json!({
        "ContentType": {"_href": "/api/ibexa/v2/content/types/5"},
        "mainLanguageCode": "eng-GB",
        "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/43/51"}},
        "fields": {"field": [
            {"fieldDefinitionIdentifier": "name", "fieldValue": "Pixel"},
            {"fieldDefinitionIdentifier": "image", "fieldValue": {"fileName": "pixel.png", "data": png, "alternativeText": "A pixel"}}
        ]}
    });
    let c = create_content(&app, body).await;
    let id = c["_id"].as_i64().unwrap();
    let image = field_of(&c, "image")["fieldValue"].clone();
    assert_eq!(image["fileName"], "pixel.png");
    assert_eq!(image["width"], 1);
    assert_eq!(image["mime"], "image/png");
    assert_eq!(image["fileSize"], 70);
    let uri = image["uri"].as_str().unwrap().to_string();
    assert!(uri.starts_with("/var/storage/"), "{uri}");
    // The URI serves the bytes.
    let r = app.abs("GET", &uri).send().await;
    r.assert(200);
    assert_eq!(r.bytes.len(), 70);
    assert_eq!(&r.bytes[1..4], b"PNG");
    // Image variations.
    let variation = image["variations"]["small"]["href"]
        .as_str()
        .unwrap()
        .to_string();
    let r = app
        .abs("GET", &variation)
        .admin()
        .accept("ContentImageVariation+json")
        .send()
        .await;
    r.assert(200);
    // Rendered (a 1 × 1 image is never enlarged) and kept beside the original.
    let small = r.json()["ContentImageVariation"].clone();
    assert!(
        small["uri"]
            .as_str()
            .unwrap()
            .starts_with("/var/storage/_aliases/small/"),
        "{small}"
    );
    assert_eq!((&small["width"], &small["height"]), (&json!(1), &json!(1)));
    let field_id = field_of(&c, "image")["id"].as_i64().unwrap();
    let gigantic = format!("/content/binary/images/{id}-{field_id}-1/variations/gigantic");
    expect_all(vec![
        (app.get(&gigantic).admin(), 404),
        (app.abs("GET", &variation), 401),
    ])
    .await;
    // Bad base64: a field failure.
    let bad = json!({
        "ContentType": {"_href": "/api/ibexa/v2/content/types/5"},
        "mainLanguageCode": "eng-GB",
        "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/43/51"}},
        "fields": {"field": [
            {"fieldDefinitionIdentifier": "name", "fieldValue": "Broken"},
            {"fieldDefinitionIdentifier": "image", "fieldValue": {"fileName": "x.png", "data": "!!!not base64!!!"}}
        ]}
    });
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .accept("ContentInfo+json")
        .json_body("ContentCreate", bad)
        .send()
        .await;
    r.assert_error(400);
    assert_eq!(
        r.json()["ErrorMessage"]["errorDetails"]["fields"][0]["_fieldTypeId"],
        118
    );
}

#[tokio::test]
async fn content_types_with_content_refuse_deletion_and_singular_fields() {
    let app = TestApp::new().await;
    // Folders exist (clean install): type 1 cannot be deleted.
    app.req("DELETE", "/content/types/1")
        .admin()
        .send()
        .await
        .assert_error(403);
    // A type with content cannot get an ezuser field.
    app.req("POST", "/content/types/1")
        .admin()
        .json_body("ContentTypeUpdate", json!({}))
        .send()
        .await
        .assert(201);
    let r = app
        .req("POST", "/content/types/1/draft/fieldDefinitions")
        .admin()
        .json_body(
            "FieldDefinitionCreate",
            json!({"identifier": "account", "fieldType": "ezuser"}),
        )
        .send()
        .await;
    assert!(r.assert_error(403).contains("content"));
    // A new field on a type with content: existing content gets it empty on its next draft.
    expect_all(vec![
        (
            (app.req("POST", "/content/types/1/draft/fieldDefinitions")
                .admin())
            .json_body(
                "FieldDefinitionCreate",
                json!({"identifier": "tagline", "fieldType": "ezstring"}),
            ),
            201,
        ),
        (app.req("PUBLISH", "/content/types/1/draft").admin(), 200),
    ])
    .await;
    let r = app
        .req("COPY", "/content/objects/41/currentversion")
        .admin()
        .accept("Version+json")
        .send()
        .await;
    r.assert(201);
    publish(&app, 41, 2).await;
    let v = app
        .get("/content/objects/41")
        .admin()
        .accept("Content+json")
        .send()
        .await
        .json();
    // The new version has the new field (field_of panics without it).
    assert_eq!(
        field_of(&v["Content"], "tagline")["fieldDefinitionIdentifier"],
        "tagline"
    );
}

/// New fields get ids of their own (on PostgreSQL from the sequence inside their insert): the
/// created draft shows the ids its version keeps, a new draft keeps them, a copy has others.
#[tokio::test]
async fn new_fields_get_ids_their_version_keeps() {
    let app = TestApp::new().await;
    let body = json!({
        "ContentType": {"_href": "/api/ibexa/v2/content/types/1"},
        "mainLanguageCode": "eng-GB",
        "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
        "fields": {"field": [
            {"fieldDefinitionIdentifier": "short_name", "fieldValue": "Short"},
            {"fieldDefinitionIdentifier": "name", "fieldValue": "Long name"}
        ]}
    });
    let c = create_content(&app, body).await;
    let id = c["_id"].as_i64().unwrap();
    let ids = |fields: &Value| -> Vec<(String, i64, Value)> {
        let mut out: Vec<_> = (fields["field"].as_array().unwrap().iter())
            .map(|f| {
                let name = f["fieldDefinitionIdentifier"].as_str().unwrap().to_string();
                (name, f["id"].as_i64().unwrap(), f["fieldValue"].clone())
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    };
    let created = ids(&c["CurrentVersion"]["Version"]["Fields"]);
    let version = |path: String| {
        let app = &app;
        async move {
            let r = app.get(&path).admin().accept("Version+json").send().await;
            r.assert(200);
            ids(&r.json()["Version"]["Fields"])
        }
    };
    assert_eq!(
        version(format!("/content/objects/{id}/versions/1")).await,
        created
    );
    let mut seen: Vec<i64> = created.iter().map(|f| f.1).collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), created.len(), "distinct ids: {created:?}");
    assert!(seen.iter().all(|i| *i > 0));
    crate::content::publish(&app, id, 1).await;

    // A new draft keeps the ids; a copy's fields have new ones, with the same values.
    let r = (app
        .req("COPY", &format!("/content/objects/{id}/versions/1"))
        .admin())
    .send()
    .await;
    r.assert(201);
    assert_eq!(
        version(format!("/content/objects/{id}/versions/2")).await,
        created
    );
    let r = (app.req("COPY", &format!("/content/objects/{id}")).admin())
        .header("destination", "/api/ibexa/v2/content/locations/1/2")
        .send()
        .await;
    r.assert(201);
    let copy = r.header("location").unwrap();
    let copy = copy.rsplit('/').next().unwrap().to_string();
    let copied = version(format!("/content/objects/{copy}/versions/1")).await;
    assert_eq!(copied.len(), created.len());
    for (c, o) in copied.iter().zip(&created) {
        assert_eq!((&c.0, &c.2), (&o.0, &o.2));
        assert!(!seen.contains(&c.1), "{copied:?} against {created:?}");
    }
}
