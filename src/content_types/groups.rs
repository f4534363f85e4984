//! Content type groups, and the groups each content type is in (links).

use super::ContentTypesService;
use super::*;

pub(super) async fn list(
    _service: &ContentTypesService,
    cx: &Caller,
    req: LoadContentTypeGroupListRequest,
) -> Result<LoadContentTypeGroupListResponse> {
    if let Some(identifier) = req.identifier {
        let g = content_type_group::Entity::find()
            .filter(content_type_group::Column::Identifier.eq(identifier.as_str()))
            .one(cx.reader())
            .await?
            .ok_or_else(|| Error::not_found("ContentTypeGroup", &identifier))?;
        return Ok(LoadContentTypeGroupListResponse::TemporaryRedirect {
            location: hrefs::load_content_type_group(g.id),
        });
    }
    let groups = content_type_group::Entity::find()
        .order_by_asc(content_type_group::Column::Id)
        .all(cx.reader())
        .await?;
    Ok(LoadContentTypeGroupListResponse::Ok {
        body: ContentTypeGroupList {
            href: hrefs::load_content_type_group_list(),
            content_type_group: groups.iter().map(group).collect(),
        },
    })
}

pub(super) async fn create(
    service: &ContentTypesService,
    cx: &Caller,
    req: CreateContentTypeGroupRequest,
) -> Result<CreateContentTypeGroupResponse> {
    let identifier = req
        .body
        .identifier
        .ok_or_else(|| Error::BadRequest("ContentTypeGroupInput.identifier is required".into()))?;
    if identifier.trim().is_empty() {
        return Err(Error::BadRequest(
            "ContentTypeGroupInput.identifier must not be empty".into(),
        ));
    }
    let now = req.body.modification_date.unwrap_or_else(Timestamp::now).0;
    let user = req.body.user.unwrap_or(cx.user_id);
    let g = service
        .db
        .write(cx.change(), async |tx| {
            tx.lock("content_type_group_identifier").await?;
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
            let g = cairn_store::write::insert(
                tx,
                content_type_group::ActiveModel {
                    identifier: Set(identifier.clone()),
                    created: Set(now),
                    modified: Set(now),
                    creator_id: Set(user),
                    modifier_id: Set(user),
                    ..Default::default()
                },
            )
            .await?;
            tx.created(&hrefs::load_content_type_group(g.id));
            Ok(g)
        })
        .await?;
    Ok(CreateContentTypeGroupResponse::Created { body: group(&g) })
}

pub(super) async fn load(
    _service: &ContentTypesService,
    cx: &Caller,
    req: LoadContentTypeGroupRequest,
) -> Result<LoadContentTypeGroupResponse> {
    let body = group(&find_group(cx.reader(), req.content_type_group_id).await?);
    Ok(LoadContentTypeGroupResponse::Ok {
        etag: ETag::of(&body),
        body,
    })
}

pub(super) async fn update(
    service: &ContentTypesService,
    cx: &Caller,
    req: UpdateContentTypeGroupRequest,
) -> Result<UpdateContentTypeGroupResponse> {
    let g = service
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
                tx.lock("content_type_group_identifier").await?;
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
            Ok(cairn_store::write::update(tx, active).await?)
        })
        .await?;
    let body = group(&g);
    Ok(UpdateContentTypeGroupResponse::Ok {
        etag: ETag::of(&body),
        body,
    })
}

pub(super) async fn delete(
    service: &ContentTypesService,
    cx: &Caller,
    req: DeleteContentTypeGroupRequest,
) -> Result<DeleteContentTypeGroupResponse> {
    service
        .db
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

pub(super) async fn types_in(
    service: &ContentTypesService,
    cx: &Caller,
    req: ListContentTypesForGroupRequest,
) -> Result<ListContentTypesForGroupResponse> {
    let db = cx.reader();
    find_group(db, req.content_type_group_id).await?;
    let ids = rows::defined_in_groups(db, vec![req.content_type_group_id]).await?;
    let types = content_type::Entity::find()
        .filter(content_type::Column::Id.is_in(ids))
        .filter(content_type::Column::Status.eq(DEFINED))
        .order_by_asc(content_type::Column::Id)
        .all(db)
        .await?;
    let href = hrefs::list_content_types_for_group(req.content_type_group_id);
    Ok(match req.accept {
        ListContentTypesForGroupAccept::ContentTypeList => {
            let types = service.defined_types(db, types).await?;
            ListContentTypesForGroupResponse::OkContentTypeList {
                body: service.full_list(&href, &types),
            }
        }
        ListContentTypesForGroupAccept::ContentTypeInfoList => {
            ListContentTypesForGroupResponse::OkContentTypeInfoList {
                body: service.info_list(&href, &types),
            }
        }
    })
}

pub(super) async fn groups_of(
    _service: &ContentTypesService,
    cx: &Caller,
    req: LoadGroupsOfContentTypeRequest,
) -> Result<LoadGroupsOfContentTypeResponse> {
    let t = rows::find(cx.reader(), req.content_type_id, DEFINED).await?;
    Ok(LoadGroupsOfContentTypeResponse::Ok {
        body: group_refs(t.ty.id, &t.groups),
    })
}

pub(super) async fn link(
    service: &ContentTypesService,
    cx: &Caller,
    req: LinkContentTypeToGroupRequest,
) -> Result<LinkContentTypeToGroupResponse> {
    let href = req.group.ok_or_else(|| {
        Error::BadRequest(
            "The query parameter 'group' (a content type group href) is required".into(),
        )
    })?;
    let group_id = hrefs::read::load_content_type_group(cx.api_path(&href))
        .ok_or_else(|| Error::BadRequest(format!("'{href}' is not a content type group href")))?;
    let groups = service
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
            cairn_store::write::insert(
                tx,
                content_type_group_link::ActiveModel {
                    content_type_id: Set(req.content_type_id),
                    status: Set(DEFINED),
                    group_id: Set(group_id),
                },
            )
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

pub(super) async fn unlink(
    service: &ContentTypesService,
    cx: &Caller,
    req: UnlinkContentTypeFromGroupRequest,
) -> Result<UnlinkContentTypeFromGroupResponse> {
    let groups = service
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
