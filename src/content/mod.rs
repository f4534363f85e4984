//! Content items, their versions, translations and relations (spec 2.3-2.5, 3.1, 4.3).
//!
//! A content item starts as a draft (version 1) placed under a pending Location; publishing a
//! draft archives the previous published version, and the first publication places the item
//! in the tree. Drafts are visible only to their creator (and the administrator).

mod access;
mod bodies;
mod copies;
mod create;
pub(crate) use create::Then;
mod fields;
mod implied;
mod metadata;
mod names;
mod publishing;
mod relations;
pub(crate) mod render;
mod states;
mod versions;
pub(crate) use versions::Original;
mod visibility;

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::ContentApi;
use crate::auth::Caller;
use crate::content_rows::{self as rows, TypeInfo};
use crate::error::{Error, Result};
use crate::permissions::administrators::keep_an_administrator;
use crate::permissions::{
    ContentFacts, Filter, READ, Scope, Subject, Target, VersionTarget, denied,
};
use crate::preconditions;
use crate::shared::Shared;
use crate::stored;
use crate::tree;
use cairn_runtime::{ETag, Timestamp};
use cairn_store::Connection;
use cairn_store::entity::{
    content, content_relation, content_version, location, pending_location, section,
};
use fields::Failures;
pub(crate) use fields::{FieldSet, check_language_code};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, EntityTrait, IntoActiveModel, QueryFilter, QuerySelect,
};

impl Shared {
    async fn check_language(&self, db: &impl Connection, code: &str) -> Result<()> {
        check_language_code(code)?;
        if self.languages.by_code(db, code).await?.is_none() {
            return Err(Error::BadRequest(format!(
                "Language '{code}' does not exist in this repository"
            )));
        }
        Ok(())
    }
}

crate::services::family_service!(
    /// Implements the API of content items, their versions, translations and relations.
    ContentService
);

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> ContentApi<B> for ContentService
{
    async fn redirect_content(
        &self,
        cx: &Caller,
        req: RedirectContentRequest,
    ) -> Result<RedirectContentResponse> {
        let remote_id = req.remote_id.ok_or_else(|| {
            Error::BadRequest("The query parameter 'remoteId' is required".into())
        })?;
        // Without regard to case, as the reference (an index on LOWER(remote_id)).
        let c = content::Entity::find()
            .filter(Expr::cust_with_values(
                cairn_store::sql::placeholders(self.db.backend(), "LOWER(remote_id) = LOWER(?)"),
                [remote_id.as_str()],
            ))
            .one(cx.reader())
            .await?
            .ok_or_else(|| Error::not_found("Content", &remote_id))?;
        Ok(RedirectContentResponse::TemporaryRedirect {
            location: hrefs::load_content(c.id),
        })
    }

    async fn create_content(
        &self,
        cx: &Caller,
        req: CreateContentRequest,
    ) -> Result<CreateContentResponse> {
        let then = if req.publish {
            Then::Publish
        } else {
            Then::Draft
        };
        let c = self.create(cx, req.body, then).await?;
        let embed = req.accept == CreateContentAccept::Content;
        Ok(
            match self.content_reply(cx.reader(), &c, embed, None).await? {
                (_, Some(body)) => CreateContentResponse::CreatedContent { body },
                (Some(body), _) => CreateContentResponse::CreatedContentInfo { body },
                _ => unreachable!("content_reply gives one representation"),
            },
        )
    }

    async fn load_content(
        &self,
        cx: &Caller,
        req: LoadContentRequest,
    ) -> Result<LoadContentResponse> {
        let db = cx.reader();
        let read = self.visible_read(db, cx, req.content_id, None).await?;
        let c = &read.content;
        let languages = req.languages.as_deref().map(rows::languages);
        let path = read.main_path_string.as_deref().map(tree::href_path);
        let info = self.content_info(c, path.as_deref());
        let etag = ETag::of(&info);
        if req.accept == LoadContentAccept::ContentInfo {
            return Ok(LoadContentResponse::OkContentInfo { body: info, etag });
        }
        let v = (read.version.as_ref()).ok_or_else(|| {
            Error::not_found("Version", format!("{}/{}", c.id, c.current_version))
        })?;
        let version = self.version_body(db, c, v, languages.as_deref()).await?;
        Ok(LoadContentResponse::OkContent {
            body: self.content_with_version(info, version),
            etag,
        })
    }

    async fn update_content_metadata(
        &self,
        cx: &Caller,
        req: UpdateContentMetadataRequest,
    ) -> Result<UpdateContentMetadataResponse> {
        metadata::update(self, cx, req).await
    }

    async fn delete_content(
        &self,
        cx: &Caller,
        req: DeleteContentRequest,
    ) -> Result<DeleteContentResponse> {
        self.db
            .write(cx.change(), async |tx| {
                tree::hold(tx).await?;
                let c = self.visible_content(tx, cx, req.content_id).await?;
                preconditions::if_match(&req.if_match, async || self.info_of(tx, &c).await).await?;
                // As the reference: `content/remove` on the item for every translation of it,
                // then on everything below its Locations.
                let gone = [Target::Version(VersionTarget::Delete(None))];
                self.authorize_content(tx, cx, &c, &gone).await?;
                let locations = tree::of_content(tx, &c).await?;
                self.authorize_removal(tx, cx, &locations).await?;
                tree::delete_subtrees(tx, &*self.tree_changes, &locations, &[c.id]).await?;
                keep_an_administrator(tx).await
            })
            .await?;
        Ok(DeleteContentResponse::NoContent)
    }

    async fn copy_content(
        &self,
        cx: &Caller,
        req: CopyContentRequest,
    ) -> Result<CopyContentResponse> {
        let id = self
            .copy_content_to(cx, req.content_id, &req.destination)
            .await?;
        Ok(CopyContentResponse::Created {
            location: hrefs::load_content(id),
        })
    }

    async fn delete_content_translation(
        &self,
        cx: &Caller,
        req: DeleteContentTranslationRequest,
    ) -> Result<DeleteContentTranslationResponse> {
        self.delete_translation_everywhere(cx, req.content_id, &req.language_code)
            .await?;
        Ok(DeleteContentTranslationResponse::NoContent)
    }

    async fn redirect_current_version(
        &self,
        cx: &Caller,
        req: RedirectCurrentVersionRequest,
    ) -> Result<RedirectCurrentVersionResponse> {
        let c = self
            .visible_content(cx.reader(), cx, req.content_id)
            .await?;
        Ok(RedirectCurrentVersionResponse::TemporaryRedirect {
            location: hrefs::load_content_in_version(c.id, c.current_version),
        })
    }

    async fn create_draft_from_current_version(
        &self,
        cx: &Caller,
        req: CreateDraftFromCurrentVersionRequest,
    ) -> Result<CreateDraftFromCurrentVersionResponse> {
        let body = self.copy_version(cx, req.content_id, None).await?;
        Ok(CreateDraftFromCurrentVersionResponse::Created { body })
    }

    async fn load_content_versions(
        &self,
        cx: &Caller,
        req: LoadContentVersionsRequest,
    ) -> Result<LoadContentVersionsResponse> {
        let db = cx.reader();
        let c = self.visible_content(db, cx, req.content_id).await?;
        let mut items = Vec::new();
        self.authorize_content(db, cx, &c, &[]).await?;
        for v in rows::versions(db, c.id).await? {
            if !self.may_read_version(db, cx, &c, &v).await? {
                continue;
            }
            items.push(VersionItem {
                version: hrefs::load_content_in_version(c.id, v.version_no),
                version_info: self.version_info(&c, &v),
            });
        }
        Ok(LoadContentVersionsResponse::Ok {
            body: VersionList {
                href: hrefs::load_content_versions(c.id),
                version_item: items,
            },
        })
    }

    async fn load_content_in_version(
        &self,
        cx: &Caller,
        req: LoadContentInVersionRequest,
    ) -> Result<LoadContentInVersionResponse> {
        let db = cx.reader();
        let (c, v) = self
            .visible_content_version(db, cx, req.content_id, Some(req.version_no))
            .await?;
        let languages = req.languages.as_deref().map(rows::languages);
        let body = self.version_body(db, &c, &v, languages.as_deref()).await?;
        Ok(LoadContentInVersionResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn update_version(
        &self,
        cx: &Caller,
        req: UpdateVersionRequest,
    ) -> Result<UpdateVersionResponse> {
        let body = self.update_draft(cx, req).await?;
        Ok(UpdateVersionResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn delete_content_version(
        &self,
        cx: &Caller,
        req: DeleteContentVersionRequest,
    ) -> Result<DeleteContentVersionResponse> {
        self.delete_version(cx, req).await?;
        Ok(DeleteContentVersionResponse::NoContent)
    }

    async fn create_draft_from_version(
        &self,
        cx: &Caller,
        req: CreateDraftFromVersionRequest,
    ) -> Result<CreateDraftFromVersionResponse> {
        let body = self
            .copy_version(cx, req.content_id, Some(req.version_no))
            .await?;
        Ok(CreateDraftFromVersionResponse::Created { body })
    }

    async fn publish_version(
        &self,
        cx: &Caller,
        req: PublishVersionRequest,
    ) -> Result<PublishVersionResponse> {
        self.db
            .write(cx.change(), async |tx| {
                let (c, v) = self
                    .visible_content_version(tx, cx, req.content_id, Some(req.version_no))
                    .await?;
                let facts = ContentFacts::of_version(&c, &v);
                let policy = ("content", "publish");
                let published = [Target::Version(VersionTarget::Publish)];
                self.authorize(tx, cx, policy, Subject::Content(facts), &published)
                    .await?;
                Shared::publish_version(self, tx, &c, v).await.map(drop)
            })
            .await?;
        Ok(PublishVersionResponse::NoContent)
    }

    async fn delete_translation_from_draft(
        &self,
        cx: &Caller,
        req: DeleteTranslationFromDraftRequest,
    ) -> Result<DeleteTranslationFromDraftResponse> {
        self.delete_draft_translation(cx, req.content_id, req.version_no, &req.language_code)
            .await?;
        Ok(DeleteTranslationFromDraftResponse::NoContent)
    }

    async fn redirect_current_version_relations(
        &self,
        cx: &Caller,
        req: RedirectCurrentVersionRelationsRequest,
    ) -> Result<RedirectCurrentVersionRelationsResponse> {
        relations::redirect_current(self, cx, req).await
    }

    async fn load_version_relations(
        &self,
        cx: &Caller,
        req: LoadVersionRelationsRequest,
    ) -> Result<LoadVersionRelationsResponse> {
        relations::list(self, cx, req).await
    }

    async fn create_relation(
        &self,
        cx: &Caller,
        req: CreateRelationRequest,
    ) -> Result<CreateRelationResponse> {
        relations::create(self, cx, req).await
    }

    async fn load_version_relation(
        &self,
        cx: &Caller,
        req: LoadVersionRelationRequest,
    ) -> Result<LoadVersionRelationResponse> {
        relations::load(self, cx, req).await
    }

    async fn remove_relation(
        &self,
        cx: &Caller,
        req: RemoveRelationRequest,
    ) -> Result<RemoveRelationResponse> {
        relations::remove(self, cx, req).await
    }

    async fn hide_content(
        &self,
        cx: &Caller,
        req: HideContentRequest,
    ) -> Result<HideContentResponse> {
        visibility::hide(self, cx, req).await
    }

    async fn reveal_content(
        &self,
        cx: &Caller,
        req: RevealContentRequest,
    ) -> Result<RevealContentResponse> {
        visibility::reveal(self, cx, req).await
    }

    async fn get_object_states_for_content(
        &self,
        cx: &Caller,
        req: GetObjectStatesForContentRequest,
    ) -> Result<GetObjectStatesForContentResponse> {
        states::of_content(self, cx, req).await
    }

    async fn set_object_states_for_content(
        &self,
        cx: &Caller,
        req: SetObjectStatesForContentRequest,
    ) -> Result<SetObjectStatesForContentResponse> {
        states::set(self, cx, req).await
    }

    async fn get_image_variation(
        &self,
        cx: &Caller,
        req: GetImageVariationRequest,
    ) -> Result<GetImageVariationResponse> {
        let body = self
            .image_variation(cx, &req.image_id, &req.variation_identifier)
            .await?;
        Ok(GetImageVariationResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }
}
