//! Object state groups and states with their translations (`ezcobj_state_group(_language)`,
//! `ezcobj_state(_language)`); the states of content items (`ezcobj_state_link`) go with
//! each batch of content items ([`links`]).

use super::Cx;
use super::source::{Row, Source};
use super::target::{Insert, Rows};
use anyhow::Result;
use serde_json::Value;
use std::collections::HashMap;

/// (names, descriptions) by owner id, from translation rows.
fn translations(
    cx: &Cx<'_>,
    rows: &[Row],
    owner: &str,
    language: &str,
) -> HashMap<i64, super::Texts> {
    let mut out: HashMap<i64, super::Texts> = HashMap::new();
    for r in rows {
        let Some(code) = cx.code(r.int(language)) else {
            continue;
        };
        let e = out.entry(r.int(owner)).or_default();
        e.0.insert(code.clone(), r.text("name").into());
        e.1.insert(code, r.text("description").into());
    }
    out
}

pub async fn groups_and_states(cx: &mut Cx<'_>) -> Result<()> {
    let groups = (cx.src)
        .select(
            "ezcobj_state_group",
            &["id", "identifier", "default_language_id"],
            "",
            "id",
        )
        .await?;
    let texts = (cx.src)
        .select(
            "ezcobj_state_group_language",
            &[
                "contentobject_state_group_id",
                "real_language_id",
                "name",
                "description",
            ],
            "",
            "",
        )
        .await?;
    let texts = translations(
        cx,
        &texts,
        "contentobject_state_group_id",
        "real_language_id",
    );
    cx.report.read("Object state groups", groups.len());
    let mut out = Vec::new();
    for g in &groups {
        let (names, descriptions) = texts.get(&g.int("id")).cloned().unwrap_or_default();
        out.push(Insert {
            from: g.describe("ezcobj_state_group"),
            values: vec![
                g.int("id").into(),
                g.text("identifier").into(),
                cx.code(g.int("default_language_id"))
                    .unwrap_or_default()
                    .into(),
                Value::Object(names).to_string().into(),
                Value::Object(descriptions).to_string().into(),
            ],
        });
    }
    cx.report.written("Object state groups", out.len());
    let columns = [
        "id",
        "identifier",
        "default_language_code",
        "names",
        "descriptions",
    ];
    cx.out.insert("object_state_groups", &columns, out).await?;

    let states = (cx.src)
        .select(
            "ezcobj_state",
            &[
                "id",
                "group_id",
                "identifier",
                "priority",
                "default_language_id",
            ],
            "",
            "id",
        )
        .await?;
    let texts = (cx.src)
        .select(
            "ezcobj_state_language",
            &[
                "contentobject_state_id",
                "language_id",
                "name",
                "description",
            ],
            "",
            "",
        )
        .await?;
    let texts = translations(cx, &texts, "contentobject_state_id", "language_id");
    cx.report.read("Object states", states.len());
    let mut out = Vec::new();
    for s in &states {
        let (names, descriptions) = texts.get(&s.int("id")).cloned().unwrap_or_default();
        cx.state_groups.insert(s.int("id"), s.int("group_id"));
        out.push(Insert {
            from: s.describe("ezcobj_state"),
            values: vec![
                s.int("id").into(),
                s.int("group_id").into(),
                s.text("identifier").into(),
                s.int("priority").into(),
                cx.code(s.int("default_language_id"))
                    .unwrap_or_default()
                    .into(),
                Value::Object(names).to_string().into(),
                Value::Object(descriptions).to_string().into(),
            ],
        });
    }
    cx.report.written("Object states", out.len());
    let columns = [
        "id",
        "group_id",
        "identifier",
        "priority",
        "default_language_code",
        "names",
        "descriptions",
    ];
    cx.out.insert("object_states", &columns, out).await
}

/// The state rows of the content items with ids in `items` (a batch's, read ahead of
/// [`links`]).
pub async fn read_links(src: &Source, items: (i64, i64)) -> Result<Vec<Row>> {
    src.select(
        "ezcobj_state_link",
        &["contentobject_id", "contentobject_state_id"],
        &format!("contentobject_id BETWEEN {} AND {}", items.0, items.1),
        "contentobject_id, contentobject_state_id",
    )
    .await
}

/// The states of a batch of content items (converted already): its rows of
/// `ezcobj_state_link`, as rows to write.
pub fn links(cx: &mut Cx<'_>, rows: &[Row]) -> Rows {
    cx.report.read("content Object states", rows.len());
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for r in rows {
        let (content, state) = (r.int("contentobject_id"), r.int("contentobject_state_id"));
        let Some(&group) = cx.state_groups.get(&state) else {
            cx.report.skip(
                "content Object states",
                "the state does not exist",
                r.describe("ezcobj_state_link"),
            );
            continue;
        };
        if !cx.contents.contains(&content) {
            cx.report.skip(
                "content Object states",
                "the content item is not carried",
                r.describe("ezcobj_state_link"),
            );
            continue;
        }
        if !seen.insert((content, group)) {
            cx.report.skip(
                "content Object states",
                "a second state of one group",
                r.describe("ezcobj_state_link"),
            );
            continue;
        }
        out.push(Insert {
            from: r.describe("ezcobj_state_link"),
            values: vec![content.into(), group.into(), state.into()],
        });
    }
    cx.report.written("content Object states", out.len());
    Rows {
        table: "content_object_states",
        columns: &["content_id", "group_id", "state_id"],
        rows: out,
    }
}
