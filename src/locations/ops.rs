//! Moving, copying and swapping subtrees.

use super::LocationsService;
use crate::api::hrefs;
use crate::api::model::MoveSubtreeResponse;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::language_list::Languages;
use crate::permissions::administrators::keep_an_administrator;
use crate::permissions::subject::location_facts_of;
use crate::permissions::{ContentFacts, READ, Subject, Target, VersionTarget};
use crate::shared::Shared;
use crate::tree::{self, location_href, subtree_end};
use crate::tree_changes::TreeChanges;
use cairn_store::Tx;
use cairn_store::entity::{content, location};
use cairn_store::events::Touched;
use cairn_store::sql::stmt;
use sea_orm::sea_query::Query;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel, QueryFilter,
    QueryOrder,
};
use std::collections::HashMap;

/// The Location path (`1/2`) a `Destination` header names (`/content/locations/1/2`).
pub fn destination_path(destination: &str) -> Result<&str> {
    hrefs::read::load_location(destination)
        .ok_or_else(|| Error::BadRequest(format!("Destination '{destination}' is not a Location")))
}

/// 403 when `target` lies inside the subtree of `l` (or is `l`).
fn refuse_inside(l: &location::Model, target: &location::Model, what: &str) -> Result<()> {
    if target.path_string.starts_with(&l.path_string) {
        return Err(Error::Forbidden(format!(
            "Location {} cannot be {what} below itself",
            l.id
        )));
    }
    Ok(())
}

impl Shared {
    /// Moving or copying the subtree of `l` under `parent`, as the reference checks it:
    /// `content/create` on the content at `l` with the parent and the destination as targets,
    /// and `content/read` on every content item of the subtree.
    pub(crate) async fn authorize_subtree_placement(
        &self,
        tx: &Tx,
        cx: &Caller,
        l: &location::Model,
        parent: &location::Model,
    ) -> Result<()> {
        if !cx.grants.may_all("content", "create") {
            let c = crate::content_rows::content(tx, l.content_id).await?;
            self.authorize_placement(tx, cx, &c, parent).await?;
        }
        self.authorize_whole(tx, cx, READ, std::slice::from_ref(l))
            .await
    }

    /// `content/create` on `c` placed under `parent`, with the parent and the destination
    /// (whose `Language` asks for every language of `c`) as targets.
    pub(crate) async fn authorize_placement(
        &self,
        tx: &Tx,
        cx: &Caller,
        c: &content::Model,
        parent: &location::Model,
    ) -> Result<()> {
        if cx.grants.may_all("content", "create") {
            return Ok(());
        }
        let at = [
            Target::Location(location_facts_of(tx, parent.id).await?),
            Target::Destination,
        ];
        let create = ("content", "create");
        self.authorize(tx, cx, create, Subject::Content(ContentFacts::of(c)), &at)
            .await
    }

    /// A new Location of `c` under `parent` (a further Location, a copy, a user added to a
    /// group): `content/manage_locations` with the parent as target, and
    /// [`Self::authorize_placement`].
    pub(crate) async fn authorize_new_location(
        &self,
        tx: &Tx,
        cx: &Caller,
        c: &content::Model,
        parent: &location::Model,
    ) -> Result<()> {
        let manage = ("content", "manage_locations");
        if !cx.grants.may_all(manage.0, manage.1) {
            let at = [Target::Location(location_facts_of(tx, parent.id).await?)];
            self.authorize(tx, cx, manage, Subject::Content(ContentFacts::of(c)), &at)
                .await?;
        }
        self.authorize_placement(tx, cx, c, parent).await
    }

    /// Removing the Location `l` with its subtree (deleted, trashed, a user taken out of a
    /// group): `content/manage_locations` on its content, `content/remove` at `l` for every
    /// translation of it, and `content/remove` on everything below.
    pub(crate) async fn authorize_location_removal(
        &self,
        tx: &Tx,
        cx: &Caller,
        l: &location::Model,
    ) -> Result<()> {
        let c = match l.content_id {
            0 => None,
            id => Some(crate::content_rows::content(tx, id).await?),
        };
        let manage = ("content", "manage_locations");
        if let Some(c) = &c
            && !cx.grants.may_all(manage.0, manage.1)
        {
            self.authorize(tx, cx, manage, Subject::Content(ContentFacts::of(c)), &[])
                .await?;
        }
        let gone = Target::Version(VersionTarget::Delete(None));
        self.authorize_loaded(tx, cx, ("content", "remove"), l, c.as_ref(), vec![gone])
            .await?;
        self.authorize_removal(tx, cx, std::slice::from_ref(l))
            .await
    }
}

impl LocationsService {
    /// Moves a subtree under a new parent (201), or to the Trash.
    pub(super) async fn move_subtree_to(
        &self,
        cx: &Caller,
        path: &str,
        destination: &str,
    ) -> Result<MoveSubtreeResponse> {
        if destination.trim_end_matches('/') == hrefs::load_trash_items() {
            return self.trash_location(cx, path).await;
        }
        let target = destination_path(destination)?.to_string();
        let moved = self
            .db
            .write(cx.change(), async |tx| {
                tree::hold(tx).await?;
                let l = tree::find_by_path(tx, path).await?;
                if l.id == tree::ROOT {
                    return Err(Error::Forbidden("The root Location cannot be moved".into()));
                }
                let parent = tree::find_by_path(tx, &target).await?;
                refuse_inside(&l, &parent, "moved")?;
                self.authorize_at(tx, cx, READ, &l, vec![]).await?;
                self.authorize_subtree_placement(tx, cx, &l, &parent)
                    .await?;
                let moved =
                    move_under(tx, &self.languages, &*self.tree_changes, &l, &parent).await?;
                keep_an_administrator(tx).await?;
                Ok(moved)
            })
            .await?;
        Ok(MoveSubtreeResponse::Created {
            location: location_href(&moved),
        })
    }

    /// Copies a subtree under a new parent: every node gets a new content item.
    pub(super) async fn copy_subtree_to(
        &self,
        cx: &Caller,
        path: &str,
        destination: &str,
    ) -> Result<location::Model> {
        let target = destination_path(destination)?.to_string();
        self.db
            .write(cx.change(), async |tx| {
                tree::share(tx).await?;
                let root = tree::find_by_path(tx, path).await?;
                if root.id == tree::ROOT {
                    return Err(Error::Forbidden(
                        "The root Location cannot be copied".into(),
                    ));
                }
                let parent = tree::find_by_path(tx, &target).await?;
                refuse_inside(&root, &parent, "copied")?;
                self.authorize_at(tx, cx, READ, &root, vec![]).await?;
                self.authorize_subtree_placement(tx, cx, &root, &parent)
                    .await?;
                // What shows it: the parent's count of children (the copies are new).
                tx.touched([Touched::Location(parent.id)]);
                let nodes = location::Entity::find()
                    .filter(location::Column::PathString.gte(root.path_string.as_str()))
                    .filter(location::Column::PathString.lt(subtree_end(&root.path_string)))
                    .order_by_asc(location::Column::Depth)
                    .order_by_asc(location::Column::Id)
                    .all(tx)
                    .await?;
                let in_subtree = Query::select()
                    .column(location::Column::ContentId)
                    .from(location::Entity)
                    .and_where(location::Column::PathString.gte(root.path_string.as_str()))
                    .and_where(location::Column::PathString.lt(subtree_end(&root.path_string)))
                    .to_owned();
                let contents: HashMap<i64, content::Model> = cairn_store::read::keyed(
                    tx,
                    content::Entity::find().filter(content::Column::Id.in_subquery(in_subtree)),
                )
                .await?;
                // Old Location id → its copy; the root's copy hangs under `parent`.
                let mut copies: HashMap<i64, location::Model> = HashMap::new();
                let mut new_root = None;
                for n in &nodes {
                    let Some(c) = contents.get(&n.content_id) else {
                        continue;
                    };
                    let under = if n.id == root.id {
                        parent.clone()
                    } else {
                        match copies.get(&n.parent_id) {
                            Some(p) => p.clone(),
                            None => continue,
                        }
                    };
                    let copy = self.copy_published(tx, cx, c).await?;
                    let l = tree::create(
                        tx,
                        under.id,
                        &copy,
                        tree::NewLocation {
                            priority: n.priority,
                            hidden: n.is_hidden,
                            remote_id: None,
                            sort_field: n.sort_field.clone(),
                            sort_order: n.sort_order.clone(),
                        },
                    )
                    .await?;
                    let mut ca = copy.into_active_model();
                    ca.main_location_id = Set(Some(l.id));
                    cairn_store::write::update(tx, ca).await?;
                    self.tree_changes
                        .location_republished(tx, &self.languages, l.id)
                        .await?;
                    if n.id == root.id {
                        new_root = Some(l.clone());
                    }
                    copies.insert(n.id, l);
                }
                let copied = new_root.ok_or_else(|| Error::not_found("Location", path))?;
                tx.created(&location_href(&copied));
                Ok(copied)
            })
            .await
    }

    /// Swaps the content items of two Locations.
    pub(super) async fn swap(&self, cx: &Caller, path: &str, destination: &str) -> Result<()> {
        let other = destination_path(destination)?.to_string();
        self.db
            .write(cx.change(), async |tx| {
                // Which items to exchange is decided from the rows: a concurrent swap of
                // them waits, then exchanges what this one left.
                tree::hold(tx).await?;
                let a = tree::find_by_path(tx, path).await?;
                let b = tree::find_by_path(tx, &other).await?;
                let edit = ("content", "edit");
                for l in [&a, &b] {
                    self.authorize_at(tx, cx, edit, l, vec![Target::Destination])
                        .await?;
                }
                if a.id == tree::ROOT || b.id == tree::ROOT {
                    return Err(Error::Forbidden("The root Location cannot be swapped".into()));
                }
                if a.content_id == b.content_id {
                    return Err(Error::Forbidden("Both Locations hold the same content item".into()));
                }
                // What shows them: both items with their Locations, and the subtrees, whose
                // visibility follows the items.
                tree::touch_subtree(tx, &a, true).await?;
                tree::touch_subtree(tx, &b, true).await?;
                let backend = tx.get_database_backend();
                tx.execute_raw(stmt(
                    backend,
                    "UPDATE locations SET content_id = CASE WHEN id = ? THEN ? ELSE ? END, \
                     section_id = (SELECT c.section_id FROM contents c WHERE c.id = CASE WHEN locations.id = ? THEN ? ELSE ? END) WHERE id IN (?, ?)",
                    vec![
                        a.id.into(), b.content_id.into(), a.content_id.into(),
                        a.id.into(), b.content_id.into(), a.content_id.into(),
                        a.id.into(), b.id.into(),
                    ],
                ))
                .await?;
                tx.execute_raw(stmt(
                    backend,
                    "UPDATE contents SET main_location_id = CASE WHEN main_location_id = ? THEN ? ELSE ? END WHERE main_location_id IN (?, ?) AND id IN (?, ?)",
                    vec![a.id.into(), b.id.into(), a.id.into(), a.id.into(), b.id.into(), a.content_id.into(), b.content_id.into()],
                ))
                .await?;
                self.tree_changes.locations_swapped(tx, &self.languages, a.id, b.id).await?;
                for l in [&a, &b] {
                    tree::recompute_visibility(tx, &tree::find(tx, l.id).await?).await?;
                }
                keep_an_administrator(tx).await
            })
            .await
    }
}

/// Moves the subtree of `l` under `parent`: one UPDATE of every path and depth in the
/// subtree's range, one of the moved root's parent, then visibility. The caller [`tree::hold`]s
/// the tree from before it read `l` and `parent`.
pub async fn move_under(
    tx: &Tx,
    known: &Languages,
    follow: &dyn TreeChanges,
    l: &location::Model,
    parent: &location::Model,
) -> Result<location::Model> {
    // What shows it: the subtree with its items, and both parents' counts of children.
    tree::touch_placed(tx, l).await?;
    tx.touched([Touched::Location(parent.id)]);
    let new_path = format!("{}{}/", parent.path_string, l.id);
    let depth_change = parent.depth + 1 - l.depth;
    let backend = tx.get_database_backend();
    tx.execute_raw(stmt(
        backend,
        "UPDATE locations SET path_string = ? || substr(path_string, CAST(? AS INTEGER)), depth = depth + ? WHERE path_string >= ? AND path_string < ?",
        vec![
            new_path.clone().into(),
            (l.path_string.len() as i64 + 1).into(),
            depth_change.into(),
            l.path_string.clone().into(),
            subtree_end(&l.path_string).into(),
        ],
    ))
    .await?;
    let mut la = tree::find(tx, l.id).await?.into_active_model();
    la.parent_id = Set(parent.id);
    let moved = cairn_store::write::update(tx, la).await?;
    tree::recompute_visibility(tx, &moved).await?;
    follow.subtree_moved(tx, known, &moved, l.parent_id).await?;
    tree::find(tx, l.id).await
}
