//! Content type drafts: made from a defined type, changed by PATCH, published over the
//! defined type.

use super::*;
use cairn_store::Tx;

impl ContentTypesService {
    /// Publishes the draft `id` over its defined type (one transaction's part).
    pub(super) async fn publish_draft(&self, tx: &Tx, id: i64) -> Result<TypeRows> {
        let draft = rows::find(tx, id, DRAFT).await?;
        if draft.fields.is_empty() {
            return Err(Error::Forbidden(format!(
                "Content type draft {id} has no Field definition and cannot be published"
            )));
        }
        if rows::identifier_taken(tx, &draft.ty.identifier, Some(id)).await? {
            return Err(Error::Forbidden(format!(
                "Another content type has the identifier '{}'",
                draft.ty.identifier
            )));
        }
        rows::delete(tx, id, DEFINED).await?;
        rows::delete(tx, id, DRAFT).await?;
        let mut published = draft;
        published.ty.status = DEFINED;
        published.ty.modified = Timestamp::now().0.max(published.ty.modified);
        for f in &mut published.fields {
            f.status = DEFINED;
        }
        rows::insert(tx, &published).await?;
        Ok(published)
    }

    /// Makes the draft of defined type `id` (403 when one exists).
    pub(super) async fn make_draft(&self, tx: &Tx, id: i64, caller: i64) -> Result<TypeRows> {
        let defined = rows::find(tx, id, DEFINED).await?;
        if rows::load(tx, id, DRAFT).await?.is_some() {
            return Err(Error::Forbidden(format!(
                "Content type {id} already has a draft"
            )));
        }
        let mut draft = defined;
        draft.ty.status = DRAFT;
        draft.ty.modified = Timestamp::now().0;
        draft.ty.modifier_id = caller;
        for f in &mut draft.fields {
            f.status = DRAFT;
        }
        rows::insert(tx, &draft).await?;
        Ok(draft)
    }

    /// Applies `u` to the draft `ty` (made or found), once its identifier and remote id are
    /// checked free among the other types, and stores it.
    pub(super) async fn store_type_draft(
        &self,
        tx: &Tx,
        mut ty: content_type::Model,
        u: &ContentTypeUpdate,
        caller: i64,
    ) -> Result<content_type::Model> {
        self.apply_type_update(&mut ty, u, caller)?;
        self.ensure_type_free(tx, &ty.identifier, u.remote_id.as_deref(), Some(ty.id))
            .await?;
        rows::update_type(tx, ty).await
    }

    pub(super) fn apply_type_update(
        &self,
        ty: &mut content_type::Model,
        u: &ContentTypeUpdate,
        caller: i64,
    ) -> Result<()> {
        check_sort(
            u.default_sort_field.as_deref(),
            u.default_sort_order.as_deref(),
        )?;
        if let Some(i) = &u.identifier {
            check_identifier("Content type", i)?;
            ty.identifier = i.clone();
        }
        if let Some(n) = &u.names {
            let mut names = stored::lang_map(&ty.names);
            for (l, t) in &n.0 {
                names.set(l, t);
            }
            ty.names = stored::lang_map_json(&names);
        }
        if let Some(d) = &u.descriptions {
            let mut descriptions = stored::lang_map(&ty.descriptions);
            for (l, t) in &d.0 {
                descriptions.set(l, t);
            }
            ty.descriptions = stored::lang_map_json(&descriptions);
        }
        if let Some(v) = &u.remote_id {
            ty.remote_id = v.clone();
        }
        if let Some(v) = &u.url_alias_schema {
            ty.url_alias_schema = Some(v.clone());
        }
        if let Some(v) = &u.name_schema {
            ty.name_schema = Some(v.clone());
        }
        if let Some(v) = u.is_container {
            ty.is_container = v;
        }
        if let Some(v) = &u.main_language_code {
            ty.main_language_code = v.clone();
        }
        if let Some(v) = u.default_always_available {
            ty.default_always_available = v;
        }
        if let Some(v) = &u.default_sort_field {
            ty.default_sort_field = v.clone();
        }
        if let Some(v) = &u.default_sort_order {
            ty.default_sort_order = v.clone();
        }
        ty.modified = u
            .modification_date
            .map(|d| d.0)
            .unwrap_or_else(|| Timestamp::now().0);
        ty.modifier_id = u.user.unwrap_or(caller);
        Ok(())
    }

    /// 403 when another type than `except` has `identifier` or 403 when `remote_id` is taken.
    pub(super) async fn ensure_type_free(
        &self,
        tx: &Tx,
        identifier: &str,
        remote_id: Option<&str>,
        except: Option<i64>,
    ) -> Result<()> {
        tx.lock("content_type_identifier").await?;
        if rows::identifier_taken(tx, identifier, except).await? {
            return Err(Error::Forbidden(format!(
                "A content type with identifier '{identifier}' already exists"
            )));
        }
        if let Some(r) = remote_id {
            let mut q = content_type::Entity::find().filter(content_type::Column::RemoteId.eq(r));
            if let Some(id) = except {
                q = q.filter(content_type::Column::Id.ne(id));
            }
            if q.one(tx).await?.is_some() {
                return Err(Error::Forbidden(format!(
                    "A content type with remote id '{r}' already exists"
                )));
            }
        }
        Ok(())
    }
}
