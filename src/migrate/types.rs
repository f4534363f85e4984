//! Content type groups (`ezcontentclassgroup`), content types (`ezcontentclass`: version 0
//! defined, 1 a draft; names and descriptions from their PHP-serialized lists, else from
//! `ezcontentclass_name`) and their groups (`ezcontentclass_classgroup`).

use super::Cx;
use super::php;
use super::target::Insert;
use anyhow::Result;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The reference's sort fields by their legacy numbers (1 = PATH … 12 = CONTENTOBJECT_ID).
pub fn sort_field(n: i64) -> &'static str {
    let fields = crate::locations::SORT_FIELDS;
    usize::try_from(n - 1)
        .ok()
        .and_then(|i| fields.get(i))
        .map_or("PATH", |f| f.0)
}

pub fn sort_order(n: i64) -> &'static str {
    if n == 0 { "DESC" } else { "ASC" }
}

pub async fn groups(cx: &mut Cx<'_>) -> Result<()> {
    let rows = (cx.src)
        .select(
            "ezcontentclassgroup",
            &[
                "id",
                "name",
                "created",
                "modified",
                "creator_id",
                "modifier_id",
            ],
            "",
            "id",
        )
        .await?;
    cx.report.read("content type groups", rows.len());
    cx.report.written("content type groups", rows.len());
    let out = rows
        .iter()
        .map(|r| Insert {
            from: r.describe("ezcontentclassgroup"),
            values: vec![
                r.int("id").into(),
                r.text("name").into(),
                r.int("created").into(),
                r.int("modified").into(),
                r.int("creator_id").into(),
                r.int("modifier_id").into(),
            ],
        })
        .collect();
    let columns = [
        "id",
        "identifier",
        "created",
        "modified",
        "creator_id",
        "modifier_id",
    ];
    cx.out.insert("content_type_groups", &columns, out).await
}

pub async fn types(cx: &mut Cx<'_>) -> Result<()> {
    const COLUMNS: &[&str] = &[
        "id",
        "version",
        "identifier",
        "remote_id",
        "serialized_name_list",
        "serialized_description_list",
        "contentobject_name",
        "url_alias_name",
        "is_container",
        "initial_language_id",
        "always_available",
        "sort_field",
        "sort_order",
        "created",
        "modified",
        "creator_id",
        "modifier_id",
    ];
    let rows = cx
        .src
        .select("ezcontentclass", COLUMNS, "", "id, version")
        .await?;
    let names = (cx.src)
        .select(
            "ezcontentclass_name",
            &[
                "contentclass_id",
                "contentclass_version",
                "language_locale",
                "name",
            ],
            "",
            "",
        )
        .await?;
    let mut table_names: HashMap<(i64, i64), Map<String, Value>> = HashMap::new();
    for n in &names {
        (table_names
            .entry((n.int("contentclass_id"), n.int("contentclass_version")))
            .or_default())
        .insert(n.text("language_locale"), n.text("name").into());
    }
    cx.report.read("content types", rows.len());
    let mut out = Vec::new();
    for r in &rows {
        let (id, version) = (r.int("id"), r.int("version"));
        if version > 1 {
            cx.report.skip(
                "content types",
                "a temporary copy of a type being edited (version 2)",
                r.describe("ezcontentclass"),
            );
            continue;
        }
        let mut names = php::language_texts(&r.text("serialized_name_list"));
        if names.is_empty() {
            names = table_names.get(&(id, version)).cloned().unwrap_or_default();
        }
        let descriptions = php::language_texts(&r.text("serialized_description_list"));
        let blank = |s: String| (!s.is_empty()).then_some(s);
        out.push(Insert {
            from: r.describe("ezcontentclass"),
            values: vec![
                id.into(),
                version.into(),
                r.text("identifier").into(),
                r.text("remote_id").into(),
                Value::Object(names).to_string().into(),
                Value::Object(descriptions).to_string().into(),
                blank(r.text("contentobject_name")).into(),
                blank(r.text("url_alias_name")).into(),
                r.flag("is_container").into(),
                cx.code(r.int("initial_language_id"))
                    .unwrap_or_else(|| "eng-GB".into())
                    .into(),
                r.flag("always_available").into(),
                sort_field(r.int("sort_field")).into(),
                sort_order(r.int("sort_order")).into(),
                r.int("created").into(),
                r.int("modified").into(),
                r.int("creator_id").into(),
                r.int("modifier_id").into(),
            ],
        });
    }
    cx.report.written("content types", out.len());
    let columns = [
        "id",
        "status",
        "identifier",
        "remote_id",
        "names",
        "descriptions",
        "name_schema",
        "url_alias_schema",
        "is_container",
        "main_language_code",
        "default_always_available",
        "default_sort_field",
        "default_sort_order",
        "created",
        "modified",
        "creator_id",
        "modifier_id",
    ];
    cx.out.insert("content_types", &columns, out).await?;

    let links = (cx.src)
        .select(
            "ezcontentclass_classgroup",
            &["contentclass_id", "contentclass_version", "group_id"],
            "contentclass_version < 2",
            "contentclass_id, group_id",
        )
        .await?;
    cx.report.read("content type group links", links.len());
    cx.report.written("content type group links", links.len());
    let out = links
        .iter()
        .map(|r| Insert {
            from: r.describe("ezcontentclass_classgroup"),
            values: vec![
                r.int("contentclass_id").into(),
                r.int("contentclass_version").into(),
                r.int("group_id").into(),
            ],
        })
        .collect();
    (cx.out)
        .insert(
            "content_type_group_links",
            &["content_type_id", "status", "group_id"],
            out,
        )
        .await
}
