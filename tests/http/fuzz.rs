//! Fuzzing (bolero, run for a bounded time by `cargo test`): the XML and JSON readers and the
//! generated decoders on mutated reference bodies, and the search query parser through
//! `POST /views`, where no input may reach a 5xx.
//!
//! Inputs are well-formed seeds with byte-level mutations (replace, insert, delete, cut), so
//! that most of them get past the first byte. `BOLERO_RANDOM_SEED` replays a failure.

use crate::support::*;
use bolero::check;
use cairn::api::model::*;
use cairn_runtime::decode::{Decode, Path};
use cairn_runtime::media::Wire;
use cairn_runtime::xml::XmlElement;
use std::time::Duration;

/// Applies `edits` (position, operation, byte) to `seed`.
fn mutate(seed: &str, edits: &[(u16, u8, u8)]) -> Vec<u8> {
    let mut out = seed.as_bytes().to_vec();
    for &(pos, op, byte) in edits {
        if out.is_empty() {
            out.push(byte);
            continue;
        }
        let at = usize::from(pos) % out.len();
        match op % 4 {
            0 => out[at] = byte,
            1 => out.insert(at, byte),
            2 => {
                out.remove(at);
            }
            _ => {
                // A byte that matters to the syntax.
                out.insert(at, b"<>\"{}[],:/&;=\\ \0"[usize::from(byte) % 16]);
            }
        }
    }
    out
}

const XML_SEEDS: &[&str] = &[
    r#"<?xml version="1.0" encoding="UTF-8"?><ContentCreate><ContentType href="/api/ibexa/v2/content/types/2"/><mainLanguageCode>eng-GB</mainLanguageCode><LocationCreate><ParentLocation href="/api/ibexa/v2/content/locations/1/2"/><priority>0</priority></LocationCreate><Section href="/api/ibexa/v2/content/sections/1"/><fields><field><fieldDefinitionIdentifier>title</fieldDefinitionIdentifier><languageCode>eng-GB</languageCode><fieldValue><value key="xml">&lt;section/&gt;</value></fieldValue></field></fields></ContentCreate>"#,
    r#"<ViewInput><identifier>x</identifier><LocationQuery><Filter><AND><ParentLocationIdCriterion>43</ParentLocationIdCriterion><OR><ContentIdCriterion>1,4</ContentIdCriterion><NOT><SectionIdentifierCriterion>users</SectionIdentifierCriterion></NOT></OR></AND></Filter><limit>2</limit><SortClauses><LocationPath>ascending</LocationPath></SortClauses></LocationQuery></ViewInput>"#,
    r#"<RoleAssignInput><Role href="/api/ibexa/v2/user/roles/1"/><limitation identifier="Subtree"><values><ref href="/api/ibexa/v2/content/locations/1/2"/></values></limitation></RoleAssignInput>"#,
    r#"<PolicyCreate><module>content</module><function>read</function><limitations><limitation identifier="Class"><values><ref href="1"/><ref href="2"/></values></limitation></limitations></PolicyCreate>"#,
    r#"<UserCreate><mainLanguageCode>eng-GB</mainLanguageCode><login>jo</login><email>jo@example.com</email><password>Secret-12345</password><fields><field><fieldDefinitionIdentifier>first_name</fieldDefinitionIdentifier><fieldValue>Jo</fieldValue></field></fields></UserCreate>"#,
];

const JSON_SEEDS: &[&str] = &[
    r#"{"ContentCreate": {"ContentType": {"_href": "/api/ibexa/v2/content/types/2"}, "mainLanguageCode": "eng-GB", "LocationCreate": {"ParentLocation": {"_href": "/api/ibexa/v2/content/locations/1/2"}, "priority": "0"}, "Section": null, "fields": {"field": [{"fieldDefinitionIdentifier": "title", "fieldValue": "T"}, {"fieldDefinitionIdentifier": "intro", "fieldValue": {"xml": "<section/>"}}]}}}"#,
    r#"{"ViewInput": {"identifier": "v", "ContentQuery": {"Filter": {"AND": [{"ContentTypeIdentifierCriterion": ["folder", "article"]}, {"OR": [{"ContentIdCriterion": "1,41"}, {"NOT": {"FullTextCriterion": "media files"}}]}, {"DateMetadataCriterion": {"Target": "modified", "Value": 1675681020, "Operator": "gte"}}, {"Field": {"name": "name", "operator": "CONTAINS", "value": "a"}}]}, "limit": 5, "offset": 1, "SortClauses": {"ContentName": "ascending", "Field": {"identifier": "folder/name", "direction": "descending"}}}}}"#,
    r#"{"RoleAssignInput": {"Role": {"_href": "/api/ibexa/v2/user/roles/1"}, "limitation": {"_identifier": "Section", "values": {"ref": [{"_href": "1"}]}}}}"#,
    r#"{"UserUpdate": {"email": "a@example.com", "enabled": "true", "password": "x", "fields": {"field": []}}}"#,
    r#"{"ContentObjectStates": {"ObjectState": [{"_href": "/api/ibexa/v2/content/objectstategroups/2/objectstates/1"}]}}"#,
];

/// Decodes `text` as every input type of `names`: errors are fine, panics are not.
fn decode_all_xml(text: &str) {
    let wire = Wire::new("ibexa", "/api/ibexa/v2");
    let Ok(root) = XmlElement::parse(text) else {
        return;
    };
    macro_rules! each {
        ($($t:ty),*) => {$(
            let _ = <$t>::decode(&root, &mut Path::new(&root.name, &wire));
        )*};
    }
    each!(
        ContentCreate,
        ContentUpdate,
        ViewInput,
        RoleAssignInput,
        PolicyCreate,
        UserCreate,
        UserUpdate,
        LocationCreate,
        ContentObjectStates,
        SectionInput
    );
}

fn decode_all_json(text: &str) {
    let wire = Wire::new("ibexa", "/api/ibexa/v2");
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    let Some((name, root)) = value.as_object().and_then(|o| o.iter().next()) else {
        return;
    };
    macro_rules! each {
        ($($t:ty),*) => {$(
            let _ = <$t>::decode(root, &mut Path::new(name, &wire));
        )*};
    }
    each!(
        ContentCreate,
        ContentUpdate,
        ViewInput,
        RoleAssignInput,
        PolicyCreate,
        UserCreate,
        UserUpdate,
        LocationCreate,
        ContentObjectStates,
        SectionInput
    );
}

#[test]
fn the_xml_and_json_decoders_never_panic() {
    check!()
        .with_type::<(u8, Vec<(u16, u8, u8)>)>()
        .with_test_time(Duration::from_secs(5))
        .for_each(|(seed, edits)| {
            let edits = &edits[..edits.len().min(16)];
            let xml = mutate(XML_SEEDS[usize::from(*seed) % XML_SEEDS.len()], edits);
            decode_all_xml(&String::from_utf8_lossy(&xml));
            let json = mutate(JSON_SEEDS[usize::from(*seed) % JSON_SEEDS.len()], edits);
            decode_all_json(&String::from_utf8_lossy(&json));
        });
}

#[test]
fn no_search_query_reaches_a_server_error() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let app = runtime.block_on(TestApp::new());
    let views: Vec<(&str, &str)> = vec![
        (
            "application/vnd.ibexa.api.ViewInput+json; version=1.1",
            JSON_SEEDS[1],
        ),
        (
            "application/vnd.ibexa.api.ViewInput+xml; version=1.1",
            XML_SEEDS[1],
        ),
    ];
    // A panic fails the test, whatever state it leaves the app in.
    let shared = std::panic::AssertUnwindSafe((&runtime, &app));
    check!()
        .with_type::<(bool, Vec<(u16, u8, u8)>)>()
        .with_test_time(Duration::from_secs(5))
        .for_each(|(xml, edits)| {
            let (runtime, app) = *shared;
            let (content_type, seed) = views[usize::from(*xml)];
            let body = mutate(seed, &edits[..edits.len().min(8)]);
            let body = String::from_utf8_lossy(&body);
            let r = runtime.block_on(
                app.req("POST", "/views")
                    .admin()
                    .raw_body(content_type, &body)
                    .send(),
            );
            assert!(
                r.status.as_u16() < 500,
                "{} for {body}: {}",
                r.status,
                r.body
            );
        });
}

/// A language code of six bytes that are not six characters (schemathesis found one) is a
/// 400 that names it, not a panic, wherever a code is read.
#[tokio::test]
async fn a_language_code_of_multibyte_characters_is_refused() {
    let app = TestApp::new().await;
    for code in ["\u{b62ac}ab", "é-ab-C", "eng\u{e9}B"] {
        let body = serde_json::json!({"mainLanguageCode": code,
            "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "G"}]}});
        let r = app
            .req("POST", "/user/groups/1/5/subgroups")
            .admin()
            .json_body("UserGroupCreate", body)
            .send()
            .await;
        assert!(
            r.assert_error(400).contains("is not a language code"),
            "{code}: {}",
            r.body
        );
    }
}
