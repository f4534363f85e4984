//! Relations of a version: listed, read, added to a draft and removed from it.

use super::*;
use sea_orm::{ConnectionTrait, QueryOrder};
use std::collections::{BTreeSet, HashMap, HashSet};

/// A list of content items (`contents`), as the permission filters read it.
const CONTENTS: Scope<'static> = Scope {
    content: "contents",
    location: None,
    location_sections: false,
};

/// Those of `ids` whose content rows `filter` lets through: one statement (none for `All`
/// or `Nothing`, or no ids).
async fn passing(
    db: &impl Connection,
    filter: &Filter,
    ids: impl IntoIterator<Item = i64>,
) -> Result<HashSet<i64>> {
    let ids: Vec<i64> = ids.into_iter().collect();
    match filter {
        Filter::All => return Ok(ids.into_iter().collect()),
        Filter::Nothing => return Ok(HashSet::new()),
        Filter::Only(_) if ids.is_empty() => return Ok(HashSet::new()),
        Filter::Only(_) => {}
    }
    Ok(content::Entity::find()
        .select_only()
        .column(content::Column::Id)
        .filter(content::Column::Id.is_in(ids))
        .filter(filter.expr(db.get_database_backend()))
        .into_tuple::<i64>()
        .all(db)
        .await?
        .into_iter()
        .collect())
}

pub(super) async fn redirect_current(
    service: &Shared,
    cx: &Caller,
    req: RedirectCurrentVersionRelationsRequest,
) -> Result<RedirectCurrentVersionRelationsResponse> {
    let c = service
        .visible_content(cx.reader(), cx, req.content_id)
        .await?;
    Ok(RedirectCurrentVersionRelationsResponse::TemporaryRedirect {
        location: hrefs::load_version_relations(c.id, c.current_version),
    })
}

pub(super) async fn list(
    service: &Shared,
    cx: &Caller,
    req: LoadVersionRelationsRequest,
) -> Result<LoadVersionRelationsResponse> {
    let db = cx.reader();
    let (c, v) = service
        .visible_content_version(db, cx, req.content_id, Some(req.version_no))
        .await?;
    let ty = service.defined_type(db, c.content_type_id).await?;
    let mut all = rows::relations(db, c.id, v.version_no).await?;
    // Relations to content the caller may not read are left out (before the window).
    let filter = service.visible(cx, READ, CONTENTS);
    if filter != Filter::All {
        let destinations = all.iter().map(|r| r.destination_content_id);
        let readable = passing(db, &filter, destinations).await?;
        all.retain(|r| readable.contains(&r.destination_content_id));
    }
    let window: Vec<content_relation::Model> = req.limit.window(all, req.offset);
    Ok(LoadVersionRelationsResponse::Ok {
        body: service.relation_list(c.id, v.version_no, &window, Some(&ty)),
    })
}

pub(super) async fn create(
    service: &Shared,
    cx: &Caller,
    req: CreateRelationRequest,
) -> Result<CreateRelationResponse> {
    let r = service
        .db
        .write(cx.change(), async |tx| {
            let (c, v) = service
                .visible_content_version(tx, cx, req.content_id, Some(req.version_no))
                .await?;
            service.authorize_version(tx, cx, &c, &v, &[]).await?;
            if v.status != content_version::DRAFT {
                return Err(Error::Forbidden(
                    "Relation of type COMMON can only be added to drafts".into(),
                ));
            }
            let dest = req.body.destination;
            if cairn_store::read::by_id::<content::Entity>(tx, dest)
                .await?
                .is_none()
            {
                return Err(Error::Forbidden(format!(
                    "Destination content {dest} does not exist"
                )));
            }
            let existing = content_relation::Entity::find()
                .filter(content_relation::Column::SourceContentId.eq(c.id))
                .filter(content_relation::Column::SourceVersionNo.eq(v.version_no))
                .filter(content_relation::Column::DestinationContentId.eq(dest))
                .filter(content_relation::Column::RelationType.eq(content_relation::COMMON))
                .one(tx)
                .await?;
            if existing.is_some() {
                return Err(Error::Forbidden(format!(
                    "Relation of type COMMON to content {dest} already exists"
                )));
            }
            let r = cairn_store::write::insert(
                tx,
                content_relation::ActiveModel {
                    source_content_id: Set(c.id),
                    source_version_no: Set(v.version_no),
                    destination_content_id: Set(dest),
                    relation_type: Set(content_relation::COMMON),
                    source_field_definition_id: Set(None),
                    ..Default::default()
                },
            )
            .await?;
            tx.created(&hrefs::load_version_relation(c.id, v.version_no, r.id));
            Ok(r)
        })
        .await?;
    Ok(CreateRelationResponse::Created {
        body: service.relation(&r, None),
    })
}

pub(super) async fn load(
    service: &Shared,
    cx: &Caller,
    req: LoadVersionRelationRequest,
) -> Result<LoadVersionRelationResponse> {
    let db = cx.reader();
    let (c, v) = service
        .visible_content_version(db, cx, req.content_id, Some(req.version_no))
        .await?;
    let r = rows::relations(db, c.id, v.version_no)
        .await?
        .into_iter()
        .find(|r| r.id == req.relation_id)
        .ok_or_else(|| Error::not_found("Relation", req.relation_id))?;
    let ty = service.defined_type(db, c.content_type_id).await?;
    let body = service.relation(&r, Some(&ty));
    Ok(LoadVersionRelationResponse::Ok {
        etag: ETag::of(&body),
        body,
    })
}

pub(super) async fn remove(
    service: &Shared,
    cx: &Caller,
    req: RemoveRelationRequest,
) -> Result<RemoveRelationResponse> {
    service.db
        .write(cx.change(), async |tx| {
            let (c, v) = service
                .visible_content_version(tx, cx, req.content_id, Some(req.version_no))
                .await?;
            service.authorize_version(tx, cx, &c, &v, &[]).await?;
            let r = rows::relations(tx, c.id, v.version_no)
                .await?
                .into_iter()
                .find(|r| r.id == req.relation_id)
                .ok_or_else(|| Error::not_found("Relation", req.relation_id))?;
            preconditions::if_match(&req.if_match, async || Ok(service.relation(&r, Some(&*service.defined_type(tx, c.content_type_id).await?)))).await?;
            if v.status != content_version::DRAFT {
                return Err(Error::Forbidden("Relations can only be removed from drafts".into()));
            }
            if r.relation_type != content_relation::COMMON {
                return Err(Error::Forbidden(
                    "Only relations of type COMMON can be removed; field relations change with their field".into(),
                ));
            }
            content_relation::Entity::delete_by_id(r.id).exec(tx).await?;
            Ok(())
        })
        .await?;
    Ok(RemoveRelationResponse::NoContent)
}

impl ContentService {
    /// The relations of the published current version of each content item of `ids` the
    /// caller may read, as `loadVersionRelations` lists them (relations to items the caller
    /// may not read left out): a few statements whatever the number of items. An item not
    /// published, or not readable, has none here.
    pub(crate) async fn current_relations(
        &self,
        cx: &Caller,
        ids: &[i64],
    ) -> Result<HashMap<i64, Vec<Relation>>> {
        let db = cx.reader();
        let backend = db.get_database_backend();
        let readable = self.visible(cx, READ, CONTENTS);
        let mut query = content::Entity::find()
            .filter(content::Column::Id.is_in(ids.iter().copied()))
            .filter(content::Column::Status.eq(content::PUBLISHED));
        match &readable {
            Filter::All => {}
            Filter::Nothing => return Ok(HashMap::new()),
            filter => query = query.filter(filter.expr(backend)),
        }
        let items = query.all(db).await?;
        let pairs: Vec<(i64, i64)> = items.iter().map(|c| (c.id, c.current_version)).collect();
        let mut relations = rows::relations_of_versions(db, &pairs).await?;
        // Relations to content the caller may not read are left out.
        if readable != Filter::All {
            let destinations: BTreeSet<i64> = (relations.values())
                .flatten()
                .map(|r| r.destination_content_id)
                .collect();
            let seen = passing(db, &readable, destinations).await?;
            for rs in relations.values_mut() {
                rs.retain(|r| seen.contains(&r.destination_content_id));
            }
        }
        let mut out = HashMap::new();
        for c in &items {
            let ty = self.defined_type(db, c.content_type_id).await?;
            let rs = relations
                .remove(&(c.id, c.current_version))
                .unwrap_or_default();
            out.insert(
                c.id,
                rs.iter().map(|r| self.relation(r, Some(&ty))).collect(),
            );
        }
        Ok(out)
    }

    /// The relations to each content item of `ids` from the published versions of other
    /// items, as the reference's `loadReverseRelations` lists them (by relation id): `None`
    /// for an item whose `content/reverserelatedlist` the caller lacks; none from an item the
    /// caller may not read. Three statements whatever the number of items.
    pub(crate) async fn reverse_relations(
        &self,
        cx: &Caller,
        ids: &[i64],
    ) -> Result<HashMap<i64, Option<Vec<Relation>>>> {
        let db = cx.reader();
        let backend = db.get_database_backend();
        let listable = self.visible(cx, ("content", "reverserelatedlist"), CONTENTS);
        let allowed = passing(db, &listable, ids.iter().copied()).await?;
        let mut out: HashMap<i64, Option<Vec<Relation>>> =
            ids.iter().map(|id| (*id, None)).collect();
        if allowed.is_empty() {
            return Ok(out);
        }
        for id in &allowed {
            out.insert(*id, Some(Vec::new()));
        }
        let relations = content_relation::Entity::find()
            .filter(content_relation::Column::DestinationContentId.is_in(allowed.iter().copied()))
            .order_by_asc(content_relation::Column::Id)
            .all(db)
            .await?;
        if relations.is_empty() {
            return Ok(out);
        }
        // The sources the caller may read, as published, with their current version.
        let sources: BTreeSet<i64> = relations.iter().map(|r| r.source_content_id).collect();
        let mut query = content::Entity::find()
            .filter(content::Column::Id.is_in(sources))
            .filter(content::Column::Status.eq(content::PUBLISHED));
        match self.visible(cx, READ, CONTENTS) {
            Filter::All => {}
            Filter::Nothing => return Ok(out),
            filter => query = query.filter(filter.expr(backend)),
        }
        let sources: HashMap<i64, content::Model> = (query.all(db).await?.into_iter())
            .map(|c| (c.id, c))
            .collect();
        for r in &relations {
            let Some(source) = sources.get(&r.source_content_id) else {
                continue;
            };
            if source.current_version != r.source_version_no {
                continue;
            }
            let ty = self.defined_type(db, source.content_type_id).await?;
            if let Some(Some(list)) = out.get_mut(&r.destination_content_id) {
                list.push(self.relation(r, Some(&ty)));
            }
        }
        Ok(out)
    }
}
