//! Writing the index: the document of a version, written last in the transaction that
//! publishes, copies or changes it, and caught up at start-up.

use super::words;
use crate::content_rows::TypeInfo;
use crate::error::Result;
use crate::field_set::FieldSet;
use crate::field_types::Definition;
use crate::shared::Shared;
use crate::stored;
use cairn_store::Tx;
use cairn_store::entity::content;
use cairn_store::sql::stmt;
use sea_orm::ConnectionTrait;
use sea_orm::{DbBackend, Value};

/// The longest document kept, in bytes (PostgreSQL refuses a `tsvector` over 1 MB); the words
/// past it are not indexed.
const MAX_DOCUMENT: usize = 256 * 1024;

/// Content items indexed per statement when the index catches up at start-up (each batch is
/// a few statements and a write: on PostgreSQL, their round trips are most of its time).
const BATCH: usize = 1000;

/// A document being made: the words of its fields' search texts, in order, until the
/// longest document kept is reached (the words past it are not indexed).
#[derive(Debug, Default)]
pub(crate) struct Document {
    pub text: String,
    full: bool,
}

impl Document {
    /// Appends the words of `text`.
    pub fn push(&mut self, text: &str) {
        for w in words(text) {
            if self.full || self.text.len() + w.len() + 1 > MAX_DOCUMENT {
                self.full = true;
                return;
            }
            if !self.text.is_empty() {
                self.text.push(' ');
            }
            self.text.push_str(&w);
        }
    }
}

impl Shared {
    /// The document of a version: the search text of its searchable fields, in every language.
    pub(crate) fn document(&self, ty: &TypeInfo, set: &FieldSet) -> String {
        let mut doc = Document::default();
        for e in &set.entries {
            let Some(def) = ty.field(e.definition_id).filter(|d| d.is_searchable) else {
                continue;
            };
            let Some(ft) = self.field_type(&def.field_type) else {
                continue;
            };
            let settings = stored::hash(&def.field_settings);
            let validators = stored::hash(&def.validator_configuration);
            let text = ft.search_text(
                &e.value,
                &Definition {
                    settings: &settings,
                    validators: &validators,
                },
                &e.language,
            );
            doc.push(&text);
        }
        doc.text
    }

    /// Writes the document of content `id` as `tx` ends, replacing the one it had (`replace`;
    /// a first publication has none).
    pub(crate) fn index_text(
        &self,
        tx: &Tx,
        id: i64,
        ty: &TypeInfo,
        set: &FieldSet,
        replace: bool,
    ) {
        store(tx, &[(id, self.document(ty, set))], replace);
    }

    /// Writes the document of `c`'s published version again, from its stored fields.
    pub(crate) async fn reindex_text(&self, tx: &Tx, c: &content::Model) -> Result<()> {
        let ty = self.defined_type(tx, c.content_type_id).await?;
        let rows = crate::content_rows::fields(tx, c.id, c.current_version).await?;
        self.index_text(tx, c.id, &ty, &FieldSet::from_rows(&rows), true);
        Ok(())
    }

    /// Indexes the published content items that have no document yet (after the index is
    /// created, or after a restore from a backup taken without it); returns how many.
    pub async fn catch_up_text(&self) -> Result<usize> {
        let db = self.db.conn();
        let backend = db.get_database_backend();
        let key = match backend {
            DbBackend::Postgres => "content_id",
            _ => "rowid",
        };
        let mut done = 0;
        // Each batch starts after the last one's highest id: the items before it have their
        // document now, and are not looked at again.
        let mut after = i64::MIN;
        loop {
            let ids = cairn_store::sql::ids(
                db,
                &format!(
                    "SELECT c.id FROM contents c WHERE c.status = ? AND c.id > ? AND NOT EXISTS \
                     (SELECT 1 FROM content_text t WHERE t.{key} = c.id) ORDER BY c.id LIMIT {BATCH}"
                ),
                [content::PUBLISHED.into(), after.into()],
            )
            .await?;
            let Some(last) = ids.last() else {
                return Ok(done);
            };
            after = *last;
            let cs = {
                use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
                content::Entity::find()
                    .filter(content::Column::Id.is_in(ids.clone()))
                    .all(db)
                    .await?
            };
            let pairs: Vec<(i64, i64)> = cs.iter().map(|c| (c.id, c.current_version)).collect();
            let rows = crate::content_rows::version_rows(db, &pairs).await?;
            let mut docs = Vec::with_capacity(cs.len());
            for c in &cs {
                let ty = self.defined_type(db, c.content_type_id).await?;
                let fields = rows.fields.get(&(c.id, c.current_version));
                let set = FieldSet::from_rows(fields.map_or(&[][..], Vec::as_slice));
                docs.push((c.id, self.document(&ty, &set)));
            }
            let change = cairn_store::events::Change::by_server("indexText", "/content/objects");
            self.db
                .write(change, async |tx| {
                    store(tx, &docs, true);
                    Ok::<_, crate::error::Error>(())
                })
                .await?;
            done += ids.len();
        }
    }
}

/// Writes the documents of these content items as `tx` ends, replacing those they have when
/// `replace`.
fn store(tx: &Tx, docs: &[(i64, String)], replace: bool) {
    let backend = tx.get_database_backend();
    for chunk in docs.chunks(BATCH) {
        let mut values: Vec<Value> = Vec::with_capacity(chunk.len() * 2);
        for (id, doc) in chunk {
            values.push((*id).into());
            values.push(doc.clone().into());
        }
        let sql = match backend {
            DbBackend::Postgres => format!(
                "INSERT INTO content_text (content_id, body) VALUES {} \
                 ON CONFLICT (content_id) DO UPDATE SET body = excluded.body",
                vec!["(?, to_tsvector('simple', ?))"; chunk.len()].join(", ")
            ),
            _ => {
                // FTS5 has no upsert: the old documents go first.
                if replace {
                    let ids = chunk.iter().map(|(id, _)| Value::from(*id));
                    let marks = vec!["?"; chunk.len()].join(", ");
                    let sql = format!("DELETE FROM content_text WHERE rowid IN ({marks})");
                    tx.last(stmt(backend, &sql, ids));
                }
                format!(
                    "INSERT INTO content_text (rowid, body) VALUES {}",
                    vec!["(?, ?)"; chunk.len()].join(", ")
                )
            }
        };
        tx.last(stmt(backend, &sql, values));
    }
}

/// Gives the copy `to` the document of `from`, as `tx` ends.
pub(crate) fn copy(tx: &Tx, from: i64, to: i64) {
    let backend = tx.get_database_backend();
    let sql = match backend {
        DbBackend::Postgres => {
            "INSERT INTO content_text (content_id, body) SELECT ?, body FROM content_text \
             WHERE content_id = ?"
        }
        _ => {
            "INSERT INTO content_text (rowid, body) SELECT ?, body FROM content_text WHERE rowid = ?"
        }
    };
    tx.last(stmt(backend, sql, [to.into(), from.into()]));
}
