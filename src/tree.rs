//! The tree of Locations as set operations over the materialized path: a subtree is the range
//! `[path, path || '~')` of `path_string` (`'~'` sorts after digits and `/`), which the index on
//! `path_string` serves on both databases. The number of statements of an operation does not
//! grow with the size of the subtree.

use crate::api::hrefs;
use crate::error::{Error, Result};
use crate::tree_changes::TreeChanges;
use cairn_store::entity::{content, location};
use cairn_store::read::Kept;
use cairn_store::sql::{exec, stmt};
use cairn_store::{Connection, Tx};
use sea_orm::ConnectionTrait;
use sea_orm::{ColumnTrait, DbBackend, EntityTrait, QueryFilter, QueryOrder};

/// The virtual root of the tree.
pub const ROOT: i64 = 1;

/// `/1/2/54/` → `1/2/54`, the form Location hrefs use.
pub fn href_path(path_string: &str) -> String {
    path_string.trim_matches('/').to_string()
}

pub fn location_href(l: &location::Model) -> String {
    hrefs::load_location(&href_path(&l.path_string))
}

/// The end of the subtree range of `path_string`.
pub fn subtree_end(path_string: &str) -> String {
    format!("{path_string}~")
}

pub async fn find(db: &impl Connection, id: i64) -> Result<location::Model> {
    cairn_store::read::by_id::<location::Entity>(db, id)
        .await?
        .ok_or_else(|| Error::not_found("Location", id))
}

/// The tree's lock on PostgreSQL (SQLite's writers are serialised already).
const TREE_LOCK: &str = "locations";

/// The lock key of the URL alias tree (`url_aliases` holds it alone; [`share`] takes it with
/// the tree's).
pub(crate) const ALIAS_TREE_LOCK: &str = "url_aliases";

/// Holds the tree alone until the transaction ends, for a write that rewrites paths or
/// visibility over a subtree, or removes or restores one (move, swap, hide, trash, restore,
/// delete): every writer that places a Location waits for it and then reads the paths it
/// wrote. Taken first in the transaction, before any other lock or row write, so that it
/// never waits for a writer that waits for it.
pub async fn hold(tx: &Tx) -> Result<()> {
    Ok(tx.lock(TREE_LOCK).await?)
}

/// The hold of a writer that places new Locations under a parent it reads after this (a
/// first publication, a further Location, a copy): shared, so that such writers run side by
/// side, while [`hold`]'s writers wait for them. Taken before the transaction writes any row
/// that a [`hold`]er could change; with the alias tree's hold, shared too, which the new
/// Locations' aliases need next (one statement; the tree's first, as a holder takes them).
pub async fn share(tx: &Tx) -> Result<()> {
    let keys = [TREE_LOCK, ALIAS_TREE_LOCK];
    Ok(tx.lock_shared_all(&keys).await?)
}

/// The href path of the parent of the Location at `path_string` (`1/2` for `/1/2/54/`);
/// `None` for the virtual root.
pub fn parent_path(path_string: &str) -> Option<String> {
    let path = href_path(path_string);
    path.rsplit_once('/').map(|(parent, _)| parent.to_string())
}

/// The Location a path of ids names (`1/2/54`): by its last id, as the reference reads it, so
/// that an href kept from before a move still names the Location; 404 when there is none.
pub async fn find_by_path(db: &impl Connection, path: &str) -> Result<location::Model> {
    let missing = || Error::NotFound {
        what: "Location",
        id: path.to_string(),
    };
    let id: i64 = path
        .trim_matches('/')
        .rsplit('/')
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(missing)?;
    cairn_store::read::by_id::<location::Entity>(db, id)
        .await?
        .ok_or_else(missing)
}

/// The Locations of a content item, main first.
pub async fn of_content(db: &impl Connection, c: &content::Model) -> Result<Vec<location::Model>> {
    static KEPT: Kept = Kept::new();
    let build = || {
        (location::Entity::find())
            .filter(location::Column::ContentId.eq(0))
            .order_by_asc(location::Column::Id)
    };
    let mut ls: Vec<location::Model> = KEPT.all(db, build, [c.id.into()]).await?;
    if let Some(main) = c.main_location_id {
        ls.sort_by_key(|l| l.id != main);
    }
    Ok(ls)
}

/// What a new Location is given.
pub struct NewLocation {
    pub priority: i64,
    pub hidden: bool,
    pub remote_id: Option<String>,
    pub sort_field: String,
    pub sort_order: String,
}

/// Places `content` under Location `parent` (read by the insert itself, so the caller need
/// not have read it); invisible when hidden, when its content is hidden or when the parent is
/// invisible. The caller [`share`]s the tree from before it chose `parent`.
pub async fn create(
    tx: &Tx,
    parent: i64,
    c: &content::Model,
    new: NewLocation,
) -> Result<location::Model> {
    // A remote id the client chose may be taken; a new random one (128 bits) is not.
    if let Some(remote_id) = &new.remote_id
        && location::Entity::find()
            .filter(location::Column::RemoteId.eq(remote_id.as_str()))
            .one(tx)
            .await?
            .is_some()
    {
        return Err(Error::Forbidden(format!(
            "A Location with remote id '{remote_id}' already exists"
        )));
    }
    let remote_id = new.remote_id.unwrap_or_else(crate::stored::new_remote_id);
    // One statement: the parent's row is read, the id taken (PostgreSQL's sequence; on
    // SQLite, whose writers are serialised, the next of AUTOINCREMENT's counter), and the path
    // ends with it. The Section as the content row holds it now: a Section change that
    // committed since `c` was read held the tree, which the caller shares.
    let backend = tx.get_database_backend();
    let next = match backend {
        DbBackend::Postgres => "nextval(pg_get_serial_sequence('locations', 'id'))",
        _ => "COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'locations'), 0) + 1",
    };
    let insert = stmt(
        backend,
        &format!(
            "INSERT INTO locations (id, parent_id, content_id, path_string, depth, priority, is_hidden, is_invisible, remote_id, sort_field, sort_order, section_id) \
             SELECT n.id, p.id, ?, p.path_string || CAST(n.id AS TEXT) || '/', p.depth + 1, ?, ?, (? OR p.is_invisible), ?, ?, ?, (SELECT c.section_id FROM contents c WHERE c.id = ?) \
             FROM locations p, (SELECT {next} AS id) n WHERE p.id = ? \
             RETURNING id, path_string, depth, is_invisible"
        ),
        [
            c.id.into(),
            new.priority.into(),
            new.hidden.into(),
            (new.hidden || c.is_hidden).into(),
            remote_id.clone().into(),
            new.sort_field.clone().into(),
            new.sort_order.clone().into(),
            c.id.into(),
            parent.into(),
        ],
    );
    let row =
        (tx.query_one_raw(insert).await?).ok_or_else(|| Error::not_found("Location", parent))?;
    Ok(location::Model {
        id: row.try_get_by_index(0)?,
        parent_id: parent,
        content_id: c.id,
        path_string: row.try_get_by_index(1)?,
        depth: row.try_get_by_index(2)?,
        priority: new.priority,
        is_hidden: new.hidden,
        is_invisible: row.try_get_by_index(3)?,
        remote_id,
        sort_field: new.sort_field,
        sort_order: new.sort_order,
        section_id: c.section_id,
    })
}

/// A scratch table of content ids for the length of the transaction.
async fn scratch(tx: &Tx, name: &str) -> Result<()> {
    match tx.get_database_backend() {
        DbBackend::Postgres => {
            exec(
                tx,
                &format!("CREATE TEMP TABLE IF NOT EXISTS {name} (id BIGINT PRIMARY KEY) ON COMMIT DELETE ROWS"),
                vec![],
            )
            .await?;
        }
        _ => {
            exec(
                tx,
                &format!("CREATE TEMP TABLE IF NOT EXISTS {name} (id BIGINT PRIMARY KEY)"),
                vec![],
            )
            .await?;
        }
    }
    exec(tx, &format!("DELETE FROM {name}"), vec![]).await?;
    Ok(())
}

/// Deletes the subtrees under `roots`, and the content items (with `also`) left without a
/// Location; relations to deleted content go too, and `follow` hears of both.
pub async fn delete_subtrees(
    tx: &Tx,
    follow: &dyn TreeChanges,
    roots: &[location::Model],
    also: &[i64],
) -> Result<()> {
    scratch(tx, "doomed_content").await?;
    for r in roots {
        follow
            .locations_removed(tx, &r.path_string, &subtree_end(&r.path_string))
            .await?;
        exec(
            tx,
            "INSERT INTO doomed_content (id) SELECT DISTINCT content_id FROM locations WHERE path_string >= ? AND path_string < ? AND content_id <> 0 ON CONFLICT DO NOTHING",
            vec![r.path_string.clone().into(), subtree_end(&r.path_string).into()],
        )
        .await?;
        exec(
            tx,
            "DELETE FROM locations WHERE path_string >= ? AND path_string < ?",
            vec![
                r.path_string.clone().into(),
                subtree_end(&r.path_string).into(),
            ],
        )
        .await?;
    }
    for id in also {
        exec(
            tx,
            "INSERT INTO doomed_content (id) VALUES (?) ON CONFLICT DO NOTHING",
            vec![(*id).into()],
        )
        .await?;
    }
    // Content still placed elsewhere stays; its main Location may have gone.
    exec(
        tx,
        "DELETE FROM doomed_content WHERE id IN (SELECT content_id FROM locations)",
        vec![],
    )
    .await?;
    exec(
        tx,
        "UPDATE contents SET main_location_id = (SELECT MIN(l.id) FROM locations l WHERE l.content_id = contents.id) WHERE main_location_id IS NOT NULL AND main_location_id NOT IN (SELECT id FROM locations)",
        vec![],
    )
    .await?;
    exec(
        tx,
        "DELETE FROM content_relations WHERE destination_content_id IN (SELECT id FROM doomed_content)",
        vec![],
    )
    .await?;
    follow
        .content_removed(tx, "SELECT id FROM doomed_content", vec![])
        .await?;
    exec(
        tx,
        "DELETE FROM contents WHERE id IN (SELECT id FROM doomed_content)",
        vec![],
    )
    .await?;
    // Drafts waiting to be placed under a deleted Location lose that placement.
    exec(
        tx,
        "DELETE FROM pending_locations WHERE parent_id NOT IN (SELECT id FROM locations)",
        vec![],
    )
    .await?;
    Ok(())
}

/// Names as touched content item `c` and its Locations (whose bodies show it); its
/// Locations.
pub async fn touch_item(tx: &Tx, c: &content::Model) -> Result<Vec<location::Model>> {
    use cairn_store::events::Touched;
    let ls = of_content(tx, c).await?;
    tx.touched(
        std::iter::once(Touched::Content(c.id)).chain(ls.iter().map(|l| Touched::Location(l.id))),
    );
    Ok(ls)
}

/// The most Locations a write names one by one as touched; more are everything.
const MOST_TOUCHED: usize = 1_000;

/// Names as touched by the write ([`Tx::touched`]) what shows the subtree of
/// `root` (itself included): its Locations; with `items`, also their content items and every
/// Location of those (a Location's body shows its item's main Location), and everything when
/// a user is among them (users' Policies follow their places in the tree). Everything, too,
/// past [`MOST_TOUCHED`] Locations.
pub async fn touch_subtree(tx: &Tx, root: &location::Model, items: bool) -> Result<()> {
    use cairn_store::events::Touched;
    // One statement: with `items`, every Location of the items, each with its item's account
    // if it is a user.
    let sql = if items {
        "SELECT l.id, l.content_id, u.id AS account FROM locations l \
         LEFT JOIN users u ON u.id = l.content_id WHERE l.content_id IN \
         (SELECT content_id FROM locations WHERE path_string >= ? AND path_string < ?) LIMIT ?"
    } else {
        "SELECT id, content_id FROM locations WHERE path_string >= ? AND path_string < ? LIMIT ?"
    };
    let values = vec![
        root.path_string.clone().into(),
        subtree_end(&root.path_string).into(),
        (MOST_TOUCHED as i64 + 1).into(),
    ];
    let rows = tx
        .query_all_raw(stmt(tx.get_database_backend(), sql, values))
        .await?;
    let user = || {
        rows.iter().any(|r| {
            r.try_get::<Option<i64>>("", "account")
                .ok()
                .flatten()
                .is_some()
        })
    };
    if rows.len() > MOST_TOUCHED || (items && user()) {
        tx.touched_everything();
        return Ok(());
    }
    let mut named = Vec::with_capacity(rows.len() * 2);
    for row in rows {
        named.push(Touched::Location(row.try_get("", "id")?));
        if items {
            named.push(Touched::Content(row.try_get("", "content_id")?));
        }
    }
    tx.touched(named);
    Ok(())
}

/// Names as touched what a subtree placed, moved or removed shows: the subtree of `root` with
/// its items ([`touch_subtree`]) and the count of children of its parent.
pub async fn touch_placed(tx: &Tx, root: &location::Model) -> Result<()> {
    touch_subtree(tx, root, true).await?;
    tx.touched([cairn_store::events::Touched::Location(root.parent_id)]);
    Ok(())
}

/// Recomputes `is_invisible` in the subtree of `root`: a Location is invisible when it, its
/// content or an ancestor is hidden. Two statements, plus one per hidden Location found in
/// the subtree.
pub async fn recompute_visibility(tx: &Tx, root: &location::Model) -> Result<()> {
    let above_invisible = if root.parent_id == root.id {
        false
    } else {
        find(tx, root.parent_id).await?.is_invisible
    };
    let (start, end) = (root.path_string.clone(), subtree_end(&root.path_string));
    exec(
        tx,
        "UPDATE locations SET is_invisible = ? WHERE path_string >= ? AND path_string < ?",
        vec![
            above_invisible.into(),
            start.clone().into(),
            end.clone().into(),
        ],
    )
    .await?;
    if above_invisible {
        return Ok(());
    }
    let hidden: Vec<String> = tx
        .query_all_raw(stmt(
            tx.get_database_backend(),
            "SELECT l.path_string AS path FROM locations l LEFT JOIN contents c ON c.id = l.content_id WHERE l.path_string >= ? AND l.path_string < ? AND (l.is_hidden OR c.is_hidden) ORDER BY l.path_string",
            vec![start.into(), end.into()],
        ))
        .await?
        .into_iter()
        .filter_map(|row| row.try_get::<String>("", "path").ok())
        .collect();
    let mut done: Vec<String> = Vec::new();
    for path in hidden {
        if done.iter().any(|d| path.starts_with(d.as_str())) {
            continue;
        }
        exec(
            tx,
            "UPDATE locations SET is_invisible = ? WHERE path_string >= ? AND path_string < ?",
            vec![true.into(), path.clone().into(), subtree_end(&path).into()],
        )
        .await?;
        done.push(path);
    }
    Ok(())
}
