//! Content type groups, content types and their drafts, Field definitions (spec 2.12, 3.2,
//! 4.8, 4.9).
//!
//! A content type is DEFINED or has a DRAFT with the same id; a draft is changed (metadata
//! by PATCH, Field definitions one by one) and then published over the defined type.

mod input;
mod render;
mod rows;

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::ContentTypesApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::preconditions;
use crate::service::Service;
use crate::stored;
use cairn_runtime::{ETag, LangMap, Limit, Timestamp};
use cairn_store::entity::{
    content_type, content_type_group, content_type_group_link, field_definition,
};
use cairn_store::ids::next_id;
use cairn_store::sql::lock;
use input::check_identifier;
pub(crate) use input::check_sort;
use render::{group, group_refs};
use rows::TypeRows;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel,
    PaginatorTrait, QueryFilter, QueryOrder,
};
use std::collections::HashSet;

const DEFINED: i32 = content_type::DEFINED;
const DRAFT: i32 = content_type::DRAFT;

async fn find_group(db: &impl ConnectionTrait, id: i64) -> Result<content_type_group::Model> {
    content_type_group::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| Error::not_found("ContentTypeGroup", id))
}

/// Field definitions of one draft must have distinct identifiers, and a singular field type
/// appears at most once; `conflict` builds the error (400 in a ContentTypeCreate, 403 when a
/// Field definition is added to a draft).
fn check_fields(
    service: &Service,
    fields: &[field_definition::Model],
    conflict: fn(String) -> Error,
) -> Result<()> {
    let mut seen = HashSet::new();
    let mut singular = HashSet::new();
    for f in fields {
        if !seen.insert(f.identifier.as_str()) {
            return Err(conflict(format!(
                "A Field definition with identifier '{}' already exists in this content type",
                f.identifier
            )));
        }
        if service
            .field_type(&f.field_type)
            .is_some_and(|t| t.is_singular())
            && !singular.insert(f.field_type.as_str())
        {
            return Err(conflict(format!(
                "A content type can hold only one Field definition of type '{}'",
                service.field_types.identifier(&f.field_type)
            )));
        }
    }
    Ok(())
}

impl Service {
    /// The types (defined) of these ids, in the order given.
    async fn defined_types(
        &self,
        db: &impl ConnectionTrait,
        types: Vec<content_type::Model>,
    ) -> Result<Vec<TypeRows>> {
        rows::load_many(db, types).await
    }

    /// Publishes the draft `id` over its defined type (one transaction's part).
    async fn publish_draft(&self, tx: &impl ConnectionTrait, id: i64) -> Result<TypeRows> {
        let draft = rows::find(tx, id, DRAFT).await?;
        if draft.fields.is_empty() {
            return Err(Error::Forbidden(format!(
                "Content type draft {id} has no Field definition and cannot be published"
            )));
        }
        if rows::identifier_taken(tx, &draft.ty.identifier, Some(id)).await? {
            return Err(Error::Forbidden(format!(
                "Another content type has the identifier '{}'",
                draft.ty.identifier
            )));
        }
        rows::delete(tx, id, DEFINED).await?;
        rows::delete(tx, id, DRAFT).await?;
        let mut published = draft;
        published.ty.status = DEFINED;
        published.ty.modified = Timestamp::now().0.max(published.ty.modified);
        for f in &mut published.fields {
            f.status = DEFINED;
        }
        rows::insert(tx, &published).await?;
        Ok(published)
    }

    /// Makes the draft of defined type `id` (403 when one exists).
    async fn make_draft(
        &self,
        tx: &impl ConnectionTrait,
        id: i64,
        caller: i64,
    ) -> Result<TypeRows> {
        let defined = rows::find(tx, id, DEFINED).await?;
        if rows::load(tx, id, DRAFT).await?.is_some() {
            return Err(Error::Forbidden(format!(
                "Content type {id} already has a draft"
            )));
        }
        let mut draft = defined;
        draft.ty.status = DRAFT;
        draft.ty.modified = Timestamp::now().0;
        draft.ty.modifier_id = caller;
        for f in &mut draft.fields {
            f.status = DRAFT;
        }
        rows::insert(tx, &draft).await?;
        Ok(draft)
    }

    fn apply_type_update(
        &self,
        ty: &mut content_type::Model,
        u: &ContentTypeUpdate,
        caller: i64,
    ) -> Result<()> {
        check_sort(
            u.default_sort_field.as_deref(),
            u.default_sort_order.as_deref(),
        )?;
        if let Some(i) = &u.identifier {
            check_identifier("Content type", i)?;
            ty.identifier = i.clone();
        }
        if let Some(n) = &u.names {
            let mut names = stored::lang_map(&ty.names);
            for (l, t) in &n.0 {
                names.set(l, t);
            }
            ty.names = stored::lang_map_json(&names);
        }
        if let Some(d) = &u.descriptions {
            let mut descriptions = stored::lang_map(&ty.descriptions);
            for (l, t) in &d.0 {
                descriptions.set(l, t);
            }
            ty.descriptions = stored::lang_map_json(&descriptions);
        }
        if let Some(v) = &u.remote_id {
            ty.remote_id = v.clone();
        }
        if let Some(v) = &u.url_alias_schema {
            ty.url_alias_schema = Some(v.clone());
        }
        if let Some(v) = &u.name_schema {
            ty.name_schema = Some(v.clone());
        }
        if let Some(v) = u.is_container {
            ty.is_container = v;
        }
        if let Some(v) = &u.main_language_code {
            ty.main_language_code = v.clone();
        }
        if let Some(v) = u.default_always_available {
            ty.default_always_available = v;
        }
        if let Some(v) = &u.default_sort_field {
            ty.default_sort_field = v.clone();
        }
        if let Some(v) = &u.default_sort_order {
            ty.default_sort_order = v.clone();
        }
        ty.modified = u
            .modification_date
            .map(|d| d.0)
            .unwrap_or_else(|| Timestamp::now().0);
        ty.modifier_id = u.user.unwrap_or(caller);
        Ok(())
    }

    /// 403 when another type than `except` has `identifier` or 403 when `remote_id` is taken.
    async fn ensure_type_free(
        &self,
        tx: &impl ConnectionTrait,
        identifier: &str,
        remote_id: Option<&str>,
        except: Option<i64>,
    ) -> Result<()> {
        lock(tx, "content_type_identifier").await?;
        if rows::identifier_taken(tx, identifier, except).await? {
            return Err(Error::Forbidden(format!(
                "A content type with identifier '{identifier}' already exists"
            )));
        }
        if let Some(r) = remote_id {
            let mut q = content_type::Entity::find().filter(content_type::Column::RemoteId.eq(r));
            if let Some(id) = except {
                q = q.filter(content_type::Column::Id.ne(id));
            }
            if q.one(tx).await?.is_some() {
                return Err(Error::Forbidden(format!(
                    "A content type with remote id '{r}' already exists"
                )));
            }
        }
        Ok(())
    }

    fn info_list(&self, href: &str, types: &[TypeRows]) -> ContentTypeInfoList {
        ContentTypeInfoList {
            href: href.to_string(),
            content_type_info: types.iter().map(|t| self.type_info(&t.ty)).collect(),
        }
    }

    fn full_list(&self, href: &str, types: &[TypeRows]) -> ContentTypeList {
        ContentTypeList {
            href: href.to_string(),
            content_type: types.iter().map(|t| self.content_type(t)).collect(),
        }
    }

    async fn field_of(
        &self,
        type_id: i64,
        status: i32,
        field_id: i64,
    ) -> Result<field_definition::Model> {
        // The type must exist in that status, and the field belong to it.
        rows::find(self.db.conn(), type_id, status).await?;
        field_definition::Entity::find_by_id((field_id, status))
            .one(self.db.conn())
            .await?
            .filter(|f| f.content_type_id == type_id)
            .ok_or_else(|| Error::not_found("FieldDefinition", field_id))
    }

    fn field_reply(&self, f: &field_definition::Model) -> (FieldDefinition, ETag) {
        let body = self.field_definition(f);
        let etag = ETag::of(&body);
        (body, etag)
    }
}

impl ContentTypesApi for Service {
    async fn load_content_type_group_list(
        &self,
        _cx: &Caller,
        req: LoadContentTypeGroupListRequest,
    ) -> Result<LoadContentTypeGroupListResponse> {
        if let Some(identifier) = req.identifier {
            let g = content_type_group::Entity::find()
                .filter(content_type_group::Column::Identifier.eq(identifier.as_str()))
                .one(self.db.conn())
                .await?
                .ok_or_else(|| Error::not_found("ContentTypeGroup", &identifier))?;
            return Ok(LoadContentTypeGroupListResponse::TemporaryRedirect {
                location: hrefs::load_content_type_group(g.id),
            });
        }
        let groups = content_type_group::Entity::find()
            .order_by_asc(content_type_group::Column::Id)
            .all(self.db.conn())
            .await?;
        Ok(LoadContentTypeGroupListResponse::Ok {
            body: ContentTypeGroupList {
                href: hrefs::load_content_type_group_list(),
                content_type_group: groups.iter().map(group).collect(),
            },
        })
    }

    async fn create_content_type_group(
        &self,
        cx: &Caller,
        req: CreateContentTypeGroupRequest,
    ) -> Result<CreateContentTypeGroupResponse> {
        let identifier = req.body.identifier.ok_or_else(|| {
            Error::BadRequest("ContentTypeGroupInput.identifier is required".into())
        })?;
        if identifier.trim().is_empty() {
            return Err(Error::BadRequest(
                "ContentTypeGroupInput.identifier must not be empty".into(),
            ));
        }
        let now = req.body.modification_date.unwrap_or_else(Timestamp::now).0;
        let user = req.body.user.unwrap_or(cx.user_id);
        let g = self
            .db
            .write(cx.change(), async |tx| {
                lock(tx, "content_type_group_identifier").await?;
                if content_type_group::Entity::find()
                    .filter(content_type_group::Column::Identifier.eq(identifier.as_str()))
                    .one(tx)
                    .await?
                    .is_some()
                {
                    return Err(Error::Forbidden(format!(
                        "A content type group with identifier '{identifier}' already exists"
                    )));
                }
                Ok(content_type_group::ActiveModel {
                    identifier: Set(identifier.clone()),
                    created: Set(now),
                    modified: Set(now),
                    creator_id: Set(user),
                    modifier_id: Set(user),
                    ..Default::default()
                }
                .insert(tx)
                .await?)
            })
            .await?;
        Ok(CreateContentTypeGroupResponse::Created { body: group(&g) })
    }

    async fn load_content_type_group(
        &self,
        _cx: &Caller,
        req: LoadContentTypeGroupRequest,
    ) -> Result<LoadContentTypeGroupResponse> {
        let body = group(&find_group(self.db.conn(), req.content_type_group_id).await?);
        Ok(LoadContentTypeGroupResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn update_content_type_group(
        &self,
        cx: &Caller,
        req: UpdateContentTypeGroupRequest,
    ) -> Result<UpdateContentTypeGroupResponse> {
        let g = self
            .db
            .write(cx.change(), async |tx| {
                let current = find_group(tx, req.content_type_group_id).await?;
                preconditions::if_match(&req.if_match, async || Ok(group(&current))).await?;
                let mut active = current.into_active_model();
                if let Some(identifier) = &req.body.identifier {
                    if identifier.trim().is_empty() {
                        return Err(Error::BadRequest(
                            "ContentTypeGroupInput.identifier must not be empty".into(),
                        ));
                    }
                    lock(tx, "content_type_group_identifier").await?;
                    let taken = content_type_group::Entity::find()
                        .filter(content_type_group::Column::Identifier.eq(identifier.as_str()))
                        .filter(content_type_group::Column::Id.ne(req.content_type_group_id))
                        .one(tx)
                        .await?;
                    if taken.is_some() {
                        return Err(Error::Forbidden(format!(
                            "A content type group with identifier '{identifier}' already exists"
                        )));
                    }
                    active.identifier = Set(identifier.clone());
                }
                active.modified = Set(req.body.modification_date.unwrap_or_else(Timestamp::now).0);
                active.modifier_id = Set(req.body.user.unwrap_or(cx.user_id));
                Ok(active.update(tx).await?)
            })
            .await?;
        let body = group(&g);
        Ok(UpdateContentTypeGroupResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn delete_content_type_group(
        &self,
        cx: &Caller,
        req: DeleteContentTypeGroupRequest,
    ) -> Result<DeleteContentTypeGroupResponse> {
        self.db
            .write(cx.change(), async |tx| {
                let current = find_group(tx, req.content_type_group_id).await?;
                preconditions::if_match(&req.if_match, async || Ok(group(&current))).await?;
                let members = content_type_group_link::Entity::find()
                    .filter(content_type_group_link::Column::GroupId.eq(current.id))
                    .count(tx)
                    .await?;
                if members > 0 {
                    return Err(Error::Forbidden(format!(
                        "Content type group '{}' still holds content types",
                        current.identifier
                    )));
                }
                content_type_group::Entity::delete_by_id(current.id)
                    .exec(tx)
                    .await?;
                Ok(())
            })
            .await?;
        Ok(DeleteContentTypeGroupResponse::NoContent)
    }

    async fn list_content_types_for_group(
        &self,
        _cx: &Caller,
        req: ListContentTypesForGroupRequest,
    ) -> Result<ListContentTypesForGroupResponse> {
        let db = self.db.conn();
        find_group(db, req.content_type_group_id).await?;
        let ids: Vec<i64> = content_type_group_link::Entity::find()
            .filter(content_type_group_link::Column::GroupId.eq(req.content_type_group_id))
            .filter(content_type_group_link::Column::Status.eq(DEFINED))
            .all(db)
            .await?
            .into_iter()
            .map(|l| l.content_type_id)
            .collect();
        let types = content_type::Entity::find()
            .filter(content_type::Column::Id.is_in(ids))
            .filter(content_type::Column::Status.eq(DEFINED))
            .order_by_asc(content_type::Column::Id)
            .all(db)
            .await?;
        let href = hrefs::list_content_types_for_group(req.content_type_group_id);
        Ok(match req.accept {
            ListContentTypesForGroupAccept::ContentTypeList => {
                let types = self.defined_types(db, types).await?;
                ListContentTypesForGroupResponse::OkContentTypeList {
                    body: self.full_list(&href, &types),
                }
            }
            ListContentTypesForGroupAccept::ContentTypeInfoList => {
                let types: Vec<TypeRows> = types
                    .into_iter()
                    .map(|ty| TypeRows {
                        ty,
                        fields: vec![],
                        groups: vec![],
                    })
                    .collect();
                ListContentTypesForGroupResponse::OkContentTypeInfoList {
                    body: self.info_list(&href, &types),
                }
            }
        })
    }

    async fn create_content_type(
        &self,
        cx: &Caller,
        req: CreateContentTypeRequest,
    ) -> Result<CreateContentTypeResponse> {
        let b = req.body;
        check_identifier("Content type", &b.identifier)?;
        check_sort(
            b.default_sort_field.as_deref(),
            b.default_sort_order.as_deref(),
        )?;
        if req.publish && b.field_definitions.is_empty() {
            return Err(Error::BadRequest(
                "ContentTypeCreate.FieldDefinitions: a published content type needs at least one Field definition".into(),
            ));
        }
        let now = b.modification_date.unwrap_or_else(Timestamp::now).0;
        let user = b.user.unwrap_or(cx.user_id);
        let published = self
            .db
            .write(cx.change(), async |tx| {
                find_group(tx, req.content_type_group_id).await?;
                self.ensure_type_free(tx, &b.identifier, b.remote_id.as_deref(), None)
                    .await?;
                let id = next_id(tx, "content_types").await?;
                let mut fields = Vec::new();
                for (i, f) in b.field_definitions.iter().enumerate() {
                    let fid = next_id(tx, "field_definitions").await?;
                    fields.push(self.new_field(fid, id, DRAFT, f, i as i64 + 1)?);
                }
                check_fields(self, &fields, Error::BadRequest)?;
                let draft = TypeRows {
                    ty: content_type::Model {
                        id,
                        status: DRAFT,
                        identifier: b.identifier.clone(),
                        remote_id: b
                            .remote_id
                            .clone()
                            .unwrap_or_else(crate::stored::new_remote_id),
                        names: stored::lang_map_json(
                            b.names.as_ref().unwrap_or(&LangMap::default()),
                        ),
                        descriptions: stored::lang_map_json(
                            b.descriptions.as_ref().unwrap_or(&LangMap::default()),
                        ),
                        name_schema: b.name_schema.clone(),
                        url_alias_schema: b.url_alias_schema.clone(),
                        is_container: b.is_container.unwrap_or(false),
                        main_language_code: b.main_language_code.clone(),
                        default_always_available: b.default_always_available.unwrap_or(true),
                        default_sort_field: b
                            .default_sort_field
                            .clone()
                            .unwrap_or_else(|| "PATH".into()),
                        default_sort_order: b
                            .default_sort_order
                            .clone()
                            .unwrap_or_else(|| "ASC".into()),
                        created: now,
                        modified: now,
                        creator_id: user,
                        modifier_id: user,
                    },
                    fields,
                    groups: vec![req.content_type_group_id],
                };
                rows::insert(tx, &draft).await?;
                if req.publish {
                    self.publish_draft(tx, id).await
                } else {
                    Ok(draft)
                }
            })
            .await?;
        Ok(CreateContentTypeResponse::Created {
            body: self.content_type(&published),
        })
    }

    async fn list_content_types(
        &self,
        _cx: &Caller,
        req: ListContentTypesRequest,
    ) -> Result<ListContentTypesResponse> {
        let db = self.db.conn();
        let mut q = content_type::Entity::find().filter(content_type::Column::Status.eq(DEFINED));
        if let Some(i) = &req.identifier {
            q = q.filter(content_type::Column::Identifier.eq(i.as_str()));
        }
        if let Some(r) = &req.remote_id {
            q = q.filter(content_type::Column::RemoteId.eq(r.as_str()));
        }
        let desc = match req.sort.to_ascii_lowercase().as_str() {
            "asc" => false,
            "desc" => true,
            other => {
                return Err(Error::BadRequest(format!(
                    "sort '{other}' is not asc or desc"
                )));
            }
        };
        let order = if desc {
            sea_orm::Order::Desc
        } else {
            sea_orm::Order::Asc
        };
        q = match req
            .orderby
            .as_deref()
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            None => q.order_by(content_type::Column::Id, order),
            Some("name") => q
                .order_by(content_type::Column::Identifier, order.clone())
                .order_by(content_type::Column::Id, order),
            Some("lastmodified") => q
                .order_by(content_type::Column::Modified, order.clone())
                .order_by(content_type::Column::Id, order),
            Some(other) => {
                return Err(Error::BadRequest(format!(
                    "orderby '{other}' is not name or lastmodified"
                )));
            }
        };
        let mut types = q.all(db).await?;
        if req
            .orderby
            .as_deref()
            .is_some_and(|o| o.eq_ignore_ascii_case("name"))
        {
            // By name in the main language; the identifier breaks ties.
            let name = |t: &content_type::Model| {
                stored::lang_map(&t.names)
                    .get(&t.main_language_code)
                    .unwrap_or(&t.identifier)
                    .to_lowercase()
            };
            types.sort_by(|a, b| {
                let o = name(a).cmp(&name(b)).then(a.id.cmp(&b.id));
                if desc { o.reverse() } else { o }
            });
        }
        if (req.identifier.is_some() || req.remote_id.is_some()) && types.is_empty() {
            return Err(Error::not_found(
                "ContentType",
                req.identifier.or(req.remote_id).unwrap_or_default(),
            ));
        }
        let types = req.limit.window(types, req.offset);
        Ok(match req.accept {
            ListContentTypesAccept::ContentTypeList => {
                let types = self.defined_types(db, types).await?;
                ListContentTypesResponse::OkContentTypeList {
                    body: self.full_list(&hrefs::list_content_types(), &types),
                }
            }
            ListContentTypesAccept::ContentTypeInfoList => {
                let types: Vec<TypeRows> = types
                    .into_iter()
                    .map(|ty| TypeRows {
                        ty,
                        fields: vec![],
                        groups: vec![],
                    })
                    .collect();
                ListContentTypesResponse::OkContentTypeInfoList {
                    body: self.info_list(&hrefs::list_content_types(), &types),
                }
            }
        })
    }

    async fn create_content_type_view(
        &self,
        _cx: &Caller,
        req: CreateContentTypeViewRequest,
    ) -> Result<CreateContentTypeViewResponse> {
        let db = self.db.conn();
        let q = &req.body.content_type_query;
        let mut query =
            content_type::Entity::find().filter(content_type::Column::Status.eq(DEFINED));
        if let Some(c) = &q.query {
            if !c.content_type_id_criterion.is_empty() {
                query = query
                    .filter(content_type::Column::Id.is_in(c.content_type_id_criterion.clone()));
            }
            if !c.content_type_identifier_criterion.is_empty() {
                query = query.filter(
                    content_type::Column::Identifier
                        .is_in(c.content_type_identifier_criterion.clone()),
                );
            }
            let mut group_ids = c.content_type_group_id_criterion.clone();
            if !c.content_type_group_name_criterion.is_empty() {
                // Without regard to case, as the reference (its collation); groups are few.
                let names: Vec<String> = c
                    .content_type_group_name_criterion
                    .iter()
                    .map(|n| n.to_lowercase())
                    .collect();
                group_ids.extend(
                    content_type_group::Entity::find()
                        .all(db)
                        .await?
                        .into_iter()
                        .filter(|g| names.contains(&g.identifier.to_lowercase()))
                        .map(|g| g.id),
                );
                if group_ids.is_empty() {
                    group_ids.push(-1);
                }
            }
            if !group_ids.is_empty() {
                let ids: Vec<i64> = content_type_group_link::Entity::find()
                    .filter(content_type_group_link::Column::GroupId.is_in(group_ids))
                    .filter(content_type_group_link::Column::Status.eq(DEFINED))
                    .all(db)
                    .await?
                    .into_iter()
                    .map(|l| l.content_type_id)
                    .collect();
                query = query.filter(content_type::Column::Id.is_in(ids));
            }
            if !c.contains_field_definition_id_criterion.is_empty() {
                let ids: Vec<i64> = field_definition::Entity::find()
                    .filter(
                        field_definition::Column::Id
                            .is_in(c.contains_field_definition_id_criterion.clone()),
                    )
                    .filter(field_definition::Column::Status.eq(DEFINED))
                    .all(db)
                    .await?
                    .into_iter()
                    .map(|f| f.content_type_id)
                    .collect();
                query = query.filter(content_type::Column::Id.is_in(ids));
            }
            if c.is_system_criterion == Some(true) {
                // No clean-install group is a system group.
                query = query.filter(content_type::Column::Id.is_in(Vec::<i64>::new()));
            }
        }
        let direction = |d: &str| match d.to_ascii_lowercase().as_str() {
            "ascending" => Ok(sea_orm::Order::Asc),
            "descending" => Ok(sea_orm::Order::Desc),
            other => Err(Error::BadRequest(format!(
                "sort direction '{other}' is not ascending or descending"
            ))),
        };
        if let Some(s) = &q.sort_clauses {
            if let Some(d) = &s.identifier {
                query = query.order_by(content_type::Column::Identifier, direction(d)?);
            }
            if let Some(d) = &s.id {
                query = query.order_by(content_type::Column::Id, direction(d)?);
            }
        }
        query = query.order_by_asc(content_type::Column::Id);
        let limit = q.limit.unwrap_or(Limit(Some(25)));
        let types = limit.window(query.all(db).await?, q.offset.unwrap_or_default());
        let types = self.defined_types(db, types).await?;
        Ok(CreateContentTypeViewResponse::Ok {
            body: self.full_list(&hrefs::list_content_types(), &types),
        })
    }

    async fn copy_content_type(
        &self,
        cx: &Caller,
        req: CopyContentTypeRequest,
    ) -> Result<CopyContentTypeResponse> {
        let id = self
            .db
            .write(cx.change(), async |tx| {
                let original = rows::find(tx, req.content_type_id, DEFINED).await?;
                let id = next_id(tx, "content_types").await?;
                let now = Timestamp::now().0;
                let mut copy = original;
                copy.ty.id = id;
                copy.ty.identifier = format!("copy_of_{}_{id}", copy.ty.identifier);
                copy.ty.remote_id = crate::stored::new_remote_id();
                copy.ty.created = now;
                copy.ty.modified = now;
                copy.ty.creator_id = cx.user_id;
                copy.ty.modifier_id = cx.user_id;
                for f in &mut copy.fields {
                    f.id = next_id(tx, "field_definitions").await?;
                    f.content_type_id = id;
                }
                rows::insert(tx, &copy).await?;
                Ok::<_, Error>(id)
            })
            .await?;
        Ok(CopyContentTypeResponse::Created {
            location: hrefs::load_content_type(id),
        })
    }

    async fn load_content_type(
        &self,
        _cx: &Caller,
        req: LoadContentTypeRequest,
    ) -> Result<LoadContentTypeResponse> {
        let body =
            self.content_type(&rows::find(self.db.conn(), req.content_type_id, DEFINED).await?);
        Ok(LoadContentTypeResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn create_content_type_draft(
        &self,
        cx: &Caller,
        req: CreateContentTypeDraftRequest,
    ) -> Result<CreateContentTypeDraftResponse> {
        let draft = self
            .db
            .write(cx.change(), async |tx| {
                let mut draft = self.make_draft(tx, req.content_type_id, cx.user_id).await?;
                self.apply_type_update(&mut draft.ty, &req.body, cx.user_id)?;
                self.ensure_type_free(
                    tx,
                    &draft.ty.identifier,
                    req.body.remote_id.as_deref(),
                    Some(req.content_type_id),
                )
                .await?;
                rows::update_type(tx, draft.ty).await
            })
            .await?;
        Ok(CreateContentTypeDraftResponse::Created {
            body: self.type_info(&draft),
        })
    }

    async fn delete_content_type(
        &self,
        cx: &Caller,
        req: DeleteContentTypeRequest,
    ) -> Result<DeleteContentTypeResponse> {
        self.db
            .write(cx.change(), async |tx| {
                let current = rows::find(tx, req.content_type_id, DEFINED).await?;
                preconditions::if_match(&req.if_match, async || Ok(self.content_type(&current)))
                    .await?;
                self.ensure_no_content(tx, req.content_type_id).await?;
                rows::delete(tx, req.content_type_id, DRAFT).await?;
                rows::delete(tx, req.content_type_id, DEFINED).await
            })
            .await?;
        Ok(DeleteContentTypeResponse::NoContent)
    }

    async fn load_content_type_field_definition_list(
        &self,
        _cx: &Caller,
        req: LoadContentTypeFieldDefinitionListRequest,
    ) -> Result<LoadContentTypeFieldDefinitionListResponse> {
        let t = rows::find(self.db.conn(), req.content_type_id, DEFINED).await?;
        Ok(LoadContentTypeFieldDefinitionListResponse::Ok {
            body: self.field_definition_list(t.ty.id, DEFINED, &t.fields),
        })
    }

    async fn load_content_type_field_definition(
        &self,
        _cx: &Caller,
        req: LoadContentTypeFieldDefinitionRequest,
    ) -> Result<LoadContentTypeFieldDefinitionResponse> {
        let f = self
            .field_of(req.content_type_id, DEFINED, req.field_definition_id)
            .await?;
        let (body, etag) = self.field_reply(&f);
        Ok(LoadContentTypeFieldDefinitionResponse::Ok { body, etag })
    }

    async fn load_content_type_field_definition_by_identifier(
        &self,
        _cx: &Caller,
        req: LoadContentTypeFieldDefinitionByIdentifierRequest,
    ) -> Result<LoadContentTypeFieldDefinitionByIdentifierResponse> {
        let t = rows::find(self.db.conn(), req.content_type_id, DEFINED).await?;
        let f = t
            .fields
            .iter()
            .find(|f| f.identifier == req.field_definition_identifier)
            .ok_or_else(|| Error::not_found("FieldDefinition", &req.field_definition_identifier))?;
        // Named as it was asked for, as the reference answers.
        let mut body = self.field_definition(f);
        body.href = hrefs::load_content_type_field_definition_by_identifier(
            req.content_type_id,
            &req.field_definition_identifier,
        );
        let etag = ETag::of(&body);
        Ok(LoadContentTypeFieldDefinitionByIdentifierResponse::Ok { body, etag })
    }

    async fn load_content_type_draft(
        &self,
        _cx: &Caller,
        req: LoadContentTypeDraftRequest,
    ) -> Result<LoadContentTypeDraftResponse> {
        let body =
            self.content_type(&rows::find(self.db.conn(), req.content_type_id, DRAFT).await?);
        Ok(LoadContentTypeDraftResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn update_content_type_draft(
        &self,
        cx: &Caller,
        req: UpdateContentTypeDraftRequest,
    ) -> Result<UpdateContentTypeDraftResponse> {
        let ty = self
            .db
            .write(cx.change(), async |tx| {
                let mut draft = rows::find(tx, req.content_type_id, DRAFT).await?;
                preconditions::if_match(&req.if_match, async || Ok(self.content_type(&draft)))
                    .await?;
                self.apply_type_update(&mut draft.ty, &req.body, cx.user_id)?;
                self.ensure_type_free(
                    tx,
                    &draft.ty.identifier,
                    req.body.remote_id.as_deref(),
                    Some(req.content_type_id),
                )
                .await?;
                rows::update_type(tx, draft.ty).await
            })
            .await?;
        let body = self.type_info(&ty);
        Ok(UpdateContentTypeDraftResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn publish_content_type_draft(
        &self,
        cx: &Caller,
        req: PublishContentTypeDraftRequest,
    ) -> Result<PublishContentTypeDraftResponse> {
        let published = self
            .db
            .write(cx.change(), async |tx| {
                self.publish_draft(tx, req.content_type_id).await
            })
            .await?;
        Ok(PublishContentTypeDraftResponse::Ok {
            body: self.content_type(&published),
        })
    }

    async fn delete_content_type_draft(
        &self,
        cx: &Caller,
        req: DeleteContentTypeDraftRequest,
    ) -> Result<DeleteContentTypeDraftResponse> {
        self.db
            .write(cx.change(), async |tx| {
                let draft = rows::find(tx, req.content_type_id, DRAFT).await?;
                preconditions::if_match(&req.if_match, async || Ok(self.content_type(&draft)))
                    .await?;
                rows::delete(tx, req.content_type_id, DRAFT).await
            })
            .await?;
        Ok(DeleteContentTypeDraftResponse::NoContent)
    }

    async fn load_content_type_draft_field_definition_list(
        &self,
        _cx: &Caller,
        req: LoadContentTypeDraftFieldDefinitionListRequest,
    ) -> Result<LoadContentTypeDraftFieldDefinitionListResponse> {
        let t = rows::find(self.db.conn(), req.content_type_id, DRAFT).await?;
        Ok(LoadContentTypeDraftFieldDefinitionListResponse::Ok {
            body: self.field_definition_list(t.ty.id, DRAFT, &t.fields),
        })
    }

    async fn add_content_type_draft_field_definition(
        &self,
        cx: &Caller,
        req: AddContentTypeDraftFieldDefinitionRequest,
    ) -> Result<AddContentTypeDraftFieldDefinitionResponse> {
        let f = self
            .db
            .write(cx.change(), async |tx| {
                let draft = rows::find(tx, req.content_type_id, DRAFT).await?;
                let position = draft.fields.iter().map(|f| f.position).max().unwrap_or(0) + 1;
                let id = next_id(tx, "field_definitions").await?;
                let f = self.new_field(id, req.content_type_id, DRAFT, &req.body, position)?;
                let mut all = draft.fields.clone();
                all.push(f.clone());
                check_fields(self, &all, Error::Forbidden)?;
                if self.field_type(&f.field_type).is_some_and(|t| t.only_without_content()) {
                    self.ensure_no_content(tx, req.content_type_id).await.map_err(|_| {
                        Error::Forbidden(format!(
                            "A Field definition of type '{}' cannot be added to a content type that has content",
                            self.field_types.identifier(&f.field_type)
                        ))
                    })?;
                }
                field_definition::Entity::insert(f.clone().into_active_model()).exec(tx).await?;
                Ok::<_, Error>(f)
            })
            .await?;
        Ok(AddContentTypeDraftFieldDefinitionResponse::Created {
            body: self.field_definition(&f),
        })
    }

    async fn load_content_type_draft_field_definition(
        &self,
        _cx: &Caller,
        req: LoadContentTypeDraftFieldDefinitionRequest,
    ) -> Result<LoadContentTypeDraftFieldDefinitionResponse> {
        let f = self
            .field_of(req.content_type_id, DRAFT, req.field_definition_id)
            .await?;
        let (body, etag) = self.field_reply(&f);
        Ok(LoadContentTypeDraftFieldDefinitionResponse::Ok { body, etag })
    }

    async fn update_content_type_draft_field_definition(
        &self,
        cx: &Caller,
        req: UpdateContentTypeDraftFieldDefinitionRequest,
    ) -> Result<UpdateContentTypeDraftFieldDefinitionResponse> {
        let f = self
            .db
            .write(cx.change(), async |tx| {
                let draft = rows::find(tx, req.content_type_id, DRAFT).await?;
                let mut f = draft
                    .fields
                    .iter()
                    .find(|f| f.id == req.field_definition_id)
                    .cloned()
                    .ok_or_else(|| Error::not_found("FieldDefinition", req.field_definition_id))?;
                preconditions::if_match(&req.if_match, async || Ok(self.field_definition(&f)))
                    .await?;
                self.update_field(&mut f, &req.body)?;
                let all: Vec<field_definition::Model> = draft
                    .fields
                    .iter()
                    .map(|o| if o.id == f.id { f.clone() } else { o.clone() })
                    .collect();
                check_fields(self, &all, Error::Forbidden)?;
                let active = f.clone().into_active_model().reset_all();
                Ok::<_, Error>(active.update(tx).await?)
            })
            .await?;
        let (body, etag) = self.field_reply(&f);
        Ok(UpdateContentTypeDraftFieldDefinitionResponse::Ok { body, etag })
    }

    async fn remove_content_type_draft_field_definition(
        &self,
        cx: &Caller,
        req: RemoveContentTypeDraftFieldDefinitionRequest,
    ) -> Result<RemoveContentTypeDraftFieldDefinitionResponse> {
        self.db
            .write(cx.change(), async |tx| {
                let draft = rows::find(tx, req.content_type_id, DRAFT).await?;
                let f = draft
                    .fields
                    .iter()
                    .find(|f| f.id == req.field_definition_id)
                    .ok_or_else(|| Error::not_found("FieldDefinition", req.field_definition_id))?;
                preconditions::if_match(&req.if_match, async || Ok(self.field_definition(f)))
                    .await?;
                field_definition::Entity::delete_by_id((f.id, DRAFT))
                    .exec(tx)
                    .await?;
                Ok::<_, Error>(())
            })
            .await?;
        Ok(RemoveContentTypeDraftFieldDefinitionResponse::NoContent)
    }

    async fn load_groups_of_content_type(
        &self,
        _cx: &Caller,
        req: LoadGroupsOfContentTypeRequest,
    ) -> Result<LoadGroupsOfContentTypeResponse> {
        let t = rows::find(self.db.conn(), req.content_type_id, DEFINED).await?;
        Ok(LoadGroupsOfContentTypeResponse::Ok {
            body: group_refs(t.ty.id, &t.groups),
        })
    }

    async fn link_content_type_to_group(
        &self,
        cx: &Caller,
        req: LinkContentTypeToGroupRequest,
    ) -> Result<LinkContentTypeToGroupResponse> {
        let href = req.group.ok_or_else(|| {
            Error::BadRequest(
                "The query parameter 'group' (a content type group href) is required".into(),
            )
        })?;
        let group_id =
            hrefs::read::load_content_type_group(cx.api_path(&href)).ok_or_else(|| {
                Error::BadRequest(format!("'{href}' is not a content type group href"))
            })?;
        let groups = self
            .db
            .write(cx.change(), async |tx| {
                let t = rows::find(tx, req.content_type_id, DEFINED).await?;
                find_group(tx, group_id).await?;
                if t.groups.contains(&group_id) {
                    return Err(Error::Forbidden(format!(
                        "Content type {} is already in group {group_id}",
                        req.content_type_id
                    )));
                }
                content_type_group_link::ActiveModel {
                    content_type_id: Set(req.content_type_id),
                    status: Set(DEFINED),
                    group_id: Set(group_id),
                }
                .insert(tx)
                .await?;
                let mut groups = t.groups;
                groups.push(group_id);
                groups.sort_unstable();
                Ok(groups)
            })
            .await?;
        Ok(LinkContentTypeToGroupResponse::Ok {
            body: group_refs(req.content_type_id, &groups),
        })
    }

    async fn unlink_content_type_from_group(
        &self,
        cx: &Caller,
        req: UnlinkContentTypeFromGroupRequest,
    ) -> Result<UnlinkContentTypeFromGroupResponse> {
        let groups = self
            .db
            .write(cx.change(), async |tx| {
                let t = rows::find(tx, req.content_type_id, DEFINED).await?;
                find_group(tx, req.content_type_group_id).await?;
                if !t.groups.contains(&req.content_type_group_id) {
                    return Err(Error::not_found(
                        "ContentTypeGroup",
                        req.content_type_group_id,
                    ));
                }
                if t.groups.len() == 1 {
                    return Err(Error::Forbidden(format!(
                        "Content type {} cannot leave its only group",
                        req.content_type_id
                    )));
                }
                content_type_group_link::Entity::delete_by_id((
                    req.content_type_id,
                    DEFINED,
                    req.content_type_group_id,
                ))
                .exec(tx)
                .await?;
                Ok(t.groups
                    .into_iter()
                    .filter(|g| *g != req.content_type_group_id)
                    .collect::<Vec<_>>())
            })
            .await?;
        Ok(UnlinkContentTypeFromGroupResponse::Ok {
            body: group_refs(req.content_type_id, &groups),
        })
    }
}

impl Service {
    /// 403 when content items of the type exist.
    async fn ensure_no_content(&self, db: &impl ConnectionTrait, type_id: i64) -> Result<()> {
        let count = cairn_store::entity::content::Entity::find()
            .filter(cairn_store::entity::content::Column::ContentTypeId.eq(type_id))
            .count(db)
            .await?;
        if count > 0 {
            return Err(Error::Forbidden(format!(
                "Content type {type_id} has {count} content item(s); delete them first"
            )));
        }
        Ok(())
    }
}
