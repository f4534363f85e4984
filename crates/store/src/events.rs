//! The outbox of changes (`events`): every write transaction (`Db::write`) ends by
//! appending the [`Change`] it made, so a change and its event commit together or not at all.
//! Event ids grow in commit order; the last one is the repository's generation, which caches
//! compare to know whether anything changed since they rendered (on any instance).

use crate::Connection;
use crate::entity::event;
use crate::sql::stmt;
use sea_orm::{ColumnTrait, Value};
use sea_orm::{DbBackend, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

/// A change, as its event records it.
#[derive(Debug, Clone, Copy)]
pub struct Change<'a> {
    /// What was done: the API operation (`publishVersion`) or the command (`import`).
    pub operation: &'a str,
    /// What it was done to: the request's path under the API prefix.
    pub resource: &'a str,
    /// Who did it; none for a command run on the server.
    pub user_id: Option<i64>,
    /// Whether what the write says it touched ([`Tx::touched`](crate::Tx::touched)) is the
    /// whole of what it changed in the representations caches key by content item and
    /// Location; otherwise (the default) the change may have changed anything.
    pub narrow: bool,
    /// The reader of the request that makes it: its snapshot ends around the write (its
    /// later reads see it), and the write's statements count for it.
    pub reader: Option<&'a crate::Reader>,
}

impl<'a> Change<'a> {
    /// A change the server makes on its own or a command run on it: `operation` done to
    /// `resource`, by no user.
    pub fn by_server(operation: &'a str, resource: &'a str) -> Change<'a> {
        Change {
            operation,
            resource,
            user_id: None,
            narrow: false,
            reader: None,
        }
    }
}

/// A content item or a Location whose own representation a write changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Touched {
    Content(i64),
    Location(i64),
}

impl Touched {
    /// The key caches use: one number for either kind.
    pub fn key(self) -> u64 {
        match self {
            Touched::Content(id) => (id as u64) << 1,
            Touched::Location(id) => ((id as u64) << 1) | 1,
        }
    }

    /// The word the outbox keeps it as, which is also its tag for shared HTTP caches
    /// (`c<id>`, `l<id>`).
    pub fn text(self) -> String {
        match self {
            Touched::Content(id) => format!("c{id}"),
            Touched::Location(id) => format!("l{id}"),
        }
    }

    fn parse(word: &str) -> Option<Touched> {
        let (kind, id) = word.split_at_checked(1)?;
        let id = id.parse().ok()?;
        match kind {
            "c" => Some(Touched::Content(id)),
            "l" => Some(Touched::Location(id)),
            _ => None,
        }
    }
}

/// Appends `change` to the outbox, in the writer's transaction. On PostgreSQL its id comes
/// from `id_sequences`, whose row stays locked until the writer commits: ids become visible
/// in order, never a smaller one after a larger.
pub(crate) async fn record(
    db: &impl Connection,
    change: &Change<'_>,
    touched: &[Touched],
) -> Result<(), DbErr> {
    let backend = db.get_database_backend();
    let sql = match backend {
        DbBackend::Postgres => {
            "WITH n AS (UPDATE id_sequences SET next_id = next_id + 1 WHERE name = 'events' \
             RETURNING next_id - 1 AS id) \
             INSERT INTO events (id, at, user_id, operation, resource, touched) \
             SELECT id, ?, ?, ?, ?, ? FROM n"
        }
        _ => {
            "INSERT INTO events (at, user_id, operation, resource, touched) \
             VALUES (?, ?, ?, ?, ?)"
        }
    };
    let touched = (change.narrow && !touched.is_empty()).then(|| {
        let mut words: Vec<String> = touched.iter().map(|t| t.text()).collect();
        words.sort();
        words.dedup();
        words.join(" ")
    });
    let values: [Value; 5] = [
        now().into(),
        change.user_id.into(),
        change.operation.into(),
        change.resource.into(),
        touched.into(),
    ];
    db.execute_raw(stmt(backend, sql, values)).await?;
    Ok(())
}

/// What the changes after `after` touched, oldest first, at most `limit`: each change's id
/// and the items it touched, none when it may have changed anything.
pub async fn touched_since(
    db: &impl Connection,
    after: u64,
    limit: u64,
) -> Result<Vec<(u64, Option<Vec<Touched>>)>, DbErr> {
    let rows = db
        .query_all_raw(stmt(
            db.get_database_backend(),
            "SELECT id, touched FROM events WHERE id > ? ORDER BY id LIMIT ?",
            [(after as i64).into(), (limit as i64).into()],
        ))
        .await?;
    rows.iter()
        .map(|r| {
            let id: i64 = r.try_get_by_index(0)?;
            let touched: Option<String> = r.try_get_by_index(1)?;
            // A word that does not read back is taken as "anything".
            let touched = touched.and_then(|t| t.split(' ').map(Touched::parse).collect());
            Ok((id.max(0) as u64, touched))
        })
        .collect()
}

/// A change not yet purged from a shared HTTP cache: its id, when it committed (Unix
/// seconds) and what it touched (none: anything).
#[derive(Debug, Clone)]
pub struct Pending {
    pub id: u64,
    pub at: i64,
    pub touched: Option<Vec<Touched>>,
}

/// The changes after `after`, oldest first, at most `limit`, as a purge needs them.
pub async fn pending_since(
    db: &impl Connection,
    after: u64,
    limit: u64,
) -> Result<Vec<Pending>, DbErr> {
    let rows = db
        .query_all_raw(stmt(
            db.get_database_backend(),
            "SELECT id, at, touched FROM events WHERE id > ? ORDER BY id LIMIT ?",
            [(after as i64).into(), (limit as i64).into()],
        ))
        .await?;
    rows.iter()
        .map(|r| {
            let id: i64 = r.try_get_by_index(0)?;
            let at: i64 = r.try_get_by_index(1)?;
            let touched: Option<String> = r.try_get_by_index(2)?;
            let touched = touched.and_then(|t| t.split(' ').map(Touched::parse).collect());
            Ok(Pending {
                id: id.max(0) as u64,
                at,
                touched,
            })
        })
        .collect()
}

/// The id of the last committed change (0 before any).
pub async fn generation(db: &impl Connection) -> Result<u64, DbErr> {
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
    db: &impl Connection,
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
pub async fn prune(db: &impl Connection, keep: u64) -> Result<u64, DbErr> {
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
