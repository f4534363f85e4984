//! Every field type's settings, validators and default value, round-tripped through a
//! draft in both formats.

use super::*;

/// (field type, fieldSettings, validatorConfiguration, defaultValue): one change from the
/// defaults each, round-tripped through a draft in both formats.
fn settings_cases() -> Vec<(&'static str, Value, Value, Value)> {
    vec![
        (
            "string",
            json!({}),
            json!({"StringLengthValidator": {"minStringLength": 2, "maxStringLength": 20}}),
            json!("Hello"),
        ),
        (
            "text",
            json!({"textRows": 5}),
            json!({}),
            json!("Some text"),
        ),
        ("richtext", json!({}), json!({}), Value::Null),
        (
            "integer",
            json!({}),
            json!({"IntegerValueValidator": {"minIntegerValue": 1, "maxIntegerValue": 10}}),
            json!(5),
        ),
        (
            "float",
            json!({}),
            json!({"FloatValueValidator": {"minFloatValue": 0.5, "maxFloatValue": 9.5}}),
            json!(1.5),
        ),
        ("boolean", json!({}), json!({}), json!(true)),
        (
            "date",
            json!({"defaultType": "DEFAULT_CURRENT_DATE"}),
            json!({}),
            Value::Null,
        ),
        (
            "datetime",
            json!({"useSeconds": true, "defaultType": "DEFAULT_CURRENT_DATE"}),
            json!({}),
            Value::Null,
        ),
        (
            "time",
            json!({"useSeconds": true, "defaultType": "DEFAULT_CURRENT_TIME"}),
            json!({}),
            json!(3600),
        ),
        ("email", json!({}), json!({}), json!("editor@example.com")),
        (
            "url",
            json!({}),
            json!({}),
            json!({"link": "https://example.com/", "text": "Example"}),
        ),
        (
            "image",
            json!({"mimeTypes": ["image/png", "image/jpeg"]}),
            json!({"FileSizeValidator": {"maxFileSize": 5}, "AlternativeTextValidator": {"required": true}}),
            Value::Null,
        ),
        (
            "binaryfile",
            json!({}),
            json!({"FileSizeValidator": {"maxFileSize": 3}}),
            Value::Null,
        ),
        (
            "media",
            json!({"mediaType": "TYPE_HTML5_AUDIO"}),
            json!({"FileSizeValidator": {"maxFileSize": 8}}),
            Value::Null,
        ),
        (
            "author",
            json!({"defaultAuthor": "DEFAULT_CURRENT_USER"}),
            json!({}),
            Value::Null,
        ),
        (
            "objectrelation",
            json!({"selectionMethod": "SELECTION_DROPDOWN", "selectionContentTypes": ["article", "image"]}),
            json!({}),
            Value::Null,
        ),
        (
            "objectrelationlist",
            json!({"selectionContentTypes": ["image"]}),
            json!({"RelationListValueValidator": {"selectionLimit": 3}}),
            Value::Null,
        ),
        (
            "selection",
            json!({"isMultiple": true, "options": ["Red", "Green", "Blue"]}),
            json!({}),
            json!([0, 2]),
        ),
        ("keyword", json!({}), json!({}), json!(["news", "sports"])),
        (
            "country",
            json!({"isMultiple": true}),
            json!({}),
            json!(["NO", "PL"]),
        ),
        ("isbn", json!({"isISBN13": false}), json!({}), Value::Null),
        (
            "user",
            json!({"PasswordTTL": 30, "RequireUniqueEmail": false}),
            json!({"PasswordValueValidator": {"minLength": 12}}),
            Value::Null,
        ),
        (
            "gmaplocation",
            json!({}),
            json!({}),
            json!({"latitude": 59.91, "longitude": 10.75, "address": "Oslo"}),
        ),
        ("imageasset", json!({}), json!({}), Value::Null),
        (
            "matrix",
            json!({"minimum_rows": 2, "columns": [{"identifier": "name", "name": "Name"}, {"identifier": "role", "name": "Role"}]}),
            json!({}),
            Value::Null,
        ),
    ]
}

/// Empty maps and lists read as nothing in XML: compare them as null.
fn normal(v: &Value) -> Value {
    match v {
        Value::Array(a) if a.is_empty() => Value::Null,
        Value::Object(o) if o.is_empty() => Value::Null,
        Value::Array(a) => Value::Array(a.iter().map(normal).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), normal(v))).collect()),
        v => v.clone(),
    }
}

/// Whether every key of `want` is in `got` with the same value.
fn contains(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => w
            .iter()
            .all(|(k, v)| g.get(k).is_some_and(|gv| contains(gv, v))),
        (g, w) => normal(g) == normal(w),
    }
}

#[tokio::test]
async fn every_field_types_settings_and_validators_round_trip() {
    let app = TestApp::new().await;
    let r = post_type(&app, 1, "settings_test", vec![]).await;
    r.assert(201);
    let id = r.json()["ContentType"]["id"].as_i64().unwrap();
    for (i, (name, settings, validators, default)) in settings_cases().into_iter().enumerate() {
        let mut fd = field(&format!("f_{name}"), &format!("ez{name}"), i as i64 + 1);
        fd["fieldSettings"] = settings.clone();
        fd["validatorConfiguration"] = validators.clone();
        if !default.is_null() {
            fd["defaultValue"] = default.clone();
        }
        let r = app
            .req(
                "POST",
                &format!("/content/types/{id}/draft/fieldDefinitions"),
            )
            .admin()
            .accept("FieldDefinition+json")
            .json_body("FieldDefinitionCreate", fd)
            .send()
            .await;
        assert_eq!(r.status, 201, "ez{name}: {}", r.body);
        let fid = r.json()["FieldDefinition"]["id"].as_i64().unwrap();
        let path = format!("/content/types/{id}/draft/fieldDefinitions/{fid}");

        let j = app
            .get(&path)
            .accept("FieldDefinition+json")
            .send()
            .await
            .json()["FieldDefinition"]
            .clone();
        assert_eq!(j["fieldType"], format!("ez{name}"));
        assert!(
            contains(&j["fieldSettings"], &settings),
            "ez{name} settings: {}",
            j["fieldSettings"]
        );
        assert!(
            contains(&j["validatorConfiguration"], &validators),
            "ez{name} validators: {}",
            j["validatorConfiguration"]
        );
        if !default.is_null() {
            assert!(
                contains(&j["defaultValue"], &default),
                "ez{name} default: {}",
                j["defaultValue"]
            );
        }

        // The same values in XML, read back as key/value trees.
        let x = app.get(&path).send().await.xml();
        for (element, json_value) in [
            ("fieldSettings", &j["fieldSettings"]),
            ("validatorConfiguration", &j["validatorConfiguration"]),
            ("defaultValue", &j["defaultValue"]),
        ] {
            let el = x.children.iter().find(|c| c.name == element).unwrap();
            let from_xml = cairn_runtime::decode::Node::to_hash(el).to_json();
            assert!(
                contains(&from_xml, json_value) && contains(json_value, &from_xml),
                "ez{name} {element}: XML {from_xml} vs JSON {json_value}"
            );
        }
    }
    // Published, the type keeps them all.
    let r = publish_draft(&app, id)
        .accept("ContentType+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.json()["ContentType"]["FieldDefinitions"]["FieldDefinition"]
            .as_array()
            .unwrap()
            .len(),
        25
    );
}
