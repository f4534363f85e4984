//! Field values: a legacy `ezcontentobject_attribute` row (and the external tables some types
//! keep their data in: `ezurl`, `ezkeyword`, `ezgmaplocation`, `ezbinaryfile`, `ezmedia`,
//! `ezuser`) read as ibexa/core 4.6's converters and external storages read it, into the
//! value cairn stores for the type: given to the type's own `from_hash` as a REST
//! `fieldValue`, except for the file types, whose stored value is written here (their files
//! are the old site's, `files`).

use super::Cx;
use super::definitions::{attr, descendants};
use super::source::Row;
use cairn_runtime::xml::XmlElement;
use cairn_runtime::{Float, HashValue};
use std::collections::HashMap;

/// What the values of one batch of content items need from the external tables, keyed by
/// (field id, version) unless said otherwise.
#[derive(Default)]
pub struct Extras {
    /// `ezurl` id → URL.
    pub urls: HashMap<i64, String>,
    pub keywords: HashMap<(i64, i64), Vec<String>>,
    pub maps: HashMap<(i64, i64), Row>,
    pub binaries: HashMap<(i64, i64), Row>,
    pub media: HashMap<(i64, i64), Row>,
    /// Content id → `ezuser` row joined with `ezuser_setting`.
    pub users: HashMap<i64, Row>,
}

fn map(pairs: Vec<(&str, HashValue)>) -> HashValue {
    HashValue::Map(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn s(v: impl Into<String>) -> HashValue {
    HashValue::String(v.into())
}

/// The REST `fieldValue` of a legacy field of bare type `bare`, or the stored value itself
/// (`Ok(Err(stored))`) for the types whose value is written here.
pub async fn convert(
    cx: &mut Cx<'_>,
    bare: &str,
    r: &Row,
    extras: &Extras,
) -> Result<Result<HashValue, HashValue>, String> {
    let key = (r.int("id"), r.int("version"));
    let text = r.text("data_text");
    let data_int = r.opt_int("data_int");
    let hash = match bare {
        "string" | "text" | "email" | "isbn" => s(text),
        "richtext" => {
            if text.trim().is_empty() {
                HashValue::Null
            } else {
                map(vec![("xml", s(text))])
            }
        }
        "boolean" => HashValue::Bool(data_int.unwrap_or(0) != 0),
        "integer" => data_int.map_or(HashValue::Null, HashValue::Int),
        "float" => match r.opt_text("data_float") {
            Some(_) => HashValue::Float(Float(r.float("data_float"))),
            None => HashValue::Null,
        },
        "datetime" => data_int.map_or(HashValue::Null, |t| {
            map(vec![("timestamp", HashValue::Int(t))])
        }),
        "date" => match data_int {
            None | Some(0) => HashValue::Null,
            Some(t) => map(vec![("timestamp", HashValue::Int(t))]),
        },
        "time" => data_int.map_or(HashValue::Null, HashValue::Int),
        "selection" => HashValue::List(
            text.split('-')
                .filter_map(|i| i.trim().parse::<i64>().ok())
                .map(HashValue::Int)
                .collect(),
        ),
        "country" => {
            if text.is_empty() {
                HashValue::Null
            } else {
                HashValue::List(text.split(',').map(|c| s(c.trim())).collect())
            }
        }
        "objectrelation" => match data_int {
            None | Some(0) => HashValue::Null,
            Some(id) => map(vec![("destinationContentId", HashValue::Int(id))]),
        },
        "imageasset" => match data_int {
            None | Some(0) => HashValue::Null,
            Some(id) => map(vec![
                ("destinationContentId", HashValue::Int(id)),
                (
                    "alternativeText",
                    if text.is_empty() {
                        HashValue::Null
                    } else {
                        s(text)
                    },
                ),
            ]),
        },
        "objectrelationlist" => {
            let mut items: Vec<(f64, i64)> = Vec::new();
            if let Ok(x) = XmlElement::parse(&text) {
                let mut found = Vec::new();
                descendants(&x, "relation-item", &mut found);
                for e in found {
                    if let Some(id) = attr(e, "contentobject-id").and_then(|i| i.parse().ok()) {
                        let p = attr(e, "priority")
                            .and_then(|p| p.parse().ok())
                            .unwrap_or(0.0);
                        items.push((p, id));
                    }
                }
            }
            items.sort_by(|a, b| a.0.total_cmp(&b.0));
            map(vec![(
                "destinationContentIds",
                HashValue::List(
                    items
                        .into_iter()
                        .map(|(_, id)| HashValue::Int(id))
                        .collect(),
                ),
            )])
        }
        "author" => {
            let mut authors = Vec::new();
            if let Ok(x) = XmlElement::parse(&text) {
                let mut found = Vec::new();
                descendants(&x, "author", &mut found);
                for e in found {
                    authors.push(map(vec![
                        (
                            "id",
                            attr(e, "id")
                                .and_then(|i| i.parse().ok())
                                .map_or(HashValue::Null, HashValue::Int),
                        ),
                        ("name", s(attr(e, "name").unwrap_or_default())),
                        ("email", s(attr(e, "email").unwrap_or_default())),
                    ]));
                }
            }
            HashValue::List(authors)
        }
        "url" => match data_int.and_then(|id| extras.urls.get(&id)) {
            Some(link) => map(vec![("link", s(link.clone())), ("text", s(text))]),
            None => HashValue::Null,
        },
        "keyword" => HashValue::List(
            (extras
                .keywords
                .get(&key)
                .cloned()
                .unwrap_or_default()
                .into_iter())
            .map(HashValue::String)
            .collect(),
        ),
        "gmaplocation" => match extras.maps.get(&key) {
            Some(m) => map(vec![
                ("latitude", HashValue::Float(Float(m.float("latitude")))),
                ("longitude", HashValue::Float(Float(m.float("longitude")))),
                ("address", s(m.text("address"))),
            ]),
            None => HashValue::Null,
        },
        "user" => match extras.users.get(&r.int("contentobject_id")) {
            Some(u) => map(vec![
                ("hasStoredLogin", HashValue::Bool(true)),
                ("contentId", HashValue::Int(r.int("contentobject_id"))),
                ("login", s(u.text("login"))),
                ("email", s(u.text("email"))),
                (
                    "enabled",
                    HashValue::Bool(u.opt_int("is_enabled").unwrap_or(1) != 0),
                ),
                (
                    "maxLogin",
                    HashValue::Int(u.opt_int("max_login").unwrap_or(10)),
                ),
            ]),
            None => HashValue::Null,
        },
        "image" => return Ok(Err(super::files::image(cx, &text).await)),
        "binaryfile" => {
            return Ok(Err(super::files::binary(
                cx,
                extras.binaries.get(&key),
                false,
            )
            .await));
        }
        "media" => {
            return Ok(Err(
                super::files::binary(cx, extras.media.get(&key), true).await
            ));
        }
        "matrix" => match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(v) => HashValue::from_json(&v),
            Err(_) => map(vec![("entries", HashValue::List(Vec::new()))]),
        },
        other => return Err(format!("no reading of {other} values")),
    };
    Ok(Ok(hash))
}
