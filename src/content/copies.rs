//! Copies of content items: the published version with its fields, names and relations, a
//! new Location under the destination.

use super::ContentService;
use super::versions::{copy_relations, version_like};
use crate::api::hrefs;
use crate::auth::Caller;
use crate::content_rows as rows;
use crate::error::{Error, Result};
use crate::shared::Shared;
use crate::tree;
use cairn_runtime::Timestamp;
use cairn_store::Tx;
use cairn_store::entity::{content, content_field, content_object_state, content_version};
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, IntoActiveModel, QueryFilter};

impl Shared {
    /// A published copy of `c`'s current version, not yet placed in the tree.
    pub(crate) async fn copy_published(
        &self,
        tx: &Tx,
        cx: &Caller,
        c: &content::Model,
    ) -> Result<content::Model> {
        let v = rows::version(tx, c.id, c.current_version).await?;
        let now = Timestamp::now().0;
        let bytes: [u8; 16] = rand::random();
        let copy = cairn_store::write::insert(
            tx,
            content::ActiveModel {
                content_type_id: Set(c.content_type_id),
                section_id: Set(c.section_id),
                owner_id: Set(cx.user_id),
                remote_id: Set(bytes.iter().map(|b| format!("{b:02x}")).collect()),
                main_language_code: Set(c.main_language_code.clone()),
                always_available: Set(c.always_available),
                current_version: Set(1),
                status: Set(content::PUBLISHED),
                published: Set(now),
                modified: Set(now),
                is_hidden: Set(c.is_hidden),
                main_location_id: Set(None),
                name: Set(c.name.clone()),
                ..Default::default()
            },
        )
        .await?;
        cairn_store::write::insert(
            tx,
            version_like(&v, copy.id, 1, content_version::PUBLISHED, cx.user_id, now),
        )
        .await?;
        let source = rows::fields(tx, c.id, v.version_no).await?;
        let mut fields: Vec<content_field::Model> = source
            .into_iter()
            .map(|f| content_field::Model {
                id: 0,
                version_no: 1,
                content_id: copy.id,
                ..f
            })
            .collect();
        rows::insert_fields(tx, &mut fields).await?;
        copy_relations(tx, (c.id, v.version_no), (copy.id, 1)).await?;
        let states: Vec<content_object_state::ActiveModel> = content_object_state::Entity::find()
            .filter(content_object_state::Column::ContentId.eq(c.id))
            .all(tx)
            .await?
            .into_iter()
            .map(|s| content_object_state::ActiveModel {
                content_id: Set(copy.id),
                group_id: Set(s.group_id),
                state_id: Set(s.state_id),
            })
            .collect();
        if !states.is_empty() {
            content_object_state::Entity::insert_many(states)
                .exec_without_returning(tx)
                .await?;
        }
        crate::full_text::copy(tx, c.id, copy.id);
        Ok(copy)
    }
}

impl ContentService {
    /// Copies a published content item (its current version, published, with its COMMON and
    /// field relations and Object states) under the Location `destination` names.
    pub(super) async fn copy_content_to(
        &self,
        cx: &Caller,
        content_id: i64,
        destination: &str,
    ) -> Result<i64> {
        let parent_path = crate::locations::ops::destination_path(destination)?.to_string();
        self.db
            .write(cx.change(), async |tx| {
                tree::share(tx).await?;
                let c = self.visible_content(tx, cx, content_id).await?;
                if c.status != content::PUBLISHED {
                    return Err(Error::Forbidden(
                        "Only published content items can be copied".into(),
                    ));
                }
                let parent = tree::find_by_path(tx, &parent_path).await?;
                self.authorize_new_location(tx, cx, &c, &parent).await?;
                let copy = self.copy_published(tx, cx, &c).await?;
                tx.created(&hrefs::load_content(copy.id));
                let ty = self.defined_type(tx, c.content_type_id).await?;
                let l = tree::create(
                    tx,
                    parent.id,
                    &copy,
                    tree::NewLocation {
                        priority: 0,
                        hidden: false,
                        remote_id: None,
                        sort_field: ty.ty.default_sort_field.clone(),
                        sort_order: ty.ty.default_sort_order.clone(),
                    },
                )
                .await?;
                let mut ca = copy.into_active_model();
                ca.main_location_id = Set(Some(l.id));
                let id = cairn_store::write::update(tx, ca).await?.id;
                self.tree_changes
                    .location_republished(tx, &self.languages, l.id)
                    .await?;
                Ok(id)
            })
            .await
    }
}
