//! Sessions: log in (cookie + CSRF token), check, refresh, log out. Sessions live in the
//! database, so every server instance knows them. And the login for a JSON Web Token
//! (`jwt.rs`), which needs no session.

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::SessionsApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use base64::Engine;
use cairn_runtime::ETag;
use cairn_store::entity::{user, user_session};
use rand::Rng;
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};

impl SessionsService {
    fn session_body(&self, s: &user_session::Model) -> Session {
        Session {
            href: hrefs::delete_session(&s.id),
            name: self.settings.session_cookie.clone(),
            identifier: s.id.clone(),
            csrf_token: s.csrf_token.clone(),
            user: s.user_id,
        }
    }

    /// The user `login` if `password` is its password and it may log in through the
    /// request's siteaccess; else 401.
    async fn log_in(&self, cx: &Caller, login: &str, password: &str) -> Result<user::Model> {
        let user = (self.verify_password(cx.reader(), login, password, cx.peer, None)).await?;
        let grants = self.grants_of(cx.reader(), user.id).await?;
        if !self.may_log_in(&grants, &cx.siteaccess) {
            return Err(Error::Unauthorized(
                "The User does not have the 'login' 'user' permission for this siteaccess".into(),
            ));
        }
        Ok(user)
    }

    fn set_cookie(&self, id: &str) -> String {
        format!(
            "{}={id}; Path={}; HttpOnly; SameSite=Lax{}",
            self.settings.session_cookie,
            self.settings.cookie_path,
            if self.settings.secure_cookie {
                "; Secure"
            } else {
                ""
            }
        )
    }

    fn clear_cookie(&self) -> String {
        format!(
            "{}=deleted; Expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; Path={}; HttpOnly",
            self.settings.session_cookie, self.settings.cookie_path
        )
    }

    /// The caller's session if it is the one `id` names; else the session is gone for the
    /// caller, whose cookie `clear` then forgets.
    fn own_session<'c>(
        &self,
        cx: &'c Caller,
        id: &str,
        clear: &str,
    ) -> Result<&'c user_session::Model> {
        (cx.session.as_ref().filter(|s| s.id == id)).ok_or_else(|| Error::SessionGone {
            id: id.to_owned(),
            clear_cookie: clear.to_owned(),
        })
    }
}

fn random_token(len: usize) -> String {
    let bytes: Vec<u8> = (0..len).map(|_| rand::rng().random()).collect();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

fn session_id() -> String {
    rand::rng()
        .sample_iter(rand::distr::Alphanumeric)
        .take(32)
        .map(|c| char::from(c).to_ascii_lowercase())
        .collect()
}

crate::services::family_service!(
    /// Implements the API of sessions (login, logout, refresh).
    SessionsService
);

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> SessionsApi<B> for SessionsService
{
    async fn create_session(
        &self,
        cx: &Caller,
        req: CreateSessionRequest,
    ) -> Result<CreateSessionResponse> {
        let user = self.log_in(cx, &req.body.login, &req.body.password).await?;
        if let Some(s) = &cx.session {
            if s.user_id == user.id {
                return Ok(CreateSessionResponse::Ok {
                    body: self.session_body(s),
                });
            }
            return Err(Error::BadState(
                "Another user is logged in with this session; log out first".into(),
            ));
        }
        let now = chrono::Utc::now().timestamp();
        let idle = self.settings.session_idle;
        let session = self
            .db
            .write_untracked_for(cx.reader(), async |tx| {
                // Sessions idle past the timeout are gone; clear them out while here.
                user_session::Entity::delete_many()
                    .filter(user_session::Column::LastSeenAt.lt(now - idle))
                    .exec(tx)
                    .await?;
                cairn_store::write::insert(
                    tx,
                    user_session::ActiveModel {
                        id: Set(session_id()),
                        user_id: Set(user.id),
                        csrf_token: Set(random_token(32)),
                        created_at: Set(now),
                        last_seen_at: Set(now),
                    },
                )
                .await
            })
            .await?;
        Ok(CreateSessionResponse::Created {
            set_cookie: self.set_cookie(&session.id),
            body: self.session_body(&session),
        })
    }

    async fn create_token(
        &self,
        cx: &Caller,
        req: CreateTokenRequest,
    ) -> Result<CreateTokenResponse> {
        let user = (self.log_in(cx, &req.body.username, &req.body.password)).await?;
        let now = chrono::Utc::now().timestamp();
        let token = self.tokens.issue(&self.db, &user, now).await?;
        Ok(CreateTokenResponse::Ok {
            body: Jwt {
                token_attribute: token.clone(),
                token,
            },
        })
    }

    async fn check_session(
        &self,
        cx: &Caller,
        _req: CheckSessionRequest,
    ) -> Result<CheckSessionResponse> {
        // Without a session: a 404 without a body, as the reference answers.
        let s = cx.session.as_ref().ok_or(Error::NoSession)?;
        let body = self.session_body(s);
        Ok(CheckSessionResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn refresh_session(
        &self,
        cx: &Caller,
        req: RefreshSessionRequest,
    ) -> Result<RefreshSessionResponse> {
        // A session that is gone: 404, and the cookie is cleared.
        let clear = self.clear_cookie();
        let s = self.own_session(cx, &req.session_id, &clear)?;
        Ok(RefreshSessionResponse::Ok {
            body: self.session_body(s),
        })
    }

    async fn delete_session(
        &self,
        cx: &Caller,
        req: DeleteSessionRequest,
    ) -> Result<DeleteSessionResponse> {
        let clear = self.clear_cookie();
        let s = self.own_session(cx, &req.session_id, &clear)?;
        user_session::Entity::delete_by_id(s.id.clone())
            .exec(cx.reader())
            .await?;
        Ok(DeleteSessionResponse::NoContent { set_cookie: clear })
    }
}
