//! Reading a content item's rows: the item, its versions, a version's fields and relations,
//! and what rendering needs of its content type. Each function is a fixed number of queries.

use crate::error::{Error, Result};
use crate::field_types::FieldIds;
use cairn_store::Connection;
use cairn_store::Tx;
use cairn_store::entity::{
    content, content_field, content_relation, content_type, content_version, field_definition,
};
use cairn_store::read::Kept;
use cairn_store::sql::stmt;
use sea_orm::ConnectionTrait;
use sea_orm::{ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use std::collections::HashMap;

pub async fn content(db: &impl Connection, id: i64) -> Result<content::Model> {
    cairn_store::read::by_id::<content::Entity>(db, id)
        .await?
        .ok_or_else(|| Error::not_found("Content", id))
}

/// A content item with one of its versions and its main Location's `path_string`, read
/// together.
pub struct ContentRead {
    pub content: content::Model,
    /// The version asked for; none when the item has no such version.
    pub version: Option<content_version::Model>,
    pub main_path_string: Option<String>,
}

impl cairn_store::rows::FromRow for ContentRead {
    fn from_row<S: AsRef<str>>(
        row: &cairn_store::rows::Row<'_>,
        columns: &[S],
    ) -> cairn_store::rows::RowResult<Self> {
        use cairn_store::rows::{column, prefixed};
        let version_id: Option<i64> = column(row, columns, "v_id")?;
        Ok(ContentRead {
            content: prefixed(row, columns, "c_")?,
            version: match version_id {
                Some(_) => Some(prefixed(row, columns, "v_")?),
                None => None,
            },
            main_path_string: column(row, columns, "main_path_string")?,
        })
    }
}

impl sea_orm::FromQueryResult for ContentRead {
    fn from_query_result(res: &sea_orm::QueryResult, _: &str) -> Result<Self, sea_orm::DbErr> {
        let version_id: Option<i64> = res.try_get("", "v_id")?;
        Ok(ContentRead {
            content: content::Model::from_query_result(res, "c_")?,
            version: match version_id {
                Some(_) => Some(content_version::Model::from_query_result(res, "v_")?),
                None => None,
            },
            main_path_string: res.try_get("", "main_path_string")?,
        })
    }
}

/// Content item `id` with its version `no` (its current version when none) and its main
/// Location's path, in one query: 404 when there is no such item.
pub async fn content_read(db: &impl Connection, id: i64, no: Option<i64>) -> Result<ContentRead> {
    static SQL: [std::sync::OnceLock<String>; 2] = [const { std::sync::OnceLock::new() }; 2];
    let backend = db.get_database_backend();
    let sql = SQL[usize::from(backend == sea_orm::DbBackend::Postgres)].get_or_init(|| {
        use cairn_store::sql::{columns_as, placeholders};
        placeholders(
            backend,
            &format!(
                "SELECT {}, {}, l.path_string AS main_path_string FROM contents c \
                 LEFT JOIN content_versions v \
                 ON v.content_id = c.id AND v.version_no = COALESCE(?, c.current_version) \
                 LEFT JOIN locations l ON l.id = c.main_location_id WHERE c.id = ?",
                columns_as::<content::Entity>("c", "c_"),
                columns_as::<content_version::Entity>("v", "v_"),
            ),
        )
    });
    let s = sea_orm::Statement::from_sql_and_values(backend, sql, [no.into(), id.into()]);
    cairn_store::read::model(db, s)
        .await?
        .ok_or_else(|| Error::not_found("Content", id))
}

pub async fn version(
    db: &impl Connection,
    content_id: i64,
    no: i64,
) -> Result<content_version::Model> {
    (version_row(db, content_id, no).await?)
        .ok_or_else(|| Error::not_found("Version", format!("{content_id}/{no}")))
}

async fn version_row(
    db: &impl Connection,
    content_id: i64,
    no: i64,
) -> Result<Option<content_version::Model>> {
    static KEPT: Kept = Kept::new();
    let build = || {
        (content_version::Entity::find())
            .filter(content_version::Column::ContentId.eq(0))
            .filter(content_version::Column::VersionNo.eq(0))
            .limit(1)
    };
    Ok(KEPT.one(db, build, [content_id.into(), no.into()]).await?)
}

pub async fn versions(
    db: &impl Connection,
    content_id: i64,
) -> Result<Vec<content_version::Model>> {
    static KEPT: Kept = Kept::new();
    let build = || {
        (content_version::Entity::find())
            .filter(content_version::Column::ContentId.eq(0))
            .order_by_asc(content_version::Column::VersionNo)
    };
    Ok(KEPT.all(db, build, [content_id.into()]).await?)
}

/// A version's fields in definition order, then language.
pub async fn fields(
    db: &impl Connection,
    content_id: i64,
    no: i64,
) -> Result<Vec<content_field::Model>> {
    static KEPT: Kept = Kept::new();
    let build = || {
        (content_field::Entity::find())
            .filter(content_field::Column::ContentId.eq(0))
            .filter(content_field::Column::VersionNo.eq(0))
            .order_by_asc(content_field::Column::Id)
    };
    Ok(KEPT.all(db, build, [content_id.into(), no.into()]).await?)
}

/// Inserts Field rows, a hundred per statement (under every database's limit of bound
/// values).
/// Inserts fields, 100 a statement; those with id 0 get a new one, written into `rows` (on
/// PostgreSQL taken from its sequence inside the insert).
pub async fn insert_fields(tx: &Tx, rows: &mut [content_field::Model]) -> Result<()> {
    use content_field::Column as F;
    use sea_orm::sea_query::{Expr, Query, SimpleExpr};
    let backend = tx.get_database_backend();
    let postgres = backend == sea_orm::DbBackend::Postgres;
    let new = rows.iter().filter(|f| f.id == 0).count() as i64;
    if !postgres && new > 0 {
        let ids = cairn_store::ids::next_ids(tx, "content_fields", new).await?;
        for (f, id) in rows.iter_mut().filter(|f| f.id == 0).zip(ids) {
            f.id = id;
        }
    }
    let next_id = cairn_store::ids::next_id_in_statement("content_fields");
    for chunk in rows.chunks_mut(100) {
        let mut insert = Query::insert();
        insert.into_table(content_field::Entity).columns([
            F::Id,
            F::VersionNo,
            F::ContentId,
            F::FieldDefinitionId,
            F::LanguageCode,
            F::Value,
            F::SortKeyString,
            F::SortKeyInt,
        ]);
        for f in chunk.iter() {
            let id: SimpleExpr = match f.id {
                0 => Expr::cust(next_id.clone()),
                id => id.into(),
            };
            insert
                .values([
                    id,
                    f.version_no.into(),
                    f.content_id.into(),
                    f.field_definition_id.into(),
                    f.language_code.clone().into(),
                    f.value.clone().into(),
                    f.sort_key_string.clone().into(),
                    f.sort_key_int.into(),
                ])
                .map_err(|e| Error::Internal(e.to_string()))?;
        }
        if !chunk.iter().any(|f| f.id == 0) {
            tx.execute_raw(backend.build(&insert)).await?;
            continue;
        }
        // The new ids, found by what is unique among a version's fields.
        insert.returning(Query::returning().columns([
            F::Id,
            F::FieldDefinitionId,
            F::LanguageCode,
        ]));
        for row in tx.query_all_raw(backend.build(&insert)).await? {
            let (id, definition, language): (i64, i64, String) = (
                row.try_get_by_index(0)?,
                row.try_get_by_index(1)?,
                row.try_get_by_index(2)?,
            );
            if let Some(f) = chunk.iter_mut().find(|f| {
                f.id == 0 && f.field_definition_id == definition && f.language_code == language
            }) {
                f.id = id;
            }
        }
    }
    Ok(())
}

pub async fn relations(
    db: &impl Connection,
    content_id: i64,
    no: i64,
) -> Result<Vec<content_relation::Model>> {
    static KEPT: Kept = Kept::new();
    let build = || {
        (content_relation::Entity::find())
            .filter(content_relation::Column::SourceContentId.eq(0))
            .filter(content_relation::Column::SourceVersionNo.eq(0))
    };
    let mut rs: Vec<content_relation::Model> =
        KEPT.all(db, build, [content_id.into(), no.into()]).await?;
    in_reference_order(&mut rs);
    Ok(rs)
}

/// Relations in the reference's order: it reads them through its index on (source, version,
/// Field definition), so those of no Field come first, then those of each Field definition
/// by its id, each group by relation id.
fn in_reference_order(rs: &mut [content_relation::Model]) {
    rs.sort_by_key(|r| (r.source_field_definition_id.unwrap_or(0), r.id));
}

/// A content item's (defined) type with its Field definitions by position.
#[derive(Debug, Clone)]
pub struct TypeInfo {
    pub ty: content_type::Model,
    pub fields: Vec<field_definition::Model>,
}

impl TypeInfo {
    pub fn field(&self, id: i64) -> Option<&field_definition::Model> {
        self.fields.iter().find(|f| f.id == id)
    }

    pub fn field_by_identifier(&self, identifier: &str) -> Option<&field_definition::Model> {
        self.fields.iter().find(|f| f.identifier == identifier)
    }
}

pub async fn type_info(db: &impl Connection, id: i64) -> Result<TypeInfo> {
    let ty = content_type::Entity::find_by_id((id, content_type::DEFINED))
        .one(db)
        .await?
        .ok_or_else(|| Error::not_found("ContentType", id))?;
    let fields = field_definition::Entity::find()
        .filter(field_definition::Column::ContentTypeId.eq(id))
        .filter(field_definition::Column::Status.eq(content_type::DEFINED))
        .order_by_asc(field_definition::Column::Position)
        .order_by_asc(field_definition::Column::Id)
        .all(db)
        .await?;
    Ok(TypeInfo { ty, fields })
}

/// `eng-GB,pol-PL` → the codes.
pub fn languages(codes: &str) -> Vec<String> {
    codes
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .collect()
}

/// The condition "`(content, version)` is one of `pairs`".
fn pairs_condition(
    content: impl ColumnTrait,
    version: impl ColumnTrait,
    pairs: &[(i64, i64)],
) -> Condition {
    pairs.iter().fold(Condition::any(), |any, (c, v)| {
        any.add(Condition::all().add(content.eq(*c)).add(version.eq(*v)))
    })
}

/// The rows of many versions at once, by `(content id, version no)`: one query per table
/// for every 200 versions.
#[derive(Default)]
pub struct VersionRows {
    pub versions: HashMap<(i64, i64), content_version::Model>,
    pub fields: HashMap<(i64, i64), Vec<content_field::Model>>,
    pub relations: HashMap<(i64, i64), Vec<content_relation::Model>>,
}

pub async fn version_rows(db: &impl Connection, pairs: &[(i64, i64)]) -> Result<VersionRows> {
    let mut out = VersionRows::default();
    if let [(c, no)] = pairs[..] {
        // One version (the commonest read): the statements kept built.
        let key = (c, no);
        out.versions
            .extend(version_row(db, c, no).await?.map(|v| (key, v)));
        let fields = fields(db, c, no).await?;
        if !fields.is_empty() {
            out.fields.insert(key, fields);
        }
        let relations = relations(db, c, no).await?;
        if !relations.is_empty() {
            out.relations.insert(key, relations);
        }
        return Ok(out);
    }
    for chunk in pairs.chunks(200) {
        use content_field::Column as F;
        use content_version::Column as V;
        for v in content_version::Entity::find()
            .filter(pairs_condition(V::ContentId, V::VersionNo, chunk))
            .all(db)
            .await?
        {
            out.versions.insert((v.content_id, v.version_no), v);
        }
        for f in content_field::Entity::find()
            .filter(pairs_condition(F::ContentId, F::VersionNo, chunk))
            .order_by_asc(F::Id)
            .all(db)
            .await?
        {
            out.fields
                .entry((f.content_id, f.version_no))
                .or_default()
                .push(f);
        }
    }
    out.relations = relations_of_versions(db, pairs).await?;
    Ok(out)
}

/// The relations of many versions at once, by `(content id, version no)`, each version's in
/// the reference's order: one query for every 200 versions.
pub async fn relations_of_versions(
    db: &impl Connection,
    pairs: &[(i64, i64)],
) -> Result<HashMap<(i64, i64), Vec<content_relation::Model>>> {
    use content_relation::Column as R;
    let mut out: HashMap<(i64, i64), Vec<content_relation::Model>> = HashMap::new();
    for chunk in pairs.chunks(200) {
        for r in content_relation::Entity::find()
            .filter(pairs_condition(
                R::SourceContentId,
                R::SourceVersionNo,
                chunk,
            ))
            .order_by_asc(R::Id)
            .all(db)
            .await?
        {
            out.entry((r.source_content_id, r.source_version_no))
                .or_default()
                .push(r);
        }
    }
    out.values_mut().for_each(|rs| in_reference_order(rs));
    Ok(out)
}

/// The `image` Field of the current version (in its main language) of each content item of
/// `ids` that has one, published or not yet (a draft's first version is its current one): the
/// image an `ezimageasset` value's variations name, as the reference's
/// `ImageAssetFieldTypeProcessor` takes it from the target content (`loadContent`).
pub async fn asset_images(db: &impl Connection, ids: &[i64]) -> Result<HashMap<i64, FieldIds>> {
    let mut out = HashMap::new();
    for chunk in ids.chunks(500) {
        let sql = format!(
            "SELECT f.content_id, f.id, f.version_no FROM contents c \
             JOIN content_fields f ON f.content_id = c.id AND f.version_no = c.current_version \
             AND f.language_code = c.main_language_code \
             JOIN field_definitions d ON d.id = f.field_definition_id AND d.status = ? \
             WHERE c.id IN ({}) AND d.identifier = 'image'",
            vec!["?"; chunk.len()].join(", ")
        );
        let mut values: Vec<sea_orm::Value> = vec![content_type::DEFINED.into()];
        values.extend(chunk.iter().map(|id| (*id).into()));
        let rows = db
            .query_all_raw(stmt(db.get_database_backend(), &sql, values))
            .await?;
        for r in rows {
            let (content_id, field_id, version_no): (i64, i64, i64) = (
                r.try_get_by_index(0)?,
                r.try_get_by_index(1)?,
                r.try_get_by_index(2)?,
            );
            out.insert(
                content_id,
                FieldIds {
                    content_id,
                    field_id,
                    version_no,
                },
            );
        }
    }
    Ok(out)
}
