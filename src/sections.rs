//! Sections: list (or look up by identifier), create, load, update, delete.

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::SectionsApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::grants::policies::decode_values;
use crate::preconditions;
use cairn_runtime::ETag;
use cairn_store::Connection;
use cairn_store::entity::{content, policy_limitation, section};
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

fn to_model(s: section::Model) -> Section {
    Section {
        href: hrefs::load_section(s.id),
        section_id: s.id,
        identifier: s.identifier,
        name: s.name,
    }
}

/// The Sections of `ids` (those that exist), in one query.
pub(crate) async fn by_ids(db: &impl Connection, ids: Vec<i64>) -> Result<Vec<Section>> {
    let rows = (section::Entity::find().filter(section::Column::Id.is_in(ids)))
        .all(db)
        .await?;
    Ok(rows.into_iter().map(to_model).collect())
}

async fn find(db: &impl Connection, id: i64) -> Result<section::Model> {
    cairn_store::read::by_id::<section::Entity>(db, id)
        .await?
        .ok_or_else(|| Error::not_found("Section", id))
}

/// 409, as the reference, while content is assigned to Section `id` or a Section limitation of
/// a Policy names it: deleting it would leave them pointing at nothing.
async fn refuse_in_use(db: &impl Connection, id: i64) -> Result<()> {
    let assigned = content::Entity::find()
        .select_only()
        .column(content::Column::Id)
        .filter(content::Column::SectionId.eq(id))
        .into_tuple::<i64>()
        .one(db)
        .await?;
    if assigned.is_some() {
        return Err(Error::BadState(format!(
            "Section {id} still has content assigned"
        )));
    }
    let limitations: Vec<String> = policy_limitation::Entity::find()
        .select_only()
        .column(policy_limitation::Column::LimitationValues)
        .filter(policy_limitation::Column::Identifier.eq("Section"))
        .into_tuple()
        .all(db)
        .await?;
    let named = id.to_string();
    if limitations
        .iter()
        .any(|values| decode_values(values).is_ok_and(|v| v.contains(&named)))
    {
        return Err(Error::BadState(format!(
            "Section {id} is still used in Policy limitations"
        )));
    }
    Ok(())
}

/// 403 when another Section than `except` already has `identifier`.
async fn ensure_free(db: &impl Connection, identifier: &str, except: Option<i64>) -> Result<()> {
    let taken = section::Entity::find()
        .filter(section::Column::Identifier.eq(identifier))
        .one(db)
        .await?;
    match taken {
        Some(s) if Some(s.id) != except => Err(Error::Forbidden(format!(
            "A Section with identifier '{identifier}' already exists"
        ))),
        _ => Ok(()),
    }
}

fn check_identifier(identifier: &str) -> Result<()> {
    if identifier.trim().is_empty() {
        return Err(Error::BadRequest(
            "SectionInput.identifier: must not be empty".into(),
        ));
    }
    Ok(())
}

crate::services::family_service!(
    /// Implements the API of Sections.
    SectionsService
);

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> SectionsApi<B> for SectionsService
{
    async fn list_sections(
        &self,
        cx: &Caller,
        req: ListSectionsRequest,
    ) -> Result<ListSectionsResponse> {
        let mut q = section::Entity::find().order_by_asc(section::Column::Id);
        // `section/view` takes no limitation: the caller sees every Section or none.
        if !cx.grants.may("section", "view") {
            q = q.filter(section::Column::Id.lt(0));
        }
        let identifier = req.identifier.or(req.identifer);
        if let Some(identifier) = &identifier {
            q = q.filter(section::Column::Identifier.eq(identifier.as_str()));
        }
        let sections: Vec<Section> = q
            .all(cx.reader())
            .await?
            .into_iter()
            .map(to_model)
            .collect();
        if let Some(identifier) = identifier
            && sections.is_empty()
        {
            return Err(Error::not_found("Section", identifier));
        }
        Ok(ListSectionsResponse::Ok {
            body: SectionList {
                href: hrefs::list_sections(),
                section: sections,
            },
        })
    }

    async fn create_section(
        &self,
        cx: &Caller,
        req: CreateSectionRequest,
    ) -> Result<CreateSectionResponse> {
        let (Some(identifier), Some(name)) = (req.body.identifier, req.body.name) else {
            return Err(Error::BadRequest(
                "SectionInput needs an identifier and a name".into(),
            ));
        };
        check_identifier(&identifier)?;
        let s = self
            .db
            .write(cx.change(), async |tx| {
                ensure_free(tx, &identifier, None).await?;
                let s = cairn_store::write::insert(
                    tx,
                    section::ActiveModel {
                        identifier: Set(identifier),
                        name: Set(name),
                        ..Default::default()
                    },
                )
                .await?;
                tx.created(&hrefs::load_section(s.id));
                Ok::<_, Error>(s)
            })
            .await?;
        Ok(CreateSectionResponse::Created { body: to_model(s) })
    }

    async fn load_section(
        &self,
        cx: &Caller,
        req: LoadSectionRequest,
    ) -> Result<LoadSectionResponse> {
        let body = to_model(find(cx.reader(), req.section_id).await?);
        Ok(LoadSectionResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn update_section(
        &self,
        cx: &Caller,
        req: UpdateSectionRequest,
    ) -> Result<UpdateSectionResponse> {
        let s = self
            .db
            .write(cx.change(), async |tx| {
                let current = find(tx, req.section_id).await?;
                preconditions::if_match(&req.if_match, async || Ok(to_model(current.clone())))
                    .await?;
                let mut active: section::ActiveModel = current.into();
                if let Some(identifier) = req.body.identifier {
                    check_identifier(&identifier)?;
                    ensure_free(tx, &identifier, Some(req.section_id)).await?;
                    active.identifier = Set(identifier);
                }
                if let Some(name) = req.body.name {
                    active.name = Set(name);
                }
                Ok::<_, Error>(cairn_store::write::update(tx, active).await?)
            })
            .await?;
        let body = to_model(s);
        Ok(UpdateSectionResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn delete_section(
        &self,
        cx: &Caller,
        req: DeleteSectionRequest,
    ) -> Result<DeleteSectionResponse> {
        self.db
            .write(cx.change(), async |tx| {
                let current = find(tx, req.section_id).await?;
                preconditions::if_match(&req.if_match, async || Ok(to_model(current.clone())))
                    .await?;
                refuse_in_use(tx, current.id).await?;
                section::Entity::delete_by_id(current.id).exec(tx).await?;
                Ok::<_, Error>(())
            })
            .await?;
        Ok(DeleteSectionResponse::NoContent)
    }
}
