//! Who is calling: HTTP Basic credentials, a session cookie (with its CSRF token on unsafe
//! methods), or nobody (the anonymous user). Until roles and policies land, the anonymous
//! user may read and any logged-in user may write.

use crate::error::{Error, Result};
use crate::service::Service;
use base64::Engine;
use cairn_runtime::http::{Access, Operation};
use cairn_store::entity::{content, user, user_session};
use poem::http::HeaderMap;
use sea_orm::sea_query::Query;
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::Mutex;

/// The anonymous user's id (content 10 of the clean install).
pub const ANONYMOUS_USER_ID: i64 = 10;

/// The authenticated caller of one request.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user_id: i64,
    /// The session the request's cookie names, when it is valid.
    pub session: Option<user_session::Model>,
}

impl Caller {
    pub fn anonymous() -> Caller {
        Caller {
            user_id: ANONYMOUS_USER_ID,
            session: None,
        }
    }

    pub fn is_anonymous(&self) -> bool {
        self.user_id == ANONYMOUS_USER_ID
    }
}

/// Remembers verified Basic credentials so that argon2 runs once per password, not once per
/// request. An entry holds a digest of the password and the stored hash it was verified
/// against: a changed password never matches an old entry.
#[derive(Default)]
pub struct CredentialCache {
    verified: Mutex<HashMap<String, ([u8; 32], String)>>,
}

const CREDENTIAL_CACHE_SIZE: usize = 10_000;

impl CredentialCache {
    fn digest(login: &str, password: &str) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(login.as_bytes());
        h.update([0]);
        h.update(password.as_bytes());
        h.finalize().into()
    }

    fn knows(&self, login: &str, password: &str, stored_hash: &str) -> bool {
        let map = self.verified.lock().unwrap_or_else(|e| e.into_inner());
        map.get(login)
            .is_some_and(|(d, h)| *d == Self::digest(login, password) && h == stored_hash)
    }

    fn remember(&self, login: &str, password: &str, stored_hash: &str) {
        let mut map = self.verified.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= CREDENTIAL_CACHE_SIZE {
            map.clear();
        }
        map.insert(
            login.to_string(),
            (Self::digest(login, password), stored_hash.to_string()),
        );
    }
}

fn invalid_login() -> Error {
    Error::Unauthorized("Invalid login or password".into())
}

/// The value of the cookie `name` in the `Cookie` headers.
pub fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(poem::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim())
        .filter(|v| !v.is_empty())
}

impl Service {
    /// Builds the caller of a request to `op`, or refuses it (401).
    pub async fn authenticate(
        &self,
        headers: &HeaderMap,
        op: &'static Operation,
    ) -> Result<Caller> {
        let caller = if let Some((login, password)) = basic_credentials(headers)? {
            let user = self.verify_password(&login, &password).await?;
            Caller {
                user_id: user.id,
                session: None,
            }
        } else if let Some(sid) = cookie(headers, &self.settings.session_cookie) {
            match self.live_session(sid).await? {
                Some(session) => {
                    let unsafe_method = !matches!(op.method, "GET" | "HEAD" | "OPTIONS");
                    if op.csrf && unsafe_method {
                        let token = headers
                            .get("x-csrf-token")
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or("");
                        if token != session.csrf_token {
                            return Err(Error::Unauthorized(
                                "Missing or invalid CSRF token".into(),
                            ));
                        }
                    }
                    Caller {
                        user_id: session.user_id,
                        session: Some(session),
                    }
                }
                None => Caller::anonymous(),
            }
        } else {
            Caller::anonymous()
        };
        if op.access == Access::Write && caller.is_anonymous() {
            return Err(Error::Unauthorized(format!(
                "The anonymous User does not have permission for '{}': log in first",
                op.id
            )));
        }
        Ok(caller)
    }

    /// The enabled user with this login and password, or 401.
    pub async fn verify_password(&self, login: &str, password: &str) -> Result<user::Model> {
        // Only the account of a published user logs in (not a draft's, not a trashed one's).
        let published = Query::select()
            .column(content::Column::Id)
            .from(content::Entity)
            .and_where(content::Column::Status.eq(content::PUBLISHED))
            .to_owned();
        let user = user::Entity::find()
            .filter(user::Column::Login.eq(login))
            .filter(user::Column::Id.in_subquery(published))
            .one(self.db.conn())
            .await?
            .filter(|u| u.enabled && u.id != ANONYMOUS_USER_ID)
            .ok_or_else(invalid_login)?;
        if self.credentials.knows(login, password, &user.password_hash) {
            return Ok(user);
        }
        let (pw, hash) = (password.to_string(), user.password_hash.clone());
        let ok = tokio::task::spawn_blocking(move || cairn_store::password::verify(&pw, &hash))
            .await
            .map_err(|e| Error::Internal(format!("password check failed: {e}")))?;
        if !ok {
            return Err(invalid_login());
        }
        self.credentials
            .remember(login, password, &user.password_hash);
        Ok(user)
    }

    /// The session `id` if it exists and has not been idle too long; refreshes its last use
    /// at most once a minute.
    pub async fn live_session(&self, id: &str) -> Result<Option<user_session::Model>> {
        let Some(s) = user_session::Entity::find_by_id(id.to_string())
            .one(self.db.conn())
            .await?
        else {
            return Ok(None);
        };
        let now = chrono::Utc::now().timestamp();
        if now - s.last_seen_at > self.settings.session_idle {
            return Ok(None);
        }
        if now - s.last_seen_at > 60 {
            let mut active: user_session::ActiveModel = s.clone().into();
            active.last_seen_at = Set(now);
            active.update(self.db.conn()).await?;
        }
        Ok(Some(s))
    }
}

/// `Authorization: Basic base64(login:password)`; a malformed header is a 401.
fn basic_credentials(headers: &HeaderMap) -> Result<Option<(String, String)>> {
    let Some(value) = headers
        .get(poem::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    else {
        return Ok(None);
    };
    let Some(encoded) = value
        .strip_prefix("Basic ")
        .or_else(|| value.strip_prefix("basic "))
    else {
        return Ok(None);
    };
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .ok_or_else(invalid_login)?;
    let (login, password) = decoded.split_once(':').ok_or_else(invalid_login)?;
    Ok(Some((login.to_string(), password.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_found_among_others() {
        let mut h = HeaderMap::new();
        h.insert("cookie", "a=1; eZSESSIDx=abc ; b=2".parse().unwrap());
        assert_eq!(cookie(&h, "eZSESSIDx"), Some("abc"));
        assert_eq!(cookie(&h, "c"), None);
    }
}
