//! The tree of Locations (`ezcontentobject_tree`: ids, paths, depths, priorities, flags, sort
//! and remote ids kept), the Trash (`ezcontentobject_trash`), the planned Locations of drafts
//! never published (`eznode_assignment`), and what cairn derives from them: each content
//! item's main Location, each Location's Section, each trashed item's subtree root.

use super::Cx;
use super::ahead::{Ahead, ByKey};
use super::source::Row;
use super::target::Insert;
use super::types::{sort_field, sort_order};
use anyhow::Result;

const NODE: &[&str] = &[
    "node_id",
    "parent_node_id",
    "contentobject_id",
    "path_string",
    "depth",
    "priority",
    "is_hidden",
    "is_invisible",
    "remote_id",
    "sort_field",
    "sort_order",
    "main_node_id",
];

fn node_values(r: &Row) -> Vec<sea_orm::Value> {
    vec![
        r.int("node_id").into(),
        r.int("parent_node_id").into(),
        r.int("contentobject_id").into(),
        r.text("path_string").into(),
        r.int("depth").into(),
        r.int("priority").into(),
        r.flag("is_hidden").into(),
        r.flag("is_invisible").into(),
        r.text("remote_id").into(),
        sort_field(r.int("sort_field")).into(),
        sort_order(r.int("sort_order")).into(),
    ]
}

const COLUMNS: &[&str] = &[
    "id",
    "parent_id",
    "content_id",
    "path_string",
    "depth",
    "priority",
    "is_hidden",
    "is_invisible",
    "remote_id",
    "sort_field",
    "sort_order",
];

/// The Locations, then each content item's main Location: the pairs written to a table of
/// the migration's own (not a temporary one: SQLite's temporary storage is set for the
/// index builds later in the transaction) and set with one statement, not one per item.
pub async fn locations(cx: &mut Cx<'_>) -> Result<()> {
    let nodes = ByKey::new("ezcontentobject_tree", NODE, "node_id");
    let mut nodes = Ahead::start(cx.src.clone(), nodes);
    cx.out
        .exec(
            "CREATE TABLE migrate_main_locations \
             (content_id BIGINT NOT NULL, location_id BIGINT NOT NULL)",
            vec![],
        )
        .await?;
    while let Some(rows) = nodes.next().await? {
        cx.report.read("Locations", rows.len());
        cx.progress.advance(rows.len());
        let mut out = Vec::new();
        let mut mains = Vec::new();
        for r in &rows {
            let (id, content) = (r.int("node_id"), r.int("contentobject_id"));
            if id != 1 && !cx.contents.contains(&content) {
                cx.report.skip(
                    "Locations",
                    "its content item is not carried",
                    r.describe("ezcontentobject_tree"),
                );
                continue;
            }
            let from = r.describe("ezcontentobject_tree");
            if id != 1 && r.int("main_node_id") == id {
                mains.push(Insert {
                    from: from.clone(),
                    values: vec![content.into(), id.into()],
                });
            }
            out.push(Insert {
                from,
                values: node_values(r),
            });
        }
        cx.report.written("Locations", out.len());
        cx.out.insert("locations", COLUMNS, out).await?;
        let columns = &["content_id", "location_id"];
        cx.out
            .insert("migrate_main_locations", columns, mains)
            .await?;
    }
    cx.out
        .exec(
            "UPDATE contents SET main_location_id = m.location_id \
             FROM migrate_main_locations m WHERE m.content_id = contents.id",
            vec![],
        )
        .await?;
    cx.out
        .exec("DROP TABLE migrate_main_locations", vec![])
        .await?;
    Ok(())
}

pub async fn trash(cx: &mut Cx<'_>) -> Result<()> {
    let mut columns = NODE.to_vec();
    columns.pop();
    columns.push("trashed");
    let trashed = ByKey::new("ezcontentobject_trash", &columns, "node_id");
    let mut trashed = Ahead::start(cx.src.clone(), trashed);
    while let Some(rows) = trashed.next().await? {
        cx.report.read("Trash items", rows.len());
        let mut out = Vec::new();
        for r in &rows {
            if !cx.contents.contains(&r.int("contentobject_id")) {
                cx.report.skip(
                    "Trash items",
                    "its content item is not carried",
                    r.describe("ezcontentobject_trash"),
                );
                continue;
            }
            let mut values = node_values(r);
            values.push(r.int("trashed").into());
            values.push(r.int("node_id").into());
            out.push(Insert {
                from: r.describe("ezcontentobject_trash"),
                values,
            });
        }
        cx.report.written("Trash items", out.len());
        let mut columns = COLUMNS.to_vec();
        columns.extend(["trashed", "root_id"]);
        cx.out.insert("trash", &columns, out).await?;
    }
    Ok(())
}

/// The Locations drafts that were never published will get (`eznode_assignment` of their
/// current version that creates a Location).
pub async fn pending(cx: &mut Cx<'_>) -> Result<()> {
    if !cx.src.has("eznode_assignment") {
        return Ok(());
    }
    let sql = format!(
        "SELECT a.contentobject_id, a.parent_node, a.priority, a.is_hidden, a.remote_id, a.sort_field, a.sort_order \
         FROM {} a JOIN {} c ON c.id = a.contentobject_id AND c.current_version = a.contentobject_version \
         WHERE c.status = 0 AND a.parent_node > 0 ORDER BY a.id",
        cx.src.name("eznode_assignment"),
        cx.src.name("ezcontentobject"),
    );
    let columns = [
        "contentobject_id",
        "parent_node",
        "priority",
        "is_hidden",
        "remote_id",
        "sort_field",
        "sort_order",
    ];
    let rows = cx.src.fetch(&sql, &columns).await?;
    cx.report.read("planned Locations of drafts", rows.len());
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for r in &rows {
        let key = (r.int("contentobject_id"), r.int("parent_node"));
        if !cx.contents.contains(&key.0) || !seen.insert(key) {
            continue;
        }
        let remote = r.text("remote_id");
        out.push(Insert {
            from: r.describe("eznode_assignment"),
            values: vec![
                key.0.into(),
                key.1.into(),
                r.int("priority").into(),
                r.flag("is_hidden").into(),
                (!remote.is_empty() && remote != "0")
                    .then_some(remote)
                    .into(),
                Some(sort_field(r.int("sort_field")).to_string()).into(),
                Some(sort_order(r.int("sort_order")).to_string()).into(),
            ],
        });
    }
    cx.report.written("planned Locations of drafts", out.len());
    let columns = [
        "content_id",
        "parent_id",
        "priority",
        "is_hidden",
        "remote_id",
        "sort_field",
        "sort_order",
    ];
    cx.out.insert("pending_locations", &columns, out).await
}

/// What cairn keeps beside the migrated rows: each Location's Section (its content's), and
/// each trashed Location's subtree root (the shallowest trashed Location on its path).
pub async fn derived(cx: &mut Cx<'_>) -> Result<()> {
    cx.out
        .exec(
            "UPDATE locations SET section_id = COALESCE((SELECT c.section_id FROM contents c \
             WHERE c.id = locations.content_id), 1)",
            vec![],
        )
        .await?;
    cx.out
        .exec(
            "UPDATE trash SET root_id = COALESCE((SELECT r.id FROM trash r WHERE \
             substr(trash.path_string, 1, length(r.path_string)) = r.path_string \
             ORDER BY r.depth LIMIT 1), trash.id)",
            vec![],
        )
        .await?;
    Ok(())
}
