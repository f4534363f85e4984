//! Content type groups, content types and their drafts, Field definitions (spec 2.12, 3.2,
//! 4.8, 4.9).
//!
//! A content type is DEFINED or has a DRAFT with the same id; a draft is changed (metadata
//! by PATCH, Field definitions one by one) and then published over the defined type.

mod create;
mod drafts;
mod field_definitions;
mod groups;
mod input;
mod render;
mod rows;
mod search;

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::ContentTypesApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::locations::check_sort;
use crate::preconditions;
use crate::shared::Shared;
use crate::stored;
use cairn_runtime::{ETag, LangMap, Limit, Timestamp};
use cairn_store::Connection;
use cairn_store::entity::{
    content_type, content_type_group, content_type_group_link, field_definition,
};
use cairn_store::ids::next_id;
use input::check_identifier;
use render::{group, group_refs};
use rows::TypeRows;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, IntoActiveModel, PaginatorTrait,
    QueryFilter, QueryOrder,
};
use std::collections::HashSet;

impl Shared {
    /// The defined content types of `ids` (those that exist), with their Field
    /// definitions, in three queries.
    pub(crate) async fn content_types_by_ids(
        &self,
        db: &impl Connection,
        ids: Vec<i64>,
    ) -> Result<Vec<ContentType>> {
        let types = (content_type::Entity::find())
            .filter(content_type::Column::Id.is_in(ids))
            .filter(content_type::Column::Status.eq(content_type::DEFINED))
            .all(db)
            .await?;
        let rows = rows::load_many(db, types).await?;
        Ok(rows.iter().map(|r| self.content_type(r)).collect())
    }
}

/// The content type groups of `ids` (those that exist), in one query.
pub(crate) async fn groups_by_ids(
    db: &impl Connection,
    ids: Vec<i64>,
) -> Result<Vec<ContentTypeGroup>> {
    let rows = (content_type_group::Entity::find())
        .filter(content_type_group::Column::Id.is_in(ids))
        .all(db)
        .await?;
    Ok(rows.iter().map(group).collect())
}

const DEFINED: i64 = content_type::DEFINED;
const DRAFT: i64 = content_type::DRAFT;

async fn find_group(db: &impl Connection, id: i64) -> Result<content_type_group::Model> {
    cairn_store::read::by_id::<content_type_group::Entity>(db, id)
        .await?
        .ok_or_else(|| Error::not_found("ContentTypeGroup", id))
}

/// Field definitions of one draft must have distinct identifiers, and a singular field type
/// appears at most once; `conflict` builds the error (400 in a ContentTypeCreate, 403 when a
/// Field definition is added to a draft).
fn check_fields(
    service: &Shared,
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

impl ContentTypesService {
    /// The content type `id` in `status` (defined or draft), with its ETag.
    async fn type_reply(
        &self,
        db: &impl cairn_store::Connection,
        id: i64,
        status: i64,
    ) -> Result<(ContentType, ETag)> {
        let body = self.content_type(&rows::find(db, id, status).await?);
        let etag = ETag::of(&body);
        Ok((body, etag))
    }

    /// The types (defined) of these ids, in the order given.
    async fn defined_types(
        &self,
        db: &impl Connection,
        types: Vec<content_type::Model>,
    ) -> Result<Vec<TypeRows>> {
        rows::load_many(db, types).await
    }

    fn info_list(&self, href: &str, types: &[content_type::Model]) -> ContentTypeInfoList {
        ContentTypeInfoList {
            href: href.to_string(),
            content_type_info: types.iter().map(|t| self.type_info(t)).collect(),
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
        db: &impl cairn_store::Connection,
        type_id: i64,
        status: i64,
        field_id: i64,
    ) -> Result<field_definition::Model> {
        // The type must exist in that status, and the field belong to it.
        rows::find(db, type_id, status).await?;
        field_definition::Entity::find_by_id((field_id, status))
            .one(db)
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

crate::services::family_service!(
    /// Implements the API of content type groups, content types, their drafts and Field definitions.
    ContentTypesService
);

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> ContentTypesApi<B> for ContentTypesService
{
    async fn load_content_type_group_list(
        &self,
        cx: &Caller,
        req: LoadContentTypeGroupListRequest,
    ) -> Result<LoadContentTypeGroupListResponse> {
        groups::list(self, cx, req).await
    }

    async fn create_content_type_group(
        &self,
        cx: &Caller,
        req: CreateContentTypeGroupRequest,
    ) -> Result<CreateContentTypeGroupResponse> {
        groups::create(self, cx, req).await
    }

    async fn load_content_type_group(
        &self,
        cx: &Caller,
        req: LoadContentTypeGroupRequest,
    ) -> Result<LoadContentTypeGroupResponse> {
        groups::load(self, cx, req).await
    }

    async fn update_content_type_group(
        &self,
        cx: &Caller,
        req: UpdateContentTypeGroupRequest,
    ) -> Result<UpdateContentTypeGroupResponse> {
        groups::update(self, cx, req).await
    }

    async fn delete_content_type_group(
        &self,
        cx: &Caller,
        req: DeleteContentTypeGroupRequest,
    ) -> Result<DeleteContentTypeGroupResponse> {
        groups::delete(self, cx, req).await
    }

    async fn list_content_types_for_group(
        &self,
        cx: &Caller,
        req: ListContentTypesForGroupRequest,
    ) -> Result<ListContentTypesForGroupResponse> {
        groups::types_in(self, cx, req).await
    }

    async fn create_content_type(
        &self,
        cx: &Caller,
        req: CreateContentTypeRequest,
    ) -> Result<CreateContentTypeResponse> {
        create::create(self, cx, req).await
    }

    async fn list_content_types(
        &self,
        cx: &Caller,
        req: ListContentTypesRequest,
    ) -> Result<ListContentTypesResponse> {
        search::list(self, cx, req).await
    }

    async fn create_content_type_view(
        &self,
        cx: &Caller,
        req: CreateContentTypeViewRequest,
    ) -> Result<CreateContentTypeViewResponse> {
        search::view(self, cx, req).await
    }

    async fn copy_content_type(
        &self,
        cx: &Caller,
        req: CopyContentTypeRequest,
    ) -> Result<CopyContentTypeResponse> {
        create::copy(self, cx, req).await
    }

    async fn load_content_type(
        &self,
        cx: &Caller,
        req: LoadContentTypeRequest,
    ) -> Result<LoadContentTypeResponse> {
        let (body, etag) = self
            .type_reply(cx.reader(), req.content_type_id, DEFINED)
            .await?;
        Ok(LoadContentTypeResponse::Ok { body, etag })
    }

    async fn create_content_type_draft(
        &self,
        cx: &Caller,
        req: CreateContentTypeDraftRequest,
    ) -> Result<CreateContentTypeDraftResponse> {
        let draft = self
            .db
            .write(cx.change(), async |tx| {
                let draft = self.make_draft(tx, req.content_type_id, cx.user_id).await?;
                tx.created(&hrefs::load_content_type_draft(req.content_type_id));
                self.store_type_draft(tx, draft.ty, &req.body, cx.user_id)
                    .await
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
        cx: &Caller,
        req: LoadContentTypeFieldDefinitionListRequest,
    ) -> Result<LoadContentTypeFieldDefinitionListResponse> {
        field_definitions::list(self, cx, req).await
    }

    async fn load_content_type_field_definition(
        &self,
        cx: &Caller,
        req: LoadContentTypeFieldDefinitionRequest,
    ) -> Result<LoadContentTypeFieldDefinitionResponse> {
        field_definitions::load(self, cx, req).await
    }

    async fn load_content_type_field_definition_by_identifier(
        &self,
        cx: &Caller,
        req: LoadContentTypeFieldDefinitionByIdentifierRequest,
    ) -> Result<LoadContentTypeFieldDefinitionByIdentifierResponse> {
        field_definitions::load_by_identifier(self, cx, req).await
    }

    async fn load_content_type_draft(
        &self,
        cx: &Caller,
        req: LoadContentTypeDraftRequest,
    ) -> Result<LoadContentTypeDraftResponse> {
        let (body, etag) = self
            .type_reply(cx.reader(), req.content_type_id, DRAFT)
            .await?;
        Ok(LoadContentTypeDraftResponse::Ok { body, etag })
    }

    async fn update_content_type_draft(
        &self,
        cx: &Caller,
        req: UpdateContentTypeDraftRequest,
    ) -> Result<UpdateContentTypeDraftResponse> {
        let ty = self
            .db
            .write(cx.change(), async |tx| {
                let draft = rows::find(tx, req.content_type_id, DRAFT).await?;
                preconditions::if_match(&req.if_match, async || Ok(self.content_type(&draft)))
                    .await?;
                self.store_type_draft(tx, draft.ty, &req.body, cx.user_id)
                    .await
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
        cx: &Caller,
        req: LoadContentTypeDraftFieldDefinitionListRequest,
    ) -> Result<LoadContentTypeDraftFieldDefinitionListResponse> {
        field_definitions::list_in_draft(self, cx, req).await
    }

    async fn add_content_type_draft_field_definition(
        &self,
        cx: &Caller,
        req: AddContentTypeDraftFieldDefinitionRequest,
    ) -> Result<AddContentTypeDraftFieldDefinitionResponse> {
        field_definitions::add(self, cx, req).await
    }

    async fn load_content_type_draft_field_definition(
        &self,
        cx: &Caller,
        req: LoadContentTypeDraftFieldDefinitionRequest,
    ) -> Result<LoadContentTypeDraftFieldDefinitionResponse> {
        field_definitions::load_in_draft(self, cx, req).await
    }

    async fn update_content_type_draft_field_definition(
        &self,
        cx: &Caller,
        req: UpdateContentTypeDraftFieldDefinitionRequest,
    ) -> Result<UpdateContentTypeDraftFieldDefinitionResponse> {
        field_definitions::update(self, cx, req).await
    }

    async fn remove_content_type_draft_field_definition(
        &self,
        cx: &Caller,
        req: RemoveContentTypeDraftFieldDefinitionRequest,
    ) -> Result<RemoveContentTypeDraftFieldDefinitionResponse> {
        field_definitions::remove(self, cx, req).await
    }

    async fn load_groups_of_content_type(
        &self,
        cx: &Caller,
        req: LoadGroupsOfContentTypeRequest,
    ) -> Result<LoadGroupsOfContentTypeResponse> {
        groups::groups_of(self, cx, req).await
    }

    async fn link_content_type_to_group(
        &self,
        cx: &Caller,
        req: LinkContentTypeToGroupRequest,
    ) -> Result<LinkContentTypeToGroupResponse> {
        groups::link(self, cx, req).await
    }

    async fn unlink_content_type_from_group(
        &self,
        cx: &Caller,
        req: UnlinkContentTypeFromGroupRequest,
    ) -> Result<UnlinkContentTypeFromGroupResponse> {
        groups::unlink(self, cx, req).await
    }
}

impl ContentTypesService {
    /// 403 when content items of the type exist.
    async fn ensure_no_content(&self, db: &impl Connection, type_id: i64) -> Result<()> {
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
