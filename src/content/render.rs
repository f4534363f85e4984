//! Content items, versions, fields and relations as the API represents them.

use crate::api::hrefs;
use crate::api::model::*;
use crate::content_rows::{self as rows, TypeInfo};
use crate::field_types::FieldIds;
use crate::shared::Shared;
use crate::stored;
use cairn_runtime::{LangMap, Timestamp};
use cairn_store::entity::{content, content_field, content_relation, content_version};
use std::collections::HashMap;

/// The image Field of each content item an `ezimageasset` value names, by content id.
pub(crate) type Assets = HashMap<i64, FieldIds>;

/// The rows of a version that its body shows, and the images its asset values name.
pub(crate) struct Parts<'a> {
    pub fields: &'a [content_field::Model],
    pub relations: &'a [content_relation::Model],
    pub assets: &'a Assets,
}

fn content_status(s: i64) -> String {
    match s {
        content::DRAFT => "DRAFT",
        content::TRASHED => "TRASHED",
        _ => "PUBLISHED",
    }
    .to_string()
}

fn version_status(s: i64) -> String {
    match s {
        content_version::DRAFT => "DRAFT",
        content_version::ARCHIVED => "ARCHIVED",
        _ => "PUBLISHED",
    }
    .to_string()
}

/// The text of relation types (`ATTRIBUTE`, or `COMMON,LINK` for combined bits).
pub fn relation_type_name(t: i64) -> String {
    let names = [
        (content_relation::COMMON, "COMMON"),
        (content_relation::EMBED, "EMBED"),
        (content_relation::LINK, "LINK"),
        (content_relation::ATTRIBUTE, "ATTRIBUTE"),
        (content_relation::ASSET, "ASSET"),
    ];
    names
        .iter()
        .filter(|(bit, _)| t & bit != 0)
        .map(|(_, n)| *n)
        .collect::<Vec<_>>()
        .join(",")
}

impl Shared {
    /// ContentInfo; `main_location_path` is the main Location's path of ids (`1/2/54`).
    pub(crate) fn content_info(
        &self,
        c: &content::Model,
        main_location_path: Option<&str>,
    ) -> ContentInfo {
        let never_published = c.status == content::DRAFT;
        ContentInfo {
            href: hrefs::load_content(c.id),
            remote_id: c.remote_id.clone(),
            id: c.id,
            content_type: hrefs::load_content_type(c.content_type_id),
            name: c.name.clone(),
            translated_name: c.name.clone(),
            versions: hrefs::load_content_versions(c.id),
            current_version: hrefs::redirect_current_version(c.id),
            section: hrefs::load_section(c.section_id),
            main_location: main_location_path.map(hrefs::load_location),
            locations: hrefs::load_locations_for_content(c.id),
            owner: hrefs::load_user(c.owner_id),
            last_modification_date: (!never_published).then_some(Timestamp(c.modified)),
            published_date: (!never_published).then_some(Timestamp(c.published)),
            main_language_code: c.main_language_code.clone(),
            current_version_no: c.current_version,
            always_available: c.always_available,
            is_hidden: c.is_hidden,
            status: content_status(c.status),
            object_states: hrefs::get_object_states_for_content(c.id),
        }
    }

    /// Content with `version` embedded as its current version.
    pub(crate) fn content_with_version(&self, info: ContentInfo, version: Version) -> Content {
        Content {
            current_version: ContentCurrentVersion {
                href: info.current_version,
                version,
            },
            href: info.href,
            remote_id: info.remote_id,
            id: info.id,
            content_type: info.content_type,
            name: info.name,
            translated_name: info.translated_name,
            versions: info.versions,
            section: info.section,
            main_location: info.main_location,
            locations: info.locations,
            owner: info.owner,
            last_modification_date: info.last_modification_date,
            published_date: info.published_date,
            main_language_code: info.main_language_code,
            current_version_no: info.current_version_no,
            always_available: info.always_available,
            is_hidden: info.is_hidden,
            status: info.status,
            object_states: info.object_states,
        }
    }

    pub(crate) fn version_info(
        &self,
        c: &content::Model,
        v: &content_version::Model,
    ) -> VersionInfo {
        let languages = rows::languages(&v.language_codes);
        let deletable = v.status == content_version::DRAFT && languages.len() > 1;
        VersionInfo {
            id: v.id,
            version_no: v.version_no,
            status: version_status(v.status),
            modification_date: Timestamp(v.modified),
            creator: hrefs::load_user(v.creator_id),
            creation_date: Timestamp(v.created),
            initial_language_code: v.initial_language_code.clone(),
            language_codes: languages.join(","),
            version_translation_info: (!languages.is_empty()).then(|| VersionTranslationInfo {
                language: languages
                    .iter()
                    .map(|l| VersionTranslation {
                        language_code: l.clone(),
                        delete_translation: (deletable && *l != c.main_language_code).then(|| {
                            DeleteTranslationLink {
                                href: hrefs::delete_translation_from_draft(c.id, v.version_no, l),
                            }
                        }),
                    })
                    .collect(),
            }),
            names: stored::lang_map(&v.names),
            content: hrefs::load_content(c.id),
        }
    }

    /// The images that the asset values among `fields` (each with its type) name: one query,
    /// none without asset values.
    pub(crate) async fn asset_images<'f>(
        &self,
        db: &impl cairn_store::Connection,
        fields: impl IntoIterator<Item = (&'f TypeInfo, &'f [content_field::Model])>,
    ) -> crate::error::Result<Assets> {
        let mut targets = Vec::new();
        for (ty, fs) in fields {
            for f in fs {
                let Some(def) = ty.field(f.field_definition_id) else {
                    continue;
                };
                let Some(ft) = self.field_type(&def.field_type) else {
                    continue;
                };
                if ft.holds_assets() {
                    targets.extend(ft.asset(&stored::hash(&f.value)));
                }
            }
        }
        if targets.is_empty() {
            return Ok(Assets::new());
        }
        targets.sort_unstable();
        targets.dedup();
        rows::asset_images(db, &targets).await
    }

    /// A field of a version as the API writes it; `assets`: the images its asset value may
    /// name ([`Shared::asset_images`]).
    pub(crate) fn field(
        &self,
        ty: &TypeInfo,
        f: &content_field::Model,
        assets: &Assets,
    ) -> Option<Field> {
        let def = ty.field(f.field_definition_id)?;
        let value = stored::hash(&f.value);
        let field_value = match self.field_type(&def.field_type) {
            Some(ft) if !value.is_null() => {
                let mut cx = self.value_context(Some(FieldIds {
                    content_id: f.content_id,
                    field_id: f.id,
                    version_no: f.version_no,
                }));
                cx.asset = ft.asset(&value).and_then(|id| assets.get(&id).copied());
                ft.to_hash(&value, &cx)
            }
            _ => value,
        };
        Some(Field {
            id: f.id,
            field_definition_identifier: def.identifier.clone(),
            language_code: f.language_code.clone(),
            field_type_identifier: self.field_types.identifier(&def.field_type),
            field_value,
        })
    }

    pub(crate) fn relation(&self, r: &content_relation::Model, ty: Option<&TypeInfo>) -> Relation {
        Relation {
            href: hrefs::load_version_relation(r.source_content_id, r.source_version_no, r.id),
            source_content: hrefs::load_content(r.source_content_id),
            destination_content: hrefs::load_content(r.destination_content_id),
            source_field_definition_identifier: r
                .source_field_definition_id
                .and_then(|id| ty.and_then(|t| t.field(id)))
                .map(|f| f.identifier.clone()),
            relation_type: relation_type_name(r.relation_type),
        }
    }

    pub(crate) fn relation_list(
        &self,
        content_id: i64,
        no: i64,
        relations: &[content_relation::Model],
        ty: Option<&TypeInfo>,
    ) -> RelationList {
        RelationList {
            href: hrefs::load_version_relations(content_id, no),
            relation: relations.iter().map(|r| self.relation(r, ty)).collect(),
        }
    }

    /// A whole version: info, fields (only `languages` when given), relations, thumbnail.
    pub(crate) fn version(
        &self,
        c: &content::Model,
        v: &content_version::Model,
        ty: &TypeInfo,
        parts: Parts<'_>,
        languages: Option<&[String]>,
    ) -> Version {
        let Parts {
            fields,
            relations,
            assets,
        } = parts;
        let mut info = self.version_info(c, v);
        if let Some(langs) = languages {
            info.names = LangMap(
                info.names
                    .0
                    .into_iter()
                    .filter(|(l, _)| langs.contains(l))
                    .collect(),
            );
        }
        let mut fields: Vec<&content_field::Model> = fields
            .iter()
            .filter(|f| languages.is_none_or(|l| l.contains(&f.language_code)))
            .collect();
        // Definition order, then language.
        fields.sort_by_key(|f| {
            let def = ty.field(f.field_definition_id);
            (
                def.map(|d| (d.position, d.id)).unwrap_or((i64::MAX, 0)),
                f.language_code.clone(),
            )
        });
        let rendered: Vec<Field> = (fields.iter())
            .filter_map(|f| self.field(ty, f, assets))
            .collect();
        Version {
            href: hrefs::load_content_in_version(c.id, v.version_no),
            version_info: info,
            thumbnail: thumbnail(ty, &rendered),
            fields: Fields { field: rendered },
            relations: self.relation_list(c.id, v.version_no, relations, Some(ty)),
        }
    }
}

/// The first image of a thumbnail Field definition, if the version has one; else the icon of
/// the content type.
fn thumbnail(ty: &TypeInfo, fields: &[Field]) -> Thumbnail {
    let image = fields.iter().find(|f| {
        ty.field_by_identifier(&f.field_definition_identifier)
            .is_some_and(|d| d.is_thumbnail)
            && !f.field_value.is_null()
    });
    match image {
        Some(f) => Thumbnail {
            resource: f
                .field_value
                .get("uri")
                .and_then(|u| u.as_str())
                .map(str::to_string),
            width: f.field_value.get("width").and_then(|w| w.as_i64()),
            height: f.field_value.get("height").and_then(|h| h.as_i64()),
            mime_type: f
                .field_value
                .get("mime")
                .and_then(|m| m.as_str())
                .map(str::to_string),
        },
        // Without an image: the content type's icon, as the reference gives it.
        None => Thumbnail {
            resource: Some(format!(
                "/bundles/ezplatformadminui/img/ez-icons.svg#{}",
                ty.ty.identifier
            )),
            width: None,
            height: None,
            mime_type: Some("image/svg+xml".to_string()),
        },
    }
}
