//! URL aliases and URL wildcards (spec 2.11, 4.7; formats.md 11).
//!
//! `elements` holds the tree of path elements; `hooks` what the content and Location code
//! calls when the tree of Locations changes; `slug` the slug converter; this module the
//! endpoints. A REST alias id is `{parent element id}-{md5 of the lowercased text}`, the
//! row's key.

mod elements;
mod hooks;
pub(crate) mod slug;
#[cfg(test)]
mod tests;

pub(crate) use elements::{location_of_alias, main_paths};
pub(crate) use hooks::{
    location_published, location_republished, locations_removed, locations_swapped,
    locations_trashed, subtree_moved, trash_purged,
};

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::UrlAliasesApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::language_list::Languages;
use crate::preconditions;
use crate::tree;
use cairn_runtime::ETag;
use cairn_store::Connection;
use cairn_store::Tx;
use cairn_store::entity::{location, url_alias, url_wildcard};
use elements::{
    full_paths, hash, language_codes, languages, location_of, location_rows, lock_tree, new_id,
    node_action, row,
};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, EntityTrait, IntoActiveModel, PaginatorTrait, QueryFilter,
    QueryOrder,
};

/// The REST id of a row.
fn alias_id(r: &url_alias::Model) -> String {
    format!("{}-{}", r.parent, r.text_md5)
}

/// `{parent}-{md5}` → the row's key; `None` when malformed.
fn parse_id(id: &str) -> Option<(i64, String)> {
    let (parent, md5) = id.split_once('-')?;
    let parent: i64 = parent.parse().ok()?;
    if md5.len() != 32 || !md5.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some((parent, md5.to_ascii_lowercase()))
}

async fn find(db: &impl Connection, id: &str) -> Result<url_alias::Model> {
    let missing = || Error::not_found("URLAlias", id);
    let (parent, md5) = parse_id(id).ok_or_else(missing)?;
    row(db, parent, &md5).await?.ok_or_else(missing)
}

/// The representation of a row.
async fn alias_body(
    db: &impl Connection,
    r: &url_alias::Model,
    langs: &[(String, i64)],
) -> Result<UrlAlias> {
    let mut bodies = alias_bodies(db, std::slice::from_ref(r), langs).await?;
    Ok(bodies.pop().expect("a body for the row"))
}

/// The representations of `rows`, in their order: their Locations read at once and their
/// paths walked together (a few statements, whatever their number). `langs` holds the
/// languages of their masks.
async fn alias_bodies(
    db: &impl Connection,
    rows: &[url_alias::Model],
    langs: &[(String, i64)],
) -> Result<Vec<UrlAlias>> {
    let mut located: Vec<i64> = rows.iter().filter_map(location_of).collect();
    located.sort_unstable();
    located.dedup();
    let mut paths: std::collections::HashMap<i64, String> = std::collections::HashMap::new();
    if !located.is_empty() {
        for l in cairn_store::read::by_ids::<location::Entity>(db, &located).await? {
            paths.insert(l.id, tree::href_path(&l.path_string));
        }
    }
    let full = full_paths(db, rows).await?;
    Ok(rows
        .iter()
        .zip(full)
        .map(|(r, path)| {
            let (kind, location, resource) = if let Some(l) = r.action.strip_prefix("eznode:") {
                let path = match location_of(r) {
                    Some(id) => paths.get(&id).cloned().unwrap_or_else(|| id.to_string()),
                    None => l.to_string(),
                };
                ("LOCATION", Some(path), None)
            } else if let Some(m) = r.action.strip_prefix("module:") {
                ("RESOURCE", None, Some(m.to_string()))
            } else {
                ("VIRTUAL", None, None)
            };
            let id = alias_id(r);
            UrlAlias {
                href: hrefs::load_url_alias(&id),
                id,
                r#type: kind.into(),
                location,
                resource,
                path,
                language_codes: language_codes(langs, r.lang_mask),
                always_available: r.always_available,
                is_history: !r.is_original,
                forward: r.is_alias && r.alias_redirects,
                custom: r.is_alias,
            }
        })
        .collect())
}

async fn load_body(
    db: &impl Connection,
    known: &Languages,
    r: &url_alias::Model,
) -> Result<UrlAlias> {
    let langs = languages(known, db, &[], r.lang_mask).await?;
    alias_body(db, r, &langs).await
}

/// `/my/alias ` → the path elements, each a slug (`noname<n>` for an empty one).
fn path_elements(path: &str) -> Vec<String> {
    let trimmed = path.trim_matches(|c| c == '/' || c == ' ');
    trimmed
        .split('/')
        .enumerate()
        .map(|(i, e)| slug::convert(e, &format!("noname{}", i + 1)))
        .collect()
}

/// Creates a custom (Location) or global alias for `action` at `path` (the reference's
/// `createUrlAlias`): missing elements on the way become placeholders; the last element may
/// take over a placeholder or history row, else a taken path is a 403.
async fn create_alias(
    tx: &Tx,
    action: &str,
    path: &str,
    bit: i64,
    always_available: bool,
    forward: bool,
) -> Result<url_alias::Model> {
    lock_tree(tx).await?;
    let mut elements = path_elements(path);
    let top = elements.pop().unwrap_or_default();
    let mut parent = 0;
    let mut new_path = false;
    for e in &elements {
        let md5 = hash(e);
        if !new_path {
            match row(tx, parent, &md5).await? {
                Some(r) => {
                    parent = r.link;
                    continue;
                }
                None => new_path = true,
            }
        }
        let id = new_id(tx).await?;
        url_alias::Entity::insert(url_alias::ActiveModel {
            parent: Set(parent),
            text_md5: Set(md5),
            id: Set(id),
            link: Set(id),
            text: Set(e.clone()),
            action: Set("nop:".into()),
            lang_mask: Set(0),
            always_available: Set(true),
            is_original: Set(false),
            is_alias: Set(false),
            alias_redirects: Set(true),
        })
        .exec_without_returning(tx)
        .await?;
        parent = id;
    }
    let md5 = hash(&top);
    let existing = if new_path {
        None
    } else {
        row(tx, parent, &md5).await?
    };
    let id = match &existing {
        None => new_id(tx).await?,
        Some(r) if r.action == "nop:" || !r.is_original => r.id,
        Some(_) => {
            return Err(Error::Forbidden(format!(
                "Path '{path}' already exists for the given language"
            )));
        }
    };
    let model = url_alias::ActiveModel {
        parent: Set(parent),
        text_md5: Set(md5),
        id: Set(id),
        link: Set(id),
        text: Set(top),
        action: Set(action.to_string()),
        lang_mask: Set(bit),
        always_available: Set(always_available),
        is_original: Set(true),
        is_alias: Set(true),
        alias_redirects: Set(forward),
    };
    Ok(if existing.is_some() {
        cairn_store::write::update(tx, model).await?
    } else {
        cairn_store::write::insert(tx, model).await?
    })
}

/// What a UrlAliasCreate names: the action, or a 400/404.
async fn target(db: &impl Connection, b: &UrlAliasCreate) -> Result<String> {
    let location_id = if b.r#type == "LOCATION" {
        let path = b.location.as_deref().ok_or_else(|| {
            Error::BadRequest("Missing 'location' value for UrlAliasCreate".into())
        })?;
        Some(path.to_string())
    } else {
        let resource = b.resource.as_deref().ok_or_else(|| {
            Error::BadRequest("Missing 'resource' value for UrlAliasCreate".into())
        })?;
        let valid = resource.split_once(':').is_some_and(|(module, rest)| {
            !module.is_empty()
                && !rest.is_empty()
                && module
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'_')
        });
        if !valid {
            return Err(Error::BadRequest(format!(
                "UrlAliasCreate.resource: '{resource}' is not a resource (give 'module:<path>')"
            )));
        }
        // Resources that name a Location make a Location alias, as in the reference.
        if let Some(l) = resource.strip_prefix("eznode:") {
            Some(l.to_string())
        } else if let Some(p) = resource.strip_prefix("module:content/view/full/") {
            Some(p.to_string())
        } else {
            return Ok(resource.to_string());
        }
    };
    let path = location_id.unwrap_or_default();
    let id: i64 = path
        .trim_matches('/')
        .rsplit('/')
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| Error::not_found("Location", &path))?;
    let l = tree::find(db, id).await?;
    Ok(node_action(l.id))
}

fn wildcard_body(w: url_wildcard::Model) -> UrlWildcard {
    UrlWildcard {
        href: hrefs::load_url_wildcard(w.id),
        id: w.id,
        source_url: w.source_url,
        destination_url: w.destination_url,
        forward: w.forward,
    }
}

async fn find_wildcard(db: &impl Connection, id: i64) -> Result<url_wildcard::Model> {
    cairn_store::read::by_id::<url_wildcard::Entity>(db, id)
        .await?
        .ok_or_else(|| Error::not_found("URLWildcard", id))
}

/// `/` and the text trimmed of slashes and spaces (the reference's `cleanUrl`).
fn clean_url(url: &str) -> String {
    format!("/{}", url.trim_matches(|c| c == '/' || c == ' '))
}

/// The highest `{n}` placeholder of a destination URL.
fn max_placeholder(destination: &str) -> usize {
    let mut max = 0;
    let mut rest = destination;
    while let Some(start) = rest.find('{') {
        rest = &rest[start + 1..];
        if let Some(end) = rest.find('}')
            && let Ok(n) = rest[..end].parse::<usize>()
        {
            max = max.max(n);
        }
    }
    max
}

crate::services::family_service!(
    /// Implements the API of URL aliases and wildcards.
    UrlAliasesService
);

impl UrlAliasesService {
    /// The current aliases of the Locations `ids`, custom or generated as `custom` says, as the
    /// Location's list of aliases names them (by parent element, then text), with their
    /// representations: a few statements whatever the number of Locations. The caller's right
    /// to read each Location is checked by whoever asks.
    pub async fn of_locations(
        &self,
        cx: &Caller,
        ids: &[i64],
        custom: bool,
    ) -> Result<std::collections::HashMap<i64, Vec<UrlAlias>>> {
        let db = cx.reader();
        let rows = location_rows(db, ids, custom).await?;
        let mask = rows.iter().fold(0, |m, r| m | r.lang_mask);
        let langs = languages(&self.languages, db, &[], mask).await?;
        let bodies = alias_bodies(db, &rows, &langs).await?;
        let mut out: std::collections::HashMap<i64, Vec<UrlAlias>> = Default::default();
        for (r, body) in rows.iter().zip(bodies) {
            if let Some(id) = location_of(r) {
                out.entry(id).or_default().push(body);
            }
        }
        Ok(out)
    }
}

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> UrlAliasesApi<B> for UrlAliasesService
{
    async fn list_global_url_aliases(
        &self,
        cx: &Caller,
        _req: ListGlobalUrlAliasesRequest,
    ) -> Result<ListGlobalUrlAliasesResponse> {
        let rows = url_alias::Entity::find()
            .filter(url_alias::Column::Action.starts_with("module:"))
            .filter(url_alias::Column::IsOriginal.eq(true))
            .filter(url_alias::Column::IsAlias.eq(true))
            .order_by_asc(url_alias::Column::Parent)
            .order_by_asc(url_alias::Column::Text)
            .all(cx.reader())
            .await?;
        Ok(ListGlobalUrlAliasesResponse::Ok {
            body: UrlAliasRefList {
                href: hrefs::list_global_url_aliases(),
                url_alias: rows.iter().map(alias_id).collect(),
            },
        })
    }

    async fn list_location_url_aliases(
        &self,
        cx: &Caller,
        req: ListLocationUrlAliasesRequest,
    ) -> Result<ListLocationUrlAliasesResponse> {
        let db = cx.reader();
        let l = tree::find_by_path(db, &req.location_path).await?;
        self.authorize_at(db, cx, crate::permissions::READ, &l, vec![])
            .await?;
        let rows = location_rows(db, &[l.id], req.custom).await?;
        Ok(ListLocationUrlAliasesResponse::Ok {
            body: UrlAliasRefList {
                href: hrefs::list_location_url_aliases(&tree::href_path(&l.path_string)),
                url_alias: rows.iter().map(alias_id).collect(),
            },
        })
    }

    async fn create_url_alias(
        &self,
        cx: &Caller,
        req: CreateUrlAliasRequest,
    ) -> Result<CreateUrlAliasResponse> {
        let b = req.body;
        let body = self
            .db
            .write(cx.change(), async |tx| {
                let action = target(tx, &b).await?;
                let langs = languages(&self.languages, tx, &[&b.language_code], 0).await?;
                let bit = langs
                    .iter()
                    .find(|(code, _)| *code == b.language_code)
                    .map(|(_, id)| *id)
                    .ok_or_else(|| Error::not_found("Language", &b.language_code))?;
                let r = create_alias(
                    tx,
                    &action,
                    &b.path,
                    bit,
                    b.always_available.unwrap_or(false),
                    b.forward.unwrap_or(false),
                )
                .await?;
                let body = alias_body(tx, &r, &langs).await?;
                tx.created(&body.href);
                Ok::<_, Error>(body)
            })
            .await?;
        Ok(CreateUrlAliasResponse::Created { body })
    }

    async fn load_url_alias(
        &self,
        cx: &Caller,
        req: LoadUrlAliasRequest,
    ) -> Result<LoadUrlAliasResponse> {
        let db = cx.reader();
        let r = find(db, &req.url_alias_id).await?;
        let body = load_body(db, &self.languages, &r).await?;
        Ok(LoadUrlAliasResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn delete_url_alias(
        &self,
        cx: &Caller,
        req: DeleteUrlAliasRequest,
    ) -> Result<DeleteUrlAliasResponse> {
        self.db
            .write(cx.change(), async |tx| {
                lock_tree(tx).await?;
                let r = find(tx, &req.url_alias_id).await?;
                preconditions::if_match(&req.if_match, async || load_body(tx, &self.languages, &r).await).await?;
                if !r.is_alias {
                    return Err(Error::Forbidden(format!(
                        "URL alias '{}' is generated by the system: only custom aliases can be deleted",
                        req.url_alias_id
                    )));
                }
                // Elements hang below it (placeholders of other custom aliases): it stays as
                // a placeholder.
                let children = url_alias::Entity::find()
                    .filter(url_alias::Column::Parent.eq(r.id))
                    .count(tx)
                    .await?;
                let shared = url_alias::Entity::find()
                    .filter(url_alias::Column::Id.eq(r.id))
                    .count(tx)
                    .await?;
                if children > 0 && shared == 1 {
                    let mut a = r.into_active_model();
                    a.action = Set("nop:".into());
                    a.is_alias = Set(false);
                    a.is_original = Set(false);
                    a.lang_mask = Set(0);
                    a.always_available = Set(true);
                    a.alias_redirects = Set(true);
                    cairn_store::write::update(tx, a).await?;
                } else {
                    url_alias::Entity::delete_by_id((r.parent, r.text_md5))
                        .exec(tx)
                        .await?;
                }
                Ok::<_, Error>(())
            })
            .await?;
        Ok(DeleteUrlAliasResponse::NoContent)
    }

    async fn list_url_wildcards(
        &self,
        cx: &Caller,
        _req: ListUrlWildcardsRequest,
    ) -> Result<ListUrlWildcardsResponse> {
        let rows = url_wildcard::Entity::find()
            .order_by_asc(url_wildcard::Column::Id)
            .all(cx.reader())
            .await?;
        Ok(ListUrlWildcardsResponse::Ok {
            body: UrlWildcardList {
                href: hrefs::list_url_wildcards(),
                url_wildcard: rows.into_iter().map(wildcard_body).collect(),
            },
        })
    }

    async fn create_url_wildcard(
        &self,
        cx: &Caller,
        req: CreateUrlWildcardRequest,
    ) -> Result<CreateUrlWildcardResponse> {
        let b = req.body;
        let source = clean_url(&b.source_url);
        let destination = clean_url(&b.destination_url);
        let wildcards = source.matches('*').count();
        if max_placeholder(&destination) > wildcards {
            return Err(Error::BadRequest(format!(
                "UrlWildcardCreate.destinationUrl: placeholders of '{destination}' do not match the wildcards of '{source}'"
            )));
        }
        let w = self
            .db
            .write(cx.change(), async |tx| {
                tx.lock("url_wildcards").await?;
                let taken = url_wildcard::Entity::find()
                    .filter(url_wildcard::Column::SourceUrl.eq(source.as_str()))
                    .one(tx)
                    .await?;
                if taken.is_some() {
                    return Err(Error::Forbidden(format!(
                        "A URL wildcard with source URL '{source}' already exists"
                    )));
                }
                let w = cairn_store::write::insert(
                    tx,
                    url_wildcard::ActiveModel {
                        source_url: Set(source.clone()),
                        destination_url: Set(destination.clone()),
                        forward: Set(b.forward),
                        ..Default::default()
                    },
                )
                .await?;
                tx.created(&hrefs::load_url_wildcard(w.id));
                Ok(w)
            })
            .await?;
        Ok(CreateUrlWildcardResponse::Created {
            body: wildcard_body(w),
        })
    }

    async fn load_url_wildcard(
        &self,
        cx: &Caller,
        req: LoadUrlWildcardRequest,
    ) -> Result<LoadUrlWildcardResponse> {
        let body = wildcard_body(find_wildcard(cx.reader(), req.url_wildcard_id).await?);
        Ok(LoadUrlWildcardResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn delete_url_wildcard(
        &self,
        cx: &Caller,
        req: DeleteUrlWildcardRequest,
    ) -> Result<DeleteUrlWildcardResponse> {
        self.db
            .write(cx.change(), async |tx| {
                let w = find_wildcard(tx, req.url_wildcard_id).await?;
                preconditions::if_match(&req.if_match, async || Ok(wildcard_body(w.clone())))
                    .await?;
                url_wildcard::Entity::delete_by_id(w.id).exec(tx).await?;
                Ok::<_, Error>(())
            })
            .await?;
        Ok(DeleteUrlWildcardResponse::NoContent)
    }
}
