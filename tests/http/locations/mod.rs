//! Locations and the content tree (spec 2.6, 3.3, 4.5): lookups, updates, children and their
//! sorting, further Locations of a content item, move, copy, swap, delete, visibility, and the
//! tree's consistency after each operation. Shared here: the tree check and the bulk seeding
//! of large subtrees (trash and permissions use them too).

mod pages;
mod reads;
mod scale;
mod subtrees;
mod updates;

use crate::content::{create_folder, location, published_folder};
use crate::support::*;
use serde_json::json;

/// Every Location's path, depth and visibility follow from its parent's, aliases follow the
/// tree, and no row dangles: `cairn check`, over the whole database.
pub async fn assert_tree_consistent(app: &TestApp) {
    let problems = cairn::admin::check(&app.service.db).await.unwrap();
    assert!(problems.is_empty(), "{problems:#?}");
}

fn children_ids(v: &serde_json::Value) -> Vec<i64> {
    v["LocationList"]["Location"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| last_id(l["_href"].as_str().unwrap()))
        .collect()
}

/// Sets the children's sort field and order of the Location at `path` (`1/2/54`), as admin.
async fn sort_children(app: &TestApp, path: &str, field: &str, order: &str) {
    app.req("PATCH", &format!("/content/locations/{path}"))
        .admin()
        .json_body(
            "LocationUpdate",
            json!({"sortField": field, "sortOrder": order}),
        )
        .send()
        .await
        .assert(200);
}

fn hex_md5(text: &str) -> String {
    use md5::{Digest, Md5};
    Md5::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Inserts `children` × `grandchildren` folders below the Location `parent` in bulk (content
/// rows, versions and Locations), for tests of large subtrees.
pub async fn seed_subtree(app: &TestApp, parent: &str, children: i64, grandchildren: i64) -> i64 {
    let parent_row = &app
        .query(
            "SELECT id, path_string, depth FROM locations WHERE id = ?",
            vec![last_id(parent).into()],
        )
        .await[0];
    let (pid, ppath, pdepth) = (
        parent_row["id"].as_i64().unwrap(),
        parent_row["path_string"].as_str().unwrap().to_string(),
        parent_row["depth"].as_i64().unwrap(),
    );
    let base = app
        .query("SELECT MAX(id) AS m FROM locations", vec![])
        .await[0]["m"]
        .as_i64()
        .unwrap()
        + 1000;
    let cbase = app.query("SELECT MAX(id) AS m FROM contents", vec![]).await[0]["m"]
        .as_i64()
        .unwrap()
        + 1000;
    let mut rows: Vec<(i64, i64, String, i64)> = Vec::new();
    let mut next = base;
    for _ in 0..children {
        let child = next;
        next += 1;
        let cpath = format!("{ppath}{child}/");
        rows.push((child, pid, cpath.clone(), pdepth + 1));
        for _ in 0..grandchildren {
            rows.push((next, child, format!("{cpath}{next}/"), pdepth + 2));
            next += 1;
        }
    }
    // Alias elements: one per node, below its parent's element, ids taken from the sequence.
    let parent_element = app
        .query(
            "SELECT id FROM url_aliases WHERE action = ? AND is_original AND NOT is_alias",
            vec![format!("eznode:{pid}").into()],
        )
        .await[0]["id"]
        .as_i64()
        .unwrap();
    let elements = app.take_ids("url_aliases", rows.len()).await;
    let eng = app
        .query(
            "SELECT id FROM languages WHERE language_code = 'eng-GB'",
            vec![],
        )
        .await[0]["id"]
        .as_i64()
        .unwrap();
    let element = |location: i64| {
        if location == pid {
            parent_element
        } else {
            elements[(location - base) as usize]
        }
    };
    for chunk in rows.chunks(200) {
        let mut contents = String::from(
            "INSERT INTO contents (id, content_type_id, section_id, owner_id, remote_id, main_language_code, always_available, current_version, status, published, modified, is_hidden, main_location_id, name) VALUES ",
        );
        let mut locations = String::from(
            "INSERT INTO locations (id, parent_id, content_id, path_string, depth, priority, is_hidden, is_invisible, remote_id, sort_field, sort_order) VALUES ",
        );
        let mut versions = String::from(
            "INSERT INTO content_versions (content_id, version_no, status, creator_id, created, modified, initial_language_code, language_codes, names) VALUES ",
        );
        for (i, (id, parent, path, depth)) in chunk.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            let cid = cbase + (id - base);
            contents.push_str(&format!("{sep}({cid}, 1, 1, 14, 'bulk-{cid}', 'eng-GB', TRUE, 1, 1, 1, 1, FALSE, {id}, 'Node {cid}')"));
            locations.push_str(&format!("{sep}({id}, {parent}, {cid}, '{path}', {depth}, 0, FALSE, FALSE, 'bulk-loc-{id}', 'PATH', 'ASC')"));
            versions.push_str(&format!(
                "{sep}({cid}, 1, 1, 14, 1, 1, 'eng-GB', 'eng-GB', '{{\"eng-GB\":\"Node {cid}\"}}')"
            ));
        }
        let mut aliases = String::from(
            "INSERT INTO url_aliases (parent, text_md5, id, link, text, action, lang_mask, always_available, is_original, is_alias, alias_redirects) VALUES ",
        );
        for (i, (id, parent, _, _)) in chunk.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            let cid = cbase + (id - base);
            let text = format!("Node-{cid}");
            let md5 = hex_md5(&text.to_lowercase());
            let (el, pel) = (element(*id), element(*parent));
            aliases.push_str(&format!(
                "{sep}({pel}, '{md5}', {el}, {el}, '{text}', 'eznode:{id}', {eng}, TRUE, TRUE, FALSE, TRUE)"
            ));
        }
        app.sql(&aliases, vec![]).await;
        app.sql(&contents, vec![]).await;
        app.sql(&locations, vec![]).await;
        app.sql(&versions, vec![]).await;
    }
    rows.len() as i64
}

/// `COPY` of the Location at path `a` (`1/2/54`) under the one at `b`, as admin.
fn copy_to<'a>(app: &'a TestApp, a: &str, b: &str) -> Req<'a> {
    app.req("COPY", &format!("/content/locations/{a}"))
        .admin()
        .header("destination", &format!("{PREFIX}/content/locations/{b}"))
}
