//! Who is calling: HTTP Basic credentials, a JSON Web Token (`Authorization: Bearer`), a
//! session cookie (with its CSRF token on unsafe methods), or nobody (the anonymous user),
//! with the caller's Policies. Every operation declares the Policy it needs (spec `policy:`);
//! a caller with no Policy of that module and function is refused here, before the operation
//! runs, and the operation checks the limitations on the object it acts on.

use crate::credentials::Since;
use crate::error::{Error, Result};
use crate::permissions::{Asker, Grants, Target, denied};
use crate::shared::Shared;
use base64::Engine;
use cairn_runtime::http::{Access, Operation, Settings};
use cairn_store::Reader;
use cairn_store::entity::{content, user, user_session};
use cairn_store::events::Change;
use cairn_store::read::model;
use cairn_store::sql::stmt;
use poem::http::HeaderMap;
use sea_orm::{ActiveModelTrait, ActiveValue::Set};
use std::sync::Arc;

/// The anonymous user's id (content 10 of the clean install).
pub const ANONYMOUS_USER_ID: i64 = 10;

/// The siteaccess of a request without `X-Siteaccess`.
const DEFAULT_SITEACCESS: &str = "site";

/// The authenticated caller of one request.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user_id: i64,
    /// The session the request's cookie names, when it is valid.
    pub session: Option<user_session::Model>,
    /// The caller's Policies.
    pub(crate) grants: Arc<Grants>,
    /// The operation called.
    pub op: &'static Operation,
    /// The siteaccess the request names (`X-Siteaccess`), as `SiteAccess` limitations see it.
    pub(crate) siteaccess: Target,
    /// The client's address, when known (failed logins are counted per address too).
    pub peer: Option<std::net::IpAddr>,
    /// The dialect the request came in (`/api/ibexa/v2` or `/api/ezp/v2`, its media types).
    pub dialect: Arc<Settings>,
    /// The path requested, under the prefix: what a change is recorded as made to.
    pub resource: String,
    /// For a cached GET: the repository's generation when the request began.
    pub(crate) generation: Option<u64>,
    /// The files the request stores for the first time (removed again if it fails).
    pub(crate) uploads: Arc<crate::field_types::files::Uploads>,
    /// The request's reads: its snapshot and its statement count (`cairn_store::Reader`).
    reader: Arc<Reader>,
}

/// A check of the Policies (`crate::permissions`) asks the caller's, for the operation called.
impl Asker for Caller {
    fn grants(&self) -> &Grants {
        &self.grants
    }

    fn policy(&self) -> Option<(&'static str, &'static str)> {
        self.op.policies.first().copied()
    }
}

impl Caller {
    /// Refuses a call of `op` as its route would: an anonymous write (401), or a caller with
    /// none of the Policies `op` declares, unless `op` filters what it lists (403).
    fn may_call(&self, op: &'static Operation) -> Result<()> {
        if op.access == Access::Write && self.is_anonymous() {
            return Err(Error::Unauthorized(format!(
                "The anonymous User does not have permission for '{}': log in first",
                op.id
            )));
        }
        if op.access != Access::Public
            && !op.filters
            && let Some((module, function)) = op.policies.first()
            && !op.policies.iter().any(|(m, f)| self.grants.may(m, f))
        {
            return Err(denied(module, function));
        }
        Ok(())
    }

    /// This caller as the caller of `op`, refused as a request to `op` would be: how a
    /// request that runs several operations (GraphQL) calls each of them.
    pub fn calling(&self, op: &'static Operation) -> Result<Caller> {
        self.may_call(op)?;
        Ok(Caller { op, ..self.clone() })
    }

    /// An href a client sent, without the prefix of its dialect (a path under the prefix);
    /// as it is when it has none.
    pub fn api_path<'a>(&self, href: &'a str) -> &'a str {
        self.dialect.wire.strip_prefix(href).unwrap_or(href)
    }

    /// What the request reads on: its snapshot of the database, counting its statements.
    pub fn reader(&self) -> &Reader {
        &self.reader
    }

    pub fn is_anonymous(&self) -> bool {
        self.user_id == ANONYMOUS_USER_ID
    }

    /// The change this caller's write makes, as the outbox records it.
    pub fn change(&self) -> Change<'_> {
        Change {
            operation: self.op.id,
            resource: &self.resource,
            user_id: Some(self.user_id),
            narrow: self.op.narrow,
            reader: Some(&self.reader),
        }
    }
}

/// The siteaccess target of a request: the CRC-32 of its name, as the reference stores
/// `SiteAccess` limitation values.
fn siteaccess(headers: &HeaderMap) -> Target {
    let name = headers
        .get("x-siteaccess")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .unwrap_or(DEFAULT_SITEACCESS);
    Target::SiteAccess(crc32(name.as_bytes()))
}

/// CRC-32 (IEEE), as PHP's `crc32`.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for b in bytes {
        crc ^= u32::from(*b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
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
        .filter(|v| !v.is_empty() && !v.contains('\0'))
}

impl Shared {
    /// Builds the caller of a request to `op`, reading on `reader`, or refuses it (401): bad
    /// credentials, no `user/login` through this siteaccess, or no Policy of the module and
    /// function `op` declares.
    pub async fn authenticate(
        &self,
        headers: &HeaderMap,
        peer: Option<std::net::IpAddr>,
        op: &'static Operation,
        dialect: Arc<Settings>,
        generation: Option<u64>,
        reader: Arc<Reader>,
    ) -> Result<Caller> {
        let siteaccess = siteaccess(headers);
        let mut known_login = None;
        let (user_id, session) = if let Some((login, password)) = basic_credentials(headers)? {
            let id = (self
                .verify_password(&*reader, &login, &password, peer, generation)
                .await?)
                .id;
            known_login = Some(login);
            (id, None)
        } else if let Some(token) = bearer_token(headers) {
            let user = self.token_user(&*reader, token, generation).await?;
            known_login = Some(user.login);
            (user.id, None)
        } else if let Some(sid) = cookie(headers, &self.settings.session_cookie) {
            match self.live_session(&*reader, sid).await? {
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
                    (session.user_id, Some(session))
                }
                None => (ANONYMOUS_USER_ID, None),
            }
        } else {
            (ANONYMOUS_USER_ID, None)
        };
        // As the reference reads it (PHP's `empty`): an empty value or "0" expects no one.
        let expected = (headers.get("x-expected-user"))
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != "0");
        if let Some(expected) = expected {
            self.check_expected_user(&*reader, user_id, known_login.as_deref(), expected)
                .await?;
        }
        let grants = self.grants_of(&*reader, user_id).await?;
        let caller = Caller {
            user_id,
            session,
            grants,
            op,
            siteaccess,
            peer,
            dialect,
            resource: String::new(),
            generation: None,
            uploads: Arc::default(),
            reader,
        };
        if !caller.is_anonymous() && !self.may_log_in(&caller.grants, &caller.siteaccess) {
            return Err(Error::Unauthorized(
                "The User does not have the 'login' 'user' permission for this siteaccess".into(),
            ));
        }
        caller.may_call(op)?;
        Ok(caller)
    }

    /// The user `login` as a caller of `op` with its Policies, without a password: what a
    /// command of the operator's (who holds the database) acts as. It reads the latest state
    /// (no snapshot).
    pub async fn caller_named(
        &self,
        login: &str,
        op: &'static Operation,
        dialect: Arc<Settings>,
    ) -> Result<Caller> {
        let reader = Arc::new(self.db.plain_reader());
        let user = (self.account(&*reader, login).await?)
            .ok_or_else(|| Error::BadRequest(format!("There is no enabled user '{login}'")))?;
        Ok(Caller {
            user_id: user.id,
            session: None,
            grants: self.grants_of(&*reader, user.id).await?,
            op,
            siteaccess: siteaccess(&HeaderMap::new()),
            peer: None,
            dialect,
            resource: String::new(),
            generation: None,
            uploads: Arc::default(),
            reader,
        })
    }

    /// `X-Expected-User`: a client names the login it believes it is; 401 when the request
    /// is someone else's, as the reference answers.
    async fn check_expected_user(
        &self,
        db: &impl cairn_store::Connection,
        user_id: i64,
        login: Option<&str>,
        expected: &str,
    ) -> Result<()> {
        let login = match login {
            Some(l) => l.to_string(),
            None => cairn_store::read::by_id::<user::Entity>(db, user_id)
                .await?
                .map(|u| u.login)
                .unwrap_or_default(),
        };
        if login != expected {
            return Err(Error::Unauthorized(format!(
                "The request is authenticated as '{login}', not as the expected user '{expected}'"
            )));
        }
        Ok(())
    }

    /// Whether a user with `grants` may log in through `siteaccess` (`user/login`).
    pub(crate) fn may_log_in(&self, grants: &Grants, siteaccess: &Target) -> bool {
        use crate::permissions::evaluate::{Subject, Vote, can};
        can(
            grants,
            "user",
            "login",
            &Subject::Other,
            std::slice::from_ref(siteaccess),
        ) == Vote::Granted
    }

    /// The enabled user `login` (read on `db`) if `password` is its password, or 401; 429 while failed logins
    /// for this login or address make the caller wait. Within a `generation` (a cached read),
    /// or on SQLite while no commit has changed the commit mark, an account found before is
    /// not looked up again: any change to it is a change of both.
    pub async fn verify_password(
        &self,
        db: &impl cairn_store::Connection,
        login: &str,
        password: &str,
        peer: Option<std::net::IpAddr>,
        generation: Option<u64>,
    ) -> Result<user::Model> {
        if let Some(wait) = self.throttle.wait(login, peer) {
            return Err(Error::LoginsThrottled {
                wait_secs: wait.as_secs() + 1,
            });
        }
        let checked = self.check_password(db, login, password, generation).await;
        match &checked {
            Ok(_) => self.throttle.succeeded(login, peer),
            Err(Error::Unauthorized(_)) => self.throttle.failed(login, peer),
            Err(_) => {}
        }
        checked
    }

    /// The enabled account of the published user `login` (not a draft's, not a trashed
    /// one's): one lookup by login and one by primary key, whatever the size of the repository.
    async fn account(
        &self,
        db: &impl cairn_store::Connection,
        login: &str,
    ) -> Result<Option<user::Model>> {
        let user: Option<user::Model> = model(
            db,
            stmt(
                self.db.backend(),
                "SELECT users.* FROM users JOIN contents ON contents.id = users.id \
                 WHERE users.login = ? AND contents.status = ?",
                [login.into(), content::PUBLISHED.into()],
            ),
        )
        .await?;
        Ok(user.filter(|u| u.enabled))
    }

    async fn check_password(
        &self,
        db: &impl cairn_store::Connection,
        login: &str,
        password: &str,
        generation: Option<u64>,
    ) -> Result<user::Model> {
        // Taken before the read: a commit after it changes the mark.
        let since = match generation {
            Some(g) => Some(Since::Generation(g)),
            None => self.db.commit_mark().map(Since::Mark),
        };
        let user = (self.accounts)
            .get_or_read(login, since, async || self.account(db, login).await)
            .await?;
        let user = user
            .filter(|u| u.id != ANONYMOUS_USER_ID)
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
        if !cairn_store::password::is_current(&user.password_hash) {
            return self.rehash(user, password).await;
        }
        self.credentials
            .remember(login, password, &user.password_hash);
        Ok(user)
    }

    /// A migrated account's first login (its hash is the old site's, `cairn migrate`): stores
    /// cairn's own hash of the password in its place.
    async fn rehash(&self, mut user: user::Model, password: &str) -> Result<user::Model> {
        let hash = crate::accounts::hash_password(password.to_string()).await?;
        let (id, old) = (user.id, user.password_hash.clone());
        let change = Change::by_server("rehashPassword", "/user/users");
        self.db
            .write(change, async |tx| {
                cairn_store::sql::exec(
                    tx,
                    "UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?",
                    [hash.clone().into(), id.into(), old.into()],
                )
                .await
            })
            .await?;
        user.password_hash = hash;
        Ok(user)
    }

    /// The user a JSON Web Token stands for: signed with the key, not expired, and its user
    /// still enabled, not deleted, with the password it had when the token was issued; else
    /// 401. The account is kept as Basic's is (`check_password`).
    async fn token_user(
        &self,
        db: &impl cairn_store::Connection,
        token: &str,
        generation: Option<u64>,
    ) -> Result<user::Model> {
        let now = chrono::Utc::now().timestamp();
        let claims = self.tokens.verify(&self.db, token, now).await?;
        let since = match generation {
            Some(g) => Some(Since::Generation(g)),
            None => self.db.commit_mark().map(Since::Mark),
        };
        let user = (self.accounts)
            .get_or_read(&claims.username, since, async || {
                self.account(db, &claims.username).await
            })
            .await?;
        user.filter(|u| u.id != ANONYMOUS_USER_ID && self.tokens.vouches(&claims, u))
            .ok_or_else(|| Error::Unauthorized("Invalid JWT Token".into()))
    }

    /// The session `id` if it exists (read on `db`), its user is enabled, and it has not been
    /// idle too long; refreshes its last use at most once a minute.
    pub async fn live_session(
        &self,
        db: &impl cairn_store::Connection,
        id: &str,
    ) -> Result<Option<user_session::Model>> {
        // Kept only under the commit mark: every commit changes it, a logout and a disabled
        // user included (they name no generation of the cache).
        let since = self.db.commit_mark().map(Since::Mark);
        let found = (self.sessions)
            .get_or_read(id, since, async || {
                model::<user_session::Model>(
                    db,
                    stmt(
                        self.db.backend(),
                        "SELECT user_sessions.* FROM user_sessions \
                         JOIN users ON users.id = user_sessions.user_id \
                         WHERE user_sessions.id = ? AND users.enabled = ?",
                        [id.into(), true.into()],
                    ),
                )
                .await
                .map_err(Into::into)
            })
            .await?;
        let Some(s) = found else {
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

/// The token of `Authorization: Bearer <token>`.
fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = (headers.get(poem::http::header::AUTHORIZATION)).and_then(|v| v.to_str().ok())?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
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
    if decoded.contains('\0') {
        return Err(invalid_login());
    }
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
