//! The repository always keeps an account that may administrate it: an enabled, published
//! user with a Location, given a `*/*` Policy without limitations by a published Role assigned
//! without limitation to it or to a user group above one of its Locations.
//!
//! Every change that can take that away (Policies, Roles and assignments changed or deleted,
//! users disabled, moved, taken out of groups or deleted, subtrees deleted, trashed, moved or
//! swapped) ends with [`keep_an_administrator`] inside its transaction, so that the change is
//! refused (403) and rolled back rather than committed. `cairn user grant-admin` is the
//! operator's way back when a repository lost it anyway.

use crate::error::{Error, Result};
use cairn_store::Connection;
use cairn_store::entity::content;
use cairn_store::sql::stmt;

/// The subjects (users, groups) given unlimited `*/*`.
const ADMIN_SUBJECTS: &str = "SELECT a.content_id FROM role_assignments a \
     JOIN roles r ON r.id = a.role_id AND r.status = 0 \
     JOIN policies p ON p.role_id = r.id AND p.module = '*' AND p.function = '*' \
     WHERE a.limitation_identifier IS NULL \
     AND NOT EXISTS (SELECT 1 FROM policy_limitations pl WHERE pl.policy_id = p.id)";

/// Whether some account may administrate the repository (one statement).
pub(crate) async fn has_administrator(db: &impl Connection) -> Result<bool> {
    // Users given it directly, then users below a group given it: both start from the few
    // assignments, the second walks the groups' subtrees by their path index.
    let sql = format!(
        "SELECT 1 FROM users u JOIN contents c ON c.id = u.id AND c.status = ? \
         WHERE u.enabled = ? AND u.id IN ({ADMIN_SUBJECTS}) \
         AND EXISTS (SELECT 1 FROM locations l WHERE l.content_id = u.id) \
         UNION ALL \
         SELECT 1 FROM locations gl \
         JOIN locations ul ON ul.path_string > gl.path_string AND ul.path_string < gl.path_string || '~' \
         JOIN users u ON u.id = ul.content_id AND u.enabled = ? \
         JOIN contents c ON c.id = u.id AND c.status = ? \
         WHERE gl.content_id IN ({ADMIN_SUBJECTS})"
    );
    let published = content::PUBLISHED;
    let row = db
        .query_one_raw(stmt(
            db.get_database_backend(),
            &format!("SELECT COUNT(*) FROM ({sql} LIMIT 1) found"),
            [published.into(), true.into(), true.into(), published.into()],
        ))
        .await?;
    Ok(row
        .and_then(|r| r.try_get_by_index::<i64>(0).ok())
        .is_some_and(|n| n > 0))
}

/// 403 when, after the change made so far in this transaction, no account may administrate
/// the repository any more.
pub(crate) async fn keep_an_administrator(db: &impl Connection) -> Result<()> {
    if has_administrator(db).await? {
        return Ok(());
    }
    Err(Error::Forbidden(
        "This change would leave no enabled user with unlimited access (a '*/*' Policy without \
         limitations): no one could administrate the repository any more"
            .into(),
    ))
}
