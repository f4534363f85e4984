//! The rows of groups and states: finding them, checking input against them, keeping
//! priorities dense, and the lock the content side shares.

use super::*;
use cairn_store::Connection;

pub(super) fn language_codes(names: &LangMap) -> String {
    names
        .0
        .iter()
        .map(|(l, _)| l.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

pub(super) fn group_model(g: &object_state_group::Model) -> ObjectStateGroup {
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

pub(super) fn state_model(s: &object_state::Model) -> ObjectState {
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

pub(super) async fn find_group(db: &impl Connection, id: i64) -> Result<object_state_group::Model> {
    cairn_store::read::by_id::<object_state_group::Entity>(db, id)
        .await?
        .ok_or_else(|| Error::not_found("ObjectStateGroup", id))
}

/// The state `id` of group `group_id`: 404 for a missing group, or a state that is missing or
/// belongs to another group.
pub(super) async fn find_state(
    db: &impl Connection,
    group_id: i64,
    id: i64,
) -> Result<object_state::Model> {
    match cairn_store::read::by_id::<object_state::Entity>(db, id).await? {
        Some(s) if s.group_id == group_id => Ok(s),
        _ => {
            find_group(db, group_id).await?;
            Err(Error::not_found("ObjectState", id))
        }
    }
}

/// The states of a group, by priority (the default first).
pub(super) async fn states_of(
    db: &impl Connection,
    group_id: i64,
) -> Result<Vec<object_state::Model>> {
    Ok(object_state::Entity::find()
        .filter(object_state::Column::GroupId.eq(group_id))
        .order_by_asc(object_state::Column::Priority)
        .order_by_asc(object_state::Column::Id)
        .all(db)
        .await?)
}

pub(super) fn check_identifier(input: &str, identifier: &str) -> Result<()> {
    if identifier.trim().is_empty() {
        return Err(Error::BadRequest(format!(
            "{input}.identifier must not be empty"
        )));
    }
    Ok(())
}

/// `current` with the entries of `input` set over it (one entry per language).
pub(super) fn merged(current: LangMap, input: Option<&LangMap>) -> LangMap {
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
    db: &impl Connection,
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
pub(super) async fn ensure_group_free(
    db: &impl Connection,
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
pub(super) async fn ensure_state_free(
    db: &impl Connection,
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
pub(super) async fn renumber(db: &impl Connection, order: &[(i64, i64)]) -> Result<()> {
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
pub(super) async fn set_priority(
    db: &impl Connection,
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
pub(super) async fn lock_states_shared(tx: &cairn_store::Tx) -> Result<()> {
    Ok(tx.lock_shared(STATES_LOCK).await?)
}

/// (group, state) pairs of rows with columns `g` and `s`.
#[cfg(test)]
pub(super) fn pairs(rows: Vec<sea_orm::QueryResult>) -> Result<Vec<(i64, i64)>> {
    rows.into_iter()
        .map(|r| Ok((r.try_get::<i64>("", "g")?, r.try_get::<i64>("", "s")?)))
        .collect()
}

/// Texts to store: a group's or state's default language, names and descriptions.
pub(super) struct NewTexts {
    pub default_language_code: String,
    pub names: String,
    pub descriptions: String,
}

/// The texts of a new group or state, checked as `input_type`.
pub(super) async fn new_texts(
    db: &impl Connection,
    input_type: &str,
    default_language_code: String,
    names: &LangMap,
    descriptions: Option<&LangMap>,
) -> Result<NewTexts> {
    let names = merged(LangMap::default(), Some(names));
    let descriptions = merged(LangMap::default(), descriptions);
    checked_texts(db, input_type, default_language_code, names, descriptions).await
}

/// The texts of a group or state after an update: the stored ones with the input's merged
/// over them (a language given replaces that language's text), checked as `input_type`.
pub(super) async fn updated_texts(
    db: &impl Connection,
    input_type: &str,
    current: &impl Texts,
    input: (Option<String>, &Option<LangMap>, &Option<LangMap>),
) -> Result<NewTexts> {
    let [default_language_code, names, descriptions] = current.texts();
    let default_language_code = input.0.unwrap_or_else(|| default_language_code.clone());
    let names = merged(stored::lang_map(names), input.1.as_ref());
    let descriptions = merged(stored::lang_map(descriptions), input.2.as_ref());
    checked_texts(db, input_type, default_language_code, names, descriptions).await
}

async fn checked_texts(
    db: &impl Connection,
    input_type: &str,
    default_language_code: String,
    names: LangMap,
    descriptions: LangMap,
) -> Result<NewTexts> {
    let descriptions = check_texts(
        db,
        input_type,
        &default_language_code,
        &names,
        &descriptions,
    )
    .await?;
    Ok(NewTexts {
        default_language_code,
        names: stored::lang_map_json(&names),
        descriptions: stored::lang_map_json(&descriptions),
    })
}

/// The texts that groups and states both carry, as stored and as written.
pub(super) trait Texts {
    /// Default language, names and descriptions as stored.
    fn texts(&self) -> [&String; 3];
}

/// Sets [`NewTexts`] on an active model.
pub(super) trait SetTexts {
    fn set_texts(&mut self, t: NewTexts);
}

macro_rules! texts_of {
    ($($entity:ident),*) => {$(
        impl Texts for $entity::Model {
            fn texts(&self) -> [&String; 3] {
                [&self.default_language_code, &self.names, &self.descriptions]
            }
        }
        impl SetTexts for $entity::ActiveModel {
            fn set_texts(&mut self, t: NewTexts) {
                self.default_language_code = Set(t.default_language_code);
                self.names = Set(t.names);
                self.descriptions = Set(t.descriptions);
            }
        }
    )*};
}
texts_of!(object_state_group, object_state);
