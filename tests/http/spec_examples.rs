//! The request examples of `spec/examples/` (those the OpenAPI document shows for request
//! bodies) read by the generated decoders the server reads requests with: each decodes, in JSON
//! and in XML, to the same value. Their match with the spec field by field, and the response
//! examples, are checked in `crates/codegen/tests/examples.rs`.

use cairn::api::model::*;
use cairn_runtime::decode::{Decode, Path};
use cairn_runtime::media::Wire;
use cairn_runtime::values::HashValue;
use cairn_runtime::xml::XmlElement;
use serde_json::Value;
use std::fmt::Debug;

fn example(file: &str) -> String {
    let path = format!("{}/spec/examples/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Decodes `<name>.json` and `<name>.xml` as `T`; the two values must be equal.
fn decodes_alike<T: Decode + PartialEq + Debug>(name: &str) -> Result<(), String> {
    decodes_alike_as::<T>(name, |_| ())
}

/// A free-form list as XML writes it (`<Aggregations><Aggregation>…` and `<ranges><Range>…`,
/// decoded as a map of the item element) taken as the list JSON writes, as the service takes
/// them both.
fn xml_lists_as_json(v: &mut HashValue) {
    match v {
        HashValue::Map(entries) => {
            if let [(key, item)] = entries.as_mut_slice()
                && ["Aggregation", "Range"].contains(&key.as_str())
            {
                let items = match std::mem::take(item) {
                    HashValue::List(items) => items,
                    one => vec![one],
                };
                *v = HashValue::List(items);
                return xml_lists_as_json(v);
            }
            entries.iter_mut().for_each(|(_, v)| xml_lists_as_json(v));
        }
        HashValue::List(items) => items.iter_mut().for_each(xml_lists_as_json),
        _ => {}
    }
}

/// [`decodes_alike`], each value first passed to `normalize`.
fn decodes_alike_as<T: Decode + PartialEq + Debug>(
    name: &str,
    normalize: impl Fn(&mut T),
) -> Result<(), String> {
    let w = Wire::new("ibexa", "/api/ibexa/v2");
    let v: Value = serde_json::from_str(&example(&format!("{name}.json")))
        .map_err(|e| format!("{name}.json: {e}"))?;
    let (key, root) = v
        .as_object()
        .and_then(|o| o.iter().next())
        .ok_or(format!("{name}.json: not a JSON document"))?;
    let mut from_json =
        T::decode(root, &mut Path::new(key, &w)).map_err(|e| format!("{name}.json: {e}"))?;
    let el = XmlElement::parse(&example(&format!("{name}.xml")))
        .map_err(|e| format!("{name}.xml: {e}"))?;
    let mut from_xml =
        T::decode(&el, &mut Path::new(&el.name, &w)).map_err(|e| format!("{name}.xml: {e}"))?;
    normalize(&mut from_json);
    normalize(&mut from_xml);
    if from_json != from_xml {
        return Err(format!(
            "{name}: JSON and XML decode differently:\n{from_json:?}\n{from_xml:?}"
        ));
    }
    Ok(())
}

/// The generated decoder of each input type, by name. A type missing here fails the test below
/// (list it when the spec gains an input type).
fn decode(name: &str) -> Result<(), String> {
    match name {
        "ContentCreate" => decodes_alike::<ContentCreate>(name),
        "ContentObjectStates" => decodes_alike::<ContentObjectStates>(name),
        "ContentTypeCreate" => decodes_alike::<ContentTypeCreate>(name),
        "ContentTypeGroupInput" => decodes_alike::<ContentTypeGroupInput>(name),
        "ContentTypeUpdate" => decodes_alike::<ContentTypeUpdate>(name),
        "ContentTypeViewInput" => decodes_alike::<ContentTypeViewInput>(name),
        "ContentUpdate" => decodes_alike::<ContentUpdate>(name),
        "FieldDefinitionCreate" => decodes_alike::<FieldDefinitionCreate>(name),
        "FieldDefinitionUpdate" => decodes_alike::<FieldDefinitionUpdate>(name),
        "LocationCreate" => decodes_alike::<LocationCreate>(name),
        "LocationUpdate" => decodes_alike::<LocationUpdate>(name),
        "ObjectStateCreate" => decodes_alike::<ObjectStateCreate>(name),
        "ObjectStateGroupCreate" => decodes_alike::<ObjectStateGroupCreate>(name),
        "ObjectStateGroupUpdate" => decodes_alike::<ObjectStateGroupUpdate>(name),
        "ObjectStateUpdate" => decodes_alike::<ObjectStateUpdate>(name),
        "JwtInput" => decodes_alike::<JwtInput>(name),
        "PolicyCreate" => decodes_alike::<PolicyCreate>(name),
        "PolicyUpdate" => decodes_alike::<PolicyUpdate>(name),
        "RelationCreate" => decodes_alike::<RelationCreate>(name),
        "RoleAssignInput" => decodes_alike::<RoleAssignInput>(name),
        "RoleInput" => decodes_alike::<RoleInput>(name),
        "SectionInput" => decodes_alike::<SectionInput>(name),
        "SessionInput" => decodes_alike::<SessionInput>(name),
        "UrlAliasCreate" => decodes_alike::<UrlAliasCreate>(name),
        "UrlWildcardCreate" => decodes_alike::<UrlWildcardCreate>(name),
        "UserCreate" => decodes_alike::<UserCreate>(name),
        "UserGroupCreate" => decodes_alike::<UserGroupCreate>(name),
        "UserGroupUpdate" => decodes_alike::<UserGroupUpdate>(name),
        "UserUpdate" => decodes_alike::<UserUpdate>(name),
        "VersionUpdate" => decodes_alike::<VersionUpdate>(name),
        "ViewInput" => decodes_alike_as::<ViewInput>(name, |v| {
            if let Some(a) = v.query.as_mut().and_then(|q| q.aggregations.as_mut()) {
                xml_lists_as_json(a);
            }
        }),
        other => Err(format!(
            "no decoder listed for {other} in tests/http/spec_examples.rs"
        )),
    }
}

#[test]
fn every_request_example_decodes_alike_in_json_and_xml() {
    let doc: Value = serde_json::from_str(cairn::api::OPENAPI).unwrap();
    let mut names: Vec<String> = Vec::new();
    for item in doc["paths"].as_object().unwrap().values() {
        let ops = item.as_object().unwrap().values().chain(
            item["x-oai-additionalOperations"]
                .as_object()
                .into_iter()
                .flat_map(|m| m.values()),
        );
        for op in ops {
            for (media, body) in op["requestBody"]["content"]
                .as_object()
                .into_iter()
                .flatten()
            {
                let r = body["examples"]["cairn"]["$ref"].as_str();
                let name = r.and_then(|r| r.strip_prefix("#/components/examples/"));
                match name.and_then(|n| n.rsplit_once('.')) {
                    Some((n, _)) => names.push(n.to_string()),
                    None => panic!("{media}: no example"),
                }
            }
        }
    }
    names.sort();
    names.dedup();
    assert!(
        names.len() >= 30,
        "only {} request types: {names:?}",
        names.len()
    );
    let problems: Vec<String> = names.iter().filter_map(|n| decode(n).err()).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_request_example_that_does_not_decode_is_told() {
    // RoleAssignInput's Role must be a Role's href: the decoders refuse a Section's.
    let w = Wire::new("ibexa", "/api/ibexa/v2");
    let text = example("RoleAssignInput.json").replace("/user/roles/", "/content/sections/");
    let v: Value = serde_json::from_str(&text).unwrap();
    let err = RoleAssignInput::decode(&v["RoleAssignInput"], &mut Path::new("RoleAssignInput", &w))
        .unwrap_err();
    assert!(err.to_string().starts_with("RoleAssignInput.Role"), "{err}");
    assert!(decode("NoSuchInput").is_err());
}
