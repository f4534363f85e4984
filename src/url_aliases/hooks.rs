//! What the content and Location code calls inside its write transactions when the tree of
//! Locations changes: a Location published, moved, swapped, removed, trashed or purged.

use super::elements::{
    Publish, content_names, languages, lock_tree, new_id, node_action, publish_location,
    system_rows,
};
use crate::error::{Error, Result};
use crate::language_list::Languages;
use cairn_runtime::LangMap;
use cairn_store::Tx;
use cairn_store::entity::location;
use cairn_store::sql::exec;

/// Creates or updates the system aliases of Location `l` in every language of `names` (the
/// content's names): the element text is the slug of the name, made unique among its
/// siblings with a counter (`Folder2`); a rename keeps the old text as history that links to
/// the element. Languages the Location had and `names` lacks turn into history. Call after a
/// version is published, for each Location of the content item. `placed`: the Location was
/// created in this transaction (a first publication), so it has no rows to read yet. A fixed
/// number of statements per language.
pub(crate) async fn location_published(
    tx: &Tx,
    known: &Languages,
    l: &location::Model,
    names: &LangMap,
    always_available: bool,
    placed: bool,
) -> Result<()> {
    let how = Publish {
        forced: None,
        placed,
    };
    publish_location(tx, known, l, names, always_available, how).await
}

/// [`location_published`] with the names and availability read from the Location's content
/// item (its published version): for a new Location, a copied or restored one.
pub(crate) async fn location_republished(
    tx: &Tx,
    known: &Languages,
    location_id: i64,
) -> Result<()> {
    let Some(l) = cairn_store::read::by_id::<location::Entity>(tx, location_id).await? else {
        return Err(Error::not_found("Location", location_id));
    };
    if let Some((names, aa)) = content_names(tx, l.content_id).await? {
        publish_location(tx, known, &l, &names, aa, Publish::default()).await?;
    }
    Ok(())
}

/// After the subtree of `moved` (its row read after the move) left `old_parent_id`: the
/// root's current elements move under the new parent's element (the old ones turn into
/// history linked to it); the subtree's elements follow because they hang below the root's
/// element id. A fixed number of statements per language, whatever the subtree's size.
pub(crate) async fn subtree_moved(
    tx: &Tx,
    known: &Languages,
    moved: &location::Model,
    old_parent_id: i64,
) -> Result<()> {
    if moved.parent_id == old_parent_id {
        return Ok(());
    }
    let (names, aa) = match content_names(tx, moved.content_id).await? {
        Some(n) => n,
        None => {
            // No published names: carry the current texts over.
            let rows = system_rows(tx, moved.id).await?;
            let mask = rows.iter().fold(0, |m, r| m | r.lang_mask);
            let langs = languages(known, tx, &[], mask).await?;
            let mut names = LangMap::default();
            let mut aa = false;
            for r in rows {
                aa |= r.always_available;
                for (code, id) in &langs {
                    if r.lang_mask & id != 0 {
                        names.set(code, &r.text);
                    }
                }
            }
            (names, aa)
        }
    };
    publish_location(tx, known, moved, &names, aa, Publish::default()).await
}

/// Deletes the aliases (system, history and custom) of every Location whose path lies in
/// `[path_start, path_end)`: one statement over a subquery on `locations`, so call it before
/// the Locations are deleted (or trashed).
pub(crate) async fn locations_removed(tx: &Tx, path_start: &str, path_end: &str) -> Result<()> {
    exec(
        tx,
        "DELETE FROM url_aliases WHERE action IN (SELECT 'eznode:' || CAST(id AS TEXT) FROM locations WHERE path_string >= ? AND path_string < ?)",
        vec![path_start.into(), path_end.into()],
    )
    .await?;
    Ok(())
}

/// [`locations_removed`] for a subtree going to the Trash: the aliases of the Locations the
/// Trash keeps (the items of `root_id`) stay, dormant, for a restore to bring back; those of
/// Locations that are only removed go.
pub(crate) async fn locations_trashed(
    tx: &Tx,
    path_start: &str,
    path_end: &str,
    root_id: i64,
) -> Result<()> {
    exec(
        tx,
        "DELETE FROM url_aliases WHERE action IN (SELECT 'eznode:' || CAST(id AS TEXT) FROM locations WHERE path_string >= ? AND path_string < ? AND id NOT IN (SELECT id FROM trash WHERE root_id = ?))",
        vec![path_start.into(), path_end.into(), root_id.into()],
    )
    .await?;
    Ok(())
}

/// The dormant aliases of the trash items in `[path_start, path_end)`, or of every item with
/// `None`: call before the items are purged.
pub(crate) async fn trash_purged(tx: &Tx, range: Option<(&str, &str)>) -> Result<()> {
    match range {
        Some((start, end)) => exec(
            tx,
            "DELETE FROM url_aliases WHERE action IN (SELECT 'eznode:' || CAST(id AS TEXT) FROM trash WHERE path_string >= ? AND path_string < ?)",
            vec![start.into(), end.into()],
        )
        .await?,
        None => exec(
            tx,
            "DELETE FROM url_aliases WHERE action IN (SELECT 'eznode:' || CAST(id AS TEXT) FROM trash)",
            vec![],
        )
        .await?,
    };
    Ok(())
}

/// After Locations `a` and `b` exchanged their content items: each gets the system aliases
/// of the content it now holds, in its own place (elements keep their ids, so the children
/// stay below); the previous texts turn into history.
pub(crate) async fn locations_swapped(tx: &Tx, known: &Languages, a: i64, b: i64) -> Result<()> {
    lock_tree(tx).await?;
    let mut plan = Vec::new();
    for id in [a, b] {
        let Some(l) = cairn_store::read::by_id::<location::Entity>(tx, id).await? else {
            return Err(Error::not_found("Location", id));
        };
        let element = system_rows(tx, id).await?.first().map(|r| r.id);
        plan.push((l, element));
    }
    // Everything to history first, so siblings can take each other's texts.
    for (l, _) in &plan {
        let history = new_id(tx).await?;
        exec(
            tx,
            "UPDATE url_aliases SET is_original = ?, id = ? WHERE action = ? AND is_original = ? AND is_alias = ?",
            vec![
                false.into(),
                history.into(),
                node_action(l.id).into(),
                true.into(),
                false.into(),
            ],
        )
        .await?;
    }
    for (l, element) in &plan {
        if let Some((names, aa)) = content_names(tx, l.content_id).await? {
            let how = Publish {
                forced: *element,
                placed: false,
            };
            publish_location(tx, known, l, &names, aa, how).await?;
        }
    }
    Ok(())
}
