//! What a change to the tree of Locations means for its neighbours, in the change's own
//! transaction: URL aliases follow every change; bookmarks go with their Locations; the
//! accounts of deleted users go. The tree code calls these through
//! [`TreeChanges`](crate::tree_changes::TreeChanges), registered by the app, and imports none
//! of the neighbours.

use crate::language_list::Languages;
use crate::tree_changes::{Done, TreeChanges};
use cairn_runtime::LangMap;
use cairn_store::Tx;
use cairn_store::entity::location;
use sea_orm::Value;

/// The neighbours of the tree: URL aliases, bookmarks and user accounts.
pub struct Cascades;

impl TreeChanges for Cascades {
    fn location_published<'a>(
        &'a self,
        tx: &'a Tx,
        known: &'a Languages,
        l: &'a location::Model,
        names: &'a LangMap,
        always_available: bool,
        placed: bool,
    ) -> Done<'a> {
        Box::pin(crate::url_aliases::location_published(
            tx,
            known,
            l,
            names,
            always_available,
            placed,
        ))
    }

    fn location_republished<'a>(
        &'a self,
        tx: &'a Tx,
        known: &'a Languages,
        location_id: i64,
    ) -> Done<'a> {
        Box::pin(crate::url_aliases::location_republished(
            tx,
            known,
            location_id,
        ))
    }

    fn subtree_moved<'a>(
        &'a self,
        tx: &'a Tx,
        known: &'a Languages,
        moved: &'a location::Model,
        old_parent_id: i64,
    ) -> Done<'a> {
        Box::pin(crate::url_aliases::subtree_moved(
            tx,
            known,
            moved,
            old_parent_id,
        ))
    }

    fn locations_swapped<'a>(
        &'a self,
        tx: &'a Tx,
        known: &'a Languages,
        a: i64,
        b: i64,
    ) -> Done<'a> {
        Box::pin(crate::url_aliases::locations_swapped(tx, known, a, b))
    }

    /// Their URL aliases and bookmarks go with them.
    fn locations_removed<'a>(&'a self, tx: &'a Tx, start: &'a str, end: &'a str) -> Done<'a> {
        Box::pin(async move {
            crate::url_aliases::locations_removed(tx, start, end).await?;
            crate::bookmarks::locations_removed(tx, start, end).await
        })
    }

    /// Their URL aliases are kept for a restore; their bookmarks go.
    fn locations_trashed<'a>(
        &'a self,
        tx: &'a Tx,
        start: &'a str,
        end: &'a str,
        root: i64,
    ) -> Done<'a> {
        Box::pin(async move {
            crate::url_aliases::locations_trashed(tx, start, end, root).await?;
            crate::bookmarks::locations_removed(tx, start, end).await
        })
    }

    fn trash_purged<'a>(&'a self, tx: &'a Tx, range: Option<(&'a str, &'a str)>) -> Done<'a> {
        Box::pin(crate::url_aliases::trash_purged(tx, range))
    }

    /// The accounts of those that are users go.
    fn content_removed<'a>(&'a self, tx: &'a Tx, ids_sql: &'a str, values: Vec<Value>) -> Done<'a> {
        Box::pin(crate::accounts::forget(tx, ids_sql, values))
    }
}
