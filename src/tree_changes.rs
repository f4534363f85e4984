//! What a change to the tree of Locations means for its neighbours (URL aliases, bookmarks,
//! user accounts), as an interface: the tree code (Locations, the Trash, publishing, copies)
//! says what happened, in the change's own transaction, and imports none of the neighbours.
//! `cascades.rs` implements it over them; the app registers it (`Shared::tree_changes`).

use crate::error::Result;
use crate::language_list::Languages;
use cairn_runtime::LangMap;
use cairn_store::Tx;
use cairn_store::entity::location;
use sea_orm::Value;
use std::future::Future;
use std::pin::Pin;

/// What a neighbour's work on a change comes to.
pub(crate) type Done<'a> = Pin<Box<dyn Future<Output = Result<()>> + Send + 'a>>;

/// The changes of the tree that its neighbours follow, each named after what happened.
pub(crate) trait TreeChanges: Send + Sync {
    /// The Location `l` got its first published version (`placed`: it was placed just now).
    fn location_published<'a>(
        &'a self,
        tx: &'a Tx,
        known: &'a Languages,
        l: &'a location::Model,
        names: &'a LangMap,
        always_available: bool,
        placed: bool,
    ) -> Done<'a>;

    /// The content item of the Location `location_id` was published again, or the Location
    /// was revealed: how it is reached changed.
    fn location_republished<'a>(
        &'a self,
        tx: &'a Tx,
        known: &'a Languages,
        location_id: i64,
    ) -> Done<'a>;

    /// The subtree of `moved` was moved, or restored, from under `old_parent_id`.
    fn subtree_moved<'a>(
        &'a self,
        tx: &'a Tx,
        known: &'a Languages,
        moved: &'a location::Model,
        old_parent_id: i64,
    ) -> Done<'a>;

    /// The Locations `a` and `b` exchanged their content items.
    fn locations_swapped<'a>(
        &'a self,
        tx: &'a Tx,
        known: &'a Languages,
        a: i64,
        b: i64,
    ) -> Done<'a>;

    /// The Locations of the path range `[start, end)` are about to be deleted.
    fn locations_removed<'a>(&'a self, tx: &'a Tx, start: &'a str, end: &'a str) -> Done<'a>;

    /// The Locations of `[start, end)` are about to go to the Trash as the item `root`.
    fn locations_trashed<'a>(
        &'a self,
        tx: &'a Tx,
        start: &'a str,
        end: &'a str,
        root: i64,
    ) -> Done<'a>;

    /// Trash items were deleted for good: those of the path range, or all of them.
    fn trash_purged<'a>(&'a self, tx: &'a Tx, range: Option<(&'a str, &'a str)>) -> Done<'a>;

    /// The content items `ids_sql` selects are about to be deleted.
    fn content_removed<'a>(&'a self, tx: &'a Tx, ids_sql: &'a str, values: Vec<Value>) -> Done<'a>;
}
