//! Field definitions (`ezcontentclass_attribute`, names and descriptions also from
//! `ezcontentclass_attribute_ml`): the legacy `data_int1…data_text5` columns read into
//! settings, validators and default values as ibexa/core 4.6's field value converters read
//! them, then normalised by cairn's field type (defaults filled in). A definition of a field
//! type cairn does not have is skipped, and so are its fields (the report names the type).

use super::php;
use super::source::Row;
use super::target::Insert;
use super::{Cx, Def};
use anyhow::Result;
use cairn_runtime::xml::XmlElement;
use cairn_runtime::{Float, HashValue};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

const COLUMNS: &[&str] = &[
    "id",
    "version",
    "contentclass_id",
    "identifier",
    "data_type_string",
    "category",
    "placement",
    "can_translate",
    "is_required",
    "is_information_collector",
    "is_searchable",
    "is_thumbnail",
    "serialized_name_list",
    "serialized_description_list",
    "data_int1",
    "data_int2",
    "data_int3",
    "data_int4",
    "data_float1",
    "data_float2",
    "data_float3",
    "data_float4",
    "data_text1",
    "data_text2",
    "data_text5",
];

pub async fn definitions(cx: &mut Cx<'_>) -> Result<()> {
    let rows = cx
        .src
        .select(
            "ezcontentclass_attribute",
            COLUMNS,
            "version < 2",
            "id, version",
        )
        .await?;
    let ml = (cx.src)
        .select(
            "ezcontentclass_attribute_ml",
            &[
                "contentclass_attribute_id",
                "version",
                "language_id",
                "name",
                "description",
            ],
            "version < 2",
            "",
        )
        .await?;
    let mut translated: HashMap<(i64, i64), super::Texts> = HashMap::new();
    for m in &ml {
        if let Some(code) = cx.code(m.int("language_id")) {
            let e = translated
                .entry((m.int("contentclass_attribute_id"), m.int("version")))
                .or_default();
            e.0.insert(code.clone(), m.text("name").into());
            if let Some(d) = m.opt_text("description") {
                e.1.insert(code, d.into());
            }
        }
    }
    cx.report.read("Field definitions", rows.len());
    let mut out = Vec::new();
    for r in &rows {
        let legacy = r.text("data_type_string");
        let bare = legacy.strip_prefix("ez").unwrap_or(&legacy).to_string();
        let types = cx.types;
        let Some(ft) = types.named(&bare) else {
            cx.report.skip(
                "Field definitions",
                format!("field type {legacy} is not one cairn has"),
                r.describe("ezcontentclass_attribute"),
            );
            cx.defs.insert(
                r.int("id"),
                Arc::new(Def {
                    field_type: None,
                    legacy,
                    search: None,
                }),
            );
            continue;
        };
        let (settings, validators, default) = legacy_constraints(&bare, r);
        let from = r.describe("ezcontentclass_attribute");
        let settings = ft.settings(&settings).unwrap_or_else(|why| {
            cx.report.skip(
                "Field definition settings",
                format!("{legacy}: {why}; defaults used"),
                from.clone(),
            );
            ft.settings(&HashValue::Map(Vec::new()))
                .unwrap_or(HashValue::Map(Vec::new()))
        });
        let validators = ft.validators(&validators).unwrap_or_else(|why| {
            cx.report.skip(
                "Field definition validators",
                format!("{legacy}: {why}; defaults used"),
                from.clone(),
            );
            ft.validators(&HashValue::Map(Vec::new()))
                .unwrap_or(HashValue::Map(Vec::new()))
        });
        let vcx = crate::field_types::ValueContext {
            files: cx.files,
            variations: &[],
            field: None,
            asset: None,
            uploads: None,
        };
        let default = ft.from_hash(&default, &vcx).unwrap_or(HashValue::Null);
        let (id, version) = (r.int("id"), r.int("version"));
        let mut names = php::language_texts(&r.text("serialized_name_list"));
        let mut descriptions = php::language_texts(&r.text("serialized_description_list"));
        if let Some((n, d)) = translated.get(&(id, version)) {
            names.extend(n.clone());
            descriptions.extend(d.clone());
        }
        // The defined version's (0) searchability, as the full-text index reads it; a draft
        // version (1) keeps it.
        let search = if version == 0 {
            r.flag("is_searchable")
                .then(|| (settings.clone(), validators.clone()))
        } else {
            cx.defs.get(&id).and_then(|d| d.search.clone())
        };
        cx.defs.insert(
            id,
            Arc::new(Def {
                field_type: Some(bare.clone()),
                legacy: legacy.clone(),
                search,
            }),
        );
        out.push(Insert {
            from,
            values: vec![
                id.into(),
                version.into(),
                r.int("contentclass_id").into(),
                r.text("identifier").into(),
                bare.into(),
                r.text("category").into(),
                r.int("placement").into(),
                r.flag("can_translate").into(),
                r.flag("is_required").into(),
                r.flag("is_information_collector").into(),
                r.flag("is_searchable").into(),
                r.flag("is_thumbnail").into(),
                Value::Object(names).to_string().into(),
                Value::Object(descriptions).to_string().into(),
                crate::stored::hash_json(&default).into(),
                crate::stored::hash_json(&settings).into(),
                crate::stored::hash_json(&validators).into(),
            ],
        });
    }
    cx.report.written("Field definitions", out.len());
    let columns = [
        "id",
        "status",
        "content_type_id",
        "identifier",
        "field_type",
        "field_group",
        "position",
        "is_translatable",
        "is_required",
        "is_info_collector",
        "is_searchable",
        "is_thumbnail",
        "names",
        "descriptions",
        "default_value",
        "field_settings",
        "validator_configuration",
    ];
    cx.out.insert("field_definitions", &columns, out).await
}

fn map(pairs: Vec<(&str, HashValue)>) -> HashValue {
    HashValue::Map(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn opt_int(n: i64) -> HashValue {
    if n == 0 {
        HashValue::Null
    } else {
        HashValue::Int(n)
    }
}

fn text_or_null(s: String) -> HashValue {
    if s.is_empty() {
        HashValue::Null
    } else {
        HashValue::String(s)
    }
}

/// The elements named `name` anywhere below (and including) `e`.
pub(super) fn descendants<'a>(e: &'a XmlElement, name: &str, out: &mut Vec<&'a XmlElement>) {
    if e.name == name {
        out.push(e);
    }
    for c in &e.children {
        descendants(c, name, out);
    }
}

pub(super) fn attr(e: &XmlElement, name: &str) -> Option<String> {
    e.attrs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
}

/// The first `<name value="…">` of an XML text.
fn xml_value(xml: &XmlElement, name: &str, key: &str) -> Option<String> {
    let mut found = Vec::new();
    descendants(xml, name, &mut found);
    found.first().and_then(|e| attr(e, key))
}

/// (settings, validators, default value) as the reference's converter reads them, in the
/// form a REST `FieldDefinitionCreate` gives them.
fn legacy_constraints(bare: &str, r: &Row) -> (HashValue, HashValue, HashValue) {
    let empty = || HashValue::Map(Vec::new());
    let (i1, i2, i3, i4) = (
        r.int("data_int1"),
        r.int("data_int2"),
        r.int("data_int3"),
        r.int("data_int4"),
    );
    let float = |c: &str| HashValue::Float(Float(r.float(c)));
    let xml = XmlElement::parse(&r.text("data_text5")).ok();
    match bare {
        "string" => (
            empty(),
            map(vec![(
                "StringLengthValidator",
                map(vec![
                    ("maxStringLength", opt_int(i1)),
                    ("minStringLength", opt_int(i2)),
                ]),
            )]),
            text_or_null(r.text("data_text1")),
        ),
        "text" => (
            map(vec![("textRows", HashValue::Int(i1))]),
            empty(),
            HashValue::Null,
        ),
        "boolean" => (empty(), empty(), HashValue::Bool(i3 != 0)),
        "integer" => (
            empty(),
            map(vec![(
                "IntegerValueValidator",
                map(vec![
                    (
                        "minIntegerValue",
                        if i4 & 1 != 0 {
                            HashValue::Int(i1)
                        } else {
                            HashValue::Null
                        },
                    ),
                    (
                        "maxIntegerValue",
                        if i4 & 2 != 0 {
                            HashValue::Int(i2)
                        } else {
                            HashValue::Null
                        },
                    ),
                ]),
            )]),
            r.opt_int("data_int3")
                .map_or(HashValue::Null, HashValue::Int),
        ),
        "float" => {
            let flags = r.float("data_float4") as i64;
            (
                empty(),
                map(vec![(
                    "FloatValueValidator",
                    map(vec![
                        (
                            "minFloatValue",
                            if flags & 1 != 0 {
                                float("data_float1")
                            } else {
                                HashValue::Null
                            },
                        ),
                        (
                            "maxFloatValue",
                            if flags & 2 != 0 {
                                float("data_float2")
                            } else {
                                HashValue::Null
                            },
                        ),
                    ]),
                )]),
                float("data_float3"),
            )
        }
        "datetime" => (
            map(vec![
                ("defaultType", HashValue::Int(i1)),
                ("useSeconds", HashValue::Bool(i2 != 0)),
            ]),
            empty(),
            HashValue::Null,
        ),
        "date" => (
            map(vec![("defaultType", HashValue::Int(i1))]),
            empty(),
            HashValue::Null,
        ),
        "time" => (
            map(vec![
                ("defaultType", HashValue::Int(i1)),
                ("useSeconds", HashValue::Bool(i2 != 0)),
            ]),
            empty(),
            HashValue::Null,
        ),
        "selection" => {
            let mut options = Vec::new();
            if let Some(x) = &xml {
                let mut found = Vec::new();
                descendants(x, "option", &mut found);
                for o in found {
                    let id = attr(o, "id").unwrap_or_default();
                    options.push((id, HashValue::String(attr(o, "name").unwrap_or_default())));
                }
            }
            (
                map(vec![
                    ("isMultiple", HashValue::Bool(i1 != 0)),
                    ("options", HashValue::Map(options)),
                ]),
                empty(),
                HashValue::List(Vec::new()),
            )
        }
        "country" => {
            let default = r.text("data_text5");
            let default = if default.is_empty() {
                HashValue::Null
            } else {
                HashValue::List(
                    default
                        .split(',')
                        .map(|c| HashValue::String(c.to_string()))
                        .collect(),
                )
            };
            (
                map(vec![("isMultiple", HashValue::Bool(i1 != 0))]),
                empty(),
                default,
            )
        }
        "isbn" => (
            map(vec![("isISBN13", HashValue::Bool(i1 != 0))]),
            empty(),
            text_or_null(r.text("data_text1")),
        ),
        "objectrelation" | "objectrelationlist" => {
            let list = bare == "objectrelationlist";
            let mut method = if list { 0 } else { i1 };
            let mut root = if list || i2 == 0 {
                HashValue::Null
            } else {
                HashValue::Int(i2)
            };
            let mut types = Vec::new();
            let mut limit = 0;
            let mut root_default = HashValue::Bool(false);
            if let Some(x) = &xml {
                if let Some(m) = xml_value(x, "selection_type", "value") {
                    method = m.parse().unwrap_or(method);
                }
                if let Some(n) =
                    xml_value(x, "contentobject-placement", "node-id").and_then(|n| n.parse().ok())
                {
                    root = HashValue::Int(n);
                }
                if let Some(v) = xml_value(x, "root_default_location", "value") {
                    root_default = HashValue::Bool(v == "1" || v == "true");
                }
                if let Some(l) = xml_value(x, "selection_limit", "value") {
                    limit = l.parse().unwrap_or(0);
                }
                let mut found = Vec::new();
                descendants(x, "allowed-class", &mut found);
                types = found
                    .iter()
                    .filter_map(|e| attr(e, "contentclass-identifier"))
                    .map(HashValue::String)
                    .collect();
            }
            let root_key = if list {
                "selectionDefaultLocation"
            } else {
                "selectionRoot"
            };
            let settings = map(vec![
                ("selectionMethod", HashValue::Int(method)),
                (root_key, root),
                ("rootDefaultLocation", root_default),
                ("selectionContentTypes", HashValue::List(types)),
            ]);
            let validators = if list {
                map(vec![(
                    "RelationListValueValidator",
                    map(vec![("selectionLimit", HashValue::Int(limit))]),
                )])
            } else {
                empty()
            };
            (settings, validators, HashValue::Null)
        }
        "binaryfile" => (
            empty(),
            map(vec![(
                "FileSizeValidator",
                map(vec![("maxFileSize", opt_int(i1))]),
            )]),
            HashValue::Null,
        ),
        "media" => (
            map(vec![("mediaType", text_or_null(r.text("data_text1")))]),
            map(vec![(
                "FileSizeValidator",
                map(vec![("maxFileSize", opt_int(i1))]),
            )]),
            HashValue::Null,
        ),
        "image" => {
            let max = r.float("data_float1");
            (
                empty(),
                map(vec![
                    (
                        "FileSizeValidator",
                        map(vec![(
                            "maxFileSize",
                            if max == 0.0 {
                                HashValue::Null
                            } else {
                                HashValue::Float(Float(max))
                            },
                        )]),
                    ),
                    (
                        "AlternativeTextValidator",
                        map(vec![("required", HashValue::Bool(i2 != 0))]),
                    ),
                ]),
                HashValue::Null,
            )
        }
        "author" => (
            map(vec![("defaultAuthor", HashValue::Int(i1))]),
            empty(),
            HashValue::Null,
        ),
        "email" => (
            empty(),
            map(vec![("EmailAddressValidator", empty())]),
            text_or_null(r.text("data_text1")),
        ),
        "user" => {
            let flag = |bit: i64| HashValue::Bool(i1 & bit != 0);
            (
                map(vec![
                    ("PasswordTTL", opt_int(i3)),
                    ("PasswordTTLWarning", opt_int(i4)),
                    ("RequireUniqueEmail", flag(32)),
                    ("UsernamePattern", text_or_null(r.text("data_text2"))),
                ]),
                map(vec![(
                    "PasswordValueValidator",
                    map(vec![
                        ("requireAtLeastOneUpperCaseCharacter", flag(1)),
                        ("requireAtLeastOneLowerCaseCharacter", flag(2)),
                        ("requireAtLeastOneNumericCharacter", flag(4)),
                        ("requireAtLeastOneNonAlphanumericCharacter", flag(8)),
                        ("requireNewPassword", flag(16)),
                        ("requireNotCompromisedPassword", flag(64)),
                        ("minLength", HashValue::Int(i2)),
                    ]),
                )]),
                HashValue::Null,
            )
        }
        _ => (empty(), empty(), HashValue::Null),
    }
}
