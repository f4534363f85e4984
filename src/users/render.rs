//! Users and user groups as the API represents them: content-like bodies with the current
//! version embedded, built for a whole list in a fixed number of queries.

use crate::api::hrefs;
use crate::api::model::*;
use crate::error::{Error, Result};
use crate::shared::Shared;
use crate::tree::{href_path, parent_path};
use cairn_runtime::Timestamp;
use cairn_store::Connection;
use cairn_store::entity::{content, location, user};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use std::collections::HashMap;

/// `/content/locations/1/5/12` → `1/5/12`.
fn location_path(info: &ContentInfo) -> String {
    info.main_location
        .as_deref()
        .and_then(hrefs::read::load_location)
        .unwrap_or_default()
        .to_string()
}

/// A `User` or `UserGroup` (`$ty`): the fields both take from content item `$c` and its
/// current version (`$info`, `$version`), and the type's own `$field`s.
macro_rules! content_body {
    ($ty:ident, $c:expr, $info:expr, $version:expr, { $($field:ident: $value:expr),* $(,)? }) => {
        $ty {
            id: $c.id,
            remote_id: $c.remote_id.clone(),
            content_type: $c.content_type_id,
            name: $c.name.clone(),
            versions: $c.id,
            section: $c.section_id,
            main_location: location_path(&$info),
            locations: $c.id,
            owner: $c.owner_id,
            publish_date: $info.published_date.unwrap_or(Timestamp($c.published)),
            last_modification_date: $info.last_modification_date.unwrap_or(Timestamp($c.modified)),
            main_language_code: $c.main_language_code.clone(),
            always_available: $c.always_available,
            version: $version,
            $($field: $value),*
        }
    };
}

impl Shared {
    /// The user of content item `c`, with its account when the caller has read it already.
    pub(super) async fn user_body(
        &self,
        db: &impl Connection,
        c: content::Model,
        account: Option<user::Model>,
    ) -> Result<User> {
        let accounts = match account {
            Some(u) => HashMap::from([(u.id, u)]),
            None => accounts_of(db, &[c.id]).await?,
        };
        Ok(self.render_users(db, vec![c], accounts).await?.remove(0))
    }

    pub(crate) async fn user_bodies(
        &self,
        db: &impl Connection,
        cs: Vec<content::Model>,
    ) -> Result<Vec<User>> {
        let ids: Vec<i64> = cs.iter().map(|c| c.id).collect();
        let accounts = accounts_of(db, &ids).await?;
        self.render_users(db, cs, accounts).await
    }

    async fn render_users(
        &self,
        db: &impl Connection,
        cs: Vec<content::Model>,
        accounts: HashMap<i64, user::Model>,
    ) -> Result<Vec<User>> {
        let bodies = self.current_versions(db, &cs).await?;
        cs.iter()
            .zip(bodies)
            .map(|(c, (info, version))| {
                let u = accounts
                    .get(&c.id)
                    .ok_or_else(|| Error::not_found("User", c.id))?;
                Ok(content_body!(User, c, info, version, {
                    href: hrefs::load_user(c.id),
                    groups: c.id,
                    login: u.login.clone(),
                    email: u.email.clone(),
                    enabled: u.enabled,
                    user_groups: c.id,
                    roles: c.id,
                }))
            })
            .collect()
    }

    /// Groups, each addressed by the Location given with it.
    pub(crate) async fn group_bodies(
        &self,
        db: &impl Connection,
        groups: Vec<(content::Model, location::Model)>,
    ) -> Result<Vec<UserGroup>> {
        let (cs, ls): (Vec<content::Model>, Vec<location::Model>) = groups.into_iter().unzip();
        let bodies = self.current_versions(db, &cs).await?;
        Ok(cs
            .iter()
            .zip(ls)
            .zip(bodies)
            .map(|((c, l), (info, version))| {
                let path = href_path(&l.path_string);
                content_body!(UserGroup, c, info, version, {
                    href: hrefs::load_user_group(&path),
                    parent_user_group: parent_path(&l.path_string).unwrap_or_default(),
                    subgroups: path.clone(),
                    users: path.clone(),
                    roles: path,
                })
            })
            .collect())
    }

    /// References to groups; with `user`, each carries the link that removes the user from
    /// it when the user is in more than one.
    pub(super) fn group_ref_list(
        &self,
        href: String,
        groups: &[(content::Model, location::Model)],
        user: Option<i64>,
    ) -> UserGroupRefList {
        let unassignable = groups.len() > 1;
        UserGroupRefList {
            href,
            user_group: groups
                .iter()
                .map(|(_, l)| UserGroupRef {
                    href: hrefs::load_user_group(&href_path(&l.path_string)),
                    unassign: user.filter(|_| unassignable).map(|u| UnassignLink {
                        href: hrefs::unassign_user_from_user_group(u, &l.id.to_string()),
                        method: "DELETE".to_string(),
                    }),
                })
                .collect(),
        }
    }
}

/// The accounts of the users `ids`, by id.
async fn accounts_of(db: &impl Connection, ids: &[i64]) -> Result<HashMap<i64, user::Model>> {
    let accounts = user::Entity::find().filter(user::Column::Id.is_in(ids.iter().copied()));
    Ok(cairn_store::read::keyed(db, accounts).await?)
}
