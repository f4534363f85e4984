//! What a change to the tree of Locations means for its neighbours (URL aliases, bookmarks,
//! user accounts), in the change's own transaction. The tree code (Locations, the Trash,
//! publishing) calls only these, named after what happened; each says which neighbours
//! follow, so the tree code imports none of them.

use crate::error::Result;
use cairn_store::Tx;
use sea_orm::Value;

/// The changes only URL aliases follow: a Location got its first published version
/// (`location_published`); its content item was published again, or it was revealed, so how it
/// is reached changed (`location_republished`); a subtree moved or was restored elsewhere
/// (`subtree_moved`); two Locations exchanged their content items (`locations_swapped`); Trash
/// items were deleted for good (`trash_purged`).
pub(crate) use crate::url_aliases::{
    location_published, location_republished, locations_swapped, subtree_moved, trash_purged,
};

/// The Locations of the path range `[start, end)` are about to be deleted: their URL aliases
/// and bookmarks go with them.
pub(crate) async fn locations_removed(tx: &Tx, start: &str, end: &str) -> Result<()> {
    crate::url_aliases::locations_removed(tx, start, end).await?;
    crate::bookmarks::locations_removed(tx, start, end).await
}

/// The Locations of `[start, end)` are about to go to the Trash as the item `root`: their URL
/// aliases are kept for a restore, their bookmarks go.
pub(crate) async fn locations_trashed(tx: &Tx, start: &str, end: &str, root: i64) -> Result<()> {
    crate::url_aliases::locations_trashed(tx, start, end, root).await?;
    crate::bookmarks::locations_removed(tx, start, end).await
}

/// The content items `ids_sql` selects are about to be deleted: the accounts of those that
/// are users go.
pub(crate) async fn content_removed(tx: &Tx, ids_sql: &str, values: Vec<Value>) -> Result<()> {
    crate::users::account::forget(tx, ids_sql, values).await
}
