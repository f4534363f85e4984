//! The Trash (spec 2.10, 3.3, 4.6): trashing a Location moves the Locations of its subtree
//! whose content has no Location outside the subtree into the `trash` table, keeping their
//! ids and paths; the rest of the subtree is removed. Restoring puts a trashed subtree back
//! under its parent or another Location. Every operation is a fixed number of set
//! statements over the path range, whatever the size of the subtree.

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::TrashApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::permissions::administrators::keep_an_administrator;
use crate::permissions::filter::Sql;
use crate::permissions::{
    ContentFacts, LocationFacts, READ, Scope, Subject, Target, VersionTarget,
};
use crate::preconditions;
use crate::shared::Shared;
use crate::tree::{self, href_path, subtree_end};
use crate::tree_changes::TreeChanges;
use cairn_runtime::{ETag, Timestamp};
use cairn_store::Connection;
use cairn_store::Tx;
use cairn_store::entity::{content, location, trash};
use cairn_store::sql::exec;
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Value,
};
use std::collections::HashMap;

async fn find(db: &impl Connection, id: i64) -> Result<trash::Model> {
    cairn_store::read::by_id::<trash::Entity>(db, id)
        .await?
        .ok_or_else(|| Error::not_found("TrashItem", id))
}

/// Contents left with neither a Location nor a trashed one are deleted for good.
async fn delete_orphaned_content(tx: &Tx, follow: &dyn TreeChanges) -> Result<()> {
    exec(
        tx,
        "DELETE FROM content_relations WHERE destination_content_id IN (SELECT id FROM contents WHERE status = ? AND id NOT IN (SELECT content_id FROM locations) AND id NOT IN (SELECT content_id FROM trash))",
        vec![content::TRASHED.into()],
    )
    .await?;
    follow.content_removed(
        tx,
        "SELECT id FROM contents WHERE status = ? AND id NOT IN (SELECT content_id FROM locations) AND id NOT IN (SELECT content_id FROM trash)",
        vec![content::TRASHED.into()],
    )
    .await?;
    exec(
        tx,
        "DELETE FROM contents WHERE status = ? AND id NOT IN (SELECT content_id FROM locations) AND id NOT IN (SELECT content_id FROM trash)",
        vec![content::TRASHED.into()],
    )
    .await?;
    Ok(())
}

impl Shared {
    /// `MOVE <location>` with the Trash as Destination: 201 with the trash item when the
    /// Location itself was trashed, 204 when its content lives on elsewhere.
    pub(crate) async fn trash_location(
        &self,
        cx: &Caller,
        path: &str,
    ) -> Result<MoveSubtreeResponse> {
        let trashed = self
            .db
            .write(cx.change(), async |tx| {
                tree::hold(tx).await?;
                let l = tree::find_by_path(tx, path).await?;
                if l.id == tree::ROOT {
                    return Err(Error::Forbidden("The root Location cannot be trashed".into()));
                }
                let gone = Target::Version(VersionTarget::Delete(None));
                self.authorize_at(tx, cx, ("content", "remove"), &l, vec![gone])
                    .await?;
                self.authorize_removal(tx, cx, std::slice::from_ref(&l)).await?;
                tree::touch_placed(tx, &l).await?;
                let (start, end) = (l.path_string.clone(), subtree_end(&l.path_string));
                let range = || -> Vec<Value> { vec![start.clone().into(), end.clone().into()] };
                // Locations whose content has a Location outside the subtree are only removed.
                let mut values = vec![l.id.into(), Timestamp::now().0.into()];
                values.extend(range());
                values.extend(range());
                values.extend(range());
                exec(
                    tx,
                    "INSERT INTO trash (id, root_id, parent_id, content_id, path_string, depth, priority, is_hidden, is_invisible, remote_id, sort_field, sort_order, trashed) \
                     SELECT id, ?, parent_id, content_id, path_string, depth, priority, is_hidden, is_invisible, remote_id, sort_field, sort_order, ? FROM locations \
                     WHERE path_string >= ? AND path_string < ? AND content_id NOT IN \
                       (SELECT o.content_id FROM locations o WHERE (o.path_string < ? OR o.path_string >= ?) AND o.content_id IN \
                         (SELECT content_id FROM locations WHERE path_string >= ? AND path_string < ?))",
                    values,
                )
                .await?;
                self.tree_changes.locations_trashed(tx, &start, &end, l.id).await?;
                exec(tx, "DELETE FROM locations WHERE path_string >= ? AND path_string < ?", range()).await?;
                exec(
                    tx,
                    "UPDATE contents SET status = ?, main_location_id = NULL WHERE id IN (SELECT content_id FROM trash WHERE root_id = ?) AND id NOT IN (SELECT content_id FROM locations)",
                    vec![content::TRASHED.into(), l.id.into()],
                )
                .await?;
                exec(
                    tx,
                    "UPDATE contents SET main_location_id = (SELECT MIN(o.id) FROM locations o WHERE o.content_id = contents.id) WHERE main_location_id IS NOT NULL AND main_location_id NOT IN (SELECT id FROM locations)",
                    vec![],
                )
                .await?;
                keep_an_administrator(tx).await?;
                Ok(cairn_store::read::by_id::<trash::Entity>(tx, l.id).await?)
            })
            .await?;
        Ok(match trashed {
            Some(t) => MoveSubtreeResponse::Created {
                location: hrefs::load_trash_item(t.id),
            },
            None => MoveSubtreeResponse::NoContent,
        })
    }
}

impl TrashService {
    /// 401 unless the caller may read the content of the trash item `t` where it was.
    async fn authorize_item(
        &self,
        db: &impl Connection,
        cx: &Caller,
        t: &trash::Model,
    ) -> Result<()> {
        if cx.grants.may_all(READ.0, READ.1) {
            return Ok(());
        }
        let c = crate::content_rows::content(db, t.content_id).await?;
        let was_at = Target::Location(LocationFacts {
            id: t.id,
            content_id: c.id,
            path_string: t.path_string.clone(),
            depth: t.depth,
            content_type_id: c.content_type_id,
            owner_id: c.owner_id,
        });
        let facts = ContentFacts::of(&c);
        self.authorize(db, cx, READ, Subject::Content(facts), &[was_at])
            .await
    }

    async fn trash_item(&self, db: &impl Connection, t: &trash::Model) -> Result<TrashItem> {
        let mut items = self.trash_items(db, std::slice::from_ref(t)).await?;
        Ok(items.remove(0))
    }

    /// The representations of `ts`, in order: a fixed number of statements (child counts,
    /// content items, main Locations of content living on elsewhere) whatever their number.
    async fn trash_items(
        &self,
        db: &impl Connection,
        ts: &[trash::Model],
    ) -> Result<Vec<TrashItem>> {
        if ts.is_empty() {
            return Ok(Vec::new());
        }
        let counts: HashMap<i64, i64> = trash::Entity::find()
            .select_only()
            .column(trash::Column::ParentId)
            .column_as(trash::Column::Id.count(), "n")
            .filter(trash::Column::ParentId.is_in(ts.iter().map(|t| t.id)))
            .group_by(trash::Column::ParentId)
            .into_tuple::<(i64, i64)>()
            .all(db)
            .await?
            .into_iter()
            .collect();
        let contents: HashMap<i64, content::Model> = cairn_store::read::keyed(
            db,
            content::Entity::find()
                .filter(content::Column::Id.is_in(ts.iter().map(|t| t.content_id))),
        )
        .await?;
        let mains: HashMap<i64, String> = location::Entity::find()
            .filter(
                location::Column::Id.is_in(contents.values().filter_map(|c| c.main_location_id)),
            )
            .all(db)
            .await?
            .into_iter()
            .map(|l| (l.id, href_path(&l.path_string)))
            .collect();
        ts.iter()
            .map(|t| {
                let c = contents
                    .get(&t.content_id)
                    .ok_or_else(|| Error::not_found("Content", t.content_id))?;
                let main = c.main_location_id.and_then(|m| mains.get(&m));
                let info = self.content_info(c, main.map(String::as_str));
                Ok(TrashItem {
                    href: hrefs::load_trash_item(t.id),
                    id: t.id,
                    priority: t.priority,
                    hidden: t.is_hidden || c.is_hidden,
                    invisible: t.is_invisible,
                    parent_location: tree::parent_path(&t.path_string).unwrap_or_default(),
                    path_string: t.path_string.clone(),
                    depth: t.depth,
                    child_count: counts.get(&t.id).copied().unwrap_or(0),
                    remote_id: t.remote_id.clone(),
                    content: t.content_id,
                    sort_field: t.sort_field.clone(),
                    sort_order: t.sort_order.clone(),
                    content_info: LocationContentInfo {
                        href: info.href.clone(),
                        content: LocationContent::ContentInfo(info),
                    },
                })
            })
            .collect()
    }
}

crate::services::family_service!(
    /// Implements the API of the trash.
    TrashService
);

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> TrashApi<B> for TrashService
{
    async fn load_trash_items(
        &self,
        cx: &Caller,
        req: LoadTrashItemsRequest,
    ) -> Result<LoadTrashItemsResponse> {
        let db = cx.reader();
        // SQLite has no OFFSET without a LIMIT.
        let limit = req.limit.sql() as u64;
        let scope = Scope {
            content: "tc",
            location: Some("trash"),
            location_sections: false,
        };
        let only = self.visible(cx, READ, scope).sql();
        let readable = Sql {
            sql: format!(
                "EXISTS (SELECT 1 FROM contents tc WHERE tc.id = trash.content_id AND {})",
                only.sql
            ),
            values: only.values,
        };
        let q = trash::Entity::find()
            .filter(readable.expr(db.get_database_backend()))
            .order_by_asc(trash::Column::PathString)
            .offset(req.offset.0)
            .limit(limit);
        let items = self.trash_items(db, &q.all(db).await?).await?;
        Ok(LoadTrashItemsResponse::Ok {
            body: Trash {
                href: hrefs::load_trash_items(),
                trash_item: items,
            },
        })
    }

    async fn empty_trash(
        &self,
        cx: &Caller,
        _req: EmptyTrashRequest,
    ) -> Result<EmptyTrashResponse> {
        self.db
            .write(cx.change(), async |tx| {
                tree::hold(tx).await?;
                self.tree_changes.trash_purged(tx, None).await?;
                exec(tx, "DELETE FROM trash", vec![]).await?;
                delete_orphaned_content(tx, &*self.tree_changes).await
            })
            .await?;
        Ok(EmptyTrashResponse::NoContent)
    }

    async fn load_trash_item(
        &self,
        cx: &Caller,
        req: LoadTrashItemRequest,
    ) -> Result<LoadTrashItemResponse> {
        let db = cx.reader();
        let item = find(db, req.trash_item_id).await?;
        self.authorize_item(db, cx, &item).await?;
        let body = self.trash_item(db, &item).await?;
        Ok(LoadTrashItemResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn restore_trash_item(
        &self,
        cx: &Caller,
        req: RestoreTrashItemRequest,
    ) -> Result<RestoreTrashItemResponse> {
        let target = match &req.destination {
            Some(d) => Some(crate::locations::ops::destination_path(d)?.to_string()),
            None => None,
        };
        let restored = self
            .db
            .write(cx.change(), async |tx| {
                tree::hold(tx).await?;
                let item = find(tx, req.trash_item_id).await?;
                self.authorize_item(tx, cx, &item).await?;
                let parent = match &target {
                    Some(path) => tree::find_by_path(tx, path).await?,
                    None => tree::find(tx, item.parent_id).await.map_err(|_| {
                        Error::Forbidden(format!(
                            "The original parent Location {} of trash item {} no longer exists; give a Destination",
                            item.parent_id, item.id
                        ))
                    })?,
                };
                let (start, end) = (item.path_string.clone(), subtree_end(&item.path_string));
                let new_path = format!("{}{}/", parent.path_string, item.id);
                let depth_change = parent.depth + 1 - item.depth;
                exec(
                    tx,
                    "INSERT INTO locations (id, parent_id, content_id, path_string, depth, priority, is_hidden, is_invisible, remote_id, sort_field, sort_order, section_id) \
                     SELECT id, CASE WHEN id = ? THEN ? ELSE parent_id END, content_id, ? || substr(path_string, CAST(? AS INTEGER)), depth + ?, priority, is_hidden, is_invisible, remote_id, sort_field, sort_order, \
                       (SELECT c.section_id FROM contents c WHERE c.id = trash.content_id) \
                     FROM trash WHERE path_string >= ? AND path_string < ?",
                    vec![
                        item.id.into(),
                        parent.id.into(),
                        new_path.clone().into(),
                        (item.path_string.len() as i64 + 1).into(),
                        depth_change.into(),
                        start.clone().into(),
                        end.clone().into(),
                    ],
                )
                .await?;
                exec(
                    tx,
                    "UPDATE contents SET status = ?, main_location_id = COALESCE(main_location_id, (SELECT MIN(l.id) FROM locations l WHERE l.content_id = contents.id)) \
                     WHERE id IN (SELECT content_id FROM trash WHERE path_string >= ? AND path_string < ?)",
                    vec![content::PUBLISHED.into(), start.clone().into(), end.clone().into()],
                )
                .await?;
                exec(tx, "DELETE FROM trash WHERE path_string >= ? AND path_string < ?", vec![start.into(), end.into()]).await?;
                let root = tree::find(tx, item.id).await?;
                tree::touch_placed(tx, &root).await?;
                tree::recompute_visibility(tx, &root).await?;
                self.tree_changes.subtree_moved(tx, &self.languages, &root, item.parent_id).await?;
                Ok::<_, Error>(root)
            })
            .await?;
        Ok(RestoreTrashItemResponse::Created {
            location: tree::location_href(&restored),
        })
    }

    async fn delete_trash_item(
        &self,
        cx: &Caller,
        req: DeleteTrashItemRequest,
    ) -> Result<DeleteTrashItemResponse> {
        self.db
            .write(cx.change(), async |tx| {
                tree::hold(tx).await?;
                let item = find(tx, req.trash_item_id).await?;
                preconditions::if_match(&req.if_match, async || self.trash_item(tx, &item).await)
                    .await?;
                let range = || -> Vec<Value> {
                    vec![
                        item.path_string.clone().into(),
                        subtree_end(&item.path_string).into(),
                    ]
                };
                let end = subtree_end(&item.path_string);
                self.tree_changes
                    .trash_purged(tx, Some((&item.path_string, &end)))
                    .await?;
                exec(
                    tx,
                    "DELETE FROM trash WHERE path_string >= ? AND path_string < ?",
                    range(),
                )
                .await?;
                delete_orphaned_content(tx, &*self.tree_changes).await
            })
            .await?;
        Ok(DeleteTrashItemResponse::NoContent)
    }
}
