//! The outbox of changes (`events`): every write transaction ([`crate::Db::write`]) ends by
//! appending the [`Change`] it made, so a change and its event commit together or not at all.
//! Event ids grow in commit order; the last one is the repository's generation, which caches
//! compare to know whether anything changed since they rendered (on any instance).

use crate::entity::event;
use crate::sql::stmt;
use sea_orm::{ColumnTrait, Value};
use sea_orm::{
    ConnectionTrait, DbBackend, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};

/// A change, as its event records it.
#[derive(Debug, Clone, Copy)]
pub struct Change<'a> {
    /// What was done: the API operation (`publishVersion`) or the command (`import`).
    pub operation: &'a str,
    /// What it was done to: the request's path under the API prefix.
    pub resource: &'a str,
    /// Who did it; none for a command run on the server.
    pub user_id: Option<i64>,
}

impl<'a> Change<'a> {
    /// A change the server makes on its own or a command run on it: `operation` done to
    /// `resource`, by no user.
    pub fn by_server(operation: &'a str, resource: &'a str) -> Change<'a> {
        Change {
            operation,
            resource,
            user_id: None,
        }
    }
}

tokio::task_local! {
    /// The resource a write created, when it names one (see [`created`]).
    static CREATED: std::cell::RefCell<Option<String>>;
}

/// Inside a write ([`crate::Db::write`]): its event names `path` (under the API prefix), the
/// resource it created, instead of the request's path (the collection it was created in, or
/// the source of a copy). Outside a write it does nothing.
pub fn created(path: &str) {
    let _ = CREATED.try_with(|c| *c.borrow_mut() = Some(path.to_string()));
}

/// Runs a write's body where [`created`] is heard; with the path it named, if any.
pub(crate) async fn naming_created<T>(f: impl Future<Output = T>) -> (T, Option<String>) {
    CREATED
        .scope(std::cell::RefCell::new(None), async {
            let out = f.await;
            (out, CREATED.with(|c| c.borrow_mut().take()))
        })
        .await
}

/// Appends `change` to the outbox, in the writer's transaction. On PostgreSQL its id comes
/// from `id_sequences`, whose row stays locked until the writer commits: ids become visible
/// in order, never a smaller one after a larger.
pub(crate) async fn record(db: &impl ConnectionTrait, change: &Change<'_>) -> Result<(), DbErr> {
    let backend = db.get_database_backend();
    let sql = match backend {
        DbBackend::Postgres => {
            "WITH n AS (UPDATE id_sequences SET next_id = next_id + 1 WHERE name = 'events' \
             RETURNING next_id - 1 AS id) \
             INSERT INTO events (id, at, user_id, operation, resource) \
             SELECT id, ?, ?, ?, ? FROM n"
        }
        _ => "INSERT INTO events (at, user_id, operation, resource) VALUES (?, ?, ?, ?)",
    };
    let values: [Value; 4] = [
        now().into(),
        change.user_id.into(),
        change.operation.into(),
        change.resource.into(),
    ];
    db.execute_raw(stmt(backend, sql, values)).await?;
    Ok(())
}

/// The id of the last committed change (0 before any).
pub async fn generation(db: &impl ConnectionTrait) -> Result<u64, DbErr> {
    let row = db
        .query_one_raw(stmt(
            db.get_database_backend(),
            "SELECT COALESCE(MAX(id), 0) FROM events",
            [],
        ))
        .await?;
    let n: i64 = match row {
        Some(r) => r.try_get_by_index(0)?,
        None => 0,
    };
    Ok(n.max(0) as u64)
}

/// Up to `limit` events after `after`, oldest first; with the id of the oldest event kept
/// (older ones were pruned), when any is.
pub async fn since(
    db: &impl ConnectionTrait,
    after: i64,
    limit: u64,
) -> Result<(Vec<event::Model>, Option<i64>), DbErr> {
    let events = event::Entity::find()
        .filter(event::Column::Id.gt(after))
        .order_by_asc(event::Column::Id)
        .limit(limit)
        .all(db)
        .await?;
    let oldest = event::Entity::find()
        .order_by_asc(event::Column::Id)
        .one(db)
        .await?
        .map(|e| e.id);
    Ok((events, oldest))
}

/// Drops all but the last `keep` events (the last one always stays: it is the generation);
/// how many went.
pub async fn prune(db: &impl ConnectionTrait, keep: u64) -> Result<u64, DbErr> {
    crate::sql::exec(
        db,
        "DELETE FROM events WHERE id <= (SELECT COALESCE(MAX(id), 0) FROM events) - ?",
        [(keep.max(1) as i64).into()],
    )
    .await
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}
