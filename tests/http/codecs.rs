//! The generated codecs on their own: reference-shaped bodies read in both formats, and the
//! writers' output read back.

use cairn::api::model::*;
use cairn_runtime::decode::{Decode, Path};
use cairn_runtime::http::encode_document;
use cairn_runtime::media::Wire;
use cairn_runtime::xml::XmlElement;
use cairn_runtime::{Format, HashValue};

fn wire() -> Wire {
    Wire::new("ibexa", "/api/ibexa/v2")
}

fn from_xml<T: Decode>(xml: &str) -> Result<T, String> {
    let w = wire();
    let root = XmlElement::parse(xml)?;
    T::decode(&root, &mut Path::new(&root.name, &w)).map_err(|e| e.to_string())
}

fn from_json<T: Decode>(json: &str) -> Result<T, String> {
    let w = wire();
    let v: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let (name, root) = v.as_object().unwrap().iter().next().unwrap();
    T::decode(root, &mut Path::new(name, &w)).map_err(|e| e.to_string())
}

const CONTENT_CREATE_XML: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<ContentCreate>
  <ContentType href="/api/ibexa/v2/content/types/2" />
  <mainLanguageCode>eng-GB</mainLanguageCode>
  <LocationCreate>
    <ParentLocation href="/api/ibexa/v2/content/locations/1/2" />
    <priority>0</priority>
    <hidden>false</hidden>
    <sortField>PATH</sortField>
    <sortOrder>ASC</sortOrder>
  </LocationCreate>
  <Section href="/api/ibexa/v2/content/sections/4" />
  <alwaysAvailable>true</alwaysAvailable>
  <remoteId>remoteId12345678</remoteId>
  <fields>
    <field>
      <fieldDefinitionIdentifier>title</fieldDefinitionIdentifier>
      <languageCode>eng-GB</languageCode>
      <fieldValue>This is a title</fieldValue>
    </field>
    <field>
      <fieldDefinitionIdentifier>intro</fieldDefinitionIdentifier>
      <languageCode>eng-GB</languageCode>
      <fieldValue>
        <value key="xml">&lt;section/&gt;</value>
      </fieldValue>
    </field>
    <field>
      <fieldDefinitionIdentifier>count</fieldDefinitionIdentifier>
      <fieldValue>42</fieldValue>
    </field>
  </fields>
</ContentCreate>"#;

const CONTENT_CREATE_JSON: &str = r#"{"ContentCreate": {
  "ContentType": {"_href": "/api/ibexa/v2/content/types/2"},
  "mainLanguageCode": "eng-GB",
  "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}, "priority": "0", "hidden": "false", "sortField": "PATH", "sortOrder": "ASC"},
  "Section": {"_href": "/api/ibexa/v2/content/sections/4"},
  "alwaysAvailable": "true",
  "remoteId": "remoteId12345678",
  "fields": {"field": [
    {"fieldDefinitionIdentifier": "title", "languageCode": "eng-GB", "fieldValue": "This is a title"},
    {"fieldDefinitionIdentifier": "intro", "languageCode": "eng-GB", "fieldValue": {"xml": "<section/>"}},
    {"fieldDefinitionIdentifier": "count", "fieldValue": 42}
  ]}
}}"#;

#[test]
fn content_create_reads_the_same_from_xml_and_json() {
    let x: ContentCreate = from_xml(CONTENT_CREATE_XML).unwrap();
    let j: ContentCreate = from_json(CONTENT_CREATE_JSON).unwrap();
    assert_eq!(x, j);
    assert_eq!(x.content_type, 2);
    assert_eq!(x.section, Some(4));
    assert_eq!(x.always_available, Some(true));
    assert_eq!(x.location_create.parent_location, "1/2");
    assert_eq!(x.location_create.priority, Some(0));
    assert_eq!(x.fields.field.len(), 3);
    assert_eq!(
        x.fields.field[0].field_value,
        HashValue::String("This is a title".into())
    );
    assert_eq!(
        x.fields.field[1].field_value.get("xml"),
        Some(&HashValue::String("<section/>".into()))
    );
    // XML casts digits like the reference; JSON keeps its number.
    assert_eq!(x.fields.field[2].field_value, HashValue::Int(42));
}

#[test]
fn decode_errors_name_the_path() {
    let err = from_json::<ContentCreate>(
        r#"{"ContentCreate": {"ContentType": {"_href": "/api/ibexa/v2/content/types/2"}, "mainLanguageCode": "eng-GB",
            "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}},
            "fields": {"field": [{"fieldDefinitionIdentifier": "a", "fieldValue": 1}, {"fieldValue": 2}]}}}"#,
    )
    .unwrap_err();
    assert_eq!(
        err,
        "ContentCreate.fields.field[2].fieldDefinitionIdentifier: is required but missing"
    );
    let err = from_xml::<ContentCreate>(
        "<ContentCreate><ContentType href=\"/api/ibexa/v2/content/sections/2\"/></ContentCreate>",
    )
    .unwrap_err();
    assert!(err.starts_with("ContentCreate.ContentType:"), "{err}");
    assert!(err.contains("/content/types/{contentTypeId}"), "{err}");
    let err = from_xml::<LocationCreate>(
        "<LocationCreate><ParentLocation href=\"/api/ibexa/v2/content/locations/1/2\"/><priority>high</priority></LocationCreate>",
    )
    .unwrap_err();
    assert_eq!(err, "LocationCreate.priority: expected an integer");
    let err = from_xml::<LocationCreate>(
        "<LocationCreate><ParentLocation href=\"/elsewhere/1\"/></LocationCreate>",
    )
    .unwrap_err();
    assert!(err.contains("not a resource of this API"), "{err}");
}

#[test]
fn error_messages_with_field_details_match_the_reference_shapes() {
    let msg = ErrorMessage {
        error_code: 400,
        error_message: "Bad Request".into(),
        error_description: "Content fields did not validate".into(),
        error_details: Some(ErrorDetails {
            fields: vec![FieldErrors {
                field_type_id: 247,
                errors: vec![FieldError {
                    r#type: "text".into(),
                    message: "The string cannot be shorter than 3 characters.".into(),
                }],
            }],
        }),
        previous: None,
    };
    let w = wire();
    let json: serde_json::Value =
        serde_json::from_slice(&encode_document(&msg, Format::Json, &w)).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"ErrorMessage": {"_media-type": "application/vnd.ibexa.api.ErrorMessage+json",
            "errorCode": 400, "errorMessage": "Bad Request",
            "errorDescription": "Content fields did not validate",
            "errorDetails": {"fields": [{"_fieldTypeId": 247, "errors": [
                {"type": "text", "message": "The string cannot be shorter than 3 characters."}]}]}}})
    );
    let xml = String::from_utf8(encode_document(&msg, Format::Xml, &w)).unwrap();
    assert!(xml.contains(
        "<errorDetails><fields><field fieldTypeId=\"247\"><errors><error><type>text</type><message>The string cannot be shorter than 3 characters.</message></error></errors></field></fields></errorDetails>"
    ), "{xml}");
}

#[test]
fn lists_are_arrays_in_json_even_when_empty_and_names_are_lang_maps() {
    let w = wire();
    let list = SectionList {
        href: "/content/sections".into(),
        section: vec![],
    };
    let json: serde_json::Value =
        serde_json::from_slice(&encode_document(&list, Format::Json, &w)).unwrap();
    assert_eq!(json["SectionList"]["Section"], serde_json::json!([]));
    let xml = String::from_utf8(encode_document(&list, Format::Xml, &w)).unwrap();
    assert!(xml.ends_with("<SectionList media-type=\"application/vnd.ibexa.api.SectionList+xml\" href=\"/api/ibexa/v2/content/sections\"/>"), "{xml}");
}

/// An optional reference absent, `null`, or without an href reads the same (the eZ Platform
/// JavaScript client always sends `"Section": null`).
#[test]
fn an_optional_reference_may_be_null_or_empty() {
    let with = |section: &str| {
        format!(
            r#"{{"ContentCreate": {{"ContentType": {{"_href": "/api/ibexa/v2/content/types/2"}}, "mainLanguageCode": "eng-GB",
            "LocationCreate": {{"ParentLocation": {{"_href": "/api/ibexa/v2/content/locations/1/2"}}}},
            {section} "fields": {{"field": []}}}}}}"#
        )
    };
    for section in [
        "",
        r#""Section": null,"#,
        r#""Section": {},"#,
        r#""User": null, "Section": null,"#,
    ] {
        let c =
            from_json::<ContentCreate>(&with(section)).unwrap_or_else(|e| panic!("{section}: {e}"));
        assert_eq!(c.section, None);
    }
    let c = from_xml::<ContentCreate>(
        "<ContentCreate><ContentType href=\"/api/ibexa/v2/content/types/2\"/><mainLanguageCode>eng-GB</mainLanguageCode>\
         <LocationCreate><ParentLocation href=\"/api/ibexa/v2/content/locations/1/2\"/></LocationCreate><Section/><fields><field><fieldDefinitionIdentifier>title</fieldDefinitionIdentifier><fieldValue>T</fieldValue></field></fields></ContentCreate>",
    )
    .unwrap();
    assert_eq!(c.section, None);
    // A required one is still required.
    let err = from_json::<ContentCreate>(&with("").replace(
        r#""ContentType": {"_href": "/api/ibexa/v2/content/types/2"}"#,
        r#""ContentType": null"#,
    ))
    .unwrap_err();
    assert_eq!(err, "ContentCreate.ContentType: is required but missing");
}
