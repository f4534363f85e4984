//! A content item's metadata (owner, Section, main language and Location, remote id, dates,
//! always-available): changed by PATCH, checked against the caller's Policies.

use super::ContentService;
use super::*;
use cairn_store::Tx;

pub(super) async fn update(
    service: &ContentService,
    cx: &Caller,
    req: UpdateContentMetadataRequest,
) -> Result<UpdateContentMetadataResponse> {
    let b = &req.body;
    let c = service
        .db
        .write(cx.change(), async |tx| {
            if b.section.is_some() {
                tree::hold(tx).await?;
            }
            let c = service.visible_content(tx, cx, req.content_id).await?;
            // As the reference splits it: the Section is assigned with `section/assign`, the
            // other properties need `content/edit`.
            if let Some(s) = b.section {
                service.authorize_section_assign(tx, cx, &c, s).await?;
            }
            if edits_more_than_section(b) {
                let edit = ("content", "edit");
                service
                    .authorize(tx, cx, edit, Subject::Content(ContentFacts::of(&c)), &[])
                    .await?;
            }
            preconditions::if_match(&req.if_match, async || service.info_of(tx, &c).await).await?;
            // What shows it: the item and its Locations (their bodies show its info).
            tree::touch_item(tx, &c).await?;
            service.apply_metadata(tx, &c, b).await
        })
        .await?;
    let body = service.info_of(cx.reader(), &c).await?;
    Ok(UpdateContentMetadataResponse::Ok {
        etag: ETag::of(&body),
        body,
    })
}

/// Whether a `ContentUpdate` sets anything besides the Section.
fn edits_more_than_section(b: &ContentUpdate) -> bool {
    let ContentUpdate {
        main_language_code,
        section: _,
        main_location,
        owner,
        always_available,
        remote_id,
        modification_date,
        publish_date,
    } = b;
    main_language_code.is_some()
        || main_location.is_some()
        || owner.is_some()
        || always_available.is_some()
        || remote_id.is_some()
        || modification_date.is_some()
        || publish_date.is_some()
}

impl Shared {
    /// Applies a `ContentUpdate` to `c` (inside the caller's transaction, which [`tree::hold`]s
    /// the tree first when it changes the Section: its Locations carry it).
    pub(crate) async fn apply_metadata(
        &self,
        tx: &Tx,
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
            if cairn_store::read::by_id::<section::Entity>(tx, s)
                .await?
                .is_none()
            {
                return Err(Error::BadRequest(format!("Section {s} does not exist")));
            }
            ca.section_id = Set(s);
            if s != c.section_id {
                cairn_store::sql::exec(
                    tx,
                    "UPDATE locations SET section_id = ? WHERE content_id = ?",
                    [s.into(), c.id.into()],
                )
                .await?;
            }
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
            tx.lock("content_remote_id").await?;
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
        Ok(cairn_store::write::update(tx, ca).await?)
    }
}
