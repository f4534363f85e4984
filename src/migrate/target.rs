//! cairn's database as a migration writes it, inside its one transaction: whether it is still
//! as installed, clearing the clean-install rows, the bulk load's indexes and constraints
//! (dropped before it, made again after it), rows inserted many per statement (a failing
//! batch is tried row by row to name the row and why), and the ids that continue after the
//! highest migrated one.

use super::source::Described;
use anyhow::{Result, anyhow};
use cairn_store::Tx;
use cairn_store::sql::stmt;
use sea_orm::{ConnectionTrait, DbBackend, Value};
use std::collections::BTreeMap;

/// cairn's tables a migration fills, children before their parents (the order they are
/// cleared in; they are filled the other way round).
pub const TABLES: &[&str] = &[
    "content_text",
    "user_sessions",
    "bookmarks",
    "role_assignments",
    "policy_limitations",
    "policies",
    "roles",
    "url_wildcards",
    "url_aliases",
    "trash",
    "pending_locations",
    "locations",
    "content_object_states",
    "content_relations",
    "content_fields",
    "content_versions",
    "contents",
    "users",
    "field_definitions",
    "content_type_group_links",
    "content_types",
    "content_type_groups",
    "object_states",
    "object_state_groups",
    "sections",
    "languages",
];

/// Tables whose `id` is an identity / autoincrement column.
const IDENTITY: &[&str] = &[
    "sections",
    "object_state_groups",
    "object_states",
    "content_type_groups",
    "contents",
    "content_versions",
    "content_relations",
    "locations",
    "url_wildcards",
    "roles",
    "policy_limitations",
    "role_assignments",
];

/// The id sequences (`id_sequences` rows on SQLite, `ids_<name>` on PostgreSQL) and the
/// table whose highest id they continue after.
const SEQUENCES: &[(&str, &str)] = &[
    ("content_types", "content_types"),
    ("field_definitions", "field_definitions"),
    ("content_fields", "content_fields"),
    ("url_aliases", "url_aliases"),
    ("policies", "policies"),
];

/// Indexes that SQLite keeps through the bulk load: the load writes their keys in order
/// (content items by id, each one's fields and relations together), so each row costs an
/// append to the index's last page, paid while the writer waits for the next batch, where
/// building the index after the load reads the whole table again on the writer alone.
const IN_KEY_ORDER: &[&str] = &["content_fields_version", "content_relations_source"];

/// `rows` as a JSON array of objects keyed by `columns`; `None` when a value has no JSON
/// form here.
fn records(columns: &[&str], rows: &[Insert]) -> Option<String> {
    use serde_json::Value as J;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let mut object = serde_json::Map::with_capacity(columns.len());
        for (c, v) in columns.iter().zip(&r.values) {
            let v = match v {
                v if !v.is_some() => J::Null,
                Value::Bool(Some(b)) => J::Bool(*b),
                Value::TinyInt(Some(i)) => (*i).into(),
                Value::SmallInt(Some(i)) => (*i).into(),
                Value::Int(Some(i)) => (*i).into(),
                Value::BigInt(Some(i)) => (*i).into(),
                Value::TinyUnsigned(Some(i)) => (*i).into(),
                Value::SmallUnsigned(Some(i)) => (*i).into(),
                Value::Unsigned(Some(i)) => (*i).into(),
                Value::BigUnsigned(Some(i)) => (*i).into(),
                Value::Float(Some(f)) => serde_json::Number::from_f64(f64::from(*f))?.into(),
                Value::Double(Some(f)) => serde_json::Number::from_f64(*f)?.into(),
                Value::String(Some(s)) => J::String(s.clone()),
                Value::Char(Some(c)) => J::String(c.to_string()),
                _ => return None,
            };
            object.insert((*c).to_string(), v);
        }
        out.push(J::Object(object));
    }
    Some(J::Array(out).to_string())
}

/// What [`Target::unindex`] dropped: the statements that make it again, in order.
#[must_use]
pub struct Unindexed(Vec<String>);

/// One row to insert, with the source row it comes from (for errors).
pub struct Insert {
    pub from: Described,
    pub values: Vec<Value>,
}

/// Rows for one table, converted and not written yet (the writer of a pipeline inserts
/// them).
pub struct Rows {
    pub table: &'static str,
    pub columns: &'static [&'static str],
    pub rows: Vec<Insert>,
}

/// The write side of a migration.
#[derive(Clone, Copy)]
pub struct Target<'a> {
    pub tx: &'a Tx,
    pub backend: DbBackend,
}

impl Target<'_> {
    /// Inserts converted [`Rows`].
    pub async fn insert_rows(&self, rows: Rows) -> Result<()> {
        self.insert(rows.table, rows.columns, rows.rows).await
    }

    /// Runs one statement (`?` placeholders).
    pub async fn exec(&self, sql: &str, values: Vec<Value>) -> Result<u64> {
        Ok(self
            .tx
            .execute_raw(stmt(self.backend, sql, values))
            .await
            .map_err(|e| anyhow!("{e}: {sql}"))?
            .rows_affected())
    }

    /// The first integer of the first row of `sql`.
    pub async fn scalar(&self, sql: &str) -> Result<i64> {
        let row = (self.tx)
            .query_one_raw(stmt(self.backend, sql, []))
            .await?
            .ok_or_else(|| anyhow!("no row: {sql}"))?;
        Ok(row.try_get_by_index::<Option<i64>>(0)?.unwrap_or(0))
    }

    /// The first column of every row of `sql`.
    pub async fn ids(&self, sql: &str) -> Result<Vec<i64>> {
        Ok(cairn_store::sql::ids(self.tx, sql, []).await?)
    }

    /// Inserts `rows` into `table` (`columns`), many rows per statement: on PostgreSQL
    /// thousands at once, as one JSON parameter read by `json_populate_recordset` (one round
    /// trip, where a statement's parameters would hold 500 rows at most). A batch the
    /// database refuses is inserted again row by row (each behind a savepoint) to name the
    /// source row that fails and the database's reason.
    pub async fn insert(&self, table: &str, columns: &[&str], rows: Vec<Insert>) -> Result<()> {
        let postgres = self.backend == DbBackend::Postgres;
        let per = if postgres {
            5000
        } else {
            (30_000 / columns.len().max(1)).clamp(1, 500)
        };
        let listed = columns.join(", ");
        for chunk in rows.chunks(per) {
            let one = format!("({})", vec!["?"; columns.len()].join(", "));
            let (sql, values) = match postgres.then(|| records(columns, chunk)).flatten() {
                Some(json) => (
                    format!(
                        "INSERT INTO {table} ({listed}) SELECT {listed} \
                         FROM json_populate_recordset(NULL::{table}, CAST(? AS json))"
                    ),
                    vec![Value::from(json)],
                ),
                None => (
                    format!(
                        "INSERT INTO {table} ({listed}) VALUES {}",
                        vec![one.as_str(); chunk.len()].join(", ")
                    ),
                    chunk.iter().flat_map(|r| r.values.clone()).collect(),
                ),
            };
            self.exec("SAVEPOINT migrate_batch", vec![]).await?;
            let failed = self.exec(&sql, values).await.err();
            let Some(failed) = failed else {
                self.exec("RELEASE SAVEPOINT migrate_batch", vec![]).await?;
                continue;
            };
            self.exec("ROLLBACK TO SAVEPOINT migrate_batch", vec![])
                .await?;
            let sql = format!("INSERT INTO {table} ({listed}) VALUES {one}");
            for r in chunk {
                self.exec("SAVEPOINT migrate_row", vec![]).await?;
                if let Err(e) = self.exec(&sql, r.values.clone()).await {
                    self.exec("ROLLBACK TO SAVEPOINT migrate_row", vec![])
                        .await?;
                    let why = e.to_string();
                    let why = why.split(": INSERT").next().unwrap_or(&why).to_string();
                    return Err(anyhow!("{} cannot be written to {table}: {why}", r.from));
                }
                self.exec("RELEASE SAVEPOINT migrate_row", vec![]).await?;
            }
            return Err(anyhow!(
                "a batch of {table} failed ({failed}), but none of its rows alone"
            ));
        }
        Ok(())
    }

    /// Writes the full-text documents of content items (id → its words), as the index's
    /// catch-up does (`full_text::index`): FTS5 rows keyed by content id on SQLite, `simple`
    /// configuration `tsvector`s on PostgreSQL, thousands per statement.
    pub async fn documents(&self, docs: BTreeMap<i64, String>) -> Result<()> {
        let docs: Vec<(i64, String)> = docs.into_iter().collect();
        if self.backend != DbBackend::Postgres {
            let rows = (docs.into_iter())
                .map(|(id, doc)| Insert {
                    from: Described::document(id),
                    values: vec![id.into(), doc.into()],
                })
                .collect();
            return self.insert("content_text", &["rowid", "body"], rows).await;
        }
        for chunk in docs.chunks(5000) {
            let json = serde_json::Value::Array(
                (chunk.iter())
                    .map(|(id, doc)| serde_json::json!({"id": id, "doc": doc}))
                    .collect(),
            );
            self.exec(
                "INSERT INTO content_text (content_id, body) \
                 SELECT id, to_tsvector('simple', doc) \
                 FROM json_to_recordset(CAST(? AS json)) AS d(id bigint, doc text)",
                vec![json.to_string().into()],
            )
            .await?;
        }
        Ok(())
    }

    /// Why the repository is not as installed (`None`: it is): any change recorded since
    /// its install, or content beyond the clean install's.
    pub async fn written_since_install(&self) -> Result<Option<String>> {
        let events = self.scalar("SELECT COUNT(*) FROM events").await?;
        if events > 0 {
            return Ok(Some(format!(
                "{events} changes were made since its install"
            )));
        }
        let contents = self
            .scalar("SELECT COUNT(*) FROM contents WHERE id > 51")
            .await?;
        if contents > 0 {
            return Ok(Some(format!(
                "it holds {contents} content items beyond the clean install's"
            )));
        }
        Ok(None)
    }

    /// Removes every row of the repository (the clean install's, or what `--replace` replaces).
    pub async fn clear(&self) -> Result<()> {
        for t in TABLES {
            self.exec(&format!("DELETE FROM {t}"), vec![]).await?;
        }
        Ok(())
    }

    /// Drops the indexes of the tables a migration fills that no insert needs: every one that
    /// is not unique (unique ones stay, so that a duplicate is found at its row and named)
    /// but those SQLite fills in key order ([`IN_KEY_ORDER`]),
    /// and on PostgreSQL the foreign keys too (checked by a trigger per row there). Made
    /// again at the end by [`Target::reindex`], in the same transaction: one sort of each
    /// index, one check of each key, instead of a B-tree insert and a lookup per row. A
    /// failure rolls the drops back with the rest.
    pub async fn unindex(&self) -> Result<Unindexed> {
        let tables = TABLES
            .iter()
            .map(|t| format!("'{t}'"))
            .collect::<Vec<_>>()
            .join(", ");
        let (drops, creates) = match self.backend {
            DbBackend::Postgres => {
                let keys = self
                    .texts(&format!(
                        "SELECT c.conrelid::regclass::text, c.conname::text, pg_get_constraintdef(c.oid) \
                         FROM pg_constraint c WHERE c.contype = 'f' \
                         AND c.connamespace = current_schema()::regnamespace \
                         AND c.conrelid::regclass::text IN ({tables}) ORDER BY 1, 2"
                    ))
                    .await?;
                let indexes = self
                    .texts(&format!(
                        "SELECT tablename::text, indexname::text, indexdef FROM pg_indexes \
                         WHERE schemaname = current_schema() AND tablename IN ({tables}) \
                         AND indexdef NOT LIKE 'CREATE UNIQUE %' ORDER BY 1, 2"
                    ))
                    .await?;
                // Indexes first, then the keys (whose checks read the parents' keys only).
                let mut drops = Vec::new();
                let mut creates = Vec::new();
                for [_, name, def] in indexes {
                    drops.push(format!("DROP INDEX \"{name}\""));
                    creates.push(def);
                }
                for [table, name, def] in keys {
                    drops.push(format!("ALTER TABLE {table} DROP CONSTRAINT \"{name}\""));
                    creates.push(format!(
                        "ALTER TABLE {table} ADD CONSTRAINT \"{name}\" {def}"
                    ));
                }
                (drops, creates)
            }
            _ => {
                let indexes = self
                    .texts(&format!(
                        "SELECT tbl_name, name, sql FROM sqlite_master WHERE type = 'index' \
                         AND tbl_name IN ({tables}) AND sql IS NOT NULL \
                         AND sql NOT LIKE 'CREATE UNIQUE %' ORDER BY 1, 2"
                    ))
                    .await?;
                (indexes.into_iter())
                    .filter(|[_, name, _]| !IN_KEY_ORDER.contains(&name.as_str()))
                    .map(|[_, name, def]| (format!("DROP INDEX \"{name}\""), def))
                    .unzip()
            }
        };
        for sql in &drops {
            self.exec(sql, vec![]).await?;
        }
        Ok(Unindexed(creates))
    }

    /// Makes again what [`Target::unindex`] dropped. On SQLite the sorts of the index
    /// builds spill to temporary files meanwhile, not to memory (`temp_store = MEMORY` keeps
    /// them all in memory otherwise: memory would grow with the repository).
    pub async fn reindex(&self, dropped: Unindexed) -> Result<()> {
        let sqlite = self.backend == DbBackend::Sqlite;
        if sqlite {
            self.exec("PRAGMA temp_store = FILE", vec![]).await?;
        }
        let mut made = Ok(());
        for sql in &dropped.0 {
            made = self.exec(sql, vec![]).await.map(|_| ());
            if made.is_err() {
                break;
            }
        }
        if sqlite {
            self.exec("PRAGMA temp_store = MEMORY", vec![]).await?;
        }
        made
    }

    /// The first three text columns of every row of `sql`.
    async fn texts(&self, sql: &str) -> Result<Vec<[String; 3]>> {
        let rows = (self.tx).query_all_raw(stmt(self.backend, sql, [])).await?;
        rows.iter()
            .map(|r| {
                Ok([
                    r.try_get_by_index::<String>(0)?,
                    r.try_get_by_index::<String>(1)?,
                    r.try_get_by_index::<String>(2)?,
                ])
            })
            .collect()
    }

    /// Identities and id sequences continue after the highest id now in their tables.
    pub async fn continue_ids(&self) -> Result<()> {
        for (name, table) in SEQUENCES {
            let next = self
                .scalar(&format!("SELECT COALESCE(MAX(id), 0) + 1 FROM {table}"))
                .await?;
            match self.backend {
                DbBackend::Postgres => {
                    self.exec(
                        &format!("SELECT setval('ids_{name}', {next}, false)"),
                        vec![],
                    )
                    .await?;
                }
                _ => {
                    self.exec(
                        "UPDATE id_sequences SET next_id = ? WHERE name = ? AND next_id < ?",
                        vec![next.into(), (*name).into(), next.into()],
                    )
                    .await?;
                }
            }
        }
        if self.backend == DbBackend::Postgres {
            for t in IDENTITY {
                self.exec(
                    &format!(
                        "SELECT setval(pg_get_serial_sequence('{t}', 'id'), COALESCE((SELECT MAX(id) FROM {t}), 0) + 1, false)"
                    ),
                    vec![],
                )
                .await?;
            }
        }
        Ok(())
    }
}
