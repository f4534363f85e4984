//! Content types made whole: created from a ContentTypeCreate (a draft, or published at
//! once) and copied.

use super::ContentTypesService;
use super::*;

/// Creates a content type in a group: its draft, or with `publish` the defined type.
pub(super) async fn create(
    service: &ContentTypesService,
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
    let published = service
        .db
        .write(cx.change(), async |tx| {
            find_group(tx, req.content_type_group_id).await?;
            service
                .ensure_type_free(tx, &b.identifier, b.remote_id.as_deref(), None)
                .await?;
            let id = next_id(tx, "content_types").await?;
            let mut fields = Vec::new();
            for (i, f) in b.field_definitions.iter().enumerate() {
                let fid = next_id(tx, "field_definitions").await?;
                fields.push(service.new_field(fid, id, DRAFT, f, i as i64 + 1, &cx.uploads)?);
            }
            check_fields(service, &fields, Error::BadRequest)?;
            let draft = TypeRows {
                ty: content_type::Model {
                    id,
                    status: DRAFT,
                    identifier: b.identifier.clone(),
                    remote_id: b
                        .remote_id
                        .clone()
                        .unwrap_or_else(crate::stored::new_remote_id),
                    names: stored::lang_map_json(b.names.as_ref().unwrap_or(&LangMap::default())),
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
            tx.created(&if req.publish {
                hrefs::load_content_type(id)
            } else {
                hrefs::load_content_type_draft(id)
            });
            if req.publish {
                service.publish_draft(tx, id).await
            } else {
                Ok(draft)
            }
        })
        .await?;
    Ok(CreateContentTypeResponse::Created {
        body: service.content_type(&published),
    })
}

/// Copies a defined content type (`copy_of_<identifier>_<id>`) with its Field definitions.
pub(super) async fn copy(
    service: &ContentTypesService,
    cx: &Caller,
    req: CopyContentTypeRequest,
) -> Result<CopyContentTypeResponse> {
    let id = service
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
