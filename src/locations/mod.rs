//! Locations: the nodes of the content tree (spec 2.6, 3.3, 4.5).
//!
//! `tree` holds the set operations over the materialized path; this module the endpoints.

pub(crate) mod ops;
mod pages;
mod render;

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::LocationsApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::permissions::administrators::keep_an_administrator;
use crate::permissions::filter::Sql;
use crate::permissions::{Filter, READ, Scope, Target};
use crate::preconditions;
use crate::shared::Shared;
use crate::tree::{self, href_path, location_href};
use cairn_runtime::ETag;
use cairn_store::Tx;
use cairn_store::entity::{content, location};
use cairn_store::sql::placeholders;
pub(crate) use pages::PageStarts;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel, QueryFilter,
    QuerySelect,
};
use std::collections::HashMap;

const CONTENT: &str = "LEFT JOIN contents c ON c.id = l.content_id";
const TYPE: &str = "LEFT JOIN contents c ON c.id = l.content_id LEFT JOIN content_types t ON t.id = c.content_type_id AND t.status = 0";

/// The reference's sort fields of Locations, as the API names them, each with the joins and
/// the key it sorts children by, and whether an index of the children follows that key (the
/// others sort the children).
pub const SORT_FIELDS: &[(&str, &str, &str, bool)] = &[
    ("PATH", "", "l.path_string", true),
    ("PUBLISHED", CONTENT, "c.published", false),
    ("MODIFIED", CONTENT, "c.modified", false),
    ("SECTION", CONTENT, "c.section_id", false),
    ("DEPTH", "", "l.depth", false),
    ("CLASS_IDENTIFIER", TYPE, "t.identifier", false),
    ("CLASS_NAME", TYPE, "t.identifier", false),
    ("PRIORITY", "", "l.priority", true),
    ("NAME", CONTENT, "LOWER(c.name)", false),
    ("MODIFIED_SUBNODE", CONTENT, "c.modified", false),
    ("NODE_ID", "", "l.id", true),
    ("CONTENTOBJECT_ID", "", "l.content_id", false),
];

/// 400 unless `field` is one of [`SORT_FIELDS`] and `order` is `ASC` or `DESC` (the sort of a
/// Location's children, or a content type's default for them).
pub fn check_sort(field: Option<&str>, order: Option<&str>) -> Result<()> {
    if let Some(f) = field
        && !SORT_FIELDS.iter().any(|(name, ..)| *name == f)
    {
        let names: Vec<&str> = SORT_FIELDS.iter().map(|(name, ..)| *name).collect();
        return Err(Error::BadRequest(format!(
            "defaultSortField '{f}' is not one of {}",
            names.join(", ")
        )));
    }
    if let Some(o) = order
        && o != "ASC"
        && o != "DESC"
    {
        return Err(Error::BadRequest(format!(
            "defaultSortOrder '{o}' is not ASC or DESC"
        )));
    }
    Ok(())
}

/// The children of `parent` that `visible` lets a caller see, in the parent's sort order
/// (PATH when unknown).
fn children_of(parent: &location::Model, visible: &Filter) -> pages::Children {
    let desc = parent.sort_order == "DESC";
    let dir = if desc { "DESC" } else { "ASC" };
    let (_, joins, key, indexed) = (SORT_FIELDS.iter())
        .find(|(name, ..)| *name == parent.sort_field)
        .unwrap_or(&SORT_FIELDS[0]);
    let order = match *key {
        // Unique: no tie-break.
        "l.path_string" | "l.id" => format!("{key} {dir}"),
        _ => format!("{key} {dir}, l.id {dir}"),
    };
    // A Section limitation reads the Location row; others read the content row too.
    let (permission_join, only) = match visible {
        Filter::All => ("", Sql::default()),
        f if !f.reads("pc") => ("", f.sql().and_prefix()),
        f => (
            "JOIN contents pc ON pc.id = l.content_id",
            f.sql().and_prefix(),
        ),
    };
    pages::Children {
        joins,
        order,
        seek: indexed.then_some(*key),
        desc,
        permission_join,
        only,
        parent: parent.id,
    }
}

crate::services::family_service!(
    /// Implements the API of Locations and the tree, keeping where deep pages of children
    /// start (`pages`).
    LocationsService {
        page_starts: PageStarts = PageStarts::default(),
    }
);

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> LocationsApi<B> for LocationsService
{
    async fn redirect_location(
        &self,
        cx: &Caller,
        req: RedirectLocationRequest,
    ) -> Result<RedirectLocationResponse> {
        let db = cx.reader();
        let l = if let Some(id) = &req.id {
            let id: i64 = id
                .parse()
                .map_err(|_| Error::BadRequest(format!("id '{id}' is not a Location id")))?;
            tree::find(db, id).await?
        } else if let Some(r) = &req.remote_id {
            // Without regard to case, as the reference (an index on LOWER(remote_id)).
            location::Entity::find()
                .filter(Expr::cust_with_values(
                    placeholders(db.get_database_backend(), "LOWER(remote_id) = LOWER(?)"),
                    [r.as_str()],
                ))
                .one(db)
                .await?
                .ok_or_else(|| Error::not_found("Location", r))?
        } else if let Some(p) = &req.location_path {
            tree::find_by_path(db, p).await?
        } else if let Some(alias) = &req.url_alias {
            let id = crate::url_aliases::location_of_alias(db, alias)
                .await?
                .ok_or_else(|| Error::not_found("URLAlias", alias))?;
            tree::find(db, id).await?
        } else {
            return Err(Error::BadRequest(
                "Give one of the query parameters id, remoteId, urlAlias or locationPath".into(),
            ));
        };
        self.authorize_at(db, cx, READ, &l, vec![]).await?;
        Ok(RedirectLocationResponse::TemporaryRedirect {
            location: location_href(&l),
        })
    }

    async fn load_location(
        &self,
        cx: &Caller,
        req: LoadLocationRequest,
    ) -> Result<LoadLocationResponse> {
        let db = cx.reader();
        let l = tree::find_by_path(db, &req.location_path).await?;
        // The check reads the content item the body loads: no statement of its own.
        let (mut bodies, contents) = self.located(db, std::slice::from_ref(&l)).await?;
        self.authorize_loaded(db, cx, READ, &l, contents.get(&l.content_id), vec![])
            .await?;
        let body = bodies.remove(0);
        Ok(LoadLocationResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn update_location(
        &self,
        cx: &Caller,
        req: UpdateLocationRequest,
    ) -> Result<UpdateLocationResponse> {
        let b = req.body;
        check_sort(b.sort_field.as_deref(), b.sort_order.as_deref())?;
        let l = self
            .db
            .write(cx.change(), async |tx| {
                if b.hidden.is_some() {
                    tree::hold(tx).await?;
                }
                let l = tree::find_by_path(tx, &req.location_path).await?;
                // As the reference: hiding or revealing (asked whether or not it changes
                // anything) is `content/hide`, the rest `content/edit`, both at the Location.
                if b.hidden.is_some() {
                    self.authorize_at(tx, cx, ("content", "hide"), &l, vec![Target::Destination])
                        .await?;
                }
                self.authorize_at(tx, cx, ("content", "edit"), &l, vec![Target::Destination])
                    .await?;
                preconditions::if_match(&req.if_match, async || self.location_body(tx, &l).await)
                    .await?;
                if l.id == tree::ROOT {
                    return Err(Error::Forbidden(
                        "The root Location cannot be changed".into(),
                    ));
                }
                let mut la = l.clone().into_active_model();
                if let Some(p) = b.priority {
                    la.priority = Set(p);
                }
                if let Some(r) = &b.remote_id {
                    let taken = location::Entity::find()
                        .filter(location::Column::RemoteId.eq(r.as_str()))
                        .filter(location::Column::Id.ne(l.id))
                        .one(tx)
                        .await?;
                    if taken.is_some() {
                        return Err(Error::Forbidden(format!(
                            "A Location with remote id '{r}' already exists"
                        )));
                    }
                    la.remote_id = Set(r.clone());
                }
                if let Some(f) = &b.sort_field {
                    la.sort_field = Set(f.clone());
                }
                if let Some(o) = &b.sort_order {
                    la.sort_order = Set(o.clone());
                }
                let hide_changed = b.hidden.is_some_and(|h| h != l.is_hidden);
                if let Some(h) = b.hidden {
                    la.is_hidden = Set(h);
                }
                let l = cairn_store::write::update(tx, la).await?;
                // What shows it: its own representation; when it was hidden or revealed, those
                // of the Locations below it (their `invisible`) too.
                if hide_changed {
                    tree::recompute_visibility(tx, &l).await?;
                    tree::touch_subtree(tx, &l, false).await?;
                } else {
                    tx.touched([cairn_store::events::Touched::Location(l.id)]);
                }
                tree::find(tx, l.id).await
            })
            .await?;
        let body = self.location_body(cx.reader(), &l).await?;
        Ok(UpdateLocationResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn delete_subtree(
        &self,
        cx: &Caller,
        req: DeleteSubtreeRequest,
    ) -> Result<DeleteSubtreeResponse> {
        self.db
            .write(cx.change(), async |tx| {
                tree::hold(tx).await?;
                let l = tree::find_by_path(tx, &req.location_path).await?;
                preconditions::if_match(&req.if_match, async || self.location_body(tx, &l).await)
                    .await?;
                if l.id == tree::ROOT {
                    return Err(Error::Forbidden(
                        "The root Location cannot be deleted".into(),
                    ));
                }
                self.authorize_location_removal(tx, cx, &l).await?;
                tree::touch_placed(tx, &l).await?;
                tree::delete_subtrees(tx, &*self.tree_changes, &[l], &[]).await?;
                keep_an_administrator(tx).await
            })
            .await?;
        Ok(DeleteSubtreeResponse::NoContent)
    }

    async fn copy_subtree(
        &self,
        cx: &Caller,
        req: CopySubtreeRequest,
    ) -> Result<CopySubtreeResponse> {
        let l = self
            .copy_subtree_to(cx, &req.location_path, &req.destination)
            .await?;
        Ok(CopySubtreeResponse::Created {
            location: location_href(&l),
        })
    }

    async fn move_subtree(
        &self,
        cx: &Caller,
        req: MoveSubtreeRequest,
    ) -> Result<MoveSubtreeResponse> {
        self.move_subtree_to(cx, &req.location_path, &req.destination)
            .await
    }

    async fn swap_location(
        &self,
        cx: &Caller,
        req: SwapLocationRequest,
    ) -> Result<SwapLocationResponse> {
        self.swap(cx, &req.location_path, &req.destination).await?;
        Ok(SwapLocationResponse::NoContent)
    }

    async fn load_location_children(
        &self,
        cx: &Caller,
        req: LoadLocationChildrenRequest,
    ) -> Result<LoadLocationChildrenResponse> {
        let db = cx.reader();
        let parent = tree::find_by_path(db, &req.location_path).await?;
        self.authorize_at(db, cx, READ, &parent, vec![]).await?;
        let scope = Scope {
            content: "pc",
            location: Some("l"),
            location_sections: true,
        };
        let visible = self.visible(cx, READ, scope);
        let list = children_of(&parent, &visible);
        let children = pages::page(
            cx.reader(),
            &self.page_starts,
            &list,
            req.offset.0,
            req.limit.negative_as(25).0,
        )
        .await?;
        Ok(LoadLocationChildrenResponse::Ok {
            body: self.location_list(
                hrefs::load_location_children(&href_path(&parent.path_string)),
                &children,
            ),
        })
    }

    async fn load_locations_for_content(
        &self,
        cx: &Caller,
        req: LoadLocationsForContentRequest,
    ) -> Result<LoadLocationsForContentResponse> {
        let db = cx.reader();
        let c = self.visible_content(db, cx, req.content_id).await?;
        let mut locations = tree::of_content(db, &c).await?;
        // Only the Locations the caller may read the content at.
        let scope = Scope {
            content: "pc",
            location: Some("locations"),
            location_sections: true,
        };
        let filter = self.visible(cx, READ, scope);
        if filter != Filter::All {
            let only = filter.sql();
            let readable: std::collections::HashSet<i64> = location::Entity::find()
                .select_only()
                .column(location::Column::Id)
                .filter(location::Column::ContentId.eq(c.id))
                .filter(
                    Sql {
                        sql: format!(
                            "EXISTS (SELECT 1 FROM contents pc WHERE pc.id = locations.content_id AND {})",
                            only.sql
                        ),
                        values: only.values,
                    }
                    .expr(db.get_database_backend()),
                )
                .into_tuple::<i64>()
                .all(db)
                .await?
                .into_iter()
                .collect();
            locations.retain(|l| readable.contains(&l.id));
        }
        Ok(LoadLocationsForContentResponse::Ok {
            body: self.location_list(hrefs::load_locations_for_content(c.id), &locations),
        })
    }

    async fn create_location(
        &self,
        cx: &Caller,
        req: CreateLocationRequest,
    ) -> Result<CreateLocationResponse> {
        let b = req.body;
        check_sort(b.sort_field.as_deref(), b.sort_order.as_deref())?;
        let l = self
            .db
            .write(cx.change(), async |tx| {
                let c = self.visible_content(tx, cx, req.content_id).await?;
                if c.status != content::PUBLISHED {
                    return Err(Error::Forbidden(
                        "A content item gets further Locations once it is published".into(),
                    ));
                }
                let parent = tree::find_by_path(tx, &b.parent_location).await?;
                self.authorize_new_location(tx, cx, &c, &parent).await?;
                let l = self.place(tx, c, &b).await?;
                tx.created(&location_href(&l));
                tree::touch_placed(tx, &l).await?;
                Ok(l)
            })
            .await?;
        let body = self.location_body(cx.reader(), &l).await?;
        Ok(CreateLocationResponse::Created { body })
    }
}

impl Shared {
    /// Gives published content `c` a further Location (inside the caller's transaction):
    /// 403 when it has one under that parent already or the parent is below one of its own.
    pub(crate) async fn place(
        &self,
        tx: &Tx,
        c: content::Model,
        b: &LocationCreate,
    ) -> Result<location::Model> {
        tree::share(tx).await?;
        let parent = tree::find_by_path(tx, &b.parent_location).await?;
        let existing = tree::of_content(tx, &c).await?;
        if existing.iter().any(|l| l.parent_id == parent.id) {
            return Err(Error::Forbidden(format!(
                "Content {} already has a Location under Location {}",
                c.id, parent.id
            )));
        }
        if existing
            .iter()
            .any(|l| parent.path_string.starts_with(&l.path_string))
        {
            return Err(Error::Forbidden(
                "A content item cannot be placed below one of its own Locations".into(),
            ));
        }
        let ty = self.defined_type(tx, c.content_type_id).await?;
        let l = tree::create(
            tx,
            parent.id,
            &c,
            tree::NewLocation {
                priority: b.priority.unwrap_or(0),
                hidden: b.hidden.unwrap_or(false),
                remote_id: b.remote_id.clone(),
                sort_field: b
                    .sort_field
                    .clone()
                    .unwrap_or(ty.ty.default_sort_field.clone()),
                sort_order: b
                    .sort_order
                    .clone()
                    .unwrap_or(ty.ty.default_sort_order.clone()),
            },
        )
        .await?;
        if c.main_location_id.is_none() {
            let mut ca = c.into_active_model();
            ca.main_location_id = Set(Some(l.id));
            cairn_store::write::update(tx, ca).await?;
        }
        self.tree_changes
            .location_republished(tx, &self.languages, l.id)
            .await?;
        Ok(l)
    }
}
