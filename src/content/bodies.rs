//! Whole representations read from the database: a content item's ContentInfo (with its
//! main Location's path), a version with its fields, relations and images, the current
//! versions of many items at once, and the reply of an operation that may embed them.

use super::ContentService;
use super::render;
use crate::api::model::*;
use crate::content_rows::{self as rows, TypeInfo};
use crate::error::{Error, Result};
use crate::shared::Shared;
use crate::tree;
use cairn_store::Connection;
use cairn_store::entity::{content, content_version, location};

impl Shared {
    /// ContentInfo and the current version of each content item, in a fixed number of
    /// queries whatever their number.
    pub(crate) async fn current_versions(
        &self,
        db: &impl Connection,
        cs: &[content::Model],
    ) -> Result<Vec<(ContentInfo, Version)>> {
        let pairs: Vec<(i64, i64)> = cs.iter().map(|c| (c.id, c.current_version)).collect();
        let rows = rows::version_rows(db, &pairs).await?;
        let mains: Vec<i64> = cs.iter().filter_map(|c| c.main_location_id).collect();
        let mains = cairn_store::read::by_ids::<location::Entity>(db, &mains).await?;
        let paths: std::collections::HashMap<i64, String> = (mains.into_iter())
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
}

impl ContentService {
    /// The path of ids of the content's main Location.
    pub(crate) async fn main_location_path(
        &self,
        db: &impl Connection,
        c: &content::Model,
    ) -> Result<Option<String>> {
        match c.main_location_id {
            None => Ok(None),
            Some(id) => Ok(cairn_store::read::by_id::<location::Entity>(db, id)
                .await?
                .map(|l| tree::href_path(&l.path_string))),
        }
    }

    pub(crate) async fn info_of(
        &self,
        db: &impl Connection,
        c: &content::Model,
    ) -> Result<ContentInfo> {
        let path = self.main_location_path(db, c).await?;
        Ok(self.content_info(c, path.as_deref()))
    }

    /// A whole version with its fields and relations.
    pub(crate) async fn version_body(
        &self,
        db: &impl Connection,
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

    /// ContentInfo, or Content with the current version embedded.
    pub(super) async fn content_reply(
        &self,
        db: &impl Connection,
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
}
