//! Accounts: the `users` row behind the `ezuser` field of a content item. The row, keyed by
//! the content id, is the one place that holds the login, email, state and password hash;
//! the field value keeps login, email and state for display, never a password or its hash.

use crate::error::{Error, Result};
use cairn_runtime::{HashValue, Timestamp};
use cairn_store::Tx;
use cairn_store::entity::{user, user_session};
use cairn_store::sql::stmt;
use sea_orm::ConnectionTrait;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, IntoActiveModel, QueryFilter, Value};

fn text(value: &HashValue, key: &str) -> Option<String> {
    value
        .get(key)
        .and_then(HashValue::to_text)
        .filter(|s| !s.is_empty())
}

fn set(value: &mut HashValue, key: &str, v: HashValue) {
    if let HashValue::Map(entries) = value {
        match entries.iter_mut().find(|(k, _)| k == key) {
            Some(e) => e.1 = v,
            None => entries.push((key.to_string(), v)),
        }
    }
}

/// Hashes a password off the async workers (argon2 takes tens of milliseconds).
pub(crate) async fn hash_password(plain: String) -> Result<String> {
    tokio::task::spawn_blocking(move || cairn_store::password::hash(&plain))
        .await
        .map_err(|e| Error::Internal(format!("password hashing failed: {e}")))
}

/// Writes the account of content `content_id` from its `ezuser` field value (inside the
/// caller's transaction) and leaves in the value only what may be stored with the version:
/// the plain password is hashed into the row and removed. A login or email another user
/// has is 403; a login cannot change once stored (400).
pub(crate) async fn store(
    tx: &Tx,
    content_id: i64,
    value: &mut HashValue,
    unique_email: bool,
) -> Result<()> {
    if !matches!(value, HashValue::Map(_)) {
        return Ok(());
    }
    let (Some(login), Some(email)) = (text(value, "login"), text(value, "email")) else {
        return Ok(());
    };
    let existing = cairn_store::read::by_id::<user::Entity>(tx, content_id).await?;
    if let Some(u) = &existing
        && u.login != login
    {
        return Err(Error::BadRequest(format!(
            "The login of user {content_id} is '{}' and cannot be changed",
            u.login
        )));
    }
    tx.lock("user_login").await?;
    let taken = user::Entity::find()
        .filter(user::Column::Login.eq(login.as_str()))
        .filter(user::Column::Id.ne(content_id))
        .one(tx)
        .await?;
    if taken.is_some() {
        return Err(Error::Forbidden(format!(
            "The user login '{login}' is used by another user"
        )));
    }
    if unique_email
        && user::Entity::find()
            .filter(user::Column::Email.eq(email.as_str()))
            .filter(user::Column::Id.ne(content_id))
            .one(tx)
            .await?
            .is_some()
    {
        return Err(Error::Forbidden(format!(
            "The email '{email}' is used by another user"
        )));
    }
    let enabled = value
        .get("enabled")
        .and_then(HashValue::as_bool)
        .or(existing.as_ref().map(|u| u.enabled))
        .unwrap_or(true);
    let max_login = value
        .get("maxLogin")
        .and_then(HashValue::as_i64)
        .or(existing.as_ref().map(|u| u.max_login))
        .unwrap_or(10);
    let plain = text(value, "plainPassword");
    let (hash, updated) = match (plain, &existing) {
        (Some(p), _) => (hash_password(p).await?, Some(Timestamp::now().0)),
        (None, Some(u)) => (u.password_hash.clone(), u.password_updated_at),
        (None, None) => {
            return Err(Error::BadRequest(format!(
                "The new user '{login}' needs a password"
            )));
        }
    };
    for (k, v) in [
        ("hasStoredLogin", HashValue::Bool(true)),
        ("contentId", HashValue::Int(content_id)),
        ("enabled", HashValue::Bool(enabled)),
        ("maxLogin", HashValue::Int(max_login)),
        ("passwordHash", HashValue::Null),
        ("plainPassword", HashValue::Null),
        (
            "passwordUpdatedAt",
            updated.map_or(HashValue::Null, HashValue::Int),
        ),
    ] {
        set(value, k, v);
    }
    // New credentials, or none: the sessions opened with the old ones end, and the tokens
    // issued for them (their epoch is another).
    let mut token_epoch = existing.as_ref().map_or(0, |u| u.token_epoch);
    if let Some(u) = &existing
        && (u.password_hash != hash || (u.enabled && !enabled))
    {
        user_session::Entity::delete_many()
            .filter(user_session::Column::UserId.eq(content_id))
            .exec(tx)
            .await?;
        token_epoch += 1;
    }
    let row = user::Model {
        id: content_id,
        login,
        email,
        password_hash: hash,
        password_updated_at: updated,
        enabled,
        max_login,
        token_epoch,
    };
    match existing {
        Some(_) => {
            cairn_store::write::update(tx, row.into_active_model().reset_all()).await?;
        }
        None => {
            cairn_store::write::insert(tx, user::ActiveModel::from(row)).await?;
        }
    }
    Ok(())
}

/// Removes the accounts, sessions and bookmarks of the content items `ids_sql` selects
/// (a `SELECT id ...` with its bind `values`); called where content items are deleted.
pub(crate) async fn forget(tx: &Tx, ids_sql: &str, values: Vec<Value>) -> Result<()> {
    let backend = tx.get_database_backend();
    for table in ["user_sessions", "bookmarks"] {
        tx.execute_raw(stmt(
            backend,
            &format!("DELETE FROM {table} WHERE user_id IN ({ids_sql})"),
            values.clone(),
        ))
        .await?;
    }
    tx.execute_raw(stmt(
        backend,
        &format!("DELETE FROM users WHERE id IN ({ids_sql})"),
        values,
    ))
    .await?;
    Ok(())
}
