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
use crate::service::Service;
use crate::stored;
use cairn_runtime::{ETag, LangMap};
use cairn_store::entity::{content_object_state, language, object_state, object_state_group};
use cairn_store::sql::{lock, stmt};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DbBackend, EntityTrait,
    IntoActiveModel, QueryFilter, QueryOrder, Value,
};
use std::collections::{HashMap, HashSet};

/// Serialises the checks of group identifiers with the writes that depend on them.
const GROUP_IDENTIFIER_LOCK: &str = "object_state_group_identifier";

/// Taken exclusively by the writes that add or remove states (or change a group's default),
/// shared by the content writes that read defaults or assign states.
const STATES_LOCK: &str = "object_states";

/// The languages of `names`, comma-separated.
fn language_codes(names: &LangMap) -> String {
    names
        .0
        .iter()
        .map(|(l, _)| l.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

fn group_model(g: &object_state_group::Model) -> ObjectStateGroup {
    let names = stored::lang_map(&g.names);
    ObjectStateGroup {
        href: hrefs::load_object_state_group(g.id),
        id: g.id,
        identifier: g.identifier.clone(),
        default_language_code: g.default_language_code.clone(),
        language_codes: language_codes(&names),
        object_states: hrefs::load_object_states(g.id),
        names,
        descriptions: stored::lang_map(&g.descriptions),
    }
}

fn state_model(s: &object_state::Model) -> ObjectState {
    let names = stored::lang_map(&s.names);
    ObjectState {
        href: hrefs::load_object_state(s.group_id, s.id),
        id: s.id,
        identifier: s.identifier.clone(),
        priority: s.priority,
        object_state_group: hrefs::load_object_state_group(s.group_id),
        default_language_code: s.default_language_code.clone(),
        language_codes: language_codes(&names),
        names,
        descriptions: stored::lang_map(&s.descriptions),
    }
}

async fn find_group(db: &impl ConnectionTrait, id: i64) -> Result<object_state_group::Model> {
    object_state_group::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| Error::not_found("ObjectStateGroup", id))
}

/// The state `id` of group `group_id`: 404 for a missing group, or a state that is missing or
/// belongs to another group.
async fn find_state(
    db: &impl ConnectionTrait,
    group_id: i64,
    id: i64,
) -> Result<object_state::Model> {
    match object_state::Entity::find_by_id(id).one(db).await? {
        Some(s) if s.group_id == group_id => Ok(s),
        _ => {
            find_group(db, group_id).await?;
            Err(Error::not_found("ObjectState", id))
        }
    }
}

/// The states of a group, by priority (the default first).
async fn states_of(db: &impl ConnectionTrait, group_id: i64) -> Result<Vec<object_state::Model>> {
    Ok(object_state::Entity::find()
        .filter(object_state::Column::GroupId.eq(group_id))
        .order_by_asc(object_state::Column::Priority)
        .order_by_asc(object_state::Column::Id)
        .all(db)
        .await?)
}

fn check_identifier(input: &str, identifier: &str) -> Result<()> {
    if identifier.trim().is_empty() {
        return Err(Error::BadRequest(format!(
            "{input}.identifier must not be empty"
        )));
    }
    Ok(())
}

/// `current` with the entries of `input` set over it (one entry per language).
fn merged(current: LangMap, input: Option<&LangMap>) -> LangMap {
    let mut map = LangMap::default();
    for (l, t) in current.0.iter().chain(input.into_iter().flat_map(|m| &m.0)) {
        map.set(l, t);
    }
    map
}

/// Checks the default language and names of a group or state (like the reference: a name in
/// the default language, no empty name, only installed languages) and returns the
/// descriptions to store: one per language of the names, empty where none is given.
async fn check_texts(
    db: &impl ConnectionTrait,
    input: &str,
    default_language_code: &str,
    names: &LangMap,
    descriptions: &LangMap,
) -> Result<LangMap> {
    let bad = |m: String| Err(Error::BadRequest(format!("{input}.{m}")));
    if default_language_code.trim().is_empty() {
        return bad("defaultLanguageCode must not be empty".into());
    }
    if names.is_empty() {
        return bad("names must hold at least one name".into());
    }
    if names.get(default_language_code).is_none() {
        return bad(format!(
            "names has no name in the default language '{default_language_code}'"
        ));
    }
    if let Some((l, _)) = names.0.iter().find(|(_, t)| t.trim().is_empty()) {
        return bad(format!("names: the name in '{l}' must not be empty"));
    }
    let codes: Vec<&str> = names.0.iter().map(|(l, _)| l.as_str()).collect();
    let known: HashSet<String> = language::Entity::find()
        .filter(language::Column::LanguageCode.is_in(codes.iter().copied()))
        .all(db)
        .await?
        .into_iter()
        .map(|l| l.language_code)
        .collect();
    if let Some(l) = codes.iter().find(|l| !known.contains(**l)) {
        return bad(format!("names: the language '{l}' does not exist"));
    }
    Ok(LangMap(
        names
            .0
            .iter()
            .map(|(l, _)| (l.clone(), descriptions.get(l).unwrap_or("").to_string()))
            .collect(),
    ))
}

/// 403 when another group than `except` has `identifier` (call under [`GROUP_IDENTIFIER_LOCK`]).
async fn ensure_group_free(
    db: &impl ConnectionTrait,
    identifier: &str,
    except: Option<i64>,
) -> Result<()> {
    let taken = object_state_group::Entity::find()
        .filter(object_state_group::Column::Identifier.eq(identifier))
        .one(db)
        .await?;
    match taken {
        Some(g) if Some(g.id) != except => Err(Error::Forbidden(format!(
            "An Object state group with identifier '{identifier}' already exists"
        ))),
        _ => Ok(()),
    }
}

/// 403 when another state of `group_id` than `except` has `identifier` (call under
/// [`STATES_LOCK`]).
async fn ensure_state_free(
    db: &impl ConnectionTrait,
    group_id: i64,
    identifier: &str,
    except: Option<i64>,
) -> Result<()> {
    let taken = object_state::Entity::find()
        .filter(object_state::Column::GroupId.eq(group_id))
        .filter(object_state::Column::Identifier.eq(identifier))
        .one(db)
        .await?;
    match taken {
        Some(s) if Some(s.id) != except => Err(Error::Forbidden(format!(
            "An Object state with identifier '{identifier}' already exists in Object state group {group_id}"
        ))),
        _ => Ok(()),
    }
}

/// Gives the states `order` (ids, with their current priorities) the priorities 0, 1, ... in
/// that order: one UPDATE of the rows whose priority changes.
async fn renumber(db: &impl ConnectionTrait, order: &[(i64, i64)]) -> Result<()> {
    let changed: Vec<(i64, i64)> = order
        .iter()
        .enumerate()
        .filter(|(i, (_, p))| *i as i64 != *p)
        .map(|(i, (id, _))| (*id, i as i64))
        .collect();
    if changed.is_empty() {
        return Ok(());
    }
    let mut sql = String::from("UPDATE object_states SET priority = CASE id");
    let mut values: Vec<Value> = Vec::new();
    for (id, p) in &changed {
        sql.push_str(" WHEN ? THEN ?");
        values.push((*id).into());
        values.push((*p).into());
    }
    sql.push_str(" END WHERE id IN (");
    sql.push_str(&vec!["?"; changed.len()].join(", "));
    sql.push(')');
    values.extend(changed.iter().map(|(id, _)| Value::from(*id)));
    db.execute_raw(stmt(db.get_database_backend(), &sql, values))
        .await?;
    Ok(())
}

/// Moves state `state_id` of `group_id` to `priority` like the reference's `setPriority`: the
/// other states keep their rank as priority, the state takes `priority`, a stable sort orders
/// them (ties keep the current order) and the priorities become 0..n-1 again.
async fn set_priority(
    db: &impl ConnectionTrait,
    group_id: i64,
    state_id: i64,
    priority: i64,
) -> Result<()> {
    let states = states_of(db, group_id).await?;
    let mut ranked: Vec<(i64, i64, i64)> = states
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let key = if s.id == state_id { priority } else { i as i64 };
            (key, s.id, s.priority)
        })
        .collect();
    ranked.sort_by_key(|(key, _, _)| *key);
    let order: Vec<(i64, i64)> = ranked.into_iter().map(|(_, id, p)| (id, p)).collect();
    renumber(db, &order).await
}

/// Takes [`STATES_LOCK`] shared until the transaction ends (PostgreSQL only).
async fn lock_states_shared(db: &impl ConnectionTrait) -> Result<()> {
    if db.get_database_backend() == DbBackend::Postgres {
        db.execute_raw(stmt(
            DbBackend::Postgres,
            "SELECT pg_advisory_xact_lock_shared(hashtext(?))",
            [STATES_LOCK.into()],
        ))
        .await?;
    }
    Ok(())
}

fn pairs(rows: Vec<sea_orm::QueryResult>) -> Result<Vec<(i64, i64)>> {
    rows.into_iter()
        .map(|r| Ok((r.try_get::<i64>("", "g")?, r.try_get::<i64>("", "s")?)))
        .collect()
}

/// The default state of every Object state group that has states, as `(group id, state id)`
/// by group id: what a new content item starts in. One query (on PostgreSQL preceded by
/// taking the Object-state lock shared, so call it inside the write transaction that inserts
/// the content: a concurrent creation of a group's first state then waits for it and assigns
/// that state to the new item too).
pub(crate) async fn default_states(db: &impl ConnectionTrait) -> Result<Vec<(i64, i64)>> {
    lock_states_shared(db).await?;
    let rows = db
        .query_all_raw(stmt(
            db.get_database_backend(),
            "SELECT s.group_id AS g, s.id AS s FROM object_states s \
             WHERE NOT EXISTS (SELECT 1 FROM object_states o WHERE o.group_id = s.group_id \
             AND (o.priority < s.priority OR (o.priority = s.priority AND o.id < s.id))) \
             ORDER BY s.group_id",
            [],
        ))
        .await?;
    pairs(rows)
}

/// Puts content item `content_id` in the Object states `states` (ids): the item's state in
/// each group concerned is replaced, its states in other groups stay. 404 (`ObjectState`)
/// for a state that does not exist, 403 for two states of one group. The content item must
/// exist (the caller checks it). Call inside the content's write transaction; on PostgreSQL
/// it takes the Object-state lock shared so a state cannot be deleted meanwhile.
pub(crate) async fn assign_states(
    db: &impl ConnectionTrait,
    content_id: i64,
    states: &[i64],
) -> Result<()> {
    if states.is_empty() {
        return Ok(());
    }
    lock_states_shared(db).await?;
    let found: HashMap<i64, i64> = object_state::Entity::find()
        .filter(object_state::Column::Id.is_in(states.iter().copied()))
        .all(db)
        .await?
        .into_iter()
        .map(|s| (s.id, s.group_id))
        .collect();
    let mut groups = HashSet::new();
    let mut rows = Vec::with_capacity(states.len());
    for id in states {
        let group = *found
            .get(id)
            .ok_or_else(|| Error::not_found("ObjectState", id))?;
        if !groups.insert(group) {
            return Err(Error::Forbidden(format!(
                "Multiple Object states provided for group with ID {group}"
            )));
        }
        rows.push((group, *id));
    }
    let mut sql =
        String::from("INSERT INTO content_object_states (content_id, group_id, state_id) VALUES ");
    sql.push_str(&vec!["(?, ?, ?)"; rows.len()].join(", "));
    sql.push_str(" ON CONFLICT (content_id, group_id) DO UPDATE SET state_id = excluded.state_id");
    let values: Vec<Value> = rows
        .iter()
        .flat_map(|(g, s)| [content_id.into(), (*g).into(), (*s).into()])
        .collect();
    db.execute_raw(stmt(db.get_database_backend(), &sql, values))
        .await?;
    Ok(())
}

/// The Object states of content item `content_id`, as `(group id, state id)` by group id
/// (empty for an item that does not exist).
pub(crate) async fn content_states(
    db: &impl ConnectionTrait,
    content_id: i64,
) -> Result<Vec<(i64, i64)>> {
    Ok(content_object_state::Entity::find()
        .filter(content_object_state::Column::ContentId.eq(content_id))
        .order_by_asc(content_object_state::Column::GroupId)
        .all(db)
        .await?
        .into_iter()
        .map(|r| (r.group_id, r.state_id))
        .collect())
}

impl ObjectStatesApi for Service {
    async fn load_object_state_groups(
        &self,
        _cx: &Caller,
        _req: LoadObjectStateGroupsRequest,
    ) -> Result<LoadObjectStateGroupsResponse> {
        let groups = object_state_group::Entity::find()
            .order_by_asc(object_state_group::Column::Id)
            .all(self.db.conn())
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
        let names = merged(LangMap::default(), Some(&b.names));
        let g = self
            .db
            .write(cx.change(), async |tx| {
                let descriptions = check_texts(
                    tx,
                    INPUT,
                    &b.default_language_code,
                    &names,
                    &b.descriptions.unwrap_or_default(),
                )
                .await?;
                lock(tx, GROUP_IDENTIFIER_LOCK).await?;
                ensure_group_free(tx, &b.identifier, None).await?;
                Ok::<_, Error>(
                    object_state_group::ActiveModel {
                        identifier: Set(b.identifier),
                        default_language_code: Set(b.default_language_code),
                        names: Set(stored::lang_map_json(&names)),
                        descriptions: Set(stored::lang_map_json(&descriptions)),
                        ..Default::default()
                    }
                    .insert(tx)
                    .await?,
                )
            })
            .await?;
        Ok(CreateObjectStateGroupResponse::Created {
            body: group_model(&g),
        })
    }

    async fn load_object_state_group(
        &self,
        _cx: &Caller,
        req: LoadObjectStateGroupRequest,
    ) -> Result<LoadObjectStateGroupResponse> {
        let body = group_model(&find_group(self.db.conn(), req.object_state_group_id).await?);
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
                let default_language_code = b
                    .default_language_code
                    .unwrap_or_else(|| current.default_language_code.clone());
                let names = merged(stored::lang_map(&current.names), b.names.as_ref());
                let descriptions = merged(
                    stored::lang_map(&current.descriptions),
                    b.descriptions.as_ref(),
                );
                let descriptions =
                    check_texts(tx, INPUT, &default_language_code, &names, &descriptions).await?;
                let id = current.id;
                let mut active = current.into_active_model();
                if let Some(identifier) = b.identifier {
                    check_identifier(INPUT, &identifier)?;
                    lock(tx, GROUP_IDENTIFIER_LOCK).await?;
                    ensure_group_free(tx, &identifier, Some(id)).await?;
                    active.identifier = Set(identifier);
                }
                active.default_language_code = Set(default_language_code);
                active.names = Set(stored::lang_map_json(&names));
                active.descriptions = Set(stored::lang_map_json(&descriptions));
                Ok::<_, Error>(active.update(tx).await?)
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
                lock(tx, STATES_LOCK).await?;
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
        _cx: &Caller,
        req: LoadObjectStatesRequest,
    ) -> Result<LoadObjectStatesResponse> {
        let db = self.db.conn();
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
        let names = merged(LangMap::default(), Some(&b.names));
        let s = self
            .db
            .write(cx.change(), async |tx| {
                find_group(tx, group_id).await?;
                check_identifier(INPUT, &b.identifier)?;
                let descriptions = check_texts(
                    tx,
                    INPUT,
                    &b.default_language_code,
                    &names,
                    &b.descriptions.unwrap_or_default(),
                )
                .await?;
                lock(tx, STATES_LOCK).await?;
                ensure_state_free(tx, group_id, &b.identifier, None).await?;
                let existing = states_of(tx, group_id).await?;
                let last = existing.iter().map(|s| s.priority).max();
                let s = object_state::ActiveModel {
                    group_id: Set(group_id),
                    identifier: Set(b.identifier),
                    priority: Set(last.map_or(0, |p| p + 1)),
                    default_language_code: Set(b.default_language_code),
                    names: Set(stored::lang_map_json(&names)),
                    descriptions: Set(stored::lang_map_json(&descriptions)),
                    ..Default::default()
                }
                .insert(tx)
                .await?;
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
                find_state(tx, group_id, s.id).await
            })
            .await?;
        Ok(CreateObjectStateResponse::Created {
            body: state_model(&s),
        })
    }

    async fn load_object_state(
        &self,
        _cx: &Caller,
        req: LoadObjectStateRequest,
    ) -> Result<LoadObjectStateResponse> {
        let s = find_state(
            self.db.conn(),
            req.object_state_group_id,
            req.object_state_id,
        )
        .await?;
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
                let default_language_code = b
                    .default_language_code
                    .unwrap_or_else(|| current.default_language_code.clone());
                let names = merged(stored::lang_map(&current.names), b.names.as_ref());
                let descriptions = merged(
                    stored::lang_map(&current.descriptions),
                    b.descriptions.as_ref(),
                );
                let descriptions =
                    check_texts(tx, INPUT, &default_language_code, &names, &descriptions).await?;
                let id = current.id;
                let mut active = current.into_active_model();
                if b.identifier.is_some() || b.priority.is_some() {
                    lock(tx, STATES_LOCK).await?;
                }
                if let Some(identifier) = b.identifier {
                    check_identifier(INPUT, &identifier)?;
                    ensure_state_free(tx, group_id, &identifier, Some(id)).await?;
                    active.identifier = Set(identifier);
                }
                active.default_language_code = Set(default_language_code);
                active.names = Set(stored::lang_map_json(&names));
                active.descriptions = Set(stored::lang_map_json(&descriptions));
                let updated = active.update(tx).await?;
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
                lock(tx, STATES_LOCK).await?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use cairn_store::scratch::CleanDb;

    fn state(id: i64, group_id: i64, priority: i64) -> object_state::ActiveModel {
        object_state::ActiveModel {
            id: Set(id),
            group_id: Set(group_id),
            identifier: Set(format!("s{id}")),
            priority: Set(priority),
            default_language_code: Set("eng-GB".into()),
            names: Set(r#"{"eng-GB":"S"}"#.into()),
            descriptions: Set(r#"{"eng-GB":""}"#.into()),
        }
    }

    #[tokio::test]
    async fn default_states_are_the_lowest_priority_of_each_group_with_states() {
        let t = CleanDb::new().await;
        let c = t.db.conn();
        assert_eq!(default_states(c).await.unwrap(), [(2, 1)]);
        for id in [7, 9] {
            object_state_group::ActiveModel {
                id: Set(id),
                identifier: Set(format!("g{id}")),
                default_language_code: Set("eng-GB".into()),
                names: Set(r#"{"eng-GB":"G"}"#.into()),
                descriptions: Set(r#"{"eng-GB":""}"#.into()),
            }
            .insert(c)
            .await
            .unwrap();
        }
        // Group 9 has no state: it has no default.
        object_state::Entity::insert_many([state(20, 7, 1), state(21, 7, 0), state(22, 7, 2)])
            .exec(c)
            .await
            .unwrap();
        assert_eq!(default_states(c).await.unwrap(), [(2, 1), (7, 21)]);
    }

    #[tokio::test]
    async fn assign_states_replaces_the_state_of_each_group_concerned() {
        let t = CleanDb::new().await;
        let c = t.db.conn();
        assert_eq!(content_states(c, 1).await.unwrap(), [(2, 1)]);
        assign_states(c, 1, &[2]).await.unwrap();
        assert_eq!(content_states(c, 1).await.unwrap(), [(2, 2)]);
        // Other content items keep theirs; nothing given changes nothing.
        assert_eq!(content_states(c, 4).await.unwrap(), [(2, 1)]);
        assign_states(c, 1, &[]).await.unwrap();
        assert_eq!(content_states(c, 1).await.unwrap(), [(2, 2)]);
        assert_eq!(content_states(c, 999).await.unwrap(), []);

        let e = assign_states(c, 1, &[1, 2]).await.unwrap_err();
        assert!(
            matches!(&e, Error::Forbidden(m) if m == "Multiple Object states provided for group with ID 2"),
            "{e}"
        );
        let e = assign_states(c, 1, &[1, 1]).await.unwrap_err();
        assert!(matches!(e, Error::Forbidden(_)), "{e}");
        let e = assign_states(c, 1, &[1, 99]).await.unwrap_err();
        assert!(
            matches!(&e, Error::NotFound { what: "ObjectState", id } if id == "99"),
            "{e}"
        );
        // The refused assignments changed nothing.
        assert_eq!(content_states(c, 1).await.unwrap(), [(2, 2)]);
    }
}
