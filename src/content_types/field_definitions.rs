//! Field definitions: read on defined types and drafts, added, changed and removed on
//! drafts.

use super::ContentTypesService;
use super::*;

pub(super) async fn list(
    service: &ContentTypesService,
    cx: &Caller,
    req: LoadContentTypeFieldDefinitionListRequest,
) -> Result<LoadContentTypeFieldDefinitionListResponse> {
    Ok(LoadContentTypeFieldDefinitionListResponse::Ok {
        body: definitions(service, cx.reader(), req.content_type_id, DEFINED).await?,
    })
}

pub(super) async fn load(
    service: &ContentTypesService,
    cx: &Caller,
    req: LoadContentTypeFieldDefinitionRequest,
) -> Result<LoadContentTypeFieldDefinitionResponse> {
    let (body, etag) = definition(
        service,
        cx.reader(),
        req.content_type_id,
        DEFINED,
        req.field_definition_id,
    )
    .await?;
    Ok(LoadContentTypeFieldDefinitionResponse::Ok { body, etag })
}

pub(super) async fn load_by_identifier(
    service: &ContentTypesService,
    cx: &Caller,
    req: LoadContentTypeFieldDefinitionByIdentifierRequest,
) -> Result<LoadContentTypeFieldDefinitionByIdentifierResponse> {
    let t = rows::find(cx.reader(), req.content_type_id, DEFINED).await?;
    let f = t
        .fields
        .iter()
        .find(|f| f.identifier == req.field_definition_identifier)
        .ok_or_else(|| Error::not_found("FieldDefinition", &req.field_definition_identifier))?;
    // Named as it was asked for, as the reference answers.
    let mut body = service.field_definition(f);
    body.href = hrefs::load_content_type_field_definition_by_identifier(
        req.content_type_id,
        &req.field_definition_identifier,
    );
    let etag = ETag::of(&body);
    Ok(LoadContentTypeFieldDefinitionByIdentifierResponse::Ok { body, etag })
}

pub(super) async fn list_in_draft(
    service: &ContentTypesService,
    cx: &Caller,
    req: LoadContentTypeDraftFieldDefinitionListRequest,
) -> Result<LoadContentTypeDraftFieldDefinitionListResponse> {
    Ok(LoadContentTypeDraftFieldDefinitionListResponse::Ok {
        body: definitions(service, cx.reader(), req.content_type_id, DRAFT).await?,
    })
}

pub(super) async fn add(
    service: &ContentTypesService,
    cx: &Caller,
    req: AddContentTypeDraftFieldDefinitionRequest,
) -> Result<AddContentTypeDraftFieldDefinitionResponse> {
    let f = service
        .db
        .write(cx.change(), async |tx| {
            let draft = rows::find(tx, req.content_type_id, DRAFT).await?;
            let position = draft.fields.iter().map(|f| f.position).max().unwrap_or(0) + 1;
            let id = next_id(tx, "field_definitions").await?;
            let f = service.new_field(id, req.content_type_id, DRAFT, &req.body, position, &cx.uploads)?;
            let mut all = draft.fields.clone();
            all.push(f.clone());
            check_fields(service, &all, Error::Forbidden)?;
            if service.field_type(&f.field_type).is_some_and(|t| t.only_without_content()) {
                service.ensure_no_content(tx, req.content_type_id).await.map_err(|_| {
                    Error::Forbidden(format!(
                        "A Field definition of type '{}' cannot be added to a content type that has content",
                        service.field_types.identifier(&f.field_type)
                    ))
                })?;
            }
            field_definition::Entity::insert(f.clone().into_active_model()).exec_without_returning(tx).await?;
            Ok::<_, Error>(f)
        })
        .await?;
    Ok(AddContentTypeDraftFieldDefinitionResponse::Created {
        body: service.field_definition(&f),
    })
}

pub(super) async fn load_in_draft(
    service: &ContentTypesService,
    cx: &Caller,
    req: LoadContentTypeDraftFieldDefinitionRequest,
) -> Result<LoadContentTypeDraftFieldDefinitionResponse> {
    let (body, etag) = definition(
        service,
        cx.reader(),
        req.content_type_id,
        DRAFT,
        req.field_definition_id,
    )
    .await?;
    Ok(LoadContentTypeDraftFieldDefinitionResponse::Ok { body, etag })
}

pub(super) async fn update(
    service: &ContentTypesService,
    cx: &Caller,
    req: UpdateContentTypeDraftFieldDefinitionRequest,
) -> Result<UpdateContentTypeDraftFieldDefinitionResponse> {
    let f = service
        .db
        .write(cx.change(), async |tx| {
            let draft = rows::find(tx, req.content_type_id, DRAFT).await?;
            let mut f = draft
                .fields
                .iter()
                .find(|f| f.id == req.field_definition_id)
                .cloned()
                .ok_or_else(|| Error::not_found("FieldDefinition", req.field_definition_id))?;
            preconditions::if_match(&req.if_match, async || Ok(service.field_definition(&f)))
                .await?;
            service.update_field(&mut f, &req.body, &cx.uploads)?;
            let all: Vec<field_definition::Model> = draft
                .fields
                .iter()
                .map(|o| if o.id == f.id { f.clone() } else { o.clone() })
                .collect();
            check_fields(service, &all, Error::Forbidden)?;
            let active = f.clone().into_active_model().reset_all();
            Ok::<_, Error>(cairn_store::write::update(tx, active).await?)
        })
        .await?;
    let (body, etag) = service.field_reply(&f);
    Ok(UpdateContentTypeDraftFieldDefinitionResponse::Ok { body, etag })
}

pub(super) async fn remove(
    service: &ContentTypesService,
    cx: &Caller,
    req: RemoveContentTypeDraftFieldDefinitionRequest,
) -> Result<RemoveContentTypeDraftFieldDefinitionResponse> {
    service
        .db
        .write(cx.change(), async |tx| {
            let draft = rows::find(tx, req.content_type_id, DRAFT).await?;
            let f = draft
                .fields
                .iter()
                .find(|f| f.id == req.field_definition_id)
                .ok_or_else(|| Error::not_found("FieldDefinition", req.field_definition_id))?;
            preconditions::if_match(&req.if_match, async || Ok(service.field_definition(f)))
                .await?;
            field_definition::Entity::delete_by_id((f.id, DRAFT))
                .exec(tx)
                .await?;
            Ok::<_, Error>(())
        })
        .await?;
    Ok(RemoveContentTypeDraftFieldDefinitionResponse::NoContent)
}

/// The Field definitions of the type `id` in `status` (defined or draft).
async fn definitions(
    service: &ContentTypesService,
    db: &impl cairn_store::Connection,
    id: i64,
    status: i64,
) -> Result<FieldDefinitionList> {
    let t = rows::find(db, id, status).await?;
    Ok(service.field_definition_list(t.ty.id, status, &t.fields))
}

/// The Field definition `field_id` of the type `id` in `status`, with its ETag.
async fn definition(
    service: &ContentTypesService,
    db: &impl cairn_store::Connection,
    id: i64,
    status: i64,
    field_id: i64,
) -> Result<(FieldDefinition, ETag)> {
    let f = service.field_of(db, id, status, field_id).await?;
    Ok(service.field_reply(&f))
}
