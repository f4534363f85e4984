//! Raw SQL written once for both backends: `?` placeholders, rewritten to `$1, $2, ...` for
//! PostgreSQL. For the statements the query builder cannot say well (set operations on the
//! tree of Locations, counters).

use crate::Connection;
use crate::direct::FromRow;
use sea_orm::{ConnectionTrait, DbBackend, DbErr, Statement, Value};

/// A statement for `backend` from SQL with `?` placeholders (none inside string literals).
pub fn stmt(backend: DbBackend, sql: &str, values: impl IntoIterator<Item = Value>) -> Statement {
    Statement::from_sql_and_values(backend, placeholders(backend, sql), values)
}

/// SQL with `?` placeholders as `backend` takes them: `$1, $2, ...` for PostgreSQL.
pub fn placeholders(backend: DbBackend, sql: &str) -> String {
    match backend {
        DbBackend::Postgres => {
            let mut out = String::with_capacity(sql.len() + 8);
            let mut n = 0;
            for c in sql.chars() {
                if c == '?' {
                    n += 1;
                    out.push('$');
                    out.push_str(&n.to_string());
                } else {
                    out.push(c);
                }
            }
            out
        }
        _ => sql.to_string(),
    }
}

/// Runs a raw statement (`?` placeholders); the number of rows it touched. It reads no rows,
/// so it takes any of sea-orm's connections (the migrations' too).
pub async fn exec(
    db: &impl ConnectionTrait,
    sql: &str,
    values: impl IntoIterator<Item = Value>,
) -> Result<u64, DbErr> {
    Ok(db
        .execute_raw(stmt(db.get_database_backend(), sql, values))
        .await?
        .rows_affected())
}

/// The first column of every row of a raw `SELECT <id> ...` (`?` placeholders).
pub async fn ids(
    db: &impl Connection,
    sql: &str,
    values: impl IntoIterator<Item = Value>,
) -> Result<Vec<i64>, DbErr> {
    let rows = db
        .query_all_raw(stmt(db.get_database_backend(), sql, values))
        .await?;
    Ok(rows
        .iter()
        .filter_map(|r| r.try_get_by_index::<i64>(0).ok())
        .collect())
}

pub use crate::direct::models;

/// The first row of `s`, as `M` (`s` says how many rows it reads).
pub async fn model<M: FromRow + sea_orm::FromQueryResult>(
    db: &impl Connection,
    s: Statement,
) -> Result<Option<M>, DbErr> {
    Ok(models(db, s).await?.into_iter().next())
}

/// `alias."column" AS "<pre>column"` for every column of `E`, comma-separated: one of several
/// models in a row of a join, read back by sea-orm's prefix or [`crate::direct::prefixed`].
pub fn columns_as<E: sea_orm::EntityTrait>(alias: &str, pre: &str) -> String {
    use sea_orm::{IdenStatic, Iterable};
    let columns: Vec<String> = (E::Column::iter())
        .map(|c| format!("{alias}.\"{0}\" AS \"{pre}{0}\"", c.as_str()))
        .collect();
    columns.join(", ")
}

/// Serialises writers that check-then-insert under the same `key` (a uniqueness rule the
/// schema cannot express) until the transaction ends. SQLite writers are serialised already.
pub async fn lock(db: &impl Connection, key: &str) -> Result<(), DbErr> {
    advisory(db, "SELECT pg_advisory_xact_lock(hashtext(?))", key).await?;
    held(key);
    Ok(())
}

/// [`lock`] shared: writers holding `key` shared run side by side, and wait for (and hold
/// off) those that take it alone. A transaction that takes a key alone must do so before it
/// takes it shared, or two such transactions wait for each other. Inside a write (on its
/// transaction), a key the write holds already is not asked for again.
pub async fn lock_shared(db: &impl Connection, key: &str) -> Result<(), DbErr> {
    lock_shared_all(db, &[key]).await
}

/// [`lock_shared`] on each of `keys`, in order, in one statement.
pub async fn lock_shared_all(db: &impl Connection, keys: &[&str]) -> Result<(), DbErr> {
    if db.get_database_backend() != DbBackend::Postgres {
        return Ok(());
    }
    let wanted: Vec<&str> = (keys.iter().copied()).filter(|k| !is_held(k)).collect();
    if wanted.is_empty() {
        return Ok(());
    }
    let calls = vec!["pg_advisory_xact_lock_shared(hashtext(?))"; wanted.len()];
    let sql = format!("SELECT {}", calls.join(", "));
    let values = wanted.iter().map(|k| Value::from(*k));
    db.execute_raw(stmt(DbBackend::Postgres, &sql, values))
        .await?;
    wanted.into_iter().for_each(held);
    Ok(())
}

/// Whether the running write holds the advisory lock `key` (false outside a write).
fn is_held(key: &str) -> bool {
    (crate::events::NAMED.try_with(|n| n.borrow().held.iter().any(|h| h == key))).unwrap_or(false)
}

/// Notes that the running write's transaction holds `key` (nothing outside a write).
fn held(key: &str) {
    let _ = crate::events::NAMED.try_with(|n| n.borrow_mut().held.push(key.to_owned()));
}

/// Runs the advisory lock statement `sql` on `key` (PostgreSQL only).
async fn advisory(db: &impl Connection, sql: &str, key: &str) -> Result<(), DbErr> {
    if db.get_database_backend() == DbBackend::Postgres {
        db.execute_raw(stmt(DbBackend::Postgres, sql, [key.into()]))
            .await?;
    }
    Ok(())
}

/// Whether `e` is a unique constraint's violation: PostgreSQL's error code, SQLite's message
/// (its errors arrive as text, `sqlite.rs`).
pub fn unique_violation(e: &sea_orm::DbErr) -> bool {
    matches!(
        e.sql_err(),
        Some(sea_orm::SqlErr::UniqueConstraintViolation(_))
    ) || e.to_string().contains("UNIQUE constraint failed")
}

/// A statement whose text is built once per backend, kept in a `static` at its call site:
/// the hot reads' statements (building one names every column and writes the text, which
/// cost as much as running it). `build` makes the query with any values of the right types;
/// each run binds its own values in their place, in the order the query binds them. Only
/// for queries whose text does not depend on their values (no `IN` lists).
pub struct Kept {
    built: [std::sync::OnceLock<Statement>; 2],
}

impl Default for Kept {
    fn default() -> Kept {
        Kept::new()
    }
}

impl Kept {
    pub const fn new() -> Kept {
        Kept {
            built: [const { std::sync::OnceLock::new() }; 2],
        }
    }

    /// The statement for `backend` with `values` bound (the rest, a limit, as built).
    pub fn statement<Q: sea_orm::QueryTrait>(
        &self,
        backend: DbBackend,
        build: impl FnOnce() -> Q,
        values: impl IntoIterator<Item = Value>,
    ) -> Statement {
        let slot = match backend {
            DbBackend::Postgres => 0,
            _ => 1,
        };
        bound(
            self.built[slot].get_or_init(|| for_reuse(build().build(backend))),
            values,
        )
    }

    /// Every row, as `M`.
    pub async fn all<M: FromRow + sea_orm::FromQueryResult, Q: sea_orm::QueryTrait>(
        &self,
        db: &impl Connection,
        build: impl FnOnce() -> Q,
        values: impl IntoIterator<Item = Value>,
    ) -> Result<Vec<M>, DbErr> {
        models(db, self.statement(db.get_database_backend(), build, values)).await
    }

    /// The first row, as `M` (`build` says `.limit(1)`).
    pub async fn one<M: FromRow + sea_orm::FromQueryResult, Q: sea_orm::QueryTrait>(
        &self,
        db: &impl Connection,
        build: impl FnOnce() -> Q,
        values: impl IntoIterator<Item = Value>,
    ) -> Result<Option<M>, DbErr> {
        model(db, self.statement(db.get_database_backend(), build, values)).await
    }
}

/// A statement built to be run many times, as it runs best: on SQLite with its limits written
/// into its text once (`sqlite::limits_fixed`).
fn for_reuse(built: Statement) -> Statement {
    match built.db_backend {
        DbBackend::Sqlite => crate::sqlite::limits_fixed(built),
        _ => built,
    }
}

/// `built` with `values` in place of its first values, in order (the rest as built).
fn bound(built: &Statement, values: impl IntoIterator<Item = Value>) -> Statement {
    let mut s = built.clone();
    if let Some(bound) = s.values.as_mut() {
        for (place, value) in bound.0.iter_mut().zip(values) {
            *place = value;
        }
    }
    s
}

/// The row of `E` whose primary key is `id`: what `E::find_by_id(id).one(db)` reads, by a
/// statement whose text is built once per entity and backend. Loading one row by its key is
/// the commonest statement of every request; building it anew each time (every column named,
/// the text written) cost as much as running it.
pub async fn by_id<E>(db: &impl Connection, id: i64) -> Result<Option<E::Model>, DbErr>
where
    E: sea_orm::EntityTrait,
    E::Model: FromRow,
    <E::PrimaryKey as sea_orm::PrimaryKeyTrait>::ValueType: From<i64>,
{
    use sea_orm::{QuerySelect, QueryTrait};
    let backend = db.get_database_backend();
    let key = (std::any::TypeId::of::<E>(), backend as u8);
    let kept = KEPT.read().ok().and_then(|k| k.get(&key).cloned());
    let built = match kept {
        Some(s) => s,
        None => {
            let built = std::sync::Arc::new(for_reuse(E::find_by_id(0i64).limit(1).build(backend)));
            if let Ok(mut k) = KEPT.write() {
                k.insert(key, built.clone());
            }
            built
        }
    };
    // The key is the first value bound (before the limit).
    model::<E::Model>(db, bound(&built, [id.into()])).await
}

/// The rows of `E` whose primary keys are `ids`: one by [`by_id`]'s kept statement, several
/// (or none) by one `IN` query.
pub async fn by_ids<E>(db: &impl Connection, ids: &[i64]) -> Result<Vec<E::Model>, DbErr>
where
    E: sea_orm::EntityTrait,
    E::Model: FromRow,
    <E::PrimaryKey as sea_orm::PrimaryKeyTrait>::ValueType: From<i64>,
{
    use sea_orm::{ColumnTrait, Iterable, PrimaryKeyToColumn, QueryFilter};
    if let [id] = ids {
        return Ok(by_id::<E>(db, *id).await?.into_iter().collect());
    }
    let key = (E::PrimaryKey::iter().next())
        .ok_or_else(|| DbErr::Custom("an entity without a primary key".into()))?
        .into_column();
    E::find()
        .filter(key.is_in(ids.iter().copied()))
        .all(db)
        .await
}

/// The rows `select` reads, by primary key: the map a list builds to join its rows with
/// the rows they name.
pub async fn keyed<E>(
    db: &impl Connection,
    select: sea_orm::Select<E>,
) -> Result<std::collections::HashMap<i64, E::Model>, DbErr>
where
    E: sea_orm::EntityTrait,
{
    use sea_orm::{Iterable, ModelTrait, PrimaryKeyToColumn, sea_query::ValueType};
    let key = (E::PrimaryKey::iter().next())
        .ok_or_else(|| DbErr::Custom("an entity without a primary key".into()))?
        .into_column();
    select
        .all(db)
        .await?
        .into_iter()
        .map(|m| {
            let id = <i64 as ValueType>::try_from(m.get(key))
                .map_err(|e| DbErr::Type(format!("a primary key that is not an i64: {e}")))?;
            Ok((id, m))
        })
        .collect()
}

type KeptStatements = std::collections::HashMap<(std::any::TypeId, u8), std::sync::Arc<Statement>>;

/// The statements of [`by_id`], by entity and backend.
static KEPT: std::sync::LazyLock<std::sync::RwLock<KeptStatements>> =
    std::sync::LazyLock::new(Default::default);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::{location, section};
    use crate::{Db, DbOptions};
    use sea_orm::EntityTrait;

    #[test]
    fn placeholders_are_numbered_for_postgres() {
        let s = stmt(
            DbBackend::Postgres,
            "UPDATE t SET a = ? WHERE b = ?",
            [1i64.into(), 2i64.into()],
        );
        assert_eq!(s.sql, "UPDATE t SET a = $1 WHERE b = $2");
        let s = stmt(DbBackend::Sqlite, "UPDATE t SET a = ?", [1i64.into()]);
        assert_eq!(s.sql, "UPDATE t SET a = ?");
    }

    async fn sqlite_db(dir: &tempfile::TempDir) -> Db {
        Db::open(&DbOptions {
            url: format!("sqlite://{}", dir.path().join("t.db").display()),
            max_connections: 2,
            statement_timeout: None,
        })
        .await
        .unwrap()
    }

    /// `by_id` reads what `find_by_id(..).one(..)` reads, for each entity its own statement,
    /// whichever key it is asked for after the first.
    #[tokio::test]
    async fn by_id_reads_what_find_by_id_reads() {
        let dir = tempfile::tempdir().unwrap();
        let db = sqlite_db(&dir).await;
        let c = db.conn();
        for id in [2, 5, 43, 999_999] {
            let kept = by_id::<location::Entity>(c, id).await.unwrap();
            let built = location::Entity::find_by_id(id).one(c).await.unwrap();
            assert_eq!(kept, built, "Location {id}");
        }
        assert!(by_id::<location::Entity>(c, 2).await.unwrap().is_some());
        for id in [1, 3, 999] {
            let kept = by_id::<section::Entity>(c, id).await.unwrap();
            let built = section::Entity::find_by_id(id).one(c).await.unwrap();
            assert_eq!(kept, built, "Section {id}");
        }
        assert!(by_id::<section::Entity>(c, 1).await.unwrap().is_some());
        use sea_orm::{ColumnTrait, QueryFilter};
        for ids in [vec![], vec![2], vec![2, 5, 999_999]] {
            let kept = by_ids::<location::Entity>(c, &ids).await.unwrap();
            let built = (location::Entity::find())
                .filter(location::Column::Id.is_in(ids.clone()))
                .all(c)
                .await
                .unwrap();
            assert_eq!(kept, built, "Locations {ids:?}");
        }
    }

    /// A kept statement binds each run's own values: what the query built with them reads.
    #[tokio::test]
    async fn a_kept_statement_reads_what_the_built_query_reads() {
        use sea_orm::{ColumnTrait, QueryFilter, QueryOrder, QuerySelect};
        let dir = tempfile::tempdir().unwrap();
        let db = sqlite_db(&dir).await;
        let c = db.conn();
        let query = |parent: i64, depth: i64| {
            (location::Entity::find())
                .filter(location::Column::ParentId.eq(parent))
                .filter(location::Column::Depth.gte(depth))
                .order_by_asc(location::Column::Id)
        };
        static ALL: Kept = Kept::new();
        static ONE: Kept = Kept::new();
        for (parent, depth) in [(1, 0), (2, 0), (1, 2), (43, 2), (5, 9)] {
            let values = [parent.into(), depth.into()];
            let kept: Vec<location::Model> =
                ALL.all(c, || query(-1, -1), values.clone()).await.unwrap();
            let built = query(parent, depth).all(c).await.unwrap();
            assert_eq!(kept, built, "{parent} {depth}");
            let kept: Option<location::Model> =
                ONE.one(c, || query(-1, -1).limit(1), values).await.unwrap();
            assert_eq!(kept, built.into_iter().next(), "{parent} {depth}");
        }
        assert!(
            !ALL.all::<location::Model, _>(c, || query(-1, -1), [1.into(), 0.into()])
                .await
                .unwrap()
                .is_empty()
        );
    }

    /// Every entity's rows decoded straight from SQLite's (`direct.rs`) are what sea-orm reads
    /// from its own rows, in a read and in a write's transaction.
    #[tokio::test]
    async fn models_read_straight_from_sqlite_are_what_sea_orm_reads() {
        use crate::entity::*;
        use sea_orm::{QueryTrait, TransactionTrait};
        async fn same<E>(db: &impl Connection) -> usize
        where
            E: sea_orm::EntityTrait,
            E::Model: FromRow + PartialEq + std::fmt::Debug,
        {
            let direct: Vec<E::Model> = models(db, E::find().build(db.get_database_backend()))
                .await
                .unwrap();
            let read = E::find().all(db).await.unwrap();
            assert_eq!(direct, read, "{}", std::any::type_name::<E>());
            direct.len()
        }
        async fn all(db: &impl Connection) -> usize {
            same::<bookmark::Entity>(db).await
                + same::<content::Entity>(db).await
                + same::<content_field::Entity>(db).await
                + same::<content_object_state::Entity>(db).await
                + same::<content_relation::Entity>(db).await
                + same::<content_type::Entity>(db).await
                + same::<content_type_group::Entity>(db).await
                + same::<content_type_group_link::Entity>(db).await
                + same::<content_version::Entity>(db).await
                + same::<event::Entity>(db).await
                + same::<field_definition::Entity>(db).await
                + same::<id_sequence::Entity>(db).await
                + same::<language::Entity>(db).await
                + same::<location::Entity>(db).await
                + same::<object_state::Entity>(db).await
                + same::<object_state_group::Entity>(db).await
                + same::<pending_location::Entity>(db).await
                + same::<policy::Entity>(db).await
                + same::<policy_limitation::Entity>(db).await
                + same::<role::Entity>(db).await
                + same::<role_assignment::Entity>(db).await
                + same::<section::Entity>(db).await
                + same::<trash::Entity>(db).await
                + same::<url_alias::Entity>(db).await
                + same::<url_wildcard::Entity>(db).await
                + same::<user::Entity>(db).await
                + same::<user_session::Entity>(db).await
        }
        let dir = tempfile::tempdir().unwrap();
        let db = sqlite_db(&dir).await;
        let n = all(db.conn()).await;
        assert!(n > 150, "{n} rows");
        let tx = db.conn().begin().await.unwrap();
        assert_eq!(all(&tx).await, n);
        tx.rollback().await.unwrap();
    }
}
