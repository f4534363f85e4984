//! Creating a content item: its input is read, completed, validated and authorized (`plan`),
//! then written (`write`) as a draft, published at once when asked (`Then`). `create` does both
//! for one request in one transaction; `create_in` does both inside a transaction of the
//! caller's (a batch of an import).

use super::fields::{Failures, FieldSet};
use crate::api::model::ContentCreate;
use crate::auth::Caller;
use crate::content_rows::TypeInfo;
use crate::error::{Error, Result};
use crate::permissions::subject::location_facts_of;
use crate::permissions::{ContentFacts, Subject, Target, VersionTarget};
use crate::shared::Shared;
use crate::stored;
use crate::tree;
use cairn_runtime::{LangMap, Timestamp};
use cairn_store::Connection;
use cairn_store::Tx;
use cairn_store::entity::{content, content_version, location, section};
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};
use std::sync::Arc;

/// A content item to write: its checked input and what was derived from it.
pub(crate) struct NewContent {
    b: ContentCreate,
    ty: Arc<TypeInfo>,
    parent: location::Model,
    section: i64,
    set: FieldSet,
    languages: Vec<String>,
    names: LangMap,
    main_name: String,
    now: i64,
    /// The remote id the client chose, if any; `remote_id` is it or a new random one.
    chosen: Option<String>,
    remote_id: String,
}

/// What becomes of a new content item's first version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Then {
    /// It stays a draft.
    Draft,
    /// It is published as `PUBLISH` would: the caller needs `content/publish` on it as well.
    Publish,
    /// It is published as a new user or user group is, on `content/create` alone.
    PublishMember,
}

impl Shared {
    /// Creates a content item and does `then` with it, in one transaction.
    pub(crate) async fn create(
        &self,
        cx: &Caller,
        b: ContentCreate,
        then: Then,
    ) -> Result<content::Model> {
        let new = self.plan(cx.reader(), cx, b).await?;
        self.db
            .write(cx.change(), async |tx| {
                let c = self.write(tx, cx, new, then).await?;
                tx.created(&crate::api::hrefs::load_content(c.id));
                tx.touched([cairn_store::events::Touched::Content(c.id)]);
                Ok(c)
            })
            .await
    }

    /// Creates a content item and does `then` with it inside the caller's transaction `tx` (a
    /// batch of an import).
    pub(crate) async fn create_in(
        &self,
        tx: &Tx,
        cx: &Caller,
        b: ContentCreate,
        then: Then,
    ) -> Result<content::Model> {
        let new = self.plan(tx, cx, b).await?;
        self.write(tx, cx, new, then).await
    }

    /// Reads, completes, validates and authorizes the input; every field failure in one 400.
    async fn plan(
        &self,
        db: &impl Connection,
        cx: &Caller,
        b: ContentCreate,
    ) -> Result<NewContent> {
        let ty = self.defined_type(db, b.content_type).await?;
        self.check_language(db, &b.main_language_code).await?;
        let parent_path = b.location_create.parent_location.clone();
        let parent = tree::find_by_path(db, &parent_path).await?;
        // The parent's Section by default: its Location carries it, and a Section in use
        // cannot be deleted, so only a chosen one (or the virtual root's) is looked up.
        let section = b.section.unwrap_or(parent.section_id);
        if (b.section.is_some() || parent.content_id == 0)
            && cairn_store::read::by_id::<section::Entity>(db, section)
                .await?
                .is_none()
        {
            return Err(Error::BadRequest(format!(
                "Section {section} does not exist"
            )));
        }
        let lc = &b.location_create;
        crate::locations::check_sort(lc.sort_field.as_deref(), lc.sort_order.as_deref())?;
        let facts = ContentFacts {
            content_type_id: ty.ty.id,
            section_id: section,
            owner_id: b.user.unwrap_or(cx.user_id),
            languages: creation_languages(&b),
            ..Default::default()
        };
        if !cx.grants.may_all("content", "create") {
            let at = Target::Location(location_facts_of(db, parent.id).await?);
            self.authorize(
                db,
                cx,
                ("content", "create"),
                Subject::NewContent(facts),
                &[at],
            )
            .await?;
        }

        // Fields: read, complete, validate; every failure in one 400.
        let mut set = FieldSet::default();
        let mut failures = Failures::default();
        self.apply_inputs(
            &ty,
            &mut set,
            &b.fields.field,
            (&b.main_language_code, &b.main_language_code),
            &mut failures,
            &cx.uploads,
        )?;
        let mut languages = set.languages();
        if !languages.contains(&b.main_language_code) {
            languages.insert(0, b.main_language_code.clone());
        }
        // The main language is checked above.
        for l in languages.iter().filter(|l| **l != b.main_language_code) {
            self.check_language(db, l).await?;
        }
        self.complete_fields(&ty, &mut set, &languages, &b.main_language_code, true);
        self.validate_fields(&ty, &set, &mut failures);
        self.check_relation_targets(db, &ty, &set, &mut failures)
            .await?;
        let names = self.version_names(&ty, &set, &languages);
        let main_name = names
            .get(&b.main_language_code)
            .unwrap_or_default()
            .to_string();
        failures.into_result(&main_name)?;

        let now = b.modification_date.unwrap_or_else(Timestamp::now).0;
        let chosen = b.remote_id.clone().filter(|r| !r.is_empty());
        let remote_id = chosen.clone().unwrap_or_else(crate::stored::new_remote_id);
        Ok(NewContent {
            b,
            ty,
            parent,
            section,
            set,
            languages,
            names,
            main_name,
            now,
            chosen,
            remote_id,
        })
    }

    /// Writes the draft, then does `then` with it.
    async fn write(
        &self,
        tx: &Tx,
        cx: &Caller,
        mut new: NewContent,
        then: Then,
    ) -> Result<content::Model> {
        let lc = &new.b.location_create;
        // A remote id the client chose may be taken; a new random one (128 bits) is not.
        if new.chosen.is_some() {
            tx.lock("content_remote_id").await?;
        }
        if new.chosen.is_some()
            && content::Entity::find()
                .filter(content::Column::RemoteId.eq(new.remote_id.as_str()))
                .one(tx)
                .await?
                .is_some()
        {
            return Err(Error::Forbidden(format!(
                "A content item with remote id '{}' already exists",
                new.remote_id
            )));
        }
        let c = cairn_store::write::insert(
            tx,
            content::ActiveModel {
                content_type_id: Set(new.ty.ty.id),
                section_id: Set(new.section),
                owner_id: Set(new.b.user.unwrap_or(cx.user_id)),
                remote_id: Set(new.remote_id.clone()),
                main_language_code: Set(new.b.main_language_code.clone()),
                always_available: Set(new
                    .b
                    .always_available
                    .unwrap_or(new.ty.ty.default_always_available)),
                current_version: Set(1),
                status: Set(content::DRAFT),
                published: Set(0),
                modified: Set(new.now),
                is_hidden: Set(false),
                main_location_id: Set(None),
                name: Set(new.main_name.clone()),
                ..Default::default()
            },
        )
        .await?;
        let v = cairn_store::write::insert(
            tx,
            content_version::ActiveModel {
                content_id: Set(c.id),
                version_no: Set(1),
                status: Set(content_version::DRAFT),
                creator_id: Set(cx.user_id),
                created: Set(new.now),
                modified: Set(new.now),
                initial_language_code: Set(new.b.main_language_code.clone()),
                language_codes: Set(new.languages.join(",")),
                names: Set(stored::lang_map_json(&new.names)),
                ..Default::default()
            },
        )
        .await?;
        self.save_fields(tx, &new.ty, &c, 1, &mut new.set, true)
            .await?;
        // Placed only while the parent is there: it may have gone since it was read.
        let placed = cairn_store::sql::exec(
            tx,
            "INSERT INTO pending_locations (content_id, parent_id, priority, is_hidden, remote_id, sort_field, sort_order) \
             SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM locations WHERE id = ?)",
            [
                c.id.into(),
                new.parent.id.into(),
                lc.priority.unwrap_or(0).into(),
                lc.hidden.unwrap_or(false).into(),
                lc.remote_id.clone().into(),
                lc.sort_field.clone().into(),
                lc.sort_order.clone().into(),
                new.parent.id.into(),
            ],
        )
        .await?;
        if placed == 0 {
            return Err(Error::not_found("Location", new.parent.id));
        }
        crate::object_states::assign_default_states(tx, c.id).await?;
        if then == Then::Draft {
            return Ok(c);
        }
        if then == Then::Publish {
            let facts = ContentFacts::of_version(&c, &v);
            let published = [Target::Version(VersionTarget::Publish)];
            self.authorize(
                tx,
                cx,
                ("content", "publish"),
                Subject::Content(facts),
                &published,
            )
            .await?;
        }
        self.publish_version(tx, &c, v).await
    }
}

/// The languages a `ContentCreate` writes (`Language` on a create): its main language and its
/// fields' (a field without one is in the main language).
fn creation_languages(b: &ContentCreate) -> Vec<String> {
    let mut out = vec![b.main_language_code.clone()];
    for f in &b.fields.field {
        let l = f.language_code.as_ref().unwrap_or(&b.main_language_code);
        if !out.contains(l) {
            out.push(l.clone());
        }
    }
    out
}
