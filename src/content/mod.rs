//! Content items, their versions, translations and relations (spec 2.3-2.5, 3.1, 4.3).
//!
//! A content item starts as a draft (version 1) placed under a pending Location; publishing a
//! draft archives the previous published version, and the first publication places the item
//! in the tree. Drafts are visible only to their creator (and the administrator).

mod create;
mod fields;
mod names;
pub(crate) mod render;
pub(crate) mod rows;
mod versions;

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::ContentApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::locations::tree;
use crate::permissions::{ContentFacts, Filter, READ, Scope, Subject, Target, denied};
use crate::preconditions;
use crate::service::Service;
use crate::stored;
use cairn_runtime::{ETag, Timestamp};
use cairn_store::entity::{
    content, content_object_state, content_relation, content_version, language, location,
    pending_location, section,
};
pub(crate) use fields::FieldSet;
use fields::{Failures, check_language_code};
use rows::TypeInfo;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel,
    QueryFilter, QuerySelect,
};

impl Service {
    /// The content item, if the caller may read it (`content/read`, and `content/versionread`
    /// for a draft never published); 401 otherwise.
    pub(crate) async fn visible_content(
        &self,
        db: &impl ConnectionTrait,
        cx: &Caller,
        id: i64,
    ) -> Result<content::Model> {
        let c = rows::content(db, id).await?;
        let facts = ContentFacts::of(&c);
        self.authorize(
            db,
            cx,
            ("content", "read"),
            Subject::Content(facts.clone()),
            &[],
        )
        .await?;
        if c.status == content::DRAFT {
            let facts = facts.with_version_status(content_version::DRAFT);
            self.authorize(
                db,
                cx,
                ("content", "versionread"),
                Subject::Content(facts),
                &[],
            )
            .await?;
        }
        Ok(c)
    }

    /// A new Section for `c` needs `section/assign` (its `NewSection` limitation names the
    /// Sections the caller may assign).
    pub(crate) async fn authorize_section_change(
        &self,
        db: &impl ConnectionTrait,
        cx: &Caller,
        c: &content::Model,
        section: Option<i64>,
    ) -> Result<()> {
        match section {
            Some(s) if s != c.section_id => {
                let facts = Subject::Content(ContentFacts::of(c));
                let to = [Target::Section(s)];
                self.authorize(db, cx, ("section", "assign"), facts, &to)
                    .await
            }
            _ => Ok(()),
        }
    }

    /// Whether the caller may read version `v` of `c`: a version other than the published
    /// one needs `content/versionread`.
    async fn may_read_version(
        &self,
        db: &impl ConnectionTrait,
        cx: &Caller,
        c: &content::Model,
        v: &content_version::Model,
    ) -> Result<bool> {
        if v.status == content_version::PUBLISHED {
            return Ok(true);
        }
        let facts = ContentFacts::of(c).with_version_status(v.status);
        self.allows(
            db,
            cx,
            ("content", "versionread"),
            Subject::Content(facts),
            &[],
        )
        .await
    }

    /// The version, if the caller may read it (401 otherwise).
    async fn visible_version(
        &self,
        db: &impl ConnectionTrait,
        cx: &Caller,
        c: &content::Model,
        no: i64,
    ) -> Result<content_version::Model> {
        let v = rows::version(db, c.id, no).await?;
        if !self.may_read_version(db, cx, c, &v).await? {
            return Err(denied("content", "versionread"));
        }
        Ok(v)
    }

    /// The path of ids of the content's main Location.
    pub(crate) async fn main_location_path(
        &self,
        db: &impl ConnectionTrait,
        c: &content::Model,
    ) -> Result<Option<String>> {
        match c.main_location_id {
            None => Ok(None),
            Some(id) => Ok(location::Entity::find_by_id(id)
                .one(db)
                .await?
                .map(|l| tree::href_path(&l.path_string))),
        }
    }

    pub(crate) async fn info_of(
        &self,
        db: &impl ConnectionTrait,
        c: &content::Model,
    ) -> Result<ContentInfo> {
        let path = self.main_location_path(db, c).await?;
        Ok(self.content_info(c, path.as_deref()))
    }

    /// A whole version with its fields and relations.
    pub(crate) async fn version_body(
        &self,
        db: &impl ConnectionTrait,
        c: &content::Model,
        v: &content_version::Model,
        languages: Option<&[String]>,
    ) -> Result<Version> {
        let ty = self.defined_type(db, c.content_type_id).await?;
        let fields = rows::fields(db, c.id, v.version_no).await?;
        let relations = rows::relations(db, c.id, v.version_no).await?;
        let assets = self.asset_images(db, [(&*ty, &fields[..])]).await?;
        let parts = render::Parts {
            fields: &fields,
            relations: &relations,
            assets: &assets,
        };
        Ok(self.version(c, v, &ty, parts, languages))
    }

    /// ContentInfo and the current version of each content item, in a fixed number of
    /// queries whatever their number.
    pub(crate) async fn current_versions(
        &self,
        db: &impl ConnectionTrait,
        cs: &[content::Model],
    ) -> Result<Vec<(ContentInfo, Version)>> {
        let pairs: Vec<(i64, i64)> = cs.iter().map(|c| (c.id, c.current_version)).collect();
        let rows = rows::version_rows(db, &pairs).await?;
        let mains: Vec<i64> = cs.iter().filter_map(|c| c.main_location_id).collect();
        let paths: std::collections::HashMap<i64, String> = location::Entity::find()
            .filter(location::Column::Id.is_in(mains))
            .all(db)
            .await?
            .into_iter()
            .map(|l| (l.id, tree::href_path(&l.path_string)))
            .collect();
        let mut types: std::collections::HashMap<i64, std::sync::Arc<TypeInfo>> =
            Default::default();
        for c in cs {
            if let std::collections::hash_map::Entry::Vacant(e) = types.entry(c.content_type_id) {
                e.insert(self.defined_type(db, c.content_type_id).await?);
            }
        }
        let assets = self
            .asset_images(
                db,
                cs.iter().map(|c| {
                    let fields = rows.fields.get(&(c.id, c.current_version));
                    (
                        &*types[&c.content_type_id],
                        fields.map_or(&[][..], Vec::as_slice),
                    )
                }),
            )
            .await?;
        let mut out = Vec::with_capacity(cs.len());
        for c in cs {
            let key = (c.id, c.current_version);
            let v = rows
                .versions
                .get(&key)
                .ok_or_else(|| Error::not_found("Version", format!("{}/{}", c.id, key.1)))?;
            let path = c.main_location_id.and_then(|m| paths.get(&m));
            let version = self.version(
                c,
                v,
                &types[&c.content_type_id],
                render::Parts {
                    fields: rows.fields.get(&key).map_or(&[][..], Vec::as_slice),
                    relations: rows.relations.get(&key).map_or(&[][..], Vec::as_slice),
                    assets: &assets,
                },
                None,
            );
            out.push((self.content_info(c, path.map(String::as_str)), version));
        }
        Ok(out)
    }

    /// ContentInfo, or Content with the current version embedded.
    async fn content_reply(
        &self,
        db: &impl ConnectionTrait,
        c: &content::Model,
        embed: bool,
        languages: Option<&[String]>,
    ) -> Result<(Option<ContentInfo>, Option<Content>)> {
        let info = self.info_of(db, c).await?;
        if !embed {
            return Ok((Some(info), None));
        }
        let v = rows::version(db, c.id, c.current_version).await?;
        let version = self.version_body(db, c, &v, languages).await?;
        Ok((None, Some(self.content_with_version(info, version))))
    }

    async fn check_language(&self, db: &impl ConnectionTrait, code: &str) -> Result<()> {
        check_language_code(code)?;
        if language::Entity::find()
            .filter(language::Column::LanguageCode.eq(code))
            .one(db)
            .await?
            .is_none()
        {
            return Err(Error::BadRequest(format!(
                "Language '{code}' does not exist in this repository"
            )));
        }
        Ok(())
    }

    /// Publishes draft `no` of `c` (inside the caller's transaction).
    pub(crate) async fn publish_version(
        &self,
        tx: &impl ConnectionTrait,
        c: &content::Model,
        v: content_version::Model,
    ) -> Result<()> {
        let no = v.version_no;
        if v.status != content_version::DRAFT {
            return Err(Error::Forbidden(
                "Only versions with DRAFT status can be published".into(),
            ));
        }
        let ty = self.defined_type(tx, c.content_type_id).await?;
        // The type may have changed since the draft was written: fill and check again.
        let mut set = FieldSet::from_rows(&rows::fields(tx, c.id, no).await?);
        let saved = set.entries.clone();
        let languages = rows::languages(&v.language_codes);
        self.complete_fields(&ty, &mut set, &languages, &c.main_language_code, false);
        let mut failures = Failures::default();
        self.validate_fields(&ty, &set, &mut failures);
        failures.into_result(&c.name)?;
        // Saved again only when the type changed since the draft was written.
        let unchanged = set.entries.len() == saved.len()
            && set.entries.iter().all(|e| {
                saved.iter().any(|s| {
                    s.definition_id == e.definition_id
                        && s.language == e.language
                        && s.value == e.value
                })
            });
        if !unchanged {
            self.save_fields(tx, &ty, c, no, &mut set).await?;
        }
        let names = self.version_names(&ty, &set, &languages);

        let now = Timestamp::now().0;
        let archived = content_version::Entity::update_many()
            .col_expr(
                content_version::Column::Status,
                content_version::ARCHIVED.into(),
            )
            .filter(content_version::Column::ContentId.eq(c.id))
            .filter(content_version::Column::Status.eq(content_version::PUBLISHED))
            .exec(tx)
            .await?
            .rows_affected;
        let mut active = v.into_active_model();
        active.status = Set(content_version::PUBLISHED);
        active.modified = Set(now);
        active.names = Set(stored::lang_map_json(&names));
        active.update(tx).await?;

        let first = c.status == content::DRAFT;
        let mut ca = c.clone().into_active_model();
        ca.current_version = Set(no);
        ca.status = Set(content::PUBLISHED);
        ca.modified = Set(now);
        if first || c.published == 0 {
            ca.published = Set(now);
        }
        ca.name = Set(names
            .get(&c.main_language_code)
            .or_else(|| names.0.first().map(|(_, n)| n.as_str()))
            .unwrap_or_default()
            .to_string());
        let c = ca.update(tx).await?;
        self.index_text(tx, c.id, &ty, &set).await?;
        let (c, locations) = match first {
            true => self.place_pending(tx, c, &ty).await?,
            false => {
                let locations = tree::of_content(tx, &c).await?;
                (c, locations)
            }
        };
        for l in locations {
            crate::cascades::location_published(tx, &l, &names, c.always_available).await?;
        }
        // Only a publication that archived a version can take the archive past its limit.
        if archived > 0 {
            self.trim_archived(tx, c.id).await?;
        }
        Ok(())
    }

    /// The first publication places the content item under its pending parents; the item
    /// with its main Location set, and its Locations.
    async fn place_pending(
        &self,
        tx: &impl ConnectionTrait,
        c: content::Model,
        ty: &TypeInfo,
    ) -> Result<(content::Model, Vec<location::Model>)> {
        let pending = pending_location::Entity::find()
            .filter(pending_location::Column::ContentId.eq(c.id))
            .all(tx)
            .await?;
        let mut main = c.main_location_id;
        let mut locations = Vec::with_capacity(pending.len());
        for p in pending {
            let parent = tree::find(tx, p.parent_id).await?;
            let l = tree::create(
                tx,
                &parent,
                &c,
                tree::NewLocation {
                    priority: p.priority,
                    hidden: p.is_hidden,
                    remote_id: p.remote_id.clone(),
                    sort_field: p
                        .sort_field
                        .clone()
                        .unwrap_or_else(|| ty.ty.default_sort_field.clone()),
                    sort_order: p
                        .sort_order
                        .clone()
                        .unwrap_or_else(|| ty.ty.default_sort_order.clone()),
                },
            )
            .await?;
            main.get_or_insert(l.id);
            locations.push(l);
        }
        pending_location::Entity::delete_many()
            .filter(pending_location::Column::ContentId.eq(c.id))
            .exec(tx)
            .await?;
        let mut ca = c.into_active_model();
        ca.main_location_id = Set(main);
        Ok((ca.update(tx).await?, locations))
    }

    /// Keeps the newest archived versions up to the configured limit.
    async fn trim_archived(&self, tx: &impl ConnectionTrait, content_id: i64) -> Result<()> {
        let mut archived: Vec<content_version::Model> = content_version::Entity::find()
            .filter(content_version::Column::ContentId.eq(content_id))
            .filter(content_version::Column::Status.eq(content_version::ARCHIVED))
            .all(tx)
            .await?;
        let keep = self.settings.archived_versions;
        if archived.len() <= keep {
            return Ok(());
        }
        archived.sort_by_key(|v| v.version_no);
        let excess = archived.len() - keep;
        for v in &archived[..excess] {
            self.remove_version(tx, content_id, v.version_no).await?;
        }
        Ok(())
    }

    /// Deletes a version's row, fields and relations.
    pub(crate) async fn remove_version(
        &self,
        tx: &impl ConnectionTrait,
        content_id: i64,
        no: i64,
    ) -> Result<()> {
        use cairn_store::entity::content_field;
        content_field::Entity::delete_many()
            .filter(content_field::Column::ContentId.eq(content_id))
            .filter(content_field::Column::VersionNo.eq(no))
            .exec(tx)
            .await?;
        content_relation::Entity::delete_many()
            .filter(content_relation::Column::SourceContentId.eq(content_id))
            .filter(content_relation::Column::SourceVersionNo.eq(no))
            .exec(tx)
            .await?;
        content_version::Entity::delete_many()
            .filter(content_version::Column::ContentId.eq(content_id))
            .filter(content_version::Column::VersionNo.eq(no))
            .exec(tx)
            .await?;
        Ok(())
    }

    /// Applies a `ContentUpdate` to `c` (inside the caller's transaction).
    pub(crate) async fn apply_metadata(
        &self,
        tx: &impl ConnectionTrait,
        c: &content::Model,
        b: &ContentUpdate,
    ) -> Result<content::Model> {
        let mut ca = c.clone().into_active_model();
        if let Some(l) = &b.main_language_code {
            self.check_language(tx, l).await?;
            let v = rows::version(tx, c.id, c.current_version).await?;
            if !rows::languages(&v.language_codes).contains(l) {
                return Err(Error::BadRequest(format!(
                    "The content item has no translation '{l}' to make its main language"
                )));
            }
            let names = stored::lang_map(&v.names);
            ca.name = Set(names.get(l).unwrap_or(&c.name).to_string());
            ca.main_language_code = Set(l.clone());
        }
        if let Some(s) = b.section {
            if section::Entity::find_by_id(s).one(tx).await?.is_none() {
                return Err(Error::BadRequest(format!("Section {s} does not exist")));
            }
            ca.section_id = Set(s);
        }
        if let Some(path) = &b.main_location {
            let l = tree::find_by_path(tx, path).await.map_err(|_| {
                Error::BadRequest(format!("MainLocation '{path}' is not a Location"))
            })?;
            if l.content_id != c.id {
                return Err(Error::BadRequest(format!(
                    "Location {} is not a Location of content {}",
                    l.id, c.id
                )));
            }
            ca.main_location_id = Set(Some(l.id));
        }
        if let Some(o) = b.owner {
            ca.owner_id = Set(o);
        }
        if let Some(a) = b.always_available {
            ca.always_available = Set(a);
        }
        if let Some(r) = &b.remote_id {
            cairn_store::sql::lock(tx, "content_remote_id").await?;
            let taken = content::Entity::find()
                .filter(content::Column::RemoteId.eq(r.as_str()))
                .filter(content::Column::Id.ne(c.id))
                .one(tx)
                .await?;
            if taken.is_some() {
                return Err(Error::Forbidden(format!(
                    "A content item with remote id '{r}' already exists"
                )));
            }
            ca.remote_id = Set(r.clone());
        }
        if let Some(p) = b.publish_date {
            ca.published = Set(p.0);
        }
        ca.modified = Set(b.modification_date.unwrap_or_else(Timestamp::now).0);
        Ok(ca.update(tx).await?)
    }

    /// Every content item starts in each Object state group's default state.
    async fn assign_default_states(
        &self,
        tx: &impl ConnectionTrait,
        content_id: i64,
    ) -> Result<()> {
        let defaults = crate::object_states::default_states(tx).await?;
        if defaults.is_empty() {
            return Ok(());
        }
        content_object_state::Entity::insert_many(defaults.into_iter().map(|(group, state)| {
            content_object_state::ActiveModel {
                content_id: Set(content_id),
                group_id: Set(group),
                state_id: Set(state),
            }
        }))
        .exec(tx)
        .await?;
        Ok(())
    }
}

impl ContentApi for Service {
    async fn redirect_content(
        &self,
        _cx: &Caller,
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
            .one(self.db.conn())
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
        let c = self.create(cx, req.body, false).await?;
        let embed = req.accept == CreateContentAccept::Content;
        Ok(
            match self.content_reply(self.db.conn(), &c, embed, None).await? {
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
        let db = self.db.conn();
        let c = self.visible_content(db, cx, req.content_id).await?;
        let languages = req.languages.as_deref().map(rows::languages);
        let info = self.info_of(db, &c).await?;
        let etag = ETag::of(&info);
        if req.accept == LoadContentAccept::ContentInfo {
            return Ok(LoadContentResponse::OkContentInfo { body: info, etag });
        }
        let v = rows::version(db, c.id, c.current_version).await?;
        let version = self.version_body(db, &c, &v, languages.as_deref()).await?;
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
        let b = req.body;
        let c = self
            .db
            .write(cx.change(), async |tx| {
                let c = self.visible_content(tx, cx, req.content_id).await?;
                self.authorize_content(tx, cx, &c, &[]).await?;
                self.authorize_section_change(tx, cx, &c, b.section).await?;
                preconditions::if_match(&req.if_match, async || self.info_of(tx, &c).await).await?;
                self.apply_metadata(tx, &c, &b).await
            })
            .await?;
        let body = self.info_of(self.db.conn(), &c).await?;
        Ok(UpdateContentMetadataResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn delete_content(
        &self,
        cx: &Caller,
        req: DeleteContentRequest,
    ) -> Result<DeleteContentResponse> {
        self.db
            .write(cx.change(), async |tx| {
                let c = self.visible_content(tx, cx, req.content_id).await?;
                preconditions::if_match(&req.if_match, async || self.info_of(tx, &c).await).await?;
                let locations = tree::of_content(tx, &c).await?;
                self.authorize_removal(tx, cx, &locations).await?;
                tree::delete_subtrees(tx, &locations, &[c.id]).await
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
            .visible_content(self.db.conn(), cx, req.content_id)
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
        let db = self.db.conn();
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
        let db = self.db.conn();
        let c = self.visible_content(db, cx, req.content_id).await?;
        let v = self.visible_version(db, cx, &c, req.version_no).await?;
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
                let c = self.visible_content(tx, cx, req.content_id).await?;
                let v = self.visible_version(tx, cx, &c, req.version_no).await?;
                let facts = ContentFacts::of(&c).in_languages(rows::languages(&v.language_codes));
                let policy = ("content", "publish");
                self.authorize(tx, cx, policy, Subject::Content(facts), &[])
                    .await?;
                Service::publish_version(self, tx, &c, v).await
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
        let c = self
            .visible_content(self.db.conn(), cx, req.content_id)
            .await?;
        Ok(RedirectCurrentVersionRelationsResponse::TemporaryRedirect {
            location: hrefs::load_version_relations(c.id, c.current_version),
        })
    }

    async fn load_version_relations(
        &self,
        cx: &Caller,
        req: LoadVersionRelationsRequest,
    ) -> Result<LoadVersionRelationsResponse> {
        let db = self.db.conn();
        let c = self.visible_content(db, cx, req.content_id).await?;
        let v = self.visible_version(db, cx, &c, req.version_no).await?;
        let ty = self.defined_type(db, c.content_type_id).await?;
        let mut all = rows::relations(db, c.id, v.version_no).await?;
        // Relations to content the caller may not read are left out (before the window).
        let scope = Scope {
            content: "contents",
            location: None,
        };
        let filter = self.visible(cx, READ, scope);
        if filter != Filter::All && !all.is_empty() {
            let readable: std::collections::HashSet<i64> = content::Entity::find()
                .select_only()
                .column(content::Column::Id)
                .filter(content::Column::Id.is_in(all.iter().map(|r| r.destination_content_id)))
                .filter(filter.expr(db.get_database_backend()))
                .into_tuple::<i64>()
                .all(db)
                .await?
                .into_iter()
                .collect();
            all.retain(|r| readable.contains(&r.destination_content_id));
        }
        let window: Vec<content_relation::Model> = req.limit.window(all, req.offset);
        Ok(LoadVersionRelationsResponse::Ok {
            body: self.relation_list(c.id, v.version_no, &window, Some(&ty)),
        })
    }

    async fn create_relation(
        &self,
        cx: &Caller,
        req: CreateRelationRequest,
    ) -> Result<CreateRelationResponse> {
        let r = self
            .db
            .write(cx.change(), async |tx| {
                let c = self.visible_content(tx, cx, req.content_id).await?;
                let v = self.visible_version(tx, cx, &c, req.version_no).await?;
                self.authorize_content(tx, cx, &c, &[]).await?;
                if v.status != content_version::DRAFT {
                    return Err(Error::Forbidden(
                        "Relation of type COMMON can only be added to drafts".into(),
                    ));
                }
                let dest = req.body.destination;
                if content::Entity::find_by_id(dest).one(tx).await?.is_none() {
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
                Ok(content_relation::ActiveModel {
                    source_content_id: Set(c.id),
                    source_version_no: Set(v.version_no),
                    destination_content_id: Set(dest),
                    relation_type: Set(content_relation::COMMON),
                    source_field_definition_id: Set(None),
                    ..Default::default()
                }
                .insert(tx)
                .await?)
            })
            .await?;
        Ok(CreateRelationResponse::Created {
            body: self.relation(&r, None),
        })
    }

    async fn load_version_relation(
        &self,
        cx: &Caller,
        req: LoadVersionRelationRequest,
    ) -> Result<LoadVersionRelationResponse> {
        let db = self.db.conn();
        let c = self.visible_content(db, cx, req.content_id).await?;
        let v = self.visible_version(db, cx, &c, req.version_no).await?;
        let r = rows::relations(db, c.id, v.version_no)
            .await?
            .into_iter()
            .find(|r| r.id == req.relation_id)
            .ok_or_else(|| Error::not_found("Relation", req.relation_id))?;
        let ty = self.defined_type(db, c.content_type_id).await?;
        let body = self.relation(&r, Some(&ty));
        Ok(LoadVersionRelationResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn remove_relation(
        &self,
        cx: &Caller,
        req: RemoveRelationRequest,
    ) -> Result<RemoveRelationResponse> {
        self.db
            .write(cx.change(), async |tx| {
                let c = self.visible_content(tx, cx, req.content_id).await?;
                let v = self.visible_version(tx, cx, &c, req.version_no).await?;
                self.authorize_content(tx, cx, &c, &[]).await?;
                let r = rows::relations(tx, c.id, v.version_no)
                    .await?
                    .into_iter()
                    .find(|r| r.id == req.relation_id)
                    .ok_or_else(|| Error::not_found("Relation", req.relation_id))?;
                preconditions::if_match(&req.if_match, async || Ok(self.relation(&r, Some(&*self.defined_type(tx, c.content_type_id).await?)))).await?;
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

    async fn hide_content(
        &self,
        cx: &Caller,
        req: HideContentRequest,
    ) -> Result<HideContentResponse> {
        self.set_content_hidden(cx, req.content_id, true).await?;
        Ok(HideContentResponse::NoContent)
    }

    async fn reveal_content(
        &self,
        cx: &Caller,
        req: RevealContentRequest,
    ) -> Result<RevealContentResponse> {
        self.set_content_hidden(cx, req.content_id, false).await?;
        Ok(RevealContentResponse::NoContent)
    }

    async fn get_object_states_for_content(
        &self,
        cx: &Caller,
        req: GetObjectStatesForContentRequest,
    ) -> Result<GetObjectStatesForContentResponse> {
        let db = self.db.conn();
        let c = self.visible_content(db, cx, req.content_id).await?;
        let body = self.content_states_body(db, c.id).await?;
        Ok(GetObjectStatesForContentResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn set_object_states_for_content(
        &self,
        cx: &Caller,
        req: SetObjectStatesForContentRequest,
    ) -> Result<SetObjectStatesForContentResponse> {
        let mut states = Vec::new();
        for href in &req.body.object_state {
            let (_, id) = hrefs::read::load_object_state(href)
                .ok_or_else(|| Error::BadRequest(format!("'{href}' is not an Object state")))?;
            states.push(id);
        }
        self.db
            .write(cx.change(), async |tx| {
                let c = self.visible_content(tx, cx, req.content_id).await?;
                let targets: Vec<Target> = states.iter().map(|s| Target::State(*s)).collect();
                self.authorize_content(tx, cx, &c, &targets).await?;
                preconditions::if_match(&req.if_match, async || {
                    self.content_states_body(tx, c.id).await
                })
                .await?;
                crate::object_states::assign_states(tx, c.id, &states).await
            })
            .await?;
        let body = self
            .content_states_body(self.db.conn(), req.content_id)
            .await?;
        Ok(SetObjectStatesForContentResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
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

impl Service {
    async fn content_states_body(
        &self,
        db: &impl ConnectionTrait,
        content_id: i64,
    ) -> Result<ContentObjectStates> {
        let states = crate::object_states::content_states(db, content_id).await?;
        Ok(ContentObjectStates {
            object_state: states
                .into_iter()
                .map(|(g, s)| hrefs::load_object_state(g, s))
                .collect(),
        })
    }

    /// Hides or reveals a content item: its Locations and their subtrees become invisible or
    /// visible again (where nothing else hides them).
    async fn set_content_hidden(&self, cx: &Caller, id: i64, hidden: bool) -> Result<()> {
        self.db
            .write(cx.change(), async |tx| {
                let c = self.visible_content(tx, cx, id).await?;
                self.authorize_content(tx, cx, &c, &[]).await?;
                if c.is_hidden == hidden {
                    return Ok(());
                }
                let mut ca = c.clone().into_active_model();
                ca.is_hidden = Set(hidden);
                let c = ca.update(tx).await?;
                for l in tree::of_content(tx, &c).await? {
                    tree::recompute_visibility(tx, &l).await?;
                }
                Ok(())
            })
            .await
    }
}
