//! Writing a model without reading it back. sea-orm's `ActiveModel::insert` and `update`
//! return the row as the database holds it through `RETURNING` every column. On SQLite that
//! doubles a write's cost (it runs `RETURNING` as a trigger: a statement journal and a table
//! of the rows; after a full-text write in the same transaction, far more), and the row comes
//! back through the proxy's generic rows. Where the active model names every column, the row
//! is what was written: these helpers build the model from it, and only a key the database
//! chose (SQLite's last rowid, or PostgreSQL's `RETURNING` of the key alone) comes back.
//! A model with a column left to the database's default is read back as before.

use crate::Connection;
use sea_orm::{
    ActiveModelBehavior, ActiveModelTrait, DbBackend, DbErr, EntityTrait, IdenStatic,
    IntoActiveModel, Iterable, PrimaryKeyToColumn, PrimaryKeyTrait, QueryTrait, TryFromU64,
    TryIntoModel, Value,
    sea_query::{IntoValueTuple, ValueTuple},
};

type ModelOf<A> = <<A as ActiveModelTrait>::Entity as EntityTrait>::Model;
type KeyOf<A> =
    <<<A as ActiveModelTrait>::Entity as EntityTrait>::PrimaryKey as PrimaryKeyTrait>::ValueType;

/// Inserts `am` and returns the new row.
pub async fn insert<A>(db: &impl Connection, mut am: A) -> Result<ModelOf<A>, DbErr>
where
    A: ActiveModelTrait + ActiveModelBehavior + TryIntoModel<ModelOf<A>> + Send,
    ModelOf<A>: IntoActiveModel<A>,
{
    let keys: Vec<_> = (<A::Entity as EntityTrait>::PrimaryKey::iter())
        .map(|k| k.into_column())
        .collect();
    let is_key =
        |c: &<A::Entity as EntityTrait>::Column| keys.iter().any(|k| k.as_str() == c.as_str());
    let filled = (<A::Entity as EntityTrait>::Column::iter())
        .filter(|c| !is_key(c))
        .all(|c| !am.is_not_set(c));
    if !filled {
        return am.insert(db).await;
    }
    match keys.as_slice() {
        [key] if am.is_not_set(*key) => {
            let insert = <A::Entity as EntityTrait>::insert(am.clone());
            let id: KeyOf<A> = match db.get_database_backend() {
                DbBackend::Sqlite => {
                    let done = db.execute(insert.as_query()).await?;
                    KeyOf::<A>::try_from_u64(done.last_insert_id())?
                }
                _ => insert.exec(db).await?.last_insert_id,
            };
            am.set(*key, single(id.into_value_tuple())?);
        }
        _ => {
            <A::Entity as EntityTrait>::insert(am.clone())
                .exec_without_returning(db)
                .await?;
        }
    }
    am.try_into_model()
}

/// Updates the row of `am` (its key) with its changed columns and returns the row: the
/// columns it does not change as the caller read them. An error when no row has that key; an
/// update that changes nothing runs no statement.
pub async fn update<A>(db: &impl Connection, am: A) -> Result<ModelOf<A>, DbErr>
where
    A: ActiveModelTrait + ActiveModelBehavior + TryIntoModel<ModelOf<A>> + Send,
    ModelOf<A>: IntoActiveModel<A>,
{
    let known = (<A::Entity as EntityTrait>::Column::iter()).all(|c| !am.is_not_set(c));
    if !known {
        return am.update(db).await;
    }
    <A::Entity as EntityTrait>::update(am.clone())
        .validate()?
        .exec_without_returning(db)
        .await?;
    am.try_into_model()
}

/// Runs `first` (an update with its own filter), then [`update`] of `b` only when `first`
/// changed a row: an error otherwise, and nothing written. On PostgreSQL one statement
/// (`first` in a `WITH`).
pub async fn update_after<E, B>(
    db: &impl Connection,
    first: sea_orm::UpdateMany<E>,
    b: B,
) -> Result<ModelOf<B>, DbErr>
where
    E: EntityTrait,
    B: ActiveModelTrait + ActiveModelBehavior + TryIntoModel<ModelOf<B>> + Send,
    ModelOf<B>: IntoActiveModel<B>,
{
    use sea_orm::sea_query::{CommonTableExpression, Expr, Query, WithClause};
    let known = (<B::Entity as EntityTrait>::Column::iter()).all(|c| !b.is_not_set(c));
    if db.get_database_backend() != DbBackend::Postgres || !known || !b.is_changed() {
        if first.exec(db).await?.rows_affected == 0 {
            return Err(DbErr::RecordNotUpdated);
        }
        return update(db, b).await;
    }
    let mut first = first.into_query();
    first.returning(Query::returning().expr(Expr::val(1)));
    let mut second = <B::Entity as EntityTrait>::update(b.clone())
        .validate()?
        .into_query();
    second.and_where(Expr::exists(
        Query::select()
            .expr(Expr::val(1))
            .from("first_updated")
            .to_owned(),
    ));
    let cte = CommonTableExpression::new()
        .query(first)
        .table_name("first_updated")
        .to_owned();
    let both = second.with(WithClause::new().cte(cte).to_owned());
    let done = db.execute_raw(DbBackend::Postgres.build(&both)).await?;
    if done.rows_affected() == 0 {
        return Err(DbErr::RecordNotUpdated);
    }
    b.try_into_model()
}

fn single(t: ValueTuple) -> Result<Value, DbErr> {
    match t {
        ValueTuple::One(v) => Ok(v),
        _ => Err(DbErr::Custom(
            "a key of one column gave several values".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::{content, content_relation, section, url_alias};
    use crate::events::Change;
    use crate::scratch::CleanDb;
    use sea_orm::ActiveValue::{NotSet, Set, Unchanged};
    use sea_orm::{ColumnTrait, QueryFilter};

    /// A row updated after another is written only when the other was: by its filter.
    async fn after(db: &impl Connection) -> Result<(), DbErr> {
        let sections = section::Entity::find().all(db).await?;
        let (s, other) = (sections[0].clone(), sections[1].clone());
        let rename = |m: &section::Model, name: &str| {
            let mut a = m.clone().into_active_model();
            a.name = Set(name.into());
            a
        };
        let first = |name: &str| {
            section::Entity::update_many()
                .set(rename(&s, "First"))
                .filter(section::Column::Id.eq(s.id))
                .filter(section::Column::Name.eq(name))
        };
        let b = update_after(db, first(&s.name), rename(&other, "Second")).await?;
        assert_eq!(b.name, "Second");
        let held = section::Entity::find_by_id(s.id).one(db).await?;
        assert_eq!(held.map(|h| h.name), Some("First".to_string()));
        assert_eq!(
            section::Entity::find_by_id(other.id).one(db).await?,
            Some(b.clone())
        );
        // The first's filter finds no row now (its name changed): the second is not written.
        assert!(matches!(
            update_after(db, first(&s.name), rename(&other, "Not written")).await,
            Err(DbErr::RecordNotUpdated)
        ));
        assert_eq!(
            section::Entity::find_by_id(other.id).one(db).await?,
            Some(b)
        );
        Ok(())
    }

    /// What each helper returns is the row the database holds: with a key the database chose,
    /// a key given, a column left to the database, and after an update; on the pool and in a
    /// write's transaction.
    #[tokio::test]
    async fn models_written_are_the_rows_the_database_holds() {
        async fn check(db: &impl Connection) -> Result<(), DbErr> {
            let s = section::ActiveModel {
                identifier: Set("written".into()),
                name: Set("Written".into()),
                ..Default::default()
            };
            let s = insert(db, s).await?;
            assert!(s.id > 0);
            let held = section::Entity::find_by_id(s.id).one(db).await?;
            assert_eq!(held.as_ref(), Some(&s));

            let a = url_alias::ActiveModel {
                parent: Set(s.id),
                text_md5: Set("d41d8cd98f00b204e9800998ecf8427e".into()),
                id: Set(7),
                link: Set(7),
                text: Set("written".into()),
                action: Set("nop:".into()),
                lang_mask: Set(2),
                always_available: Set(true),
                is_original: Set(false),
                is_alias: Set(false),
                alias_redirects: Set(true),
            };
            let a = insert(db, a).await?;
            let key = (a.parent, a.text_md5.clone());
            assert_eq!(url_alias::Entity::find_by_id(key).one(db).await?, Some(a));

            // The Field definition is left to the database (null): read back.
            let c = content::Entity::find()
                .one(db)
                .await?
                .expect("a content item");
            let r = content_relation::ActiveModel {
                source_content_id: Set(c.id),
                source_version_no: Set(1),
                destination_content_id: Set(c.id),
                relation_type: Set(1),
                source_field_definition_id: NotSet,
                ..Default::default()
            };
            let r = insert(db, r).await?;
            assert_eq!(r.source_field_definition_id, None);
            let held = content_relation::Entity::find_by_id(r.id).one(db).await?;
            assert_eq!(held, Some(r));

            let mut changed = s.clone().into_active_model();
            changed.name = Set("Changed".into());
            let u = update(db, changed).await?;
            assert_eq!(u.name, "Changed");
            assert_eq!(section::Entity::find_by_id(s.id).one(db).await?, Some(u));

            let mut gone = s.into_active_model();
            gone.id = Unchanged(i64::MAX);
            gone.name = Set("Gone".into());
            assert!(matches!(
                update(db, gone).await,
                Err(DbErr::RecordNotUpdated)
            ));
            Ok(())
        }
        let t = CleanDb::new().await;
        check(t.db.conn()).await.unwrap();
        after(t.db.conn()).await.unwrap();
        let change = Change::by_server("test", "/");
        t.db.write(change, async |tx| {
            section::Entity::delete_many().exec(tx).await?;
            url_alias::Entity::delete_many().exec(tx).await?;
            check(tx).await
        })
        .await
        .unwrap();
    }
}
