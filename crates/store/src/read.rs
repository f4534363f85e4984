//! Reading whole models ([`by_id`], [`Kept`], [`models`]), straight from SQLite's rows. Through sea-orm's proxy every row is first a map of each value
//! under its column's name (and its position), which sea-orm then reads back a value at a time,
//! cloning each: for an uncached Content read that was a sixth of the server's time, more than
//! SQLite's own stepping (`crates/bench/README.md`, "Models straight from SQLite's rows").
//!
//! On SQLite, [`models`] on a request's [`Reader`](crate::Reader) runs on the reader's
//! connection (in the request's read transaction, `sqlite::snapshot`) directly, and on a
//! write's [`Tx`](crate::Tx) on the transaction's: sea-orm's connection would box and move
//! futures of kilobytes for each statement, a tenth of an uncached Location read. On any other
//! connection (sea-orm's own) and on PostgreSQL the rows are read as sea-orm reads them. A
//! model is declared with [`from_row!`](crate::from_row) (`rows.rs`).

use crate::Connection;
use crate::rows::{FromRow, decode_all};
use sea_orm::{DbBackend, DbErr, FromQueryResult, Statement, Value};
use std::any::Any;

/// Every row of `s`, as `M`: on SQLite, through a [`Reader`](crate::Reader) or a
/// [`Tx`](crate::Tx), decoded straight from its rows, or else read from sea-orm's.
pub async fn models<M: FromRow + FromQueryResult>(
    db: &impl Connection,
    s: Statement,
) -> Result<Vec<M>, DbErr> {
    let db_any = db as &dyn Any;
    let direct = if let Some(reader) = db_any.downcast_ref::<crate::Reader>() {
        reader.decoded(&s, decode_all::<M>).await
    } else if let Some(tx) = db_any.downcast_ref::<crate::Tx>() {
        tx.decoded(&s, decode_all::<M>)
    } else {
        None
    };
    match direct {
        Some(out) => out.and_then(downcast),
        None => {
            let rows = db.query_all_raw(s).await?;
            rows.iter().map(|r| M::from_query_result(r, "")).collect()
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Reads [`models`] ran on a request's reader with a snapshot, on this thread (tests).
    pub(crate) static SHARED_READS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn downcast<M: 'static>(out: Box<dyn Any + Send>) -> Result<Vec<M>, DbErr> {
    (out.downcast::<Vec<M>>())
        .map(|out| *out)
        .map_err(|_| DbErr::Custom("rows decoded as another type".into()))
}

/// The first row of `s`, as `M` (`s` says how many rows it reads).
pub async fn model<M: FromRow + sea_orm::FromQueryResult>(
    db: &impl Connection,
    s: Statement,
) -> Result<Option<M>, DbErr> {
    Ok(models(db, s).await?.into_iter().next())
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

    /// Every entity's rows decoded straight from SQLite's are what sea-orm reads from its
    /// own rows, on a reader and in a write's transaction.
    #[tokio::test]
    async fn models_read_straight_from_sqlite_are_what_sea_orm_reads() {
        use crate::entity::*;
        use sea_orm::QueryTrait;
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
        let n = all(&db.reader()).await;
        assert!(n > 150, "{n} rows");
        assert_eq!(all(db.conn()).await, n);
        let in_tx = db.write_untracked(async |tx| Ok::<_, DbErr>(all(tx).await));
        assert_eq!(in_tx.await.unwrap(), n);
    }
}
