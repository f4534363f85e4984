//! What a change to the tree of Locations means for its neighbours (URL aliases, bookmarks,
//! user accounts), in the change's own transaction. The tree code (Locations, the Trash,
//! publishing) calls only these, named after what happened; each says which neighbours
//! follow, so the tree code imports none of them.

use crate::error::Result;
use cairn_runtime::LangMap;
use cairn_store::entity::location;
use sea_orm::{ConnectionTrait, Value};

/// A Location got its first published version: its URL aliases are made.
pub(crate) async fn location_published(
    tx: &impl ConnectionTrait,
    l: &location::Model,
    names: &LangMap,
    always_available: bool,
) -> Result<()> {
    crate::url_aliases::location_published(tx, l, names, always_available).await
}

/// A Location's content item was published again (names may have changed), or the Location
/// was revealed or otherwise changed how it is reached: its URL aliases follow.
pub(crate) async fn location_republished(
    tx: &impl ConnectionTrait,
    location_id: i64,
) -> Result<()> {
    crate::url_aliases::location_republished(tx, location_id).await
}

/// A subtree moved from under `old_parent` (or was restored from the Trash elsewhere): its
/// URL aliases move along.
pub(crate) async fn subtree_moved(
    tx: &impl ConnectionTrait,
    moved: &location::Model,
    old_parent: i64,
) -> Result<()> {
    crate::url_aliases::subtree_moved(tx, moved, old_parent).await
}

/// Two Locations exchanged their content items: and their URL aliases.
pub(crate) async fn locations_swapped(tx: &impl ConnectionTrait, a: i64, b: i64) -> Result<()> {
    crate::url_aliases::locations_swapped(tx, a, b).await
}

/// The Locations of the path range `[start, end)` are about to be deleted: their URL aliases
/// and bookmarks go with them.
pub(crate) async fn locations_removed(
    tx: &impl ConnectionTrait,
    start: &str,
    end: &str,
) -> Result<()> {
    crate::url_aliases::locations_removed(tx, start, end).await?;
    crate::bookmarks::locations_removed(tx, start, end).await
}

/// The Locations of `[start, end)` are about to go to the Trash as the item `root`: their URL
/// aliases are kept for a restore, their bookmarks go.
pub(crate) async fn locations_trashed(
    tx: &impl ConnectionTrait,
    start: &str,
    end: &str,
    root: i64,
) -> Result<()> {
    crate::url_aliases::locations_trashed(tx, start, end, root).await?;
    crate::bookmarks::locations_removed(tx, start, end).await
}

/// Trash items (all, or those of the range) were deleted for good: the URL aliases kept for
/// them go.
pub(crate) async fn trash_purged(
    tx: &impl ConnectionTrait,
    range: Option<(&str, &str)>,
) -> Result<()> {
    crate::url_aliases::trash_purged(tx, range).await
}

/// The content items `ids_sql` selects are about to be deleted: the accounts of those that
/// are users go.
pub(crate) async fn content_removed(
    tx: &impl ConnectionTrait,
    ids_sql: &str,
    values: Vec<Value>,
) -> Result<()> {
    crate::users::account::forget(tx, ids_sql, values).await
}
