//! Reading a content item's rows: the item, its versions, a version's fields and relations,
//! and what rendering needs of its content type. Each function is a fixed number of queries.

use crate::error::{Error, Result};
use cairn_store::entity::{
    content, content_field, content_relation, content_type, content_version, field_definition,
};
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};
use std::collections::HashMap;

pub async fn content(db: &impl ConnectionTrait, id: i64) -> Result<content::Model> {
    content::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| Error::not_found("Content", id))
}

pub async fn version(
    db: &impl ConnectionTrait,
    content_id: i64,
    no: i64,
) -> Result<content_version::Model> {
    content_version::Entity::find()
        .filter(content_version::Column::ContentId.eq(content_id))
        .filter(content_version::Column::VersionNo.eq(no))
        .one(db)
        .await?
        .ok_or_else(|| Error::not_found("Version", format!("{content_id}/{no}")))
}

pub async fn versions(
    db: &impl ConnectionTrait,
    content_id: i64,
) -> Result<Vec<content_version::Model>> {
    Ok(content_version::Entity::find()
        .filter(content_version::Column::ContentId.eq(content_id))
        .order_by_asc(content_version::Column::VersionNo)
        .all(db)
        .await?)
}

/// A version's fields in definition order, then language.
pub async fn fields(
    db: &impl ConnectionTrait,
    content_id: i64,
    no: i64,
) -> Result<Vec<content_field::Model>> {
    Ok(content_field::Entity::find()
        .filter(content_field::Column::ContentId.eq(content_id))
        .filter(content_field::Column::VersionNo.eq(no))
        .order_by_asc(content_field::Column::Id)
        .all(db)
        .await?)
}

pub async fn relations(
    db: &impl ConnectionTrait,
    content_id: i64,
    no: i64,
) -> Result<Vec<content_relation::Model>> {
    Ok(content_relation::Entity::find()
        .filter(content_relation::Column::SourceContentId.eq(content_id))
        .filter(content_relation::Column::SourceVersionNo.eq(no))
        .order_by_asc(content_relation::Column::Id)
        .all(db)
        .await?)
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

pub async fn type_info(db: &impl ConnectionTrait, id: i64) -> Result<TypeInfo> {
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

pub async fn version_rows(db: &impl ConnectionTrait, pairs: &[(i64, i64)]) -> Result<VersionRows> {
    let mut out = VersionRows::default();
    for chunk in pairs.chunks(200) {
        use content_field::Column as F;
        use content_relation::Column as R;
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
            out.relations
                .entry((r.source_content_id, r.source_version_no))
                .or_default()
                .push(r);
        }
    }
    Ok(out)
}
