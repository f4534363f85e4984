//! Reading and writing a content type's rows: the type, its Field definitions and its group
//! links, for one status (DEFINED or DRAFT). Lists are loaded in three queries, whatever
//! their length.

use crate::error::{Error, Result};
use cairn_store::Connection;
use cairn_store::entity::{content_type, content_type_group_link, field_definition};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, IntoActiveModel, QueryFilter, QueryOrder,
};
use std::collections::HashMap;

/// A content type (or draft) with its Field definitions (by position) and group ids.
#[derive(Debug, Clone)]
pub struct TypeRows {
    pub ty: content_type::Model,
    pub fields: Vec<field_definition::Model>,
    pub groups: Vec<i64>,
}

pub async fn load(db: &impl Connection, id: i64, status: i64) -> Result<Option<TypeRows>> {
    let Some(ty) = content_type::Entity::find_by_id((id, status))
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    Ok(load_many(db, vec![ty]).await?.pop())
}

/// The type or draft `id`, or 404 naming it.
pub async fn find(db: &impl Connection, id: i64, status: i64) -> Result<TypeRows> {
    let what = if status == content_type::DRAFT {
        "ContentTypeDraft"
    } else {
        "ContentType"
    };
    load(db, id, status)
        .await?
        .ok_or_else(|| Error::not_found(what, id))
}

/// Completes types (all of one status) with their Field definitions and groups.
pub async fn load_many(
    db: &impl Connection,
    types: Vec<content_type::Model>,
) -> Result<Vec<TypeRows>> {
    let Some(status) = types.first().map(|t| t.status) else {
        return Ok(Vec::new());
    };
    let ids: Vec<i64> = types.iter().map(|t| t.id).collect();
    let mut fields: HashMap<i64, Vec<field_definition::Model>> = HashMap::new();
    for f in field_definition::Entity::find()
        .filter(field_definition::Column::ContentTypeId.is_in(ids.clone()))
        .filter(field_definition::Column::Status.eq(status))
        .order_by_asc(field_definition::Column::Position)
        .order_by_asc(field_definition::Column::Id)
        .all(db)
        .await?
    {
        fields.entry(f.content_type_id).or_default().push(f);
    }
    let mut groups: HashMap<i64, Vec<i64>> = HashMap::new();
    for l in content_type_group_link::Entity::find()
        .filter(content_type_group_link::Column::ContentTypeId.is_in(ids))
        .filter(content_type_group_link::Column::Status.eq(status))
        .order_by_asc(content_type_group_link::Column::GroupId)
        .all(db)
        .await?
    {
        groups
            .entry(l.content_type_id)
            .or_default()
            .push(l.group_id);
    }
    Ok(types
        .into_iter()
        .map(|ty| TypeRows {
            fields: fields.remove(&ty.id).unwrap_or_default(),
            groups: groups.remove(&ty.id).unwrap_or_default(),
            ty,
        })
        .collect())
}

/// Inserts the type, its Field definitions and group links.
pub async fn insert(db: &impl Connection, rows: &TypeRows) -> Result<()> {
    content_type::Entity::insert(rows.ty.clone().into_active_model())
        .exec_without_returning(db)
        .await?;
    if !rows.fields.is_empty() {
        field_definition::Entity::insert_many(
            rows.fields.iter().cloned().map(|f| f.into_active_model()),
        )
        .exec_without_returning(db)
        .await?;
    }
    if !rows.groups.is_empty() {
        content_type_group_link::Entity::insert_many(rows.groups.iter().map(|&g| {
            content_type_group_link::Model {
                content_type_id: rows.ty.id,
                status: rows.ty.status,
                group_id: g,
            }
            .into_active_model()
        }))
        .exec_without_returning(db)
        .await?;
    }
    Ok(())
}

/// Deletes the type (of one status) with its Field definitions and group links.
pub async fn delete(db: &impl Connection, id: i64, status: i64) -> Result<()> {
    field_definition::Entity::delete_many()
        .filter(field_definition::Column::ContentTypeId.eq(id))
        .filter(field_definition::Column::Status.eq(status))
        .exec(db)
        .await?;
    content_type_group_link::Entity::delete_many()
        .filter(content_type_group_link::Column::ContentTypeId.eq(id))
        .filter(content_type_group_link::Column::Status.eq(status))
        .exec(db)
        .await?;
    content_type::Entity::delete_by_id((id, status))
        .exec(db)
        .await?;
    Ok(())
}

/// Saves changed type metadata.
pub async fn update_type(
    db: &impl Connection,
    ty: content_type::Model,
) -> Result<content_type::Model> {
    let active = ty.into_active_model().reset_all();
    Ok(cairn_store::write::update(db, active).await?)
}

/// Whether another content type than `except` (defined or draft) has `identifier`.
pub async fn identifier_taken(
    db: &impl Connection,
    identifier: &str,
    except: Option<i64>,
) -> Result<bool> {
    let mut q =
        content_type::Entity::find().filter(content_type::Column::Identifier.eq(identifier));
    if let Some(id) = except {
        q = q.filter(content_type::Column::Id.ne(id));
    }
    Ok(q.one(db).await?.is_some())
}

/// The ids of the defined types linked to any of `groups`.
pub async fn defined_in_groups(db: &impl Connection, groups: Vec<i64>) -> Result<Vec<i64>> {
    Ok(content_type_group_link::Entity::find()
        .filter(content_type_group_link::Column::GroupId.is_in(groups))
        .filter(content_type_group_link::Column::Status.eq(content_type::DEFINED))
        .all(db)
        .await?
        .into_iter()
        .map(|l| l.content_type_id)
        .collect())
}
