//! Drafts from versions, draft updates, version deletion, translations, and image
//! variations.

use super::ContentService;
use super::fields::{Failures, FieldSet};
use crate::api::hrefs;
use crate::api::model::*;
use crate::auth::Caller;
use crate::content_rows as rows;
use crate::error::{Error, Result};
use crate::field_types::files::Uploads;
use crate::images::VariationError;
use crate::permissions::{ContentFacts, Subject, Target, VersionTarget};
use crate::preconditions;
use crate::shared::Shared;
use crate::storage::FileStore;
use crate::stored;
use cairn_runtime::Timestamp;
use cairn_store::Tx;
use cairn_store::entity::{content, content_field, content_relation, content_version};
use cairn_store::events::Touched;
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, IntoActiveModel, QueryFilter};

impl Shared {
    /// A new draft (inside the caller's transaction) from version `source_no` of `c`: fields,
    /// COMMON relations and names copied, numbered after the highest version.
    pub(crate) async fn draft_from(
        &self,
        tx: &Tx,
        cx: &Caller,
        c: &content::Model,
        source_no: i64,
    ) -> Result<content_version::Model> {
        let source = self.visible_version(tx, cx, c, source_no).await?;
        let no = rows::versions(tx, c.id)
            .await?
            .iter()
            .map(|v| v.version_no)
            .max()
            .unwrap_or(0)
            + 1;
        let now = Timestamp::now().0;
        let v = cairn_store::write::insert(
            tx,
            version_like(&source, c.id, no, content_version::DRAFT, cx.user_id, now),
        )
        .await?;
        let mut fields: Vec<content_field::Model> = rows::fields(tx, c.id, source_no)
            .await?
            .into_iter()
            .map(|f| content_field::Model {
                version_no: no,
                ..f
            })
            .collect();
        rows::insert_fields(tx, &mut fields).await?;
        copy_relations(tx, (c.id, source_no), (c.id, no)).await?;
        Ok(v)
    }

    /// Applies field inputs and the initial language to draft `v` of `c` (inside the caller's
    /// transaction); every failing field is reported in one 400.
    pub(crate) async fn edit_draft(
        &self,
        tx: &Tx,
        c: &content::Model,
        v: content_version::Model,
        (inputs, initial): (&[FieldInput], String),
        modification: Option<Timestamp>,
        uploads: &Uploads,
    ) -> Result<content_version::Model> {
        let ty = self.defined_type(tx, c.content_type_id).await?;
        let existing = rows::fields(tx, c.id, v.version_no).await?;
        let mut set = FieldSet::from_rows(&existing);
        self.check_language(tx, &initial).await?;
        let mut failures = Failures::default();
        self.apply_inputs(
            &ty,
            &mut set,
            inputs,
            (&initial, &c.main_language_code),
            &mut failures,
            uploads,
        )?;
        let mut languages = rows::languages(&v.language_codes);
        for l in set.languages() {
            if !languages.contains(&l) {
                self.check_language(tx, &l).await?;
                languages.push(l);
            }
        }
        if !languages.contains(&initial) {
            languages.push(initial.clone());
        }
        self.complete_fields(&ty, &mut set, &languages, &c.main_language_code, false);
        self.validate_fields(&ty, &set, &mut failures);
        self.check_relation_targets(tx, &ty, &set, &mut failures)
            .await?;
        let names = self.version_names(&ty, &set, &languages);
        failures.into_result(names.get(&c.main_language_code).unwrap_or(&c.name))?;
        self.save_fields(tx, &ty, c, v.version_no, &mut set, false)
            .await?;
        let mut va = v.into_active_model();
        va.initial_language_code = Set(initial);
        va.language_codes = Set(languages.join(","));
        va.names = Set(stored::lang_map_json(&names));
        va.modified = Set(modification.unwrap_or_else(Timestamp::now).0);
        Ok(cairn_store::write::update(tx, va).await?)
    }
}

impl ContentService {
    /// A new draft from version `from` (the current version when `None`): fields, COMMON
    /// relations and names copied, numbered after the highest version.
    pub(super) async fn copy_version(
        &self,
        cx: &Caller,
        content_id: i64,
        from: Option<i64>,
    ) -> Result<Version> {
        let (c, v) = self
            .db
            .write(cx.change(), async |tx| {
                let c = self.visible_content(tx, cx, content_id).await?;
                let draft = [Target::Version(VersionTarget::NewDraft)];
                self.authorize_content(tx, cx, &c, &draft).await?;
                tx.touched([Touched::Content(c.id)]);
                let source_no = match from {
                    Some(n) => n,
                    None => {
                        if c.status == content::DRAFT {
                            return Err(Error::Forbidden(
                                "The current version is a draft already: edit it instead".into(),
                            ));
                        }
                        c.current_version
                    }
                };
                let v = self.draft_from(tx, cx, &c, source_no).await?;
                tx.created(&hrefs::load_content_in_version(c.id, v.version_no));
                Ok((c, v))
            })
            .await?;
        self.version_body(cx.reader(), &c, &v, None).await
    }

    /// Version `no` of content item `id` for a change by `cx` (inside its transaction): the
    /// item and the version, both readable, and the operation's Policy granted on the version
    /// with `targets`; the change touches the item.
    async fn version_to_change(
        &self,
        tx: &Tx,
        cx: &Caller,
        (id, no): (i64, i64),
        targets: impl FnOnce(&content_version::Model) -> Vec<Target>,
    ) -> Result<(content::Model, content_version::Model)> {
        let (c, v) = self.visible_content_version(tx, cx, id, Some(no)).await?;
        self.authorize_version(tx, cx, &c, &v, &targets(&v)).await?;
        tx.touched([Touched::Content(c.id)]);
        Ok((c, v))
    }

    /// Applies a `VersionUpdate` to a draft: new field values (translations included) and the
    /// initial language; every failing field is reported in one 400.
    pub(super) async fn update_draft(
        &self,
        cx: &Caller,
        req: UpdateVersionRequest,
    ) -> Result<Version> {
        let b = req.body;
        let (c, v) = self
            .db
            .write(cx.change(), async |tx| {
                let written =
                    |v: &content_version::Model| vec![Target::Version(written_languages(&b, v))];
                let (c, v) =
                    (self.version_to_change(tx, cx, (req.content_id, req.version_no), written))
                        .await?;
                preconditions::if_match(&req.if_match, async || {
                    self.version_body(tx, &c, &v, None).await
                })
                .await?;
                if v.status != content_version::DRAFT {
                    return Err(Error::Forbidden(
                        "Only versions with DRAFT status can be updated".into(),
                    ));
                }
                let initial = b
                    .initial_language_code
                    .clone()
                    .unwrap_or(v.initial_language_code.clone());
                let inputs = b.fields.as_ref().map(|f| f.field.as_slice()).unwrap_or(&[]);
                let v = self
                    .edit_draft(
                        tx,
                        &c,
                        v,
                        (inputs, initial),
                        b.modification_date,
                        &cx.uploads,
                    )
                    .await?;
                Ok((c, v))
            })
            .await?;
        let languages = req.languages.as_deref().map(rows::languages);
        self.version_body(cx.reader(), &c, &v, languages.as_deref())
            .await
    }

    /// Deletes a draft or archived version; the published one, and the last version of a
    /// content item, are refused (403).
    pub(super) async fn delete_version(
        &self,
        cx: &Caller,
        req: DeleteContentVersionRequest,
    ) -> Result<()> {
        self.db
            .write(cx.change(), async |tx| {
                let (c, v) = (self.version_to_change(tx, cx, (req.content_id, req.version_no), |_| vec![]))
                    .await?;
                preconditions::if_match(&req.if_match, async || {
                    self.version_body(tx, &c, &v, None).await
                })
                .await?;
                if v.status == content_version::PUBLISHED {
                    return Err(Error::Forbidden(
                        "Versions with PUBLISHED status cannot be deleted".into(),
                    ));
                }
                if rows::versions(tx, c.id).await?.len() == 1 {
                    return Err(Error::Forbidden(
                        "The version is the last version of the content item and cannot be deleted; delete the content item".into(),
                    ));
                }
                self.remove_version(tx, c.id, v.version_no).await
            })
            .await
    }

    /// Removes a translation from a draft: 403 unless a draft, 406 when absent, 409 for the
    /// only or the main translation.
    pub(super) async fn delete_draft_translation(
        &self,
        cx: &Caller,
        content_id: i64,
        no: i64,
        lang: &str,
    ) -> Result<()> {
        self.db
            .write(cx.change(), async |tx| {
                let (c, v) = self
                    .visible_content_version(tx, cx, content_id, Some(no))
                    .await?;
                // The translation removed must be allowed (the reference looks at the current
                // version's initial language only, which let a translation go unchecked).
                let removed = [Target::Version(VersionTarget::Delete(Some(vec![
                    lang.to_string(),
                ])))];
                self.authorize_version(tx, cx, &c, &v, &removed).await?;
                if v.status != content_version::DRAFT {
                    return Err(Error::Forbidden(
                        "Translations can only be removed from drafts".into(),
                    ));
                }
                self.drop_translation(tx, &c, &v, lang).await
            })
            .await
    }

    /// Removes `lang` from version `v` (checked: present, not the only one, not the main one).
    async fn drop_translation(
        &self,
        tx: &Tx,
        c: &content::Model,
        v: &content_version::Model,
        lang: &str,
    ) -> Result<()> {
        let mut languages = rows::languages(&v.language_codes);
        if !languages.iter().any(|l| l == lang) {
            return Err(Error::InvalidArgument(format!(
                "Version {} of content {} has no translation '{lang}'",
                v.version_no, c.id
            )));
        }
        if languages.len() == 1 {
            return Err(Error::BadState(format!("'{lang}' is the only translation")));
        }
        if lang == c.main_language_code {
            return Err(Error::BadState(format!(
                "'{lang}' is the main translation of content {}",
                c.id
            )));
        }
        languages.retain(|l| l != lang);
        content_field::Entity::delete_many()
            .filter(content_field::Column::ContentId.eq(c.id))
            .filter(content_field::Column::VersionNo.eq(v.version_no))
            .filter(content_field::Column::LanguageCode.eq(lang))
            .exec(tx)
            .await?;
        let mut names = stored::lang_map(&v.names);
        names.0.retain(|(l, _)| l != lang);
        let mut va = v.clone().into_active_model();
        va.language_codes = Set(languages.join(","));
        if v.initial_language_code == lang {
            va.initial_language_code = Set(c.main_language_code.clone());
        }
        va.names = Set(stored::lang_map_json(&names));
        cairn_store::write::update(tx, va).await?;
        Ok(())
    }

    /// Removes a translation from every version: 406 when no version has it, 409 when it is
    /// the main translation or the published version's only one; versions holding only that
    /// translation are deleted.
    pub(super) async fn delete_translation_everywhere(
        &self,
        cx: &Caller,
        content_id: i64,
        lang: &str,
    ) -> Result<()> {
        self.db
            .write(cx.change(), async |tx| {
                let c = self.visible_content(tx, cx, content_id).await?;
                let policy = ("content", "remove");
                let versions = rows::versions(tx, c.id).await?;
                // As the reference: on every version, as removing a translation of any of
                // `lang`.
                let removed = [Target::Version(VersionTarget::AnyOf(vec![
                    lang.to_string(),
                ]))];
                for v in &versions {
                    let facts = ContentFacts::of_version(&c, v);
                    self.authorize(tx, cx, policy, Subject::Content(facts), &removed)
                        .await?;
                }
                if !versions
                    .iter()
                    .any(|v| rows::languages(&v.language_codes).iter().any(|l| l == lang))
                {
                    return Err(Error::InvalidArgument(format!(
                        "Content {} has no translation '{lang}'",
                        c.id
                    )));
                }
                if lang == c.main_language_code {
                    return Err(Error::BadState(format!(
                        "'{lang}' is the main translation of content {}",
                        c.id
                    )));
                }
                for v in &versions {
                    let languages = rows::languages(&v.language_codes);
                    if !languages.iter().any(|l| l == lang) {
                        continue;
                    }
                    if languages.len() == 1 {
                        if v.status == content_version::PUBLISHED {
                            return Err(Error::BadState(format!(
                                "'{lang}' is the only translation"
                            )));
                        }
                        self.remove_version(tx, c.id, v.version_no).await?;
                    } else {
                        self.drop_translation(tx, &c, v, lang).await?;
                    }
                }
                if c.status == content::PUBLISHED {
                    self.reindex_text(tx, &c).await?;
                }
                let mut ca = c.into_active_model();
                ca.modified = Set(Timestamp::now().0);
                cairn_store::write::update(tx, ca).await?;
                Ok(())
            })
            .await
    }

    /// An image field's variation: `imageId` is `<contentId>-<fieldId>[-<versionNo>]`;
    /// `original` is the stored file, any other variation is rendered from it on first
    /// request and kept (`crate::images`).
    pub(super) async fn image_variation(
        &self,
        cx: &Caller,
        image_id: &str,
        alias: &str,
    ) -> Result<ContentImageVariation> {
        let missing = || Error::not_found("ImageVariation", format!("{image_id}/{alias}"));
        let parts: Vec<i64> = image_id
            .split('-')
            .map(|p| p.parse().map_err(|_| missing()))
            .collect::<Result<_>>()?;
        let (content_id, field_id) = match parts.as_slice() {
            [c, f] | [c, f, _] => (*c, *f),
            _ => return Err(missing()),
        };
        // An unknown variation is refused before anything is read.
        if alias != "original" && self.images.variations().get(alias).is_none() {
            return Err(missing());
        }
        let db = cx.reader();
        let (c, v) =
            (self.visible_content_version(db, cx, content_id, parts.get(2).copied())).await?;
        let no = v.version_no;
        let f = content_field::Entity::find_by_id((field_id, no))
            .one(db)
            .await?
            .filter(|f| f.content_id == content_id)
            .ok_or_else(missing)?;
        let ty = self.defined_type(db, c.content_type_id).await?;
        let def = ty.field(f.field_definition_id).ok_or_else(missing)?;
        if def.field_type != "image" {
            return Err(missing());
        }
        let value = stored::hash(&f.value);
        let Some(path) = value.get("id").and_then(|p| p.as_str()) else {
            return Err(missing());
        };
        let mime = value
            .get("mime")
            .and_then(|m| m.as_str())
            .unwrap_or_default();
        let original = Original {
            path,
            mime,
            width: value.get("width").and_then(|w| w.as_i64()),
            height: value.get("height").and_then(|h| h.as_i64()),
            file_size: value.get("fileSize").and_then(|s| s.as_i64()),
        };
        Ok(self.variation_of(image_id, alias, &original).await?.0)
    }
}

/// A stored original image, as its field value names it.
pub(crate) struct Original<'a> {
    pub path: &'a str,
    pub mime: &'a str,
    pub width: Option<i64>,
    pub height: Option<i64>,
    pub file_size: Option<i64>,
}

impl ContentService {
    /// The variation `alias` (`original` or a configured one) of the image `image_id` whose
    /// stored original is `original`: kept, or rendered and kept now, with when its file was
    /// written (not known of the original). No statement: for a field value the caller has
    /// read already (GraphQL's items); the REST operation finds and checks it first.
    pub(crate) async fn variation_of(
        &self,
        image_id: &str,
        alias: &str,
        original: &Original<'_>,
    ) -> Result<(ContentImageVariation, Option<Timestamp>)> {
        let missing = || Error::not_found("ImageVariation", format!("{image_id}/{alias}"));
        let variation = match alias {
            "original" => None,
            name => Some(self.images.variations().get(name).ok_or_else(missing)?),
        };
        let (path, mime) = (original.path, original.mime);
        let href = hrefs::get_image_variation(image_id, alias);
        let Some(variation) = variation else {
            let body = ContentImageVariation {
                href,
                uri: self.files.uri(path),
                content_type: Some(mime.to_string()),
                width: original.width,
                height: original.height,
                file_size: original.file_size,
            };
            return Ok((body, None));
        };
        let kept = self
            .images
            .variation(&self.files, path, mime, variation)
            .await
            .map_err(|e| match e {
                VariationError::Busy => Error::Busy(format!(
                    "Too many image variations are being rendered: try '{alias}' again shortly"
                )),
                VariationError::Refused(why) => {
                    Error::BadState(format!("The variation '{alias}' cannot be rendered: {why}"))
                }
                VariationError::Storage(e) => Error::StorageFailed(e),
            })?;
        let body = ContentImageVariation {
            href,
            uri: self.files.uri(&kept.path),
            content_type: Some(kept.mime.to_string()),
            width: Some(i64::from(kept.width)),
            height: Some(i64::from(kept.height)),
            file_size: Some(kept.size as i64),
        };
        Ok((body, Some(Timestamp(kept.modified))))
    }
}

/// A new version `no` of the content item `content_id`, in `status`, made by `user_id` at
/// `now`, in the languages and with the names of `source`.
pub(super) fn version_like(
    source: &content_version::Model,
    content_id: i64,
    no: i64,
    status: i64,
    user_id: i64,
    now: i64,
) -> content_version::ActiveModel {
    content_version::ActiveModel {
        content_id: Set(content_id),
        version_no: Set(no),
        status: Set(status),
        creator_id: Set(user_id),
        created: Set(now),
        modified: Set(now),
        initial_language_code: Set(source.initial_language_code.clone()),
        language_codes: Set(source.language_codes.clone()),
        names: Set(source.names.clone()),
        ..Default::default()
    }
}

/// The relations of version `from` (content id, version number) given to version `to`.
pub(super) async fn copy_relations(
    tx: &Tx,
    (content_id, version_no): (i64, i64),
    (to_content, to_version): (i64, i64),
) -> Result<()> {
    let relations: Vec<content_relation::ActiveModel> = rows::relations(tx, content_id, version_no)
        .await?
        .into_iter()
        .map(|r| content_relation::ActiveModel {
            source_content_id: Set(to_content),
            source_version_no: Set(to_version),
            destination_content_id: Set(r.destination_content_id),
            relation_type: Set(r.relation_type),
            source_field_definition_id: Set(r.source_field_definition_id),
            ..Default::default()
        })
        .collect();
    if !relations.is_empty() {
        content_relation::Entity::insert_many(relations)
            .exec_without_returning(tx)
            .await?;
    }
    Ok(())
}

/// What a `VersionUpdate` writes, for `Language`: the languages of its fields (a field without
/// one is in the update's initial language, else the version's) and the initial language it
/// sets.
fn written_languages(b: &VersionUpdate, v: &content_version::Model) -> VersionTarget {
    let initial = b
        .initial_language_code
        .as_ref()
        .unwrap_or(&v.initial_language_code);
    let mut languages: Vec<String> = Vec::new();
    for f in b.fields.iter().flat_map(|f| &f.field) {
        let l = f.language_code.as_ref().unwrap_or(initial);
        if !languages.contains(l) {
            languages.push(l.clone());
        }
    }
    VersionTarget::Update {
        languages,
        initial: b.initial_language_code.clone(),
    }
}
