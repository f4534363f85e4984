//! A write's transaction (`Db::write`) and what the write says of itself as it goes:
//! the resource it created, the items it touched, the advisory locks it holds and the
//! statements it puts off until its end. The write's body is handed a [`Tx`] and passes it on
//! to whatever it calls; what it named is read back from it when the body returns.

use crate::events::Touched;
use crate::sql::stmt;
use sea_orm::{
    ConnectionTrait, DatabaseTransaction, DbBackend, DbErr, ExecResult, QueryResult, Statement,
    Value,
};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// What a write named of what it did.
#[derive(Default, Debug)]
pub(crate) struct Named {
    /// [`Tx::created`]: the path its event names instead of the request's.
    pub created: Option<String>,
    /// [`Tx::touched`].
    pub touched: Vec<Touched>,
    /// [`Tx::touched_everything`] was said: the event is broad whatever else was named.
    pub everything: bool,
    /// [`Tx::last`]: statements run just before the commit, in order.
    pub last: Vec<Statement>,
    /// The advisory locks its transaction holds ([`Tx::lock`] and kin), by key.
    pub held: Vec<String>,
}

/// A write's transaction, with what the write names. Queries run on it as on the
/// transaction itself (it is a sea-orm connection).
#[derive(Debug)]
pub struct Tx {
    txn: DatabaseTransaction,
    /// SQLite: the transaction `txn` is a part of, whose connection `read::models` reads on
    /// directly.
    sqlite: Option<Arc<crate::sqlite::Transaction>>,
    named: Mutex<Named>,
    /// Statements run on it (the request's count, `Reader`).
    statements: AtomicU64,
}

impl Tx {
    /// A transaction of PostgreSQL's pool, or (`sqlite`) a part of a SQLite transaction.
    pub(crate) fn new(
        txn: DatabaseTransaction,
        sqlite: Option<Arc<crate::sqlite::Transaction>>,
    ) -> Tx {
        Tx {
            txn,
            sqlite,
            named: Mutex::default(),
            statements: AtomicU64::new(0),
        }
    }

    /// Statements run on it so far.
    pub(crate) fn statements(&self) -> u64 {
        self.statements.load(Ordering::Relaxed)
    }

    fn count(&self) {
        self.statements.fetch_add(1, Ordering::Relaxed);
    }

    /// SQLite: the rows of `s` decoded by `decode` (`read::models`); none on PostgreSQL.
    pub(crate) fn decoded(
        &self,
        s: &Statement,
        decode: crate::rows::Decode,
    ) -> Option<Result<Box<dyn std::any::Any + Send>, DbErr>> {
        let t = self.sqlite.as_ref()?;
        self.count();
        Some(t.with(|l| l.decode(s, decode)))
    }

    /// The transaction, to commit or roll back, and what the write named.
    pub(crate) fn into_parts(self) -> (DatabaseTransaction, Named) {
        let named = self.named.into_inner().unwrap_or_else(|e| e.into_inner());
        (self.txn, named)
    }

    /// What the write named so far, taken (the statements it put off, its event's parts).
    pub(crate) fn take_named(&self) -> Named {
        std::mem::take(&mut *self.named())
    }

    /// The transaction itself, for what takes sea-orm's type (the schema manager).
    pub fn transaction(&self) -> &DatabaseTransaction {
        &self.txn
    }

    fn named(&self) -> MutexGuard<'_, Named> {
        // Nothing panics while holding it; a poisoned lock still holds consistent data.
        self.named.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The write's event names `path` (under the API prefix), the resource it created,
    /// instead of the request's path (the collection it was created in, or the source of a
    /// copy).
    pub fn created(&self, path: &str) {
        self.named().created = Some(path.to_owned());
    }

    /// The write changed the representations of `items`. Counted only for a change that is
    /// `narrow` ([`crate::events::Change`]).
    pub fn touched(&self, items: impl IntoIterator<Item = Touched>) {
        self.named().touched.extend(items);
    }

    /// The write may have changed any representation (too many to name): its event is broad
    /// though its operation is narrow.
    pub fn touched_everything(&self) {
        self.named().everything = true;
    }

    /// Runs `s` just before the write commits, after everything else it does: the
    /// statements of SQLite's full-text index. FTS5 keeps the documents written in a
    /// transaction in memory, but a later statement that may need to undo only itself (any
    /// write with `RETURNING`, or a constraint to check) makes it write them out as a new
    /// segment of the index first. Written last, a transaction's documents make one segment,
    /// where a batch of a hundred items written in turn made a hundred.
    pub fn last(&self, s: Statement) {
        self.named().last.push(s);
    }

    /// Serialises writers that check-then-insert under the same `key` (a uniqueness rule
    /// the schema cannot express) until the transaction ends. SQLite writers are serialised
    /// already.
    pub async fn lock(&self, key: &str) -> Result<(), DbErr> {
        if self.get_database_backend() == DbBackend::Postgres {
            let sql = "SELECT pg_advisory_xact_lock(hashtext(?))";
            self.execute_raw(stmt(DbBackend::Postgres, sql, [key.into()]))
                .await?;
            self.named().held.push(key.to_owned());
        }
        Ok(())
    }

    /// [`Tx::lock`] shared: writers holding `key` shared run side by side, and wait for (and
    /// hold off) those that take it alone. A transaction that takes a key alone must do so
    /// before it takes it shared, or two such transactions wait for each other. A key this
    /// write holds already is not asked for again.
    pub async fn lock_shared(&self, key: &str) -> Result<(), DbErr> {
        self.lock_shared_all(&[key]).await
    }

    /// [`Tx::lock_shared`] on each of `keys`, in order, in one statement.
    pub async fn lock_shared_all(&self, keys: &[&str]) -> Result<(), DbErr> {
        if self.get_database_backend() != DbBackend::Postgres {
            return Ok(());
        }
        let wanted: Vec<&str> = {
            let named = self.named();
            (keys.iter().copied())
                .filter(|k| !named.held.iter().any(|h| h == k))
                .collect()
        };
        if wanted.is_empty() {
            return Ok(());
        }
        let calls = vec!["pg_advisory_xact_lock_shared(hashtext(?))"; wanted.len()];
        let sql = format!("SELECT {}", calls.join(", "));
        let values = wanted.iter().map(|k| Value::from(*k));
        self.execute_raw(stmt(DbBackend::Postgres, &sql, values))
            .await?;
        let mut named = self.named();
        named.held.extend(wanted.into_iter().map(str::to_owned));
        Ok(())
    }
}

#[async_trait::async_trait]
impl ConnectionTrait for Tx {
    fn get_database_backend(&self) -> DbBackend {
        self.txn.get_database_backend()
    }

    async fn execute_raw(&self, s: Statement) -> Result<ExecResult, DbErr> {
        self.count();
        self.txn.execute_raw(s).await
    }

    async fn execute_unprepared(&self, sql: &str) -> Result<ExecResult, DbErr> {
        self.count();
        self.txn.execute_unprepared(sql).await
    }

    async fn query_one_raw(&self, s: Statement) -> Result<Option<QueryResult>, DbErr> {
        self.count();
        self.txn.query_one_raw(s).await
    }

    async fn query_all_raw(&self, s: Statement) -> Result<Vec<QueryResult>, DbErr> {
        self.count();
        self.txn.query_all_raw(s).await
    }

    fn support_returning(&self) -> bool {
        self.txn.support_returning()
    }
}

#[cfg(test)]
mod tests {
    use crate::events::{Change, Touched};
    use crate::scratch::CleanDb;
    use sea_orm::{ConnectionTrait, DbErr, Statement};

    /// What a write names is read back from its `Tx`: statements put off run last, in order,
    /// after the body's own; the event names what it created and touched.
    #[tokio::test]
    async fn a_write_names_what_it_did_on_its_tx() {
        let t = CleanDb::new().await;
        let backend = t.db.backend();
        t.db.conn()
            .execute_unprepared("CREATE TABLE put_off (n BIGINT)")
            .await
            .unwrap();
        let change = Change {
            narrow: true,
            ..Change::by_server("test", "/collection")
        };
        t.db.write(change, async |tx| {
            let insert = |n: i64| {
                Statement::from_sql_and_values(
                    backend,
                    crate::sql::placeholders(backend, "INSERT INTO put_off (n) VALUES (?)"),
                    [n.into()],
                )
            };
            tx.last(insert(2));
            tx.last(insert(3));
            tx.execute_raw(insert(1)).await?;
            tx.lock("key").await?;
            tx.lock_shared("key").await?;
            tx.created("/collection/7");
            tx.touched([Touched::Content(7), Touched::Location(9)]);
            Ok::<_, DbErr>(())
        })
        .await
        .unwrap();
        let rows =
            t.db.conn()
                .query_all_raw(Statement::from_string(
                    backend,
                    "SELECT n FROM put_off ORDER BY rowid".replace(
                        "rowid",
                        if backend == sea_orm::DbBackend::Postgres {
                            "ctid"
                        } else {
                            "rowid"
                        },
                    ),
                ))
                .await
                .unwrap();
        let ns: Vec<i64> = rows
            .iter()
            .map(|r| r.try_get_by_index(0).unwrap())
            .collect();
        assert_eq!(ns, [1, 2, 3]);
        let (events, _) = crate::events::since(t.db.conn(), 0, 1000).await.unwrap();
        let last = events.last().unwrap();
        assert_eq!(last.resource, "/collection/7");
        assert_eq!(last.touched.as_deref(), Some("c7 l9"));
    }
}
