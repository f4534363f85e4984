//! Object state groups and their Object states (spec 2.8, 4.4), and what the content service
//! needs of them: the default states of a new content item, assigning states, a content
//! item's states.
//!
//! The rules the content side relies on: every content item has exactly one state of every
//! group that has states (a `content_object_states` row per item and group), and starts in the
//! group's default state, the one with the lowest priority. The priorities of a group's states
//! are kept dense (0..n-1). So creating the first state of a group assigns it to every content
//! item, deleting a state moves its content items to the group's (new) default state or, when
//! it was the last one, drops those rows, and deleting a group drops its rows.
//!
//! Concurrency (PostgreSQL; SQLite writers are serialised already): the writes that change
//! which states exist or which one is a group's default take the advisory lock
//! [`STATES_LOCK`] exclusively; [`default_states`] and [`assign_states`] take it shared, so
//! a content item created or changed concurrently cannot miss a new group's first state or
//! keep a deleted state.

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::ObjectStatesApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::preconditions;
use crate::stored;
use cairn_runtime::{ETag, LangMap};
use cairn_store::entity::{content_object_state, language, object_state, object_state_group};
use cairn_store::sql::stmt;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel, QueryFilter,
    QueryOrder, Value,
};
use std::collections::{HashMap, HashSet};

/// Serialises the checks of group identifiers with the writes that depend on them.
const GROUP_IDENTIFIER_LOCK: &str = "object_state_group_identifier";

/// Taken exclusively by the writes that add or remove states (or change a group's default),
/// shared by the content writes that read defaults or assign states.
const STATES_LOCK: &str = "object_states";

mod assignment;
mod rows;
#[cfg(test)]
mod tests;

#[cfg(test)]
pub(crate) use assignment::default_states;
pub(crate) use assignment::{assign_default_states, assign_states, content_states};
use rows::*;

/// The Object states of `ids` (those that exist), in one query.
pub(crate) async fn states_by_ids(
    db: &impl cairn_store::Connection,
    ids: Vec<i64>,
) -> Result<Vec<ObjectState>> {
    let rows = (object_state::Entity::find().filter(object_state::Column::Id.is_in(ids)))
        .all(db)
        .await?;
    Ok(rows.iter().map(state_model).collect())
}

crate::services::family_service!(
    /// Implements the API of Object state groups and states.
    ObjectStatesService
);

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> ObjectStatesApi<B> for ObjectStatesService
{
    async fn load_object_state_groups(
        &self,
        cx: &Caller,
        _req: LoadObjectStateGroupsRequest,
    ) -> Result<LoadObjectStateGroupsResponse> {
        let groups = object_state_group::Entity::find()
            .order_by_asc(object_state_group::Column::Id)
            .all(cx.reader())
            .await?;
        Ok(LoadObjectStateGroupsResponse::Ok {
            body: ObjectStateGroupList {
                href: hrefs::load_object_state_groups(),
                object_state_group: groups.iter().map(group_model).collect(),
            },
        })
    }

    async fn create_object_state_group(
        &self,
        cx: &Caller,
        req: CreateObjectStateGroupRequest,
    ) -> Result<CreateObjectStateGroupResponse> {
        let b = req.body;
        const INPUT: &str = "ObjectStateGroupCreate";
        check_identifier(INPUT, &b.identifier)?;
        let g = self
            .db
            .write(cx.change(), async |tx| {
                let descriptions = b.descriptions.as_ref();
                let texts =
                    new_texts(tx, INPUT, b.default_language_code, &b.names, descriptions).await?;
                tx.lock(GROUP_IDENTIFIER_LOCK).await?;
                ensure_group_free(tx, &b.identifier, None).await?;
                let mut active = object_state_group::ActiveModel {
                    identifier: Set(b.identifier),
                    ..Default::default()
                };
                active.set_texts(texts);
                let g = cairn_store::write::insert(tx, active).await?;
                tx.created(&hrefs::load_object_state_group(g.id));
                Ok::<_, Error>(g)
            })
            .await?;
        Ok(CreateObjectStateGroupResponse::Created {
            body: group_model(&g),
        })
    }

    async fn load_object_state_group(
        &self,
        cx: &Caller,
        req: LoadObjectStateGroupRequest,
    ) -> Result<LoadObjectStateGroupResponse> {
        let body = group_model(&find_group(cx.reader(), req.object_state_group_id).await?);
        Ok(LoadObjectStateGroupResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn update_object_state_group(
        &self,
        cx: &Caller,
        req: UpdateObjectStateGroupRequest,
    ) -> Result<UpdateObjectStateGroupResponse> {
        const INPUT: &str = "ObjectStateGroupUpdate";
        let b = req.body;
        let g = self
            .db
            .write(cx.change(), async |tx| {
                let current = find_group(tx, req.object_state_group_id).await?;
                preconditions::if_match(&req.if_match, async || Ok(group_model(&current))).await?;
                let input = (b.default_language_code, &b.names, &b.descriptions);
                let texts = updated_texts(tx, INPUT, &current, input).await?;
                let id = current.id;
                let mut active = current.into_active_model();
                if let Some(identifier) = b.identifier {
                    check_identifier(INPUT, &identifier)?;
                    tx.lock(GROUP_IDENTIFIER_LOCK).await?;
                    ensure_group_free(tx, &identifier, Some(id)).await?;
                    active.identifier = Set(identifier);
                }
                active.set_texts(texts);
                Ok::<_, Error>(cairn_store::write::update(tx, active).await?)
            })
            .await?;
        let body = group_model(&g);
        Ok(UpdateObjectStateGroupResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn delete_object_state_group(
        &self,
        cx: &Caller,
        req: DeleteObjectStateGroupRequest,
    ) -> Result<DeleteObjectStateGroupResponse> {
        self.db
            .write(cx.change(), async |tx| {
                let current = find_group(tx, req.object_state_group_id).await?;
                preconditions::if_match(&req.if_match, async || Ok(group_model(&current))).await?;
                tx.lock(STATES_LOCK).await?;
                content_object_state::Entity::delete_many()
                    .filter(content_object_state::Column::GroupId.eq(current.id))
                    .exec(tx)
                    .await?;
                object_state::Entity::delete_many()
                    .filter(object_state::Column::GroupId.eq(current.id))
                    .exec(tx)
                    .await?;
                object_state_group::Entity::delete_by_id(current.id)
                    .exec(tx)
                    .await?;
                Ok::<_, Error>(())
            })
            .await?;
        Ok(DeleteObjectStateGroupResponse::NoContent)
    }

    async fn load_object_states(
        &self,
        cx: &Caller,
        req: LoadObjectStatesRequest,
    ) -> Result<LoadObjectStatesResponse> {
        let db = cx.reader();
        let group = find_group(db, req.object_state_group_id).await?;
        let states = states_of(db, group.id).await?;
        Ok(LoadObjectStatesResponse::Ok {
            body: ObjectStateList {
                href: hrefs::load_object_states(group.id),
                object_state: states.iter().map(state_model).collect(),
            },
        })
    }

    async fn create_object_state(
        &self,
        cx: &Caller,
        req: CreateObjectStateRequest,
    ) -> Result<CreateObjectStateResponse> {
        const INPUT: &str = "ObjectStateCreate";
        let b = req.body;
        let group_id = req.object_state_group_id;
        let s = self
            .db
            .write(cx.change(), async |tx| {
                find_group(tx, group_id).await?;
                check_identifier(INPUT, &b.identifier)?;
                let descriptions = b.descriptions.as_ref();
                let texts =
                    new_texts(tx, INPUT, b.default_language_code, &b.names, descriptions).await?;
                tx.lock(STATES_LOCK).await?;
                ensure_state_free(tx, group_id, &b.identifier, None).await?;
                let existing = states_of(tx, group_id).await?;
                let last = existing.iter().map(|s| s.priority).max();
                let mut active = object_state::ActiveModel {
                    group_id: Set(group_id),
                    identifier: Set(b.identifier),
                    priority: Set(last.map_or(0, |p| p + 1)),
                    ..Default::default()
                };
                active.set_texts(texts);
                let s = cairn_store::write::insert(tx, active).await?;
                if existing.is_empty() {
                    // The group's first state: every content item is now in it.
                    tx.execute_raw(stmt(
                        tx.get_database_backend(),
                        "INSERT INTO content_object_states (content_id, group_id, state_id) \
                         SELECT id, ?, ? FROM contents",
                        [group_id.into(), s.id.into()],
                    ))
                    .await?;
                }
                set_priority(tx, group_id, s.id, b.priority).await?;
                tx.created(&hrefs::load_object_state(group_id, s.id));
                find_state(tx, group_id, s.id).await
            })
            .await?;
        Ok(CreateObjectStateResponse::Created {
            body: state_model(&s),
        })
    }

    async fn load_object_state(
        &self,
        cx: &Caller,
        req: LoadObjectStateRequest,
    ) -> Result<LoadObjectStateResponse> {
        let s = find_state(cx.reader(), req.object_state_group_id, req.object_state_id).await?;
        let body = state_model(&s);
        Ok(LoadObjectStateResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn update_object_state(
        &self,
        cx: &Caller,
        req: UpdateObjectStateRequest,
    ) -> Result<UpdateObjectStateResponse> {
        const INPUT: &str = "ObjectStateUpdate";
        let b = req.body;
        let group_id = req.object_state_group_id;
        let s = self
            .db
            .write(cx.change(), async |tx| {
                let current = find_state(tx, group_id, req.object_state_id).await?;
                preconditions::if_match(&req.if_match, async || Ok(state_model(&current))).await?;
                let input = (b.default_language_code, &b.names, &b.descriptions);
                let texts = updated_texts(tx, INPUT, &current, input).await?;
                let id = current.id;
                let mut active = current.into_active_model();
                if b.identifier.is_some() || b.priority.is_some() {
                    tx.lock(STATES_LOCK).await?;
                }
                if let Some(identifier) = b.identifier {
                    check_identifier(INPUT, &identifier)?;
                    ensure_state_free(tx, group_id, &identifier, Some(id)).await?;
                    active.identifier = Set(identifier);
                }
                active.set_texts(texts);
                let updated = cairn_store::write::update(tx, active).await?;
                match b.priority {
                    Some(p) => {
                        set_priority(tx, group_id, id, p).await?;
                        find_state(tx, group_id, id).await
                    }
                    None => Ok(updated),
                }
            })
            .await?;
        let body = state_model(&s);
        Ok(UpdateObjectStateResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn delete_object_state(
        &self,
        cx: &Caller,
        req: DeleteObjectStateRequest,
    ) -> Result<DeleteObjectStateResponse> {
        let group_id = req.object_state_group_id;
        self.db
            .write(cx.change(), async |tx| {
                let current = find_state(tx, group_id, req.object_state_id).await?;
                preconditions::if_match(&req.if_match, async || Ok(state_model(&current))).await?;
                tx.lock(STATES_LOCK).await?;
                object_state::Entity::delete_by_id(current.id)
                    .exec(tx)
                    .await?;
                let remaining = states_of(tx, group_id).await?;
                match remaining.first() {
                    None => {
                        // The group's last state: its content items are in no state of it.
                        content_object_state::Entity::delete_many()
                            .filter(content_object_state::Column::StateId.eq(current.id))
                            .exec(tx)
                            .await?;
                    }
                    Some(default) => {
                        let order: Vec<(i64, i64)> =
                            remaining.iter().map(|s| (s.id, s.priority)).collect();
                        renumber(tx, &order).await?;
                        tx.execute_raw(stmt(
                            tx.get_database_backend(),
                            "UPDATE content_object_states SET state_id = ? WHERE state_id = ?",
                            [default.id.into(), current.id.into()],
                        ))
                        .await?;
                    }
                }
                Ok::<_, Error>(())
            })
            .await?;
        Ok(DeleteObjectStateResponse::NoContent)
    }
}
