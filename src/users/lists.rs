//! Finding users and groups: by lookup query, by membership and by placement. Every list is
//! a fixed number of queries whatever its length.

use super::UsersService;
use crate::api::hrefs;
use crate::api::model::*;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::permissions::{Filter, Scope};
use crate::shared::Shared;
use cairn_runtime::{Limit, Offset};
use cairn_store::Connection;
use cairn_store::entity::{content, content_version, location, user};
use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Value};
use std::collections::HashMap;

/// Ids read by a raw `SELECT <id> ...`.
async fn ids(db: &impl Connection, sql: &str, values: Vec<Value>) -> Result<Vec<i64>> {
    Ok(cairn_store::sql::ids(db, sql, values).await?)
}

/// The Role a `roleId` query names, by its href (`/api/ibexa/v2/user/roles/3`) or its id; 400
/// otherwise.
fn role_of(cx: &Caller, value: &str) -> Result<i64> {
    let value = value.trim();
    (value.parse().ok())
        .or_else(|| hrefs::read::load_role(cx.api_path(value)))
        .ok_or_else(|| Error::BadRequest(format!("'{value}' is not the href of a Role")))
}

impl Shared {
    /// The content items the caller may read, as a condition on `contents`.
    fn readable(&self, cx: &Caller) -> Filter {
        let scope = Scope {
            content: "contents",
            location: None,
            location_sections: false,
        };
        self.visible(cx, ("content", "read"), scope)
    }
}

impl UsersService {
    /// Users by one of role (a Role href), remote id, login or email; 404 when none is
    /// given or none matches.
    pub(super) async fn find_users(
        &self,
        db: &impl Connection,
        cx: &Caller,
        role_id: &Option<String>,
        remote_id: &Option<String>,
        login: &Option<String>,
        email: &Option<String>,
    ) -> Result<Vec<content::Model>> {
        let (sql, value): (&str, sea_orm::Value) = if let Some(role) = role_id {
            let role = role_of(cx, role)?;
            (
                "SELECT content_id FROM role_assignments WHERE role_id = ?",
                role.into(),
            )
        } else if let Some(r) = remote_id {
            (
                "SELECT id FROM contents WHERE remote_id = ?",
                r.clone().into(),
            )
        } else if let Some(l) = login {
            ("SELECT id FROM users WHERE login = ?", l.clone().into())
        } else if let Some(e) = email {
            ("SELECT id FROM users WHERE email = ?", e.clone().into())
        } else {
            return Err(Error::NotFound {
                what: "User",
                id: "(give roleId, remoteId, login or email)".into(),
            });
        };
        let candidates = ids(db, sql, vec![value]).await?;
        let found = content::Entity::find()
            .filter(self.readable(cx).expr(db.get_database_backend()))
            .filter(content::Column::Id.is_in(candidates))
            .filter(content::Column::Status.eq(content::PUBLISHED))
            .filter(
                content::Column::Id.in_subquery(
                    Query::select()
                        .column(user::Column::Id)
                        .from(user::Entity)
                        .to_owned(),
                ),
            )
            .order_by_asc(content::Column::Id)
            .all(db)
            .await?;
        if found.is_empty() {
            return Err(Error::NotFound {
                what: "User",
                id: "matching the query".into(),
            });
        }
        Ok(found)
    }

    /// Published groups among `ids`, each with its main Location, by id.
    async fn groups_among(
        &self,
        db: &impl Connection,
        cx: &Caller,
        ids: Vec<i64>,
    ) -> Result<Vec<(content::Model, location::Model)>> {
        let cs = content::Entity::find()
            .filter(self.readable(cx).expr(db.get_database_backend()))
            .filter(content::Column::Id.is_in(ids))
            .filter(content::Column::Status.eq(content::PUBLISHED))
            .filter(content::Column::ContentTypeId.is_in(self.group_types(db).await?))
            .order_by_asc(content::Column::Id)
            .all(db)
            .await?;
        let mut mains: HashMap<i64, location::Model> = cairn_store::read::keyed(
            db,
            location::Entity::find()
                .filter(location::Column::Id.is_in(cs.iter().filter_map(|c| c.main_location_id))),
        )
        .await?;
        Ok(cs
            .into_iter()
            .filter_map(|c| {
                let l = mains.remove(&c.main_location_id?)?;
                Some((c, l))
            })
            .collect())
    }

    /// Groups by content id, Role id or remote id; none of them gives an empty list.
    pub(super) async fn find_groups(
        &self,
        db: &impl Connection,
        cx: &Caller,
        id: Option<i64>,
        role_id: Option<i64>,
        remote_id: Option<&str>,
    ) -> Result<Vec<(content::Model, location::Model)>> {
        let (sql, key): (&str, Value) = match (id, role_id, remote_id) {
            (Some(id), _, _) => return self.groups_among(db, cx, vec![id]).await,
            (None, Some(role), _) => (
                "SELECT content_id FROM role_assignments WHERE role_id = ?",
                role.into(),
            ),
            (None, None, Some(r)) => ("SELECT id FROM contents WHERE remote_id = ?", r.into()),
            (None, None, None) => return Ok(Vec::new()),
        };
        let candidates = ids(db, sql, vec![key]).await?;
        self.groups_among(db, cx, candidates).await
    }

    /// The groups a user is in, each with the Location the user lies under.
    pub(super) async fn group_refs_of_user(
        &self,
        db: &impl Connection,
        cx: &Caller,
        c: &content::Model,
        offset: Offset,
        limit: Limit,
    ) -> Result<UserGroupRefList> {
        let parents: Vec<i64> = location::Entity::find()
            .select_only()
            .column(location::Column::ParentId)
            .filter(location::Column::ContentId.eq(c.id))
            .into_tuple()
            .all(db)
            .await?;
        let ls = location::Entity::find()
            .filter(location::Column::Id.is_in(parents))
            .order_by_asc(location::Column::Id)
            .all(db)
            .await?;
        let groups: HashMap<i64, content::Model> = cairn_store::read::keyed(
            db,
            content::Entity::find()
                .filter(self.readable(cx).expr(db.get_database_backend()))
                .filter(content::Column::Id.is_in(ls.iter().map(|l| l.content_id)))
                .filter(content::Column::Status.eq(content::PUBLISHED))
                .filter(content::Column::ContentTypeId.is_in(self.group_types(db).await?)),
        )
        .await?;
        let all: Vec<(content::Model, location::Model)> = ls
            .into_iter()
            .filter_map(|l| Some((groups.get(&l.content_id)?.clone(), l)))
            .collect();
        let href = hrefs::load_user_groups_of_user(c.id);
        let mut list = self.group_ref_list(href, &all, Some(c.id));
        list.user_group = limit.window(list.user_group, offset);
        Ok(list)
    }

    /// A page of the children of `parent` whose content `content_ids` selects, by Location id.
    async fn children_with(
        &self,
        db: &impl Connection,
        cx: &Caller,
        parent: &location::Model,
        content_ids: sea_orm::sea_query::SelectStatement,
        (offset, limit): (Offset, Limit),
    ) -> Result<Vec<(content::Model, location::Model)>> {
        let q = location::Entity::find()
            .filter(location::Column::ParentId.eq(parent.id))
            .filter(location::Column::Id.ne(parent.id))
            .filter(location::Column::ContentId.in_subquery(content_ids))
            .filter(
                location::Column::ContentId.in_subquery(
                    Query::select()
                        .column(content::Column::Id)
                        .from(content::Entity)
                        .and_where(self.readable(cx).expr(db.get_database_backend()))
                        .to_owned(),
                ),
            )
            .order_by_asc(location::Column::Id)
            // SQLite takes no OFFSET without a LIMIT.
            .offset(offset.0)
            .limit(limit.sql() as u64);
        let ls = q.all(db).await?;
        let mut cs: HashMap<i64, content::Model> = cairn_store::read::keyed(
            db,
            content::Entity::find()
                .filter(content::Column::Id.is_in(ls.iter().map(|l| l.content_id)))
                .filter(content::Column::Status.eq(content::PUBLISHED)),
        )
        .await?;
        Ok(ls
            .into_iter()
            .filter_map(|l| Some((cs.remove(&l.content_id)?, l)))
            .collect())
    }

    pub(super) async fn subgroups(
        &self,
        db: &impl Connection,
        cx: &Caller,
        parent: &location::Model,
        window: (Offset, Limit),
    ) -> Result<Vec<(content::Model, location::Model)>> {
        let groups = Query::select()
            .column(content::Column::Id)
            .from(content::Entity)
            .and_where(content::Column::ContentTypeId.is_in(self.group_types(db).await?))
            .to_owned();
        self.children_with(db, cx, parent, groups, window).await
    }

    pub(super) async fn users_under(
        &self,
        db: &impl Connection,
        cx: &Caller,
        parent: &location::Model,
        window: (Offset, Limit),
    ) -> Result<Vec<content::Model>> {
        let accounts = Query::select()
            .column(user::Column::Id)
            .from(user::Entity)
            .to_owned();
        Ok(self
            .children_with(db, cx, parent, accounts, window)
            .await?
            .into_iter()
            .map(|(c, _)| c)
            .collect())
    }

    /// The drafts a user created, as a VersionList.
    pub(super) async fn drafts_of(
        &self,
        db: &impl Connection,
        user_id: i64,
    ) -> Result<VersionList> {
        let vs = content_version::Entity::find()
            .filter(content_version::Column::CreatorId.eq(user_id))
            .filter(content_version::Column::Status.eq(content_version::DRAFT))
            .order_by_asc(content_version::Column::ContentId)
            .order_by_asc(content_version::Column::VersionNo)
            .all(db)
            .await?;
        let of_drafts = content::Column::Id.is_in(vs.iter().map(|v| v.content_id));
        let cs = cairn_store::read::keyed(db, content::Entity::find().filter(of_drafts)).await?;
        Ok(VersionList {
            href: hrefs::load_user_drafts(user_id),
            version_item: vs
                .iter()
                .filter_map(|v| {
                    let c = cs.get(&v.content_id)?;
                    Some(VersionItem {
                        version: hrefs::load_content_in_version(c.id, v.version_no),
                        version_info: self.version_info(c, v),
                    })
                })
                .collect(),
        })
    }
}
