//! The round trip of every type: defaults of settings and validators, a valid input read and
//! written back as formats.md shows it, malformed inputs, and validation failures.
//!
//! Longer than 500 lines for one reason: one test per field type, each a table of inputs and
//! what they give; they read best side by side.

use super::*;
use crate::storage::{Storage, content_path};
use base64::Engine;
use std::sync::LazyLock;

/// A value context over an in-memory store (one for every test), for field 1045 of content
/// 67, version 5.
pub(crate) fn cx() -> ValueContext<'static> {
    static FILES: LazyLock<Storage> = LazyLock::new(|| Storage::memory("/var/storage"));
    static NAMES: LazyLock<Vec<String>> =
        LazyLock::new(|| crate::images::Variations::defaults().names().to_vec());
    ValueContext {
        files: &*FILES,
        variations: &NAMES,
        field: Some(FieldIds {
            content_id: 67,
            field_id: 1045,
            version_no: 5,
        }),
        asset: None,
        uploads: None,
    }
}

/// A value as a response under `/api/ibexa/v2` writes it: hrefs with the prefix.
fn as_written(v: HashValue) -> HashValue {
    match v {
        HashValue::Href(path) => HashValue::String(format!("/api/ibexa/v2{path}")),
        HashValue::List(l) => HashValue::List(l.into_iter().map(as_written).collect()),
        HashValue::Map(m) => {
            HashValue::Map(m.into_iter().map(|(k, v)| (k, as_written(v))).collect())
        }
        v => v,
    }
}

pub(crate) fn def<'a>(settings: &'a HashValue, validators: &'a HashValue) -> Definition<'a> {
    Definition {
        settings,
        validators,
    }
}

pub(crate) fn v(s: &str) -> HashValue {
    HashValue::String(s.to_string())
}

fn json(s: &str) -> HashValue {
    HashValue::parse_json(s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

fn b64(data: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(data)
}

struct Case {
    id: &'static str,
    settings: &'static str,
    validators: &'static str,
    input: String,
    output: String,
    invalid: &'static [&'static str],
    /// (settings, validators, value, messages); empty strings are the defaults.
    failing: Option<(
        &'static str,
        &'static str,
        &'static str,
        &'static [&'static str],
    )>,
}

const DOC: &str = r#"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<section xmlns=\"http://docbook.org/ns/docbook\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"5.0-variant ezpublish-1.0\"><para>Hello</para></section>\n"#;

fn cases() -> Vec<Case> {
    let png = sniff::samples::png_3x2();
    let png_path = content_path(&png, "x.png");
    let txt_path = content_path(b"hello", "a.txt");
    let mp4_path = content_path(b"hello", "v.mp4");
    let s = |x: &str| x.to_string();
    vec![
        Case {
            id: "ezstring",
            settings: "{}",
            validators: r#"{"StringLengthValidator": {"minStringLength": 0, "maxStringLength": null}}"#,
            input: s(r#""Hello""#),
            output: s(r#""Hello""#),
            invalid: &["[]", "{}"],
            failing: Some((
                "",
                r#"{"StringLengthValidator": {"maxStringLength": 3}}"#,
                r#""Hello""#,
                &["The string can not exceed 3 characters."],
            )),
        },
        Case {
            id: "eztext",
            settings: r#"{"textRows": 10}"#,
            validators: "{}",
            input: s(r#""Some\ntext""#),
            output: s(r#""Some\ntext""#),
            invalid: &["{}"],
            failing: None,
        },
        Case {
            id: "ezrichtext",
            settings: "{}",
            validators: "{}",
            input: format!(r#"{{"xml": "{DOC}"}}"#),
            output: format!(
                r#"{{"xml": "{DOC}", "xhtml5edit": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<section xmlns=\"http://ibexa.co/namespaces/ezpublish5/xhtml5/edit\"><p>Hello</p></section>\n"}}"#
            ),
            invalid: &[
                r#"{"foo": 1}"#,
                r#"{"xml": "<section"}"#,
                r#"{"xml": "<article/>"}"#,
            ],
            failing: None,
        },
        Case {
            id: "ezinteger",
            settings: "{}",
            validators: r#"{"IntegerValueValidator": {"minIntegerValue": null, "maxIntegerValue": null}}"#,
            input: s(r#""42""#),
            output: s("42"),
            invalid: &[r#""abc""#, "1.5", "true"],
            failing: Some((
                "",
                r#"{"IntegerValueValidator": {"maxIntegerValue": 10}}"#,
                "42",
                &["The value can not be higher than 10."],
            )),
        },
        Case {
            id: "ezfloat",
            settings: "{}",
            validators: r#"{"FloatValueValidator": {"minFloatValue": null, "maxFloatValue": null}}"#,
            input: s(r#""1.5""#),
            output: s("1.5"),
            invalid: &[r#""x""#, "[]"],
            failing: Some((
                "",
                r#"{"FloatValueValidator": {"minFloatValue": 2}}"#,
                "1.5",
                &["The value can not be lower than 2."],
            )),
        },
        Case {
            id: "ezboolean",
            settings: "{}",
            validators: "{}",
            input: s(r#""1""#),
            output: s("true"),
            invalid: &[r#""maybe""#, "2"],
            failing: None,
        },
        Case {
            id: "ezdate",
            settings: r#"{"defaultType": "DEFAULT_EMPTY"}"#,
            validators: "{}",
            input: s(r#"{"timestring": "2012-10-22"}"#),
            output: s(r#"{"timestamp": 1350864000, "rfc850": "Monday, 22-Oct-12 00:00:00 UTC"}"#),
            invalid: &[r#"{"rfc850": "nope"}"#, r#"{"foo": 1}"#],
            failing: None,
        },
        Case {
            id: "ezdatetime",
            settings: r#"{"useSeconds": false, "defaultType": "DEFAULT_EMPTY", "dateInterval": null}"#,
            validators: "{}",
            input: s(r#"{"timestamp": 1350900000}"#),
            output: s(r#"{"timestamp": 1350900000, "rfc850": "Monday, 22-Oct-12 10:00:00 UTC"}"#),
            invalid: &[r#"{"timestamp": "soon"}"#],
            failing: None,
        },
        Case {
            id: "eztime",
            settings: r#"{"useSeconds": false, "defaultType": "DEFAULT_EMPTY"}"#,
            validators: "{}",
            input: s("3600"),
            output: s("3600"),
            invalid: &[r#""abc""#, "{}"],
            failing: None,
        },
        Case {
            id: "ezemail",
            settings: "{}",
            validators: r#"{"EmailAddressValidator": {}}"#,
            input: s(r#""a@b.cc""#),
            output: s(r#""a@b.cc""#),
            invalid: &["[]"],
            failing: Some((
                "",
                "",
                r#""nope""#,
                &["The value must be a valid email address."],
            )),
        },
        Case {
            id: "ezurl",
            settings: "{}",
            validators: "{}",
            input: s(r#"{"link": "https://ibexa.co", "text": "Ibexa"}"#),
            output: s(r#"{"link": "https://ibexa.co", "text": "Ibexa"}"#),
            invalid: &["[1]"],
            failing: Some((
                "",
                "",
                r#"{"link": "a b", "text": null}"#,
                &["The link must be a valid URL."],
            )),
        },
        Case {
            id: "ezimage",
            settings: r#"{"mimeTypes": []}"#,
            validators: r#"{"FileSizeValidator": {"maxFileSize": null}, "AlternativeTextValidator": {"required": false}}"#,
            input: format!(
                r#"{{"fileName": "x.png", "data": "{}", "alternativeText": "A pixel"}}"#,
                b64(&png)
            ),
            output: format!(
                r#"{{"id": "{p}", "path": "/{p}", "alternativeText": "A pixel", "fileName": "x.png", "fileSize": {n},
                "imageId": "67-1045-5", "uri": "/var/storage/{p}", "inputUri": null, "width": 3, "height": 2,
                "additionalData": [], "mime": "image/png", "variations": {{
                "large": {{"href": "/api/ibexa/v2/content/binary/images/67-1045-5/variations/large"}},
                "medium": {{"href": "/api/ibexa/v2/content/binary/images/67-1045-5/variations/medium"}},
                "original": {{"href": "/api/ibexa/v2/content/binary/images/67-1045-5/variations/original"}},
                "reference": {{"href": "/api/ibexa/v2/content/binary/images/67-1045-5/variations/reference"}},
                "small": {{"href": "/api/ibexa/v2/content/binary/images/67-1045-5/variations/small"}},
                "tiny": {{"href": "/api/ibexa/v2/content/binary/images/67-1045-5/variations/tiny"}}}}}}"#,
                p = png_path,
                n = png.len()
            ),
            invalid: &[
                r#"{"fileName": "x.png", "data": "@@@"}"#,
                r#"{"inputUri": "/nope/x.png"}"#,
                "[1]",
            ],
            failing: Some((
                r#"{"mimeTypes": ["image/jpeg"]}"#,
                r#"{"FileSizeValidator": {"maxFileSize": 0.00001}}"#,
                "",
                &[
                    "The mime type of the file is invalid (image/png). Allowed mime types are image/jpeg.",
                    "The file size cannot exceed 1.0E-5 megabytes.",
                ],
            )),
        },
        Case {
            id: "ezbinaryfile",
            settings: "{}",
            validators: r#"{"FileSizeValidator": {"maxFileSize": null}}"#,
            input: format!(r#"{{"fileName": "a.txt", "data": "{}"}}"#, b64(b"hello")),
            output: format!(
                r#"{{"id": "{p}", "path": null, "inputUri": null, "fileName": "a.txt", "fileSize": 5,
                "mimeType": "text/plain", "uri": "/var/storage/{p}", "downloadCount": 0, "url": "/var/storage/{p}"}}"#,
                p = txt_path
            ),
            // A blacklisted name is refused before the file is stored.
            invalid: &[
                r#"{"fileName": "a.txt", "data": "!"}"#,
                r#"{"id": "no/such/file"}"#,
                r#"{"fileName": "evil.php", "data": "aGVsbG8="}"#,
                r#"{"fileName": "evil.php.", "data": "aGVsbG8="}"#,
                r#"{"fileName": "EVIL.PHP", "data": "aGVsbG8="}"#,
            ],
            failing: None,
        },
        Case {
            id: "ezmedia",
            settings: r#"{"mediaType": "TYPE_HTML5_VIDEO"}"#,
            validators: r#"{"FileSizeValidator": {"maxFileSize": null}}"#,
            input: format!(
                r#"{{"fileName": "v.mp4", "data": "{}", "autoplay": true, "width": 640}}"#,
                b64(b"hello")
            ),
            output: format!(
                r#"{{"id": "{p}", "path": null, "inputUri": null, "fileName": "v.mp4", "fileSize": 5,
                "mimeType": "video/mp4", "uri": "/var/storage/{p}", "hasController": false, "autoplay": true,
                "loop": false, "width": 640, "height": 0}}"#,
                p = mp4_path
            ),
            invalid: &[r#"{"fileName": "v.mp4", "data": "aGVsbG8=", "loop": "often"}"#],
            failing: None,
        },
        Case {
            id: "ezauthor",
            settings: r#"{"defaultAuthor": "DEFAULT_VALUE_EMPTY"}"#,
            validators: "{}",
            input: s(r#"[{"name": "Ann", "email": "ann@example.com"}]"#),
            output: s(r#"[{"id": 1, "name": "Ann", "email": "ann@example.com"}]"#),
            invalid: &[r#"["x"]"#],
            failing: Some((
                "",
                "",
                r#"[{"name": "Bob", "email": "bob"}]"#,
                &["The email address 'bob' is not valid."],
            )),
        },
        Case {
            id: "ezobjectrelation",
            settings: r#"{"selectionMethod": "SELECTION_BROWSE", "selectionRoot": null, "rootDefaultLocation": false, "selectionContentTypes": []}"#,
            validators: "{}",
            input: s(r#"{"destinationContentId": "57"}"#),
            output: s(
                r#"{"destinationContentId": 57, "destinationContentHref": "/api/ibexa/v2/content/objects/57"}"#,
            ),
            invalid: &[r#"{"destinationContentId": "abc"}"#, "[1]"],
            failing: None,
        },
        Case {
            id: "ezobjectrelationlist",
            settings: r#"{"selectionMethod": "SELECTION_BROWSE", "selectionDefaultLocation": null, "rootDefaultLocation": false, "selectionContentTypes": []}"#,
            validators: r#"{"RelationListValueValidator": {"selectionLimit": 0}}"#,
            input: s(r#"{"destinationContentIds": [57, 58]}"#),
            output: s(
                r#"{"destinationContentIds": [57, 58], "destinationContentHrefs": ["/api/ibexa/v2/content/objects/57", "/api/ibexa/v2/content/objects/58"]}"#,
            ),
            invalid: &["{}", r#"{"destinationContentIds": ["x"]}"#],
            failing: Some((
                "",
                r#"{"RelationListValueValidator": {"selectionLimit": 1}}"#,
                r#"{"destinationContentIds": [57, 58]}"#,
                &["The selected content items number cannot be higher than 1."],
            )),
        },
        Case {
            id: "ezselection",
            settings: r#"{"isMultiple": false, "options": [], "multilingualOptions": []}"#,
            validators: "{}",
            input: s(r#"["1"]"#),
            output: s("[1]"),
            invalid: &[r#"{"a": 1}"#, r#"["one"]"#],
            failing: Some((
                r#"{"options": ["A"]}"#,
                "",
                "[0, 3]",
                &[
                    "Field definition does not allow multiple options to be selected.",
                    "Option with index 3 does not exist in the field definition.",
                ],
            )),
        },
        Case {
            id: "ezkeyword",
            settings: "{}",
            validators: "{}",
            input: s(r#""foo, bar""#),
            output: s(r#"["foo", "bar"]"#),
            invalid: &[r#"{"a": 1}"#],
            failing: None,
        },
        Case {
            id: "ezcountry",
            settings: r#"{"isMultiple": false}"#,
            validators: "{}",
            input: s(r#"["Norway", "POL"]"#),
            output: s(r#"["NO", "PL"]"#),
            invalid: &[r#"["XX"]"#, r#"{"a": "NO"}"#],
            failing: Some((
                "",
                "",
                r#"["NO", "PL"]"#,
                &["Field definition does not allow multiple countries to be selected."],
            )),
        },
        Case {
            id: "ezisbn",
            settings: r#"{"isISBN13": true}"#,
            validators: "{}",
            input: s(r#""978-0-306-40615-7""#),
            output: s(r#""978-0-306-40615-7""#),
            invalid: &["[]"],
            failing: Some((
                "",
                "",
                r#""978-0-306-40615-8""#,
                &["Bad checksum, last digit of ISBN-13 should be 7"],
            )),
        },
        Case {
            id: "ezuser",
            settings: r#"{"PasswordTTL": null, "PasswordTTLWarning": null, "RequireUniqueEmail": true, "UsernamePattern": "^[^@]+$"}"#,
            validators: r#"{"PasswordValueValidator": {"requireAtLeastOneUpperCaseCharacter": 1, "requireAtLeastOneLowerCaseCharacter": 1,
                "requireAtLeastOneNumericCharacter": 1, "requireAtLeastOneNonAlphanumericCharacter": null, "requireNewPassword": null,
                "requireNotCompromisedPassword": false, "minLength": 10}}"#,
            input: s(
                r#"{"hasStoredLogin": true, "contentId": 14, "login": "admin", "email": "admin@link.invalid", "passwordHash": "x",
                "passwordHashType": 7, "passwordUpdatedAt": null, "enabled": true, "maxLogin": 10, "plainPassword": null}"#,
            ),
            output: s(
                r#"{"hasStoredLogin": true, "contentId": 14, "login": "admin", "email": "admin@link.invalid",
                "passwordUpdatedAt": null, "enabled": true, "maxLogin": 10, "plainPassword": null}"#,
            ),
            invalid: &[r#""x""#],
            failing: Some((
                "",
                "",
                r#"{"login": "ann", "email": "ann@example.com", "enabled": true}"#,
                &["Password required"],
            )),
        },
        Case {
            id: "ezgmaplocation",
            settings: "{}",
            validators: "{}",
            input: s(r#"{"latitude": 59.9, "longitude": "10.75", "address": "Oslo"}"#),
            output: s(r#"{"latitude": 59.9, "longitude": 10.75, "address": "Oslo"}"#),
            invalid: &[r#"{"latitude": "x", "longitude": 1}"#, r#"{"latitude": 1}"#],
            failing: Some((
                "",
                "",
                r#"{"latitude": 100.5, "longitude": 0.5}"#,
                &["Latitude must be between -90 and 90."],
            )),
        },
        Case {
            id: "ezimageasset",
            settings: "{}",
            validators: "{}",
            input: s(r#"{"destinationContentId": 12, "alternativeText": "alt"}"#),
            output: s(r#"{"destinationContentId": 12, "alternativeText": "alt"}"#),
            invalid: &[r#"{"destinationContentId": "x"}"#],
            failing: None,
        },
        Case {
            id: "ezmatrix",
            settings: r#"{"minimum_rows": 1, "columns": []}"#,
            validators: "{}",
            input: s(r#"{"entries": [{"a": "1", "b": 2}]}"#),
            output: s(r#"{"entries": [{"a": "1", "b": "2"}]}"#),
            invalid: &[r#"{"entries": ["x"]}"#, "[1]"],
            failing: Some((
                r#"{"minimum_rows": 2}"#,
                "",
                r#"{"entries": [{"a": "1"}]}"#,
                &["Matrix must contain at least 2 non-empty rows."],
            )),
        },
    ]
}

#[test]
fn every_type_round_trips() {
    let registry = Registry::new("ez");
    let cases = cases();
    let mut ids: Vec<&str> = cases.iter().map(|c| c.id).collect();
    ids.sort();
    let mut registered = registry.identifiers();
    registered.sort();
    assert_eq!(registered, ids);
    for case in &cases {
        let t = registry
            .get(case.id)
            .unwrap_or_else(|| panic!("{} is registered", case.id));
        let id = case.id;
        let settings = t.settings(&HashValue::Null).unwrap();
        assert_eq!(settings, json(case.settings), "{id} settings");
        let validators = t.validators(&HashValue::Null).unwrap();
        assert_eq!(validators, json(case.validators), "{id} validators");
        // Defaults given back are accepted as they are.
        assert_eq!(
            t.settings(&settings).unwrap(),
            settings,
            "{id} settings again"
        );
        assert_eq!(
            t.validators(&validators).unwrap(),
            validators,
            "{id} validators again"
        );

        let stored = t
            .from_hash(&json(&case.input), &cx())
            .unwrap_or_else(|e| panic!("{id}: {e:?}"));
        assert!(!t.is_empty(&stored) || id == "ezboolean", "{id} not empty");
        let output = as_written(t.to_hash(&stored, &cx()));
        assert_eq!(output, json(&case.output), "{id} output");
        // The defaults accept the value (ezselection needs options, ezcountry isMultiple).
        let valid_settings = match id {
            "ezselection" => t.settings(&json(r#"{"options": ["A", "B"]}"#)).unwrap(),
            "ezcountry" => t.settings(&json(r#"{"isMultiple": true}"#)).unwrap(),
            _ => settings.clone(),
        };
        assert_eq!(
            t.validate(&stored, &def(&valid_settings, &validators)),
            [],
            "{id} validates"
        );
        // What a client got back and sends again is the same value (not ezuser: the
        // password hash is not shown).
        if id != "ezuser" {
            assert_eq!(
                t.from_hash(&output, &cx()).as_ref(),
                Ok(&stored),
                "{id} again"
            );
        }

        for bad in case.invalid {
            assert!(
                t.from_hash(&json(bad), &cx()).is_err(),
                "{id} refuses {bad}"
            );
        }

        if let Some((s, v, value, messages)) = case.failing {
            let s = t
                .settings(&json(if s.is_empty() { "{}" } else { s }))
                .unwrap();
            let v = t
                .validators(&json(if v.is_empty() { "{}" } else { v }))
                .unwrap();
            let value = if value.is_empty() {
                stored.clone()
            } else {
                t.from_hash(&json(value), &cx()).unwrap()
            };
            let got: Vec<String> = t
                .validate(&value, &def(&s, &v))
                .into_iter()
                .map(|e| e.message)
                .collect();
            assert_eq!(got, *messages, "{id} validation");
        }
    }
}

#[test]
fn empty_values() {
    let registry = Registry::new("ez");
    for id in registry.identifiers() {
        let Some(t) = registry.get(&id) else {
            panic!("{id}");
        };
        let empty = t.empty_value();
        let from_null = t.from_hash(&HashValue::Null, &cx()).unwrap();
        if id == "ezboolean" {
            assert_eq!(empty, HashValue::Bool(false));
            assert_eq!(from_null, HashValue::Bool(false));
            assert!(!t.is_empty(&empty));
            continue;
        }
        assert!(t.is_empty(&empty), "{id} empty value is empty");
        assert!(t.is_empty(&from_null), "{id} null input is empty");
        // Writing an empty value does not fail.
        let _ = t.to_hash(&empty, &cx());
    }
    let t = |id: &str| registry.get(id).unwrap();
    assert_eq!(t("ezauthor").to_hash(&HashValue::Null, &cx()), json("[]"));
    assert_eq!(
        t("ezstring").to_hash(&HashValue::Null, &cx()),
        HashValue::Null
    );
    assert_eq!(
        t("ezobjectrelation").to_hash(&HashValue::Null, &cx()),
        json(r#"{"destinationContentId": null}"#)
    );
    assert_eq!(
        t("ezobjectrelationlist").to_hash(&t("ezobjectrelationlist").empty_value(), &cx()),
        json(r#"{"destinationContentIds": [], "destinationContentHrefs": []}"#)
    );
    assert_eq!(
        t("ezmatrix").to_hash(&HashValue::Null, &cx()),
        json(r#"{"entries": []}"#)
    );
}

#[test]
fn unknown_keys_are_refused_by_every_type() {
    let registry = Registry::new("ez");
    for id in registry.identifiers() {
        let Some(t) = registry.get(&id) else {
            panic!("{id}");
        };
        let e = t.settings(&json(r#"{"nope": 1}"#)).unwrap_err();
        assert!(e.contains("'nope'"), "{id}: {e}");
        let e = t.validators(&json(r#"{"Nope": {}}"#)).unwrap_err();
        assert_eq!(e, "Validator 'Nope' is unknown", "{id}");
        assert!(t.settings(&HashValue::Int(1)).is_err(), "{id}");
    }
}

#[test]
fn settings_errors_name_the_key() {
    let r = Registry::new("ez");
    let t = |id: &str| r.get(id).unwrap();
    assert_eq!(
        t("ezdate")
            .settings(&json(r#"{"defaultType": "SOMETIMES"}"#))
            .unwrap_err(),
        "Setting 'defaultType' is of unknown type"
    );
    assert_eq!(
        t("ezdate")
            .settings(&json(r#"{"defaultType": 1}"#))
            .unwrap(),
        json(r#"{"defaultType": "DEFAULT_CURRENT_DATE"}"#)
    );
    assert_eq!(
        t("ezmedia")
            .settings(&json(r#"{"mediaType": "html5_audio"}"#))
            .unwrap(),
        json(r#"{"mediaType": "TYPE_HTML5_AUDIO"}"#)
    );
    assert_eq!(
        t("ezcountry")
            .settings(&json(r#"{"isMultiple": "yes"}"#))
            .unwrap_err(),
        "Setting 'isMultiple' value must be of boolean type"
    );
    assert_eq!(
        t("ezobjectrelation")
            .settings(&json(r#"{"selectionRoot": [1]}"#))
            .unwrap_err(),
        "Setting 'selectionRoot' value must be of either null, string or integer"
    );
    assert_eq!(
        t("ezobjectrelation")
            .settings(&json(r#"{"selectionMethod": 1}"#))
            .unwrap(),
        json(
            r#"{"selectionMethod": "SELECTION_DROPDOWN", "selectionRoot": null, "rootDefaultLocation": false, "selectionContentTypes": []}"#
        )
    );
    assert_eq!(
        t("ezimage")
            .validators(&json(r#"{"FileSizeValidator": {"maxFileSize": "big"}}"#))
            .unwrap_err(),
        "Validator parameter 'maxFileSize' value must be of numeric type"
    );
    // XML input casts scalars: "10" arrives as an integer, "true" as a boolean.
    assert_eq!(
        t("ezstring")
            .validators(&json(
                r#"{"StringLengthValidator": {"maxStringLength": "10"}}"#
            ))
            .unwrap(),
        json(r#"{"StringLengthValidator": {"minStringLength": 0, "maxStringLength": 10}}"#)
    );
}

#[test]
fn prefix_is_configuration() {
    let r = Registry::new("ibexa_");
    assert!(r.get("ibexa_string").is_some());
    assert!(r.get("ezstring").is_none());
    assert_eq!(r.identifier("string"), "ibexa_string");
    assert!(Registry::new("ez").get("ezunknown").is_none());
}

#[test]
fn sort_keys_and_names() {
    let r = Registry::new("ez");
    let t = |id: &str| r.get(id).unwrap();
    assert_eq!(
        t("ezstring").sort_key(&v("Hello")),
        SortKey::Text("hello".into())
    );
    assert_eq!(
        t("ezstring").sort_key(&v(&"x".repeat(300))),
        SortKey::Text("x".repeat(255))
    );
    assert_eq!(t("ezinteger").sort_key(&HashValue::Int(4)), SortKey::Int(4));
    assert_eq!(
        t("ezboolean").sort_key(&HashValue::Bool(true)),
        SortKey::Int(1)
    );
    assert_eq!(t("ezboolean").name_text(&HashValue::Bool(false)), "0");
    assert_eq!(
        t("ezdate").sort_key(&HashValue::Int(86_400)),
        SortKey::Int(86_400)
    );
    assert_eq!(
        t("ezemail").name_text(&v("Ann@Example.com")),
        "ann@example.com"
    );
    assert_eq!(t("ezimage").sort_key(&HashValue::Null), SortKey::None);
    assert_eq!(
        t("ezobjectrelation").relations(&json(r#"{"destinationContentId": 5}"#)),
        [(RelationKind::Attribute, 5)]
    );
    assert_eq!(
        t("ezimageasset").relations(&json(
            r#"{"destinationContentId": 5, "alternativeText": null}"#
        )),
        [(RelationKind::Asset, 5)]
    );
    assert_eq!(
        t("ezobjectrelation").name_text(&json(r#"{"destinationContentId": 5}"#)),
        ""
    );
}

#[test]
fn php_floats() {
    assert_eq!(php_float(1.5), "1.5");
    assert_eq!(php_float(2.0), "2");
    assert_eq!(php_float(-0.25), "-0.25");
    assert_eq!(php_float(0.1 + 0.2), "0.3");
    assert_eq!(php_float(1e25), "1.0E+25");
    assert_eq!(php_float(1.5e-7), "1.5E-7");
    assert_eq!(php_float(123456.789), "123456.789");
}
