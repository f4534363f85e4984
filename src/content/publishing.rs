//! Publishing a version: the content item's Locations placed, the previous version archived
//! (and the oldest archived ones trimmed), and versions removed.

use super::*;
use cairn_store::Tx;
use cairn_store::events::Touched;

impl Shared {
    /// Publishes draft `v` of `c` (inside the caller's transaction); the content item as it is
    /// now.
    pub(crate) async fn publish_version(
        &self,
        tx: &Tx,
        c: &content::Model,
        v: content_version::Model,
    ) -> Result<content::Model> {
        let no = v.version_no;
        if v.status != content_version::DRAFT {
            return Err(not_a_draft());
        }
        // A first publication places the item: the tree is shared from before any row is
        // written (the content row of a create is new, seen by no other writer).
        let first = c.status == content::DRAFT;
        if first {
            tree::share(tx).await?;
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
            self.save_fields(tx, &ty, c, no, &mut set, false).await?;
        }
        let names = self.version_names(&ty, &set, &languages);

        let now = Timestamp::now().0;
        // A first publication has no published version to archive, nor a document to replace.
        let archived = if first {
            0
        } else {
            content_version::Entity::update_many()
                .col_expr(
                    content_version::Column::Status,
                    content_version::ARCHIVED.into(),
                )
                .filter(content_version::Column::ContentId.eq(c.id))
                .filter(content_version::Column::Status.eq(content_version::PUBLISHED))
                .exec(tx)
                .await?
                .rows_affected
        };
        // A first publication places the item under its pending parents first, so that the
        // content row is written once, with its main Location.
        let (main, locations) = match first {
            true => self.place_pending(tx, c, &ty).await?,
            false => (c.main_location_id, tree::of_content(tx, c).await?),
        };
        let mut ca = c.clone().into_active_model();
        ca.current_version = Set(no);
        ca.status = Set(content::PUBLISHED);
        ca.modified = Set(now);
        if first || c.published == 0 {
            ca.published = Set(now);
        }
        if first {
            ca.main_location_id = Set(main);
        }
        ca.name = Set(names
            .get(&c.main_language_code)
            .or_else(|| names.0.first().map(|(_, n)| n.as_str()))
            .unwrap_or_default()
            .to_string());
        // The version only while it is a draft: a concurrent publication of the same draft
        // (PostgreSQL) has placed the item and published it first.
        let version = content_version::Entity::update_many()
            .col_expr(
                content_version::Column::Status,
                content_version::PUBLISHED.into(),
            )
            .col_expr(content_version::Column::Modified, now.into())
            .col_expr(
                content_version::Column::Names,
                stored::lang_map_json(&names).into(),
            )
            .filter(content_version::Column::Id.eq(v.id))
            .filter(content_version::Column::Status.eq(content_version::DRAFT));
        let c = match cairn_store::write::update_after(tx, version, ca).await {
            Err(sea_orm::DbErr::RecordNotUpdated) => return Err(not_a_draft()),
            done => done?,
        };
        self.index_text(tx, c.id, &ty, &set, !first);
        // What shows the item: itself, its Locations, and the counts of children of their
        // parents (a first publication adds a child).
        tx.touched(
            std::iter::once(Touched::Content(c.id)).chain(
                (locations.iter())
                    .flat_map(|l| [Touched::Location(l.id), Touched::Location(l.parent_id)]),
            ),
        );
        for l in locations {
            self.tree_changes
                .location_published(tx, &self.languages, &l, &names, c.always_available, first)
                .await?;
        }
        // Only a publication that archived a version can take the archive past its limit.
        if archived > 0 {
            self.trim_archived(tx, c.id).await?;
        }
        Ok(c)
    }

    /// The first publication places the content item under its pending parents: its main
    /// Location (the one it had, else the first placed), and its Locations.
    pub(super) async fn place_pending(
        &self,
        tx: &Tx,
        c: &content::Model,
        ty: &TypeInfo,
    ) -> Result<(Option<i64>, Vec<location::Model>)> {
        // Taken and removed in one statement (a new item has one, from its ContentCreate).
        let pending = pending_location::Entity::delete_many()
            .filter(pending_location::Column::ContentId.eq(c.id))
            .exec_with_returning(tx)
            .await?;
        let mut main = c.main_location_id;
        let mut locations = Vec::with_capacity(pending.len());
        for p in pending {
            let l = tree::create(
                tx,
                p.parent_id,
                c,
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
        Ok((main, locations))
    }

    /// Keeps the newest archived versions up to the configured limit.
    pub(super) async fn trim_archived(&self, tx: &Tx, content_id: i64) -> Result<()> {
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
    pub(crate) async fn remove_version(&self, tx: &Tx, content_id: i64, no: i64) -> Result<()> {
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
}

fn not_a_draft() -> Error {
    Error::Forbidden("Only versions with DRAFT status can be published".into())
}
