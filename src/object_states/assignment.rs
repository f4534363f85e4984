//! What the content side needs: a new item's default states, assigning states, an item's
//! states.

use super::*;
use cairn_store::{Connection, Tx};

/// The default state of every group: its first by priority, then id.
const DEFAULTS: &str = "SELECT s.group_id AS g, s.id AS s FROM object_states s \
     WHERE NOT EXISTS (SELECT 1 FROM object_states o WHERE o.group_id = s.group_id \
     AND (o.priority < s.priority OR (o.priority = s.priority AND o.id < s.id)))";

/// The default state of every group, as (group, state) pairs by group.
#[cfg(test)]
pub(crate) async fn default_states(db: &impl Connection) -> Result<Vec<(i64, i64)>> {
    let sql = format!("{DEFAULTS} ORDER BY s.group_id");
    let rows = db
        .query_all_raw(stmt(db.get_database_backend(), &sql, []))
        .await?;
    pairs(rows)
}

/// Puts the new content item `content_id` in the default state of every group, in one
/// statement. Call inside its write transaction (it takes the Object-state lock shared).
pub(crate) async fn assign_default_states(db: &Tx, content_id: i64) -> Result<()> {
    lock_states_shared(db).await?;
    let sql = format!(
        "INSERT INTO content_object_states (content_id, group_id, state_id) \
         SELECT ?, g, s FROM ({DEFAULTS}) d"
    );
    db.execute_raw(stmt(db.get_database_backend(), &sql, [content_id.into()]))
        .await?;
    Ok(())
}

/// Puts content item `content_id` in the Object states `states` (ids): the item's state in
/// each group concerned is replaced, its states in other groups stay. 404 (`ObjectState`)
/// for a state that does not exist, 403 for two states of one group. The content item must
/// exist (the caller checks it). Call inside the content's write transaction; on PostgreSQL
/// it takes the Object-state lock shared so a state cannot be deleted meanwhile.
pub(crate) async fn assign_states(db: &Tx, content_id: i64, states: &[i64]) -> Result<()> {
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
    db: &impl Connection,
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
