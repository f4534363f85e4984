//! The users and user groups Roles are assigned to, as the paths name them.

use crate::error::{Error, Result};
use crate::locations::tree::{find_by_path, href_path};
use cairn_store::entity::user;
use sea_orm::{ConnectionTrait, EntityTrait};

/// The content id of the user `user_id` (404 unless it has an account).
pub(crate) async fn user(db: &impl ConnectionTrait, user_id: i64) -> Result<i64> {
    user::Entity::find_by_id(user_id)
        .one(db)
        .await?
        .map(|u| u.id)
        .ok_or_else(|| Error::not_found("User", user_id))
}

/// The content id of the user group at the Location path `group_path` (`1/5/13`), and that
/// path as hrefs write it (404 unless it is the Location's real path).
pub(crate) async fn group(db: &impl ConnectionTrait, group_path: &str) -> Result<(i64, String)> {
    let l = find_by_path(db, group_path).await?;
    Ok((l.content_id, href_path(&l.path_string)))
}
