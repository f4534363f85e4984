//! Reading a content item's rows: the item, its versions, a version's fields and relations,
//! and what rendering needs of its content type. Each function is a fixed number of queries.

use crate::error::{Error, Result};
use cairn_store::entity::{
    content, content_field, content_relation, content_type, content_version, field_definition,
};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

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
