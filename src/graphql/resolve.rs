//! The resolver of each field: a field of the domain schema by its role (`domain::Role`), a
//! field of the fixed part by its type and name, and every other field read from its parent
//! value (`data.rs` puts plain fields there).

use super::data::{
    self, Gq, Hits, Shared, criterion, error, from_global_id, get, int, object, text,
};
use super::domain::{Domain, FieldDesc, Role};
use super::mutate;
use crate::api::model::*;
use crate::api::traits::*;
use crate::mount::Services;
use async_graphql::dynamic::{FieldFuture, FieldValue, ResolverContext};
use async_graphql::{Name, Value};
use base64::Engine;
use cairn_runtime::HashValue;
use std::collections::HashMap;
use std::sync::Arc;

type Result<T> = data::Result<T>;

/// A field's resolver.
pub type Resolver = Arc<dyn for<'a> Fn(ResolverContext<'a>) -> FieldFuture<'a> + Send + Sync>;

/// The most entries a list argument (`sortBy`, `variations(identifier)`) takes.
const MAX_LIST: usize = 20;

/// The most items a connection gives at once.
pub const MAX_PAGE: i64 = 1000;
/// A connection's page size when neither `first` nor `last` is given (the reference's).
const PAGE: i64 = 10;

/// What a resolver answers: a value of its own, or one the request's loads share.
pub enum Out {
    Own(Value),
    Shared(Shared),
    /// A shared object as the given type (the untyped content of `DomainContent` fields).
    Typed(Shared, &'static str),
    /// Shared objects, in order.
    Many(Vec<Shared>),
}

impl From<Value> for Out {
    fn from(v: Value) -> Out {
        Out::Own(v)
    }
}

impl From<Shared> for Out {
    fn from(v: Shared) -> Out {
        Out::Shared(v)
    }
}

impl From<Option<Shared>> for Out {
    fn from(v: Option<Shared>) -> Out {
        v.map_or(Out::Own(Value::Null), Out::Shared)
    }
}

/// The concrete type of an object value of an interface or union.
fn type_of(v: &Value) -> String {
    text(get(v, "__typename"))
        .unwrap_or("UntypedItem")
        .to_string()
}

/// An answer as a field's value: objects of an interface or union with their concrete type;
/// a shared object passed on, not copied.
fn out(v: Out, abstract_type: bool) -> Option<FieldValue<'static>> {
    match v {
        Out::Shared(a) if matches!(*a, Value::Object(_)) => {
            let ty = abstract_type.then(|| type_of(&a));
            let f = FieldValue::owned_any(a);
            Some(match ty {
                Some(ty) => f.with_type(ty),
                None => f,
            })
        }
        Out::Shared(a) => out(Out::Own((*a).clone()), abstract_type),
        Out::Typed(a, ty) => Some(FieldValue::owned_any(a).with_type(ty)),
        Out::Many(all) => {
            Some(FieldValue::list(all.into_iter().map(|a| {
                out(Out::Shared(a), abstract_type).unwrap_or(FieldValue::NULL)
            })))
        }
        Out::Own(Value::Null) => None,
        Out::Own(Value::List(items)) if abstract_type => Some(FieldValue::list(
            items
                .into_iter()
                .map(|i| out(Out::Own(i), true).unwrap_or(FieldValue::NULL)),
        )),
        Out::Own(v) if abstract_type => {
            let ty = type_of(&v);
            Some(FieldValue::value(v).with_type(ty))
        }
        Out::Own(v) => Some(FieldValue::value(v)),
    }
}

/// A value inside the parent's, as a field's value: objects and lists of them borrowed.
fn borrowed(v: &Value, abstract_type: bool) -> Option<FieldValue<'_>> {
    match v {
        Value::Null => None,
        Value::Object(_) => {
            let f = FieldValue::borrowed_any(v);
            Some(match abstract_type {
                true => f.with_type(type_of(v)),
                false => f,
            })
        }
        Value::List(items) if items.iter().any(|i| matches!(i, Value::Object(_))) => {
            Some(FieldValue::list(items.iter().map(|i| {
                borrowed(i, abstract_type).unwrap_or(FieldValue::NULL)
            })))
        }
        v => Some(FieldValue::value(v.clone())),
    }
}

/// The value a field's parent is: its own, borrowed from its parent, or shared.
fn parent<'a>(ctx: &ResolverContext<'a>) -> &'a Value {
    static NULL: Value = Value::Null;
    let p = ctx.parent_value;
    (p.downcast_ref::<Value>())
        .or_else(|| p.downcast_ref::<Shared>().map(|a| &**a))
        .or_else(|| p.as_value())
        .unwrap_or(&NULL)
}

/// A field read from its parent value (`_info` and `_content` of an item are its
/// `_contentInfo`).
fn read(name: String, abstract_type: bool) -> Resolver {
    Arc::new(move |ctx| {
        let p = parent(&ctx);
        let v = get(p, &name).or_else(|| match name.as_str() {
            "_info" | "_content" => get(p, "_contentInfo"),
            _ => None,
        });
        FieldFuture::Value(v.and_then(|v| borrowed(v, abstract_type)))
    })
}

/// A resolver running `f` on the request's state, the parent value and the arguments.
fn with<F>(abstract_type: bool, f: F) -> Resolver
where
    F: for<'a> Fn(
            &'a Gq,
            &'a Value,
            &'a ResolverContext<'a>,
        ) -> futures_util::future::BoxFuture<'a, Result<Out>>
        + Send
        + Sync
        + 'static,
{
    let f = Arc::new(f);
    Arc::new(move |ctx| {
        let f = f.clone();
        FieldFuture::new(async move {
            let gq = ctx.data::<Gq>()?;
            let v = f(gq, parent(&ctx), &ctx).await?;
            Ok(out(v, abstract_type))
        })
    })
}

macro_rules! resolver {
    ($abstract:expr, [$($kept:ident),*], |$gq:ident, $p:ident, $ctx:ident| $body:expr) => {
        with($abstract, move |$gq, $p, $ctx| {
            $(let $kept = $kept.clone();)*
            Box::pin(async move {
                let _ = (&$gq, &$p, &$ctx);
                let answer: Result<_> = async move { $body }.await;
                answer.map(Out::from)
            })
        })
    };
    ($abstract:expr, |$gq:ident, $p:ident, $ctx:ident| $body:expr) => {
        resolver!($abstract, [], |$gq, $p, $ctx| $body)
    };
}

/// The resolver of `field` of the type `ty`; `abstract_type`: the field's type is an
/// interface or a union.
pub fn resolver(ty: &str, field: &str, abstract_type: bool, domain: &Domain) -> Resolver {
    if let Some(role) = domain.roles.get(&(ty.to_string(), field.to_string())) {
        return by_role(role.clone(), abstract_type, domain);
    }
    let a = abstract_type;
    match (ty, field) {
        ("ItemMutation", "deleteContent") => {
            resolver!(a, |gq, p, ctx| mutate::delete(gq, ctx).await)
        }
        ("ItemMutation", "createToken") => {
            resolver!(a, |gq, p, ctx| mutate::create_token(gq, ctx).await)
        }
        ("ItemMutation", "uploadFiles") => {
            resolver!(a, |gq, p, ctx| mutate::upload_files(gq, ctx).await)
        }
        ("Domain", "_repository") => resolver!(a, |gq, p, ctx| Ok(object([]))),
        ("Domain", "item") => resolver!(a, |gq, p, ctx| find_item(gq, ctx, None).await),
        ("Domain", "node") => resolver!(a, |gq, p, ctx| {
            let id = ctx.args.try_get("id")?.string()?;
            match from_global_id(id) {
                Some(id) => gq.item(id).await,
                None => Err(format!("'{id}' is not an id of this API").into()),
            }
        }),
        // Every item's own fields.
        (_, "_type") => resolver!(a, |gq, p, ctx| match int(get(p, "__typeId")) {
            Some(id) => content_type(gq, id).await.map(Out::from),
            None => Ok(Out::Own(Value::Null)),
        }),
        (_, "_location") => resolver!(a, |gq, p, ctx| {
            let id = int(get(p, "__locationId"))
                .or_else(|| get(p, "_contentInfo").and_then(|i| int(get(i, "mainLocationId"))));
            location(gq, id).await
        }),
        (_, "_allLocations") | ("Content", "locations") => resolver!(a, |gq, p, ctx| {
            let id = int(get(p, "__contentId")).or_else(|| int(get(p, "id")));
            match id {
                Some(id) => all_locations(gq, id).await,
                None => Ok(Out::Own(Value::Null)),
            }
        }),
        (_, "_url") => resolver!(a, |gq, p, ctx| {
            let id = int(get(p, "__locationId"))
                .or_else(|| get(p, "_contentInfo").and_then(|i| int(get(i, "mainLocationId"))));
            match id {
                Some(id) => url_of(gq, id).await,
                None => Ok(Value::Null),
            }
        }),
        // Locations.
        ("Location", "children") => resolver!(a, |gq, p, ctx| {
            let id = int(get(p, "id")).unwrap_or_default();
            let filter = criterion("ParentLocationIdCriterion", &[id]);
            connection(gq, ctx, true, filter).await
        }),
        ("Location", "parentLocation") => {
            resolver!(a, |gq, p, ctx| location(
                gq,
                int(get(p, "parentLocationId"))
            )
            .await)
        }
        ("Location", "contentInfo") => Arc::new(|ctx| {
            let p = parent(&ctx);
            if let Some(info) = get(p, "__item").and_then(|i| get(i, "_contentInfo")) {
                return FieldFuture::Value(borrowed(info, false));
            }
            FieldFuture::new(async move {
                let gq = ctx.data::<Gq>()?;
                let item = match int(get(parent(&ctx), "contentId")) {
                    Some(id) => gq.item(id).await?,
                    None => None,
                };
                let info = item.and_then(|i| get(&i, "_contentInfo").cloned());
                Ok(info.map(FieldValue::value))
            })
        }),
        // `DomainContent`: the reference's 4.x answers the untyped content here.
        ("Location", "content") => Arc::new(|ctx| {
            let p = parent(&ctx);
            if let Some(item @ Value::Object(_)) = get(p, "__item") {
                let f = FieldValue::borrowed_any(item).with_type("UntypedContent");
                return FieldFuture::Value(Some(f));
            }
            FieldFuture::new(async move {
                let gq = ctx.data::<Gq>()?;
                let item = match int(get(parent(&ctx), "contentId")) {
                    Some(id) => gq.item(id).await?,
                    None => None,
                };
                Ok(item.map(|i| FieldValue::owned_any(i).with_type("UntypedContent")))
            })
        }),
        ("Location", "urlAliases") => resolver!(a, |gq, p, ctx| {
            let custom = ctx.args.get("custom").map(|c| c.boolean()).transpose()?;
            match int(get(p, "id")) {
                Some(id) => url_aliases(gq, id, custom.unwrap_or(false)).await,
                None => Ok(Out::Own(Value::Null)),
            }
        }),
        ("LocationUrlAlias", "location") => {
            resolver!(a, |gq, p, ctx| location(gq, int(get(p, "__locationId")))
                .await)
        }
        // Content items.
        ("Content", "contentType") => {
            resolver!(a, |gq, p, ctx| match int(get(p, "contentTypeId")) {
                Some(id) => content_type(gq, id).await.map(Out::from),
                None => Ok(Out::Own(Value::Null)),
            })
        }
        ("Content", "section") => resolver!(a, |gq, p, ctx| match int(get(p, "__sectionId")) {
            Some(id) => section(gq, id).await.map(Out::from),
            None => Ok(Out::Own(Value::Null)),
        }),
        ("Content", "currentVersion") => {
            resolver!(a, |gq, p, ctx| Ok(get(p, "__version")
                .cloned()
                .unwrap_or_default()))
        }
        ("Content", "versions") => resolver!(a, |gq, p, ctx| {
            let cx = gq.client.calling("loadContentVersions")?;
            let req = LoadContentVersionsRequest {
                content_id: int(get(p, "id")).unwrap_or_default(),
            };
            let LoadContentVersionsResponse::Ok { body } =
                ContentApi::<Services>::load_content_versions(
                    gq.client.services.content(),
                    &cx,
                    req,
                )
                .await
                .map_err(error)?;
            Ok(Value::List(
                body.version_item
                    .iter()
                    .map(|v| data::version_map(&v.version_info))
                    .collect(),
            ))
        }),
        ("Content", "relations") => resolver!(a, |gq, p, ctx| relations(gq, p).await),
        ("Content", "reverseRelations") => {
            resolver!(a, |gq, p, ctx| reverse_relations(gq, p).await)
        }
        ("Content", "states") => resolver!(a, |gq, p, ctx| {
            let id = int(get(p, "id")).unwrap_or_default();
            let cx = gq.client.calling("getObjectStatesForContent")?;
            let req = GetObjectStatesForContentRequest { content_id: id };
            let GetObjectStatesForContentResponse::Ok { body, .. } =
                ContentApi::<Services>::get_object_states_for_content(
                    gq.client.services.content(),
                    &cx,
                    req,
                )
                .await
                .map_err(error)?;
            let mut out = Vec::new();
            for href in &body.object_state {
                // `/content/objectstategroups/<group>/objectstates/<state>`
                let parts: Vec<i64> = href.split('/').filter_map(|p| p.parse().ok()).collect();
                if let [group, state] = parts[..]
                    && let Value::List(states) = states(gq, group).await?
                {
                    out.extend(
                        states
                            .into_iter()
                            .filter(|s| int(get(s, "id")) == Some(state)),
                    );
                }
            }
            Ok(Value::List(out))
        }),
        ("ContentRelation", "sourceContent") => {
            resolver!(a, |gq, p, ctx| untyped(gq, int(get(p, "__sourceId"))).await)
        }
        ("ContentRelation", "destinationContent") => {
            resolver!(a, |gq, p, ctx| untyped(gq, int(get(p, "__destinationId")))
                .await)
        }
        ("ContentType", "groups") => resolver!(a, |gq, p, ctx| {
            let id = int(get(p, "id")).unwrap_or_default();
            let cx = gq.client.calling("loadGroupsOfContentType")?;
            let req = LoadGroupsOfContentTypeRequest {
                content_type_id: id,
            };
            let LoadGroupsOfContentTypeResponse::Ok { body } =
                ContentTypesApi::<Services>::load_groups_of_content_type(
                    gq.client.services.content_types(),
                    &cx,
                    req,
                )
                .await
                .map_err(error)?;
            let all = groups(gq).await?;
            let ids: Vec<i64> = (body.content_type_group_ref.iter())
                .filter_map(|g| data::href_id(&g.href))
                .collect();
            Ok(Value::List(
                all.iter()
                    .filter(|g| ids.contains(&g.id))
                    .map(data::group_map)
                    .collect(),
            ))
        }),
        ("User", "groups") => resolver!(a, |gq, p, ctx| {
            let id = int(get(p, "id")).unwrap_or_default();
            let cx = gq.client.calling("loadUserGroupsOfUser")?;
            let req = LoadUserGroupsOfUserRequest {
                user_id: id,
                offset: cairn_runtime::Offset(0),
                limit: cairn_runtime::Limit(None),
            };
            let LoadUserGroupsOfUserResponse::Ok { body } =
                UsersApi::<Services>::load_user_groups_of_user(
                    gq.client.services.users(),
                    &cx,
                    req,
                )
                .await
                .map_err(error)?;
            // Each group by its Location, then its content item: two batches.
            let locations: Vec<i64> = (body.user_group.iter())
                .filter_map(|g| data::href_id(&g.href))
                .collect();
            let found = gq
                .locations
                .load_many(locations.iter().copied())
                .await
                .map_err(data::unshared)?;
            let contents: Vec<i64> = (locations.iter())
                .filter_map(|l| found.get(l).and_then(|l| int(get(l, "contentId"))))
                .collect();
            let items = gq
                .items
                .load_many(contents.iter().copied())
                .await
                .map_err(data::unshared)?;
            Ok(Value::List(
                contents
                    .iter()
                    .filter_map(|c| items.get(c))
                    .map(|item| user_map(int(get(item, "__contentId")).unwrap_or_default(), item))
                    .collect(),
            ))
        }),
        ("UserGroup", "subGroups") => {
            resolver!(a, |gq, p, ctx| members(gq, p, "user_group").await)
        }
        ("UserGroup", "users") => resolver!(a, |gq, p, ctx| members(gq, p, "user").await),
        ("UserGroup", "parentGroup") => resolver!(a, |gq, p, ctx| {
            let here = location(gq, int(get(p, "__mainLocationId"))).await?;
            let parent = here.and_then(|l| int(get(&l, "parentLocationId")));
            let Some(parent) = location(gq, parent).await? else {
                return Ok(Value::Null);
            };
            match int(get(&parent, "contentId")) {
                Some(id) => match gq.item(id).await? {
                    Some(item) if text(get(&item, "__typename")) == Some("UserGroupItem") => {
                        Ok(user_map(id, &item))
                    }
                    _ => Ok(Value::Null),
                },
                None => Ok(Value::Null),
            }
        }),
        ("Content", "owner") => resolver!(a, |gq, p, ctx| user(gq, int(get(p, "ownerId"))).await),
        ("Content", "mainLocation") => {
            resolver!(a, |gq, p, ctx| location(gq, int(get(p, "mainLocationId")))
                .await)
        }
        ("Version", "creator") => {
            resolver!(a, |gq, p, ctx| user(gq, int(get(p, "creatorId"))).await)
        }
        ("Version", "name") | ("ContentType", "name") | ("FieldDefinition", "name") => {
            resolver!(a, |gq, p, ctx| translated(gq, ctx, get(p, "__names")))
        }
        ("ContentType", "description") | ("FieldDefinition", "description") => {
            resolver!(a, |gq, p, ctx| translated(
                gq,
                ctx,
                get(p, "__descriptions")
            ))
        }
        ("ContentType" | "ContentTypeGroup", "creator") => {
            resolver!(a, |gq, p, ctx| user(gq, int(get(p, "creatorId"))).await)
        }
        ("ContentType" | "ContentTypeGroup", "modifier") => {
            resolver!(a, |gq, p, ctx| user(gq, int(get(p, "modifierId"))).await)
        }
        ("ContentTypeGroup", "contentTypes") => resolver!(a, |gq, p, ctx| {
            types_of_group(gq, int(get(p, "id")).unwrap_or_default()).await
        }),
        ("DateTime", "format") => resolver!(a, |gq, p, ctx| {
            let ts = int(get(p, "timestamp")).unwrap_or_default();
            let pattern = match ctx.args.get("constant") {
                Some(c) => constant(c.enum_name()?).to_string(),
                None => match ctx.args.get("pattern") {
                    Some(p) => p.string()?.to_string(),
                    None => "Y-m-d\\TH:i:sP".to_string(),
                },
            };
            Ok(Value::from(php_date(ts, &pattern)))
        }),
        ("ImageFieldValue", "variation") => resolver!(a, |gq, p, ctx| {
            let arg = ctx.args.try_get("identifier")?;
            variation(gq, p, arg.enum_name()?).await
        }),
        ("ImageFieldValue", "variations") => resolver!(a, |gq, p, ctx| {
            let arg = ctx.args.try_get("identifier")?;
            let list = arg.list()?;
            if list.len() > MAX_LIST {
                return Err(format!("identifier: at most {MAX_LIST} variations").into());
            }
            let mut out = Vec::new();
            for name in list.iter() {
                out.push(variation(gq, p, name.enum_name()?).await?);
            }
            Ok(Value::List(out))
        }),
        ("RichTextFieldValue", "html5") => resolver!(a, |gq, p, ctx| {
            match text(get(p, "xml")) {
                Some(xml) => html5(gq, xml).await.map(Value::from),
                None => Ok(Value::Null),
            }
        }),
        ("RichTextFieldValue", "plaintext") => {
            resolver!(a, |gq, p, ctx| Ok(
                text(get(p, "xml")).map_or(Value::Null, |x| plain(x).into())
            ))
        }
        // The repository.
        ("Repository", "location") => resolver!(a, |gq, p, ctx| {
            let id = match (
                ctx.args.get("locationId"),
                ctx.args.get("remoteId"),
                ctx.args.get("urlAlias"),
            ) {
                (Some(id), _, _) => Some(id.i64()?),
                (None, Some(remote), _) => {
                    let remote = match remote.as_value() {
                        Value::String(s) => s.clone(),
                        v => v.to_string(),
                    };
                    location_by_remote_id(gq, &remote).await?
                }
                (None, None, Some(alias)) => location_by_alias(gq, alias.string()?).await?,
                _ => return Err("Missing argument: locationId, remoteId or urlAlias".into()),
            };
            location(gq, id).await
        }),
        ("Repository", "contentType") => resolver!(a, |gq, p, ctx| {
            let id = match (ctx.args.get("id"), ctx.args.get("identifier")) {
                (Some(id), _) => id.i64()?,
                (None, Some(identifier)) => {
                    let identifier = identifier.string()?;
                    match type_id_by_identifier(gq, identifier).await? {
                        Some(id) => id,
                        None => return Ok(Out::Own(Value::Null)),
                    }
                }
                _ => return Err("Missing argument: id or identifier".into()),
            };
            content_type(gq, id).await.map(Out::from)
        }),
        ("Repository", "contentTypes") => resolver!(a, |gq, p, ctx| {
            let group = match (ctx.args.get("groupId"), ctx.args.get("groupIdentifier")) {
                (Some(id), _) => id
                    .string()?
                    .parse::<i64>()
                    .map_err(|_| async_graphql::Error::new("groupId: not a number"))?,
                (None, Some(identifier)) => {
                    let identifier = identifier.string()?.to_string();
                    let groups = groups(gq).await?;
                    match groups.iter().find(|g| g.identifier == identifier) {
                        Some(g) => g.id,
                        None => return Ok(Value::List(Vec::new())),
                    }
                }
                _ => return Err("Missing argument: groupId or groupIdentifier".into()),
            };
            types_of_group(gq, group).await
        }),
        ("Repository", "objectStateGroups") => resolver!(a, |gq, p, ctx| {
            let cx = gq.client.calling("loadObjectStateGroups")?;
            let LoadObjectStateGroupsResponse::Ok { body } =
                ObjectStatesApi::<Services>::load_object_state_groups(
                    gq.client.services.object_states(),
                    &cx,
                    LoadObjectStateGroupsRequest {},
                )
                .await
                .map_err(error)?;
            Ok(Value::List(
                body.object_state_group
                    .iter()
                    .map(data::state_group_map)
                    .collect(),
            ))
        }),
        ("Repository", "objectStateGroup") => resolver!(a, |gq, p, ctx| {
            state_group(gq, ctx.args.try_get("id")?.i64()?).await
        }),
        ("Repository", "objectStates") | ("ObjectStateGroup", "states") => {
            resolver!(a, |gq, p, ctx| {
                let id = match ctx.args.get("groupId") {
                    Some(id) => id.i64()?,
                    None => int(get(p, "id")).unwrap_or_default(),
                };
                states(gq, id).await
            })
        }
        ("Repository", "objectState") => resolver!(a, |gq, p, ctx| {
            let id = ctx.args.try_get("id")?.i64()?;
            let cx = gq.client.calling("loadObjectStateGroups")?;
            let LoadObjectStateGroupsResponse::Ok { body } =
                ObjectStatesApi::<Services>::load_object_state_groups(
                    gq.client.services.object_states(),
                    &cx,
                    LoadObjectStateGroupsRequest {},
                )
                .await
                .map_err(error)?;
            for g in &body.object_state_group {
                if let Value::List(states) = states(gq, g.id).await?
                    && let Some(s) = states.into_iter().find(|s| int(get(s, "id")) == Some(id))
                {
                    return Ok(s);
                }
            }
            Ok(Value::Null)
        }),
        ("ObjectState", "group") => {
            resolver!(a, |gq, p, ctx| match int(get(p, "__groupId")) {
                Some(id) => state_group(gq, id).await.map(Out::from),
                None => Ok(Out::Own(Value::Null)),
            })
        }
        ("User" | "UserGroup", "content") => {
            resolver!(a, |gq, p, ctx| match int(get(p, "__contentId")) {
                Some(id) => gq.item(id).await,
                None => Ok(None),
            })
        }
        // An item type's `_info` is the content type itself.
        (_, "_info") if ty.ends_with("ItemType") => {
            Arc::new(|ctx| FieldFuture::Value(borrowed(parent(&ctx), false)))
        }
        _ => read(field.to_string(), abstract_type),
    }
}

fn by_role(role: Role, a: bool, domain: &Domain) -> Resolver {
    match role {
        Role::Group(id) => resolver!(a, |gq, p, ctx| {
            let info = gq
                .kept(format!("group:{id}"), async |c| {
                    let cx = c.calling("loadContentTypeGroup")?;
                    let req = LoadContentTypeGroupRequest {
                        content_type_group_id: id,
                    };
                    let LoadContentTypeGroupResponse::Ok { body, .. } =
                        ContentTypesApi::<Services>::load_content_type_group(
                            c.services.content_types(),
                            &cx,
                            req,
                        )
                        .await
                        .map_err(error)?;
                    Ok(data::group_map(&body))
                })
                .await?;
            Ok(object([("_info", (*info).clone())]))
        }),
        Role::GroupTypes => resolver!(a, |gq, p, ctx| Ok(object([]))),
        Role::TypeInfo(ti) => {
            let id = domain.types[ti].id;
            resolver!(a, |gq, p, ctx| content_type(gq, id).await)
        }
        Role::ItemOfType(ti) => resolver!(a, |gq, p, ctx| find_item(gq, ctx, Some(ti)).await),
        Role::ItemsOfType(ti) => {
            let identifier = domain.types[ti].identifier.clone();
            resolver!(a, [identifier], |gq, p, ctx| {
                let mut all = vec![HashValue::Map(vec![(
                    "ContentTypeIdentifierCriterion".into(),
                    HashValue::String(identifier.clone()),
                )])];
                if let Some(q) = ctx.args.get("query") {
                    all.extend(search_query(q.as_value())?);
                }
                let filter = HashValue::Map(vec![("AND".into(), HashValue::List(all))]);
                connection(gq, ctx, false, filter).await
            })
        }
        Role::Create(ti) => resolver!(a, |gq, p, ctx| mutate::create(gq, ctx, ti).await),
        Role::Update(ti) => resolver!(a, |gq, p, ctx| mutate::update(gq, ctx, ti).await),
        Role::FieldValue(ti, fi) => {
            let field = Arc::new(domain.types[ti].fields[fi].clone());
            resolver!(a, [field], |gq, p, ctx| field_value(gq, p, ctx, &field)
                .await)
        }
    }
}

/// The language a field is read in: the one asked for, else the item's main language, else
/// its first.
fn pick<'v>(
    gq: &Gq,
    ctx: &ResolverContext<'_>,
    item: &Value,
    langs: &'v Value,
) -> Result<Option<&'v Value>> {
    let Value::Object(by_lang) = langs else {
        return Ok(None);
    };
    if let Some(l) = ctx.args.get("language") {
        let name = l.enum_name()?;
        let code = gq.domain().languages.get(name).map_or(name, String::as_str);
        return Ok(by_lang.get(code));
    }
    for code in [
        text(get(item, "__mainLanguage")),
        text(get(item, "__language")),
    ]
    .into_iter()
    .flatten()
    {
        if let Some(v) = by_lang.get(code) {
            return Ok(Some(v));
        }
    }
    Ok(by_lang.values().next())
}

async fn field_value(
    gq: &Gq,
    item: &Value,
    ctx: &ResolverContext<'_>,
    f: &FieldDesc,
) -> Result<Out> {
    let Some(langs) = get(item, "__fields").and_then(|fs| get(fs, &f.identifier)) else {
        return Ok(Out::Own(Value::Null));
    };
    let Some(v) = pick(gq, ctx, item, langs)? else {
        return Ok(Out::Own(Value::Null));
    };
    let field = |k: &str| get(v, k).cloned().unwrap_or_default();
    Ok(Out::Own(match f.field_type.as_str() {
        "ezdate" | "ezdatetime" => match v {
            Value::Number(n) => object([("timestamp", n.as_i64().unwrap_or_default().into())]),
            Value::Object(_) => match int(get(v, "timestamp")) {
                Some(ts) => object([("timestamp", ts.into())]),
                None => Value::Null,
            },
            _ => Value::Null,
        },
        "ezcountry" => crate::field_types::country::names(&data::to_hash(v))
            .join(", ")
            .into(),
        "ezselection" => {
            let chosen: Vec<Value> = match v {
                Value::List(l) => l
                    .iter()
                    .filter_map(|i| int(Some(i)))
                    .filter_map(|i| f.options.iter().find(|(k, _)| *k == i))
                    .map(|(_, label)| label.clone().into())
                    .collect(),
                _ => Vec::new(),
            };
            if f.value_type.starts_with('[') {
                Value::List(chosen)
            } else {
                chosen.into_iter().next().unwrap_or_default()
            }
        }
        "ezrichtext" => object([
            ("text", field("xml")),
            ("xml", field("xml")),
            ("html5_edit", field("xhtml5edit")),
        ]),
        "ezimage" => image_value(v),
        "ezimageasset" => {
            let Some(id) = int(get(v, "destinationContentId")) else {
                return Ok(Out::Own(Value::Null));
            };
            let Some(asset) = gq.item(id).await? else {
                return Ok(Out::Own(Value::Null));
            };
            // The asset's image: its first image field.
            let image = get(&asset, "__fields").and_then(|fs| match fs {
                Value::Object(o) => o
                    .values()
                    .filter_map(|l| match l {
                        Value::Object(by_lang) => by_lang.values().next(),
                        _ => None,
                    })
                    .find(|v| get(v, "imageId").is_some()),
                _ => None,
            });
            match image {
                Some(i) => {
                    let mut value = image_value(i);
                    if let (Value::Object(o), Some(alt)) =
                        (&mut value, text(get(v, "alternativeText")))
                        && !alt.is_empty()
                    {
                        o.insert(Name::new("alternativeText"), alt.into());
                    }
                    value
                }
                None => Value::Null,
            }
        }
        "ezurl" => field("link"),
        // Each row with every column, an absent cell '' (the matrix bundle's `SilentRow`).
        "ezmatrix" => Value::List(match get(v, "entries") {
            Some(Value::List(rows)) => rows
                .iter()
                .map(|row| {
                    let cells = f.columns.iter().map(|c| {
                        let cell = match get(row, c) {
                            Some(Value::Null) | None => Value::from(""),
                            Some(v) => as_text(v),
                        };
                        (Name::new(c), cell)
                    });
                    Value::Object(cells.collect())
                })
                .collect(),
            _ => Vec::new(),
        }),
        "ezgmaplocation" => object([
            ("text", field("address")),
            ("latitude", as_text(&field("latitude"))),
            ("longitude", as_text(&field("longitude"))),
            ("address", field("address")),
        ]),
        "ezbinaryfile" | "ezmedia" => object([
            ("fileName", field("fileName")),
            ("fileSize", field("fileSize")),
            ("mimeType", field("mimeType")),
            ("uri", field("uri")),
            ("text", field("fileName")),
            ("hasController", field("hasController")),
            ("autoplay", field("autoplay")),
            ("loop", field("loop")),
            ("height", field("height")),
            ("width", field("width")),
        ]),
        "ezobjectrelation" | "ezobjectrelationlist" => {
            let ids: Vec<i64> = match get(v, "destinationContentIds") {
                Some(Value::List(l)) => l.iter().filter_map(|i| int(Some(i))).collect(),
                _ => int(get(v, "destinationContentId")).into_iter().collect(),
            };
            let found = gq
                .items
                .load_many(ids.iter().copied())
                .await
                .map_err(data::unshared)?;
            let items: Vec<Shared> = ids.iter().filter_map(|i| found.get(i).cloned()).collect();
            return Ok(if f.value_type.starts_with('[') {
                Out::Many(items)
            } else {
                Out::from(items.into_iter().next())
            });
        }
        "ezuser" => int(get(item, "__contentId")).map_or(Value::Null, |id| id.to_string().into()),
        "eztime" => match int(Some(v)) {
            Some(s) => format!("{:02}:{:02}:{:02}", s / 3600, s % 3600 / 60, s % 60).into(),
            None => Value::Null,
        },
        "ezauthor" | "ezkeyword" | "ezinteger" | "ezfloat" | "ezboolean" => v.clone(),
        _ => match v {
            Value::String(_) | Value::Null => v.clone(),
            other => other.to_string().into(),
        },
    }))
}

fn as_text(v: &Value) -> Value {
    match v {
        Value::Null => Value::Null,
        Value::String(_) => v.clone(),
        other => other.to_string().into(),
    }
}

fn image_value(v: &Value) -> Value {
    let field = |k: &str| get(v, k).cloned().unwrap_or_default();
    if matches!(field("uri"), Value::Null) && matches!(field("id"), Value::Null) {
        return Value::Null;
    }
    object([
        ("text", field("fileName")),
        ("id", field("id")),
        ("alternativeText", field("alternativeText")),
        ("fileName", field("fileName")),
        ("fileSize", field("fileSize")),
        ("uri", field("uri")),
        ("width", field("width")),
        ("height", field("height")),
        (
            "additionalData",
            match field("additionalData") {
                Value::Object(o) => Value::Object(o),
                _ => Value::Null,
            },
        ),
        ("__imageId", field("imageId")),
        ("__mime", field("mime")),
    ])
}

async fn variation(gq: &Gq, image: &Value, name: &str) -> Result<Value> {
    let (Some(image_id), Some(path)) = (text(get(image, "__imageId")), text(get(image, "id")))
    else {
        return Ok(Value::Null);
    };
    // The item holding the image was read as the caller: its variation needs no other read.
    let original = crate::content::Original {
        path,
        mime: text(get(image, "__mime")).unwrap_or_default(),
        width: int(get(image, "width")),
        height: int(get(image, "height")),
        file_size: int(get(image, "fileSize")),
    };
    let (body, modified) = (gq.client.services.content())
        .variation_of(image_id, name, &original)
        .await
        .map_err(error)?;
    let file_name = body.uri.rsplit('/').next().unwrap_or_default().to_string();
    Ok(object([
        ("uri", body.uri.clone().into()),
        ("name", name.into()),
        (
            "mimeType",
            body.content_type.map_or(Value::Null, Value::from),
        ),
        ("fileName", file_name.into()),
        ("lastModified", data::date(modified.as_ref())),
        ("width", body.width.map_or(Value::Null, Value::from)),
        ("height", body.height.map_or(Value::Null, Value::from)),
    ]))
}

fn translated(gq: &Gq, ctx: &ResolverContext<'_>, names: Option<&Value>) -> Result<Value> {
    let Some(Value::Object(names)) = names else {
        return Ok(Value::Null);
    };
    let code = match ctx.args.get("language") {
        Some(l) if !l.is_null() => {
            let name = l.enum_name()?;
            Some(
                gq.domain()
                    .languages
                    .get(name)
                    .cloned()
                    .unwrap_or(name.to_string()),
            )
        }
        _ => None,
    };
    let found = match code {
        Some(c) => names.get(c.as_str()),
        None => names.get("eng-GB").or_else(|| names.values().next()),
    };
    Ok(found.cloned().unwrap_or_else(|| "".into()))
}

/// The item a query names by `contentId`, `remoteId`, `locationId`, `locationRemoteId` or
/// `urlAlias`; of the type `of` when given.
async fn find_item(gq: &Gq, ctx: &ResolverContext<'_>, of: Option<usize>) -> Result<Value> {
    let arg = |n: &str| ctx.args.get(n);
    let mut location_id = None;
    let item = if let Some(id) = arg("contentId") {
        gq.item(id.i64()?).await?.map(|i| (*i).clone())
    } else if let Some(remote) = arg("remoteId") {
        let filter = HashValue::Map(vec![(
            "ContentRemoteIdCriterion".into(),
            HashValue::String(remote.string()?.to_string()),
        )]);
        let Hits { hits, .. } = gq.client.search(false, filter, Vec::new(), 1, 0).await?;
        hits.iter().find_map(|h| match h {
            SearchHitObject::Content(c) => Some(data::item_map(gq.domain(), c)),
            _ => None,
        })
    } else {
        location_id = if let Some(id) = arg("locationId") {
            Some(id.i64()?)
        } else if let Some(remote) = arg("locationRemoteId") {
            location_by_remote_id(gq, remote.string()?).await?
        } else if let Some(alias) = arg("urlAlias") {
            location_by_alias(gq, alias.string()?).await?
        } else {
            return Err(
                "Missing argument: contentId, remoteId, locationId, locationRemoteId or urlAlias"
                    .into(),
            );
        };
        match location(gq, location_id).await? {
            None => None,
            Some(l) => item_of_location(gq, &l).await?.map(|i| (*i).clone()),
        }
    };
    let Some(mut item) = item.filter(|i| !matches!(i, Value::Null)) else {
        return Err("Could not find the item, or it may not be read".into());
    };
    if let Some(ti) = of {
        let t = &gq.domain().types[ti];
        if int(get(&item, "__typeId")) != Some(t.id) {
            return Err(format!("The item is not of the content type '{}'", t.identifier).into());
        }
    }
    if let (Value::Object(o), Some(l)) = (&mut item, location_id) {
        o.insert(Name::new("__locationId"), l.into());
    }
    Ok(item)
}

async fn location(gq: &Gq, id: Option<i64>) -> Result<Option<Shared>> {
    match id {
        Some(id) => gq.location(id).await,
        None => Ok(None),
    }
}

/// The item of a Location value: embedded, else loaded.
async fn item_of_location(gq: &Gq, l: &Value) -> Result<Option<Shared>> {
    match get(l, "__item") {
        Some(i @ Value::Object(_)) => Ok(Some(Arc::new(i.clone()))),
        _ => match int(get(l, "contentId")) {
            Some(id) => gq.item(id).await,
            None => Ok(None),
        },
    }
}

async fn location_by_remote_id(gq: &Gq, remote: &str) -> Result<Option<i64>> {
    let filter = HashValue::Map(vec![(
        "LocationRemoteIdCriterion".into(),
        HashValue::String(remote.to_string()),
    )]);
    let Hits { hits, .. } = gq.client.search(true, filter, Vec::new(), 1, 0).await?;
    Ok(hits.iter().find_map(|h| match h {
        SearchHitObject::Location(l) => Some(l.id),
        _ => None,
    }))
}

async fn location_by_alias(gq: &Gq, alias: &str) -> Result<Option<i64>> {
    let cx = gq.client.calling("redirectLocation")?;
    let alias = format!("/{}", alias.trim_start_matches('/'));
    let req = RedirectLocationRequest {
        id: None,
        remote_id: None,
        url_alias: Some(alias),
        location_path: None,
    };
    match LocationsApi::<Services>::redirect_location(gq.client.services.locations(), &cx, req)
        .await
    {
        Ok(RedirectLocationResponse::Ok { body }) => Ok(Some(body.id)),
        Ok(RedirectLocationResponse::TemporaryRedirect { location }) => {
            Ok(data::href_id(&location))
        }
        Err(crate::error::Error::NotFound { .. }) => Ok(None),
        Err(e) => Err(error(e)),
    }
}

/// The Locations of content `content_id` the caller may read (loaded with those of the
/// items beside it: one view per batch).
async fn all_locations(gq: &Gq, content_id: i64) -> Result<Out> {
    let found = gq
        .locations_of
        .load_one(content_id)
        .await
        .map_err(data::unshared)?;
    Ok(Out::Many(found.map_or(Vec::new(), |all| (*all).clone())))
}

/// The current URL aliases of the Location `id` (generated ones unless `custom`, as the
/// reference's `listLocationAliases`), when the caller may read the Location (both loaded with
/// those of the Locations beside it).
async fn url_aliases(gq: &Gq, id: i64, custom: bool) -> Result<Out> {
    if location(gq, Some(id)).await?.is_none() {
        return Ok(Out::Own(Value::Null));
    }
    let found = (gq.url_aliases.load_one((id, custom)).await).map_err(data::unshared)?;
    Ok(found.map_or(Out::Own(Value::List(Vec::new())), Out::Shared))
}

/// A rich text document as the reference's output converters give it
/// (`field_types::richtext::Document`), its links to content (its main Location) and
/// Locations made their URL alias paths (`#`, so plain text, where the target is gone or the
/// caller may not read it). The targets of a page's documents are loaded together, in three
/// steps: the items and Locations linked, the items' main Locations, the URLs.
async fn html5(gq: &Gq, xml: &str) -> Result<String> {
    use crate::field_types::richtext::{Document, Target};
    let doc = Document::parse(xml);
    let targets = doc.link_targets();
    let (mut content_ids, mut location_ids) = (Vec::new(), Vec::new());
    for t in &targets {
        match t {
            Target::Content(id) => content_ids.push(*id),
            Target::Location(id) => location_ids.push(*id),
        }
    }
    let (items, mut locations) = futures_util::try_join!(
        gq.items.load_many(content_ids),
        gq.locations.load_many(location_ids),
    )
    .map_err(data::unshared)?;
    let mains: HashMap<i64, i64> = (items.iter())
        .filter_map(|(id, item)| {
            let main = get(get(item, "_contentInfo")?, "mainLocationId");
            Some((*id, int(main)?))
        })
        .collect();
    let more: Vec<i64> = (mains.values())
        .filter(|l| !locations.contains_key(l))
        .copied()
        .collect();
    locations.extend(gq.locations.load_many(more).await.map_err(data::unshared)?);
    let urls = (gq.urls.load_many(locations.keys().copied()).await).map_err(data::unshared)?;
    let url = |t: Target| {
        let location = match t {
            Target::Content(id) => *mains.get(&id)?,
            Target::Location(id) => id,
        };
        urls.get(&location).map(|u| u.to_string())
    };
    Ok(doc.to_output(&url))
}

/// The main URL alias of the Location `id`: its path, when the caller may read the Location
/// (both loaded with those of the items beside it).
async fn url_of(gq: &Gq, id: i64) -> Result<Value> {
    if location(gq, Some(id)).await?.is_none() {
        return Ok(Value::Null);
    }
    let path = gq.urls.load_one(id).await.map_err(data::unshared)?;
    Ok(path.map_or(Value::Null, |p| Value::from(&*p)))
}

async fn content_type(gq: &Gq, id: i64) -> Result<Shared> {
    gq.kept(format!("type:{id}"), async |c| {
        let cx = c.calling("loadContentType")?;
        let req = LoadContentTypeRequest {
            content_type_id: id,
        };
        let LoadContentTypeResponse::Ok { body, .. } =
            ContentTypesApi::<Services>::load_content_type(c.services.content_types(), &cx, req)
                .await
                .map_err(error)?;
        Ok(data::content_type_map(&c.domain, &body))
    })
    .await
}

async fn type_id_by_identifier(gq: &Gq, identifier: &str) -> Result<Option<i64>> {
    if let Some(t) = gq
        .domain()
        .types
        .iter()
        .find(|t| t.identifier == identifier)
    {
        return Ok(Some(t.id));
    }
    let cx = gq.client.calling("listContentTypes")?;
    let req = ListContentTypesRequest {
        identifier: Some(identifier.to_string()),
        remote_id: None,
        limit: None,
        offset: cairn_runtime::Offset(0),
        orderby: None,
        sort: "asc".into(),
        accept: ListContentTypesAccept::ContentTypeInfoList,
    };
    Ok(
        match ContentTypesApi::<Services>::list_content_types(
            gq.client.services.content_types(),
            &cx,
            req,
        )
        .await
        .map_err(error)?
        {
            ListContentTypesResponse::OkContentTypeInfoList { body } => {
                body.content_type_info.first().map(|t| t.id)
            }
            ListContentTypesResponse::OkContentTypeList { body } => {
                body.content_type.first().map(|t| t.id)
            }
        },
    )
}

async fn groups(gq: &Gq) -> Result<Vec<ContentTypeGroup>> {
    let cx = gq.client.calling("loadContentTypeGroupList")?;
    let req = LoadContentTypeGroupListRequest { identifier: None };
    match ContentTypesApi::<Services>::load_content_type_group_list(
        gq.client.services.content_types(),
        &cx,
        req,
    )
    .await
    .map_err(error)?
    {
        LoadContentTypeGroupListResponse::Ok { body } => Ok(body.content_type_group),
        LoadContentTypeGroupListResponse::TemporaryRedirect { .. } => Ok(Vec::new()),
    }
}

async fn types_of_group(gq: &Gq, group: i64) -> Result<Value> {
    let cx = gq.client.calling("listContentTypesForGroup")?;
    let req = ListContentTypesForGroupRequest {
        content_type_group_id: group,
        accept: ListContentTypesForGroupAccept::ContentTypeList,
    };
    Ok(Value::List(
        match ContentTypesApi::<Services>::list_content_types_for_group(
            gq.client.services.content_types(),
            &cx,
            req,
        )
        .await
        .map_err(error)?
        {
            ListContentTypesForGroupResponse::OkContentTypeList { body } => body
                .content_type
                .iter()
                .map(|t| data::content_type_map(gq.domain(), t))
                .collect(),
            ListContentTypesForGroupResponse::OkContentTypeInfoList { .. } => Vec::new(),
        },
    ))
}

async fn section(gq: &Gq, id: i64) -> Result<Shared> {
    gq.kept(format!("section:{id}"), async |c| {
        let cx = c.calling("loadSection")?;
        let LoadSectionResponse::Ok { body, .. } = SectionsApi::<Services>::load_section(
            c.services.sections(),
            &cx,
            LoadSectionRequest { section_id: id },
        )
        .await
        .map_err(error)?;
        Ok(data::section_map(&body))
    })
    .await
}

async fn state_group(gq: &Gq, id: i64) -> Result<Shared> {
    gq.kept(format!("state-group:{id}"), async |c| {
        let cx = c.calling("loadObjectStateGroup")?;
        let req = LoadObjectStateGroupRequest {
            object_state_group_id: id,
        };
        let LoadObjectStateGroupResponse::Ok { body, .. } =
            ObjectStatesApi::<Services>::load_object_state_group(
                c.services.object_states(),
                &cx,
                req,
            )
            .await
            .map_err(error)?;
        Ok(data::state_group_map(&body))
    })
    .await
}

async fn states(gq: &Gq, group: i64) -> Result<Value> {
    states_of(gq, group).await.map(|s| (*s).clone())
}

async fn states_of(gq: &Gq, group: i64) -> Result<Shared> {
    gq.kept(format!("states:{group}"), async |c| {
        let cx = c.calling("loadObjectStates")?;
        let req = LoadObjectStatesRequest {
            object_state_group_id: group,
        };
        let LoadObjectStatesResponse::Ok { body } =
            ObjectStatesApi::<Services>::load_object_states(c.services.object_states(), &cx, req)
                .await
                .map_err(error)?;
        Ok(Value::List(
            body.object_state.iter().map(data::state_map).collect(),
        ))
    })
    .await
}

/// The user (`User`) of content `id`.
async fn user(gq: &Gq, id: Option<i64>) -> Result<Value> {
    let Some(id) = id else {
        return Ok(Value::Null);
    };
    let Some(item) = gq.item(id).await? else {
        return Ok(Value::Null);
    };
    Ok(user_map(id, &item))
}

/// A user or a user group (`User`, `UserGroup`) of its item.
fn user_map(id: i64, item: &Value) -> Value {
    // The account's flags, from the item's user account field.
    let account = get(item, "__fields").and_then(|fs| match fs {
        Value::Object(o) => o
            .values()
            .filter_map(|l| match l {
                Value::Object(by_lang) => by_lang.values().next(),
                _ => None,
            })
            .find(|v| get(v, "login").is_some()),
        _ => None,
    });
    let flag = |k: &str| account.and_then(|a| get(a, k)).cloned().unwrap_or_default();
    let version = get(item, "_contentInfo")
        .and_then(|i| get(i, "__version"))
        .cloned()
        .unwrap_or_default();
    object([
        ("id", id.into()),
        ("name", get(item, "_name").cloned().unwrap_or_default()),
        ("version", version),
        ("enabled", flag("enabled")),
        ("maxLogin", flag("maxLogin")),
        (
            "thumbnail",
            get(item, "_thumbnail").cloned().unwrap_or_default(),
        ),
        ("__contentId", id.into()),
        (
            "__mainLocationId",
            get(item, "_contentInfo")
                .and_then(|i| get(i, "mainLocationId"))
                .cloned()
                .unwrap_or_default(),
        ),
    ])
}

/// The user groups (`user_group`, `UserGroup`) or users (`user`, `User`) right under the
/// group `group` (a `UserGroup` value) the caller may read.
async fn members(gq: &Gq, group: &Value, type_identifier: &str) -> Result<Value> {
    let Some(location) = int(get(group, "__mainLocationId")) else {
        return Ok(Value::List(Vec::new()));
    };
    let filter = HashValue::Map(vec![(
        "AND".into(),
        HashValue::List(vec![
            criterion("ParentLocationIdCriterion", &[location]),
            HashValue::Map(vec![(
                "ContentTypeIdentifierCriterion".into(),
                HashValue::String(type_identifier.into()),
            )]),
        ]),
    )]);
    let sort = vec![(
        "ContentName".to_string(),
        HashValue::String("ascending".into()),
    )];
    let found = gq.client.search(false, filter, sort, MAX_PAGE, 0).await?;
    Ok(Value::List(
        found
            .hits
            .iter()
            .filter_map(|h| match h {
                SearchHitObject::Content(c) => {
                    Some(user_map(c.id, &data::item_map(gq.domain(), c)))
                }
                SearchHitObject::Location(_) => None,
            })
            .collect(),
    ))
}

/// The item of content `id` as the untyped content of `DomainContent` fields.
async fn untyped(gq: &Gq, id: Option<i64>) -> Result<Out> {
    let item = match id {
        Some(id) => gq.item(id).await?,
        None => None,
    };
    Ok(match item {
        Some(i) => Out::Typed(i, "UntypedContent"),
        None => Out::Own(Value::Null),
    })
}

/// The relations of an item's current version (`ContentRelation`): those of a published
/// item loaded with the items' beside it; a draft's through `loadVersionRelations`.
async fn relations(gq: &Gq, info: &Value) -> Result<Value> {
    let id = int(get(info, "id")).unwrap_or_default();
    if get(info, "published") == Some(&Value::Boolean(true)) {
        let found = gq.relations.load_one(id).await.map_err(data::unshared)?;
        return Ok(found.map_or(Value::List(Vec::new()), |l| (*l).clone()));
    }
    let version = int(get(info, "currentVersionNo")).unwrap_or(1);
    let cx = gq.client.calling("loadVersionRelations")?;
    let req = LoadVersionRelationsRequest {
        content_id: id,
        version_no: version,
        offset: cairn_runtime::Offset(0),
        limit: cairn_runtime::Limit(None),
    };
    let LoadVersionRelationsResponse::Ok { body } =
        ContentApi::<Services>::load_version_relations(gq.client.services.content(), &cx, req)
            .await
            .map_err(error)?;
    Ok(Value::List(
        body.relation.iter().map(data::relation_map).collect(),
    ))
}

/// The relations to an item from the items the caller may read (`ContentRelation`), loaded
/// with those of the items beside it.
async fn reverse_relations(gq: &Gq, info: &Value) -> Result<Value> {
    let id = int(get(info, "id")).unwrap_or_default();
    let found = gq
        .reverse_relations
        .load_one(id)
        .await
        .map_err(data::unshared)?;
    match found.as_deref() {
        Some(Some(list)) => Ok(list.clone()),
        _ => Err(format!(
            "User does not have access to 'reverserelatedlist' 'content' with: contentId '{id}'"
        )
        .into()),
    }
}

/// A connection of items (`location` false) or Locations matching `filter`, paged by the
/// field's `first`/`after`/`last`/`before` and sorted by its `sortBy`, as the reference's
/// `PageAwareConnection` (cursors: base64 of `arrayconnection:<offset>`).
async fn connection(
    gq: &Gq,
    ctx: &ResolverContext<'_>,
    location: bool,
    filter: HashValue,
) -> Result<Value> {
    let arg_int = |n: &str| -> Result<Option<i64>> {
        match ctx.args.get(n) {
            Some(v) if !v.is_null() => {
                let i = v.i64()?;
                if !(0..=MAX_PAGE).contains(&i) {
                    return Err(format!("{n}: between 0 and {MAX_PAGE}").into());
                }
                Ok(Some(i))
            }
            _ => Ok(None),
        }
    };
    let cursor = |n: &str| -> Result<Option<i64>> {
        match ctx.args.get(n) {
            Some(v) if !v.is_null() => {
                Ok(Some(offset_of(v.string()?).ok_or_else(|| {
                    format!("{n}: not a cursor of this list")
                })?))
            }
            _ => Ok(None),
        }
    };
    let (first, last) = (arg_int("first")?, arg_int("last")?);
    let (after, before) = (cursor("after")?, cursor("before")?);
    let sort = sort_clauses(ctx)?;
    let per_page = first.or(last).unwrap_or(PAGE);
    let (offset, limit) = match (first, last) {
        (_, Some(last)) if first.is_none() => {
            let end = match before {
                Some(b) => b,
                None => {
                    (gq.client)
                        .search(location, filter.clone(), Vec::new(), 0, 0)
                        .await?
                        .count
                }
            };
            let start = after.map_or(0, |a| a + 1);
            let from = (end - last).max(start);
            (from, (end - from).max(0))
        }
        _ => {
            let start = after.map_or(0, |a| a + 1);
            let mut limit = first.unwrap_or(PAGE);
            if let Some(b) = before {
                limit = limit.min((b - start).max(0));
            }
            (start, limit)
        }
    };
    let found = gq
        .client
        .search(location, filter, sort, limit, offset)
        .await?;
    let nodes: Vec<Value> = found
        .hits
        .iter()
        .map(|h| match h {
            SearchHitObject::Content(c) => data::item_map(gq.domain(), c),
            SearchHitObject::Location(l) => data::location_map(gq.domain(), l),
        })
        .collect();
    let edges: Vec<Value> = nodes
        .into_iter()
        .enumerate()
        .map(|(i, node)| {
            object([
                ("cursor", cursor_of(offset + i as i64).into()),
                ("node", node),
            ])
        })
        .collect();
    let start = edges.first().and_then(|e| get(e, "cursor").cloned());
    let end = edges.last().and_then(|e| get(e, "cursor").cloned());
    let page_info = object([
        (
            "hasNextPage",
            (offset + (edges.len() as i64) < found.count).into(),
        ),
        ("hasPreviousPage", (offset > 0).into()),
        ("startCursor", start.unwrap_or_default()),
        ("endCursor", end.unwrap_or_default()),
    ]);
    let pages_count = if per_page > 0 {
        (found.count + per_page - 1) / per_page
    } else {
        0
    };
    let pages: Vec<Value> = (2..=pages_count)
        .map(|n| {
            object([
                ("number", n.into()),
                ("cursor", cursor_of((n - 1) * per_page - 1).into()),
            ])
        })
        .collect();
    Ok(object([
        ("edges", Value::List(edges)),
        ("pageInfo", page_info),
        ("sliceSize", limit.into()),
        ("orderBy", Value::Null),
        ("totalCount", found.count.into()),
        ("pages", Value::List(pages)),
    ]))
}

/// The cursor of the item at `offset` (Relay's array connection).
pub fn cursor_of(offset: i64) -> String {
    base64::engine::general_purpose::STANDARD.encode(format!("arrayconnection:{offset}"))
}

fn offset_of(cursor: &str) -> Option<i64> {
    let raw = base64::engine::general_purpose::STANDARD
        .decode(cursor)
        .ok()?;
    let raw = String::from_utf8(raw).ok()?;
    raw.strip_prefix("arrayconnection:")?.parse().ok()
}

/// The sort clauses of `sortBy` (`_desc` turns the clause before it around).
fn sort_clauses(ctx: &ResolverContext<'_>) -> Result<Vec<(String, HashValue)>> {
    let mut out: Vec<(String, HashValue)> = Vec::new();
    let Some(list) = ctx.args.get("sortBy") else {
        return Ok(out);
    };
    let names: Vec<String> = match list.as_value() {
        Value::List(l) => l
            .iter()
            .filter_map(|v| match v {
                Value::Enum(n) => Some(n.to_string()),
                Value::String(s) => Some(s.clone()),
                _ => None,
            })
            .collect(),
        Value::Enum(n) => vec![n.to_string()],
        _ => Vec::new(),
    };
    if names.len() > MAX_LIST {
        return Err(format!("sortBy: at most {MAX_LIST} sort options").into());
    }
    for n in names {
        let clause = match n.as_str() {
            "_desc" => {
                if let Some(last) = out.last_mut() {
                    last.1 = HashValue::String("descending".into());
                }
                continue;
            }
            "_contentId" => "ContentId",
            "_name" => "ContentName",
            "_dateModified" => "DateModified",
            "_datePublished" => "DatePublished",
            "_sectionIdentifier" => "SectionIdentifier",
            "_sectionName" => "SectionName",
            "_score" => "Score",
            "_depth" => "LocationDepth",
            "_locationId" => "LocationId",
            "_path" => "LocationPath",
            "_priority" => "LocationPriority",
            "_isMainLocation" => "LocationIsMainLocation",
            "_visibility" => "LocationVisibility",
            other => return Err(format!("sortBy: {other} is not supported").into()),
        };
        out.push((clause.to_string(), HashValue::String("ascending".into())));
    }
    Ok(out)
}

/// The criteria of a `ContentSearchQuery`.
fn search_query(q: &Value) -> Result<Vec<HashValue>> {
    let mut out = Vec::new();
    let Value::Object(q) = q else {
        return Ok(out);
    };
    let one = |name: &str, v: HashValue| HashValue::Map(vec![(name.to_string(), v)]);
    // Any of several values: one criterion of them joined (a list is one criterion each).
    let texts = |v: &Value| -> HashValue {
        let all: Vec<String> = match v {
            Value::List(l) => l.iter().map(plain_text).collect(),
            v => vec![plain_text(v)],
        };
        HashValue::String(all.join(","))
    };
    for (k, v) in q {
        if matches!(v, Value::Null) {
            continue;
        }
        match k.as_str() {
            "ContentTypeIdentifier" => out.push(one("ContentTypeIdentifierCriterion", texts(v))),
            "ContentTypeId" => out.push(one("ContentTypeIdCriterion", texts(v))),
            "Text" => out.push(one("FullTextCriterion", HashValue::String(plain_text(v)))),
            "ParentLocationId" => {
                out.push(one("ParentLocationIdCriterion", texts(v)));
            }
            "Created" | "Modified" => {
                let target = if k.as_str() == "Created" {
                    "created"
                } else {
                    "modified"
                };
                for (op, operator) in [("before", "LTE"), ("after", "GTE"), ("on", "EQ")] {
                    if let Some(d) = get(v, op).filter(|d| !matches!(d, Value::Null)) {
                        let ts = parse_date(&plain_text(d))
                            .ok_or_else(|| format!("{k}.{op}: not a date"))?;
                        out.push(one(
                            "DateMetadataCriterion",
                            HashValue::Map(vec![
                                ("Target".into(), HashValue::String(target.into())),
                                ("Operator".into(), HashValue::String(operator.into())),
                                ("Value".into(), HashValue::Int(ts)),
                            ]),
                        ));
                    }
                }
            }
            "Field" => {
                let list = match v {
                    Value::List(l) => l.clone(),
                    v => vec![v.clone()],
                };
                for f in &list {
                    let target = text(get(f, "target")).ok_or("Field: needs a target")?;
                    for (op, operator) in [
                        ("eq", "EQ"),
                        ("in", "IN"),
                        ("lt", "LT"),
                        ("lte", "LTE"),
                        ("gt", "GT"),
                        ("gte", "GTE"),
                        ("like", "LIKE"),
                        ("contains", "CONTAINS"),
                        ("between", "BETWEEN"),
                    ] {
                        if let Some(value) = get(f, op).filter(|x| !matches!(x, Value::Null)) {
                            out.push(one(
                                "Field",
                                HashValue::Map(vec![
                                    ("name".into(), HashValue::String(target.to_string())),
                                    ("operator".into(), HashValue::String(operator.into())),
                                    ("value".into(), data::to_hash(value)),
                                ]),
                            ));
                        }
                    }
                }
            }
            "SortBy" => {}
            other => return Err(format!("query: {other} is not supported").into()),
        }
    }
    Ok(out)
}

fn plain_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Enum(n) => n.to_string(),
        other => other.to_string(),
    }
}

/// A date of a query: a timestamp, or `YYYY-MM-DD[ HH:MM:SS]`.
fn parse_date(s: &str) -> Option<i64> {
    if let Ok(ts) = s.parse::<i64>() {
        return Some(ts);
    }
    if let Ok(d) = chrono::DateTime::parse_from_rfc3339(s) {
        return Some(d.timestamp());
    }
    if let Ok(d) = chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S") {
        return Some(d.and_utc().timestamp());
    }
    chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|d| d.and_utc().timestamp())
}

/// Rich text's words without its markup.
fn plain(xml: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in xml.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&");
    out.split_whitespace()
        .filter(|w| !w.starts_with("?xml"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The pattern of a `DateFormatConstant` (PHP's `DateTime` constants).
fn constant(name: &str) -> &'static str {
    match name {
        "cookie" => "l, d-M-Y H:i:s T",
        "iso8601" => "Y-m-d\\TH:i:sO",
        "rfc822" | "rfc1036" => "D, d M y H:i:s O",
        "rfc850" => "l, d-M-y H:i:s T",
        "rfc1123" | "rfc2822" | "rss" => "D, d M Y H:i:s O",
        "rfc3339_extended" => "Y-m-d\\TH:i:s.vP",
        _ => "Y-m-d\\TH:i:sP",
    }
}

/// `ts` formatted by a PHP `date()` pattern, in UTC.
pub fn php_date(ts: i64, pattern: &str) -> String {
    let Some(t) = chrono::DateTime::from_timestamp(ts, 0) else {
        return String::new();
    };
    let mut out = String::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        let part = match c {
            '\\' => chars.next().map(|c| c.to_string()).unwrap_or_default(),
            'd' => t.format("%d").to_string(),
            'D' => t.format("%a").to_string(),
            'j' => t.format("%-d").to_string(),
            'l' => t.format("%A").to_string(),
            'N' => t.format("%u").to_string(),
            'w' => t.format("%w").to_string(),
            'z' => (t.format("%j").to_string().parse::<i64>().unwrap_or(1) - 1).to_string(),
            'W' => t.format("%V").to_string(),
            'F' => t.format("%B").to_string(),
            'm' => t.format("%m").to_string(),
            'M' => t.format("%b").to_string(),
            'n' => t.format("%-m").to_string(),
            't' => {
                let (y, m) = (t.format("%Y").to_string(), t.format("%m").to_string());
                let next = chrono::NaiveDate::parse_from_str(&format!("{y}-{m}-01"), "%Y-%m-%d")
                    .ok()
                    .and_then(|d| d.checked_add_months(chrono::Months::new(1)))
                    .and_then(|d| d.pred_opt());
                next.map(|d| d.format("%d").to_string()).unwrap_or_default()
            }
            'Y' => t.format("%Y").to_string(),
            'y' => t.format("%y").to_string(),
            'a' => t.format("%P").to_string(),
            'A' => t.format("%p").to_string(),
            'g' => t.format("%-I").to_string(),
            'G' => t.format("%-H").to_string(),
            'h' => t.format("%I").to_string(),
            'H' => t.format("%H").to_string(),
            'i' => t.format("%M").to_string(),
            's' => t.format("%S").to_string(),
            'u' => "000000".into(),
            'v' => "000".into(),
            'e' | 'T' => "UTC".into(),
            'O' => "+0000".into(),
            'P' => "+00:00".into(),
            'p' => "Z".into(),
            'Z' => "0".into(),
            'c' => t.format("%Y-%m-%dT%H:%M:%S+00:00").to_string(),
            'r' => t.format("%a, %d %b %Y %H:%M:%S +0000").to_string(),
            'U' => ts.to_string(),
            c => c.to_string(),
        };
        out.push_str(&part);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_as_php_formats_them() {
        assert_eq!(php_date(0, "Y-m-d\\TH:i:sP"), "1970-01-01T00:00:00+00:00");
        assert_eq!(php_date(1_350_864_000, "D, d M Y"), "Mon, 22 Oct 2012");
        assert_eq!(php_date(1_350_864_000, "l jS"), "Monday 22S");
    }

    #[test]
    fn cursors_as_relay_makes_them() {
        assert_eq!(cursor_of(9), "YXJyYXljb25uZWN0aW9uOjk=");
        assert_eq!(offset_of(&cursor_of(19)), Some(19));
        assert_eq!(offset_of("junk"), None);
    }
}
