//! Lists of content types: by identifier or remote id (`GET /content/types`) and the
//! content type view (`POST /content/types/view`).

use super::ContentTypesService;
use super::*;

pub(super) async fn list(
    service: &ContentTypesService,
    cx: &Caller,
    req: ListContentTypesRequest,
) -> Result<ListContentTypesResponse> {
    let db = cx.reader();
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
    let limit = match req.limit {
        None => Limit(None),
        Some(Limit(Some(n))) if n > 0 => Limit(Some(n)),
        Some(_) => {
            return Err(Error::BadRequest("wrong value for limit parameter".into()));
        }
    };
    let types = limit.window(types, req.offset);
    Ok(match req.accept {
        ListContentTypesAccept::ContentTypeList => {
            let types = service.defined_types(db, types).await?;
            ListContentTypesResponse::OkContentTypeList {
                body: service.full_list(&hrefs::list_content_types(), &types),
            }
        }
        ListContentTypesAccept::ContentTypeInfoList => {
            ListContentTypesResponse::OkContentTypeInfoList {
                body: service.info_list(&hrefs::list_content_types(), &types),
            }
        }
    })
}

pub(super) async fn view(
    service: &ContentTypesService,
    cx: &Caller,
    req: CreateContentTypeViewRequest,
) -> Result<CreateContentTypeViewResponse> {
    let db = cx.reader();
    let q = &req.body.content_type_query;
    let mut query = content_type::Entity::find().filter(content_type::Column::Status.eq(DEFINED));
    if let Some(c) = &q.query {
        if !c.content_type_id_criterion.is_empty() {
            query =
                query.filter(content_type::Column::Id.is_in(c.content_type_id_criterion.clone()));
        }
        if !c.content_type_identifier_criterion.is_empty() {
            query = query.filter(
                content_type::Column::Identifier.is_in(c.content_type_identifier_criterion.clone()),
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
            let ids = rows::defined_in_groups(db, group_ids).await?;
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
    let types = service.defined_types(db, types).await?;
    Ok(CreateContentTypeViewResponse::Ok {
        body: service.full_list(&hrefs::list_content_types(), &types),
    })
}
