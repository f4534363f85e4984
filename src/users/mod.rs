//! Users and user groups (formats.md section 7). Both are published content items shown with
//! their current version embedded. A user is a content item with an account (a `users` row,
//! written from its `ezuser` field: see [`crate::accounts`]); a group is a content item of the user
//! group type, addressed by the path of one of its Locations. Membership is placement: a user
//! belongs to the groups its Locations lie directly under. Creating or updating either is one
//! transaction that writes and publishes a version.

mod groups;
mod lists;
mod members;
mod membership;
mod render;

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::UsersApi;
use crate::auth::Caller;
use crate::content_rows as rows;
use crate::error::{Error, Result};
use crate::permissions::administrators::keep_an_administrator;
use crate::permissions::{ContentFacts, READ, Subject, Target, VersionTarget, denied};
use crate::preconditions;
use crate::shared::Shared;
use crate::tree::{self, href_path, subtree_end};
use cairn_runtime::{ETag, HashValue};
use cairn_runtime::{Limit, Offset};
use cairn_store::Connection;
use cairn_store::Tx;
use cairn_store::entity::{content, content_type, location, user, user_session};
use cairn_store::sql::stmt;
use members::{account_input, field_inputs};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

/// The Location of the root user group (`users_group_root_subtree_path`).
const ROOT_GROUP: &str = "1/5";
/// Content types a new user or user group is of unless its input names one.
const USER_TYPE: &str = "user";
const GROUP_TYPE: &str = "user_group";

/// `/user/groups/1/5/13` (a Destination, or a `group` query without the prefix) → `1/5/13`.
fn group_path_of(path: &str) -> Option<&str> {
    hrefs::read::load_user_group(path)
}

async fn exists(db: &impl Connection, sql: &str, values: Vec<sea_orm::Value>) -> Result<bool> {
    Ok(db
        .query_one_raw(stmt(db.get_database_backend(), sql, values))
        .await?
        .is_some())
}

impl Shared {
    /// The ids of the user group content types.
    async fn group_types(&self, db: &impl Connection) -> Result<Vec<i64>> {
        Ok(content_type::Entity::find()
            .filter(content_type::Column::Identifier.eq(GROUP_TYPE))
            .filter(content_type::Column::Status.eq(content_type::DEFINED))
            .all(db)
            .await?
            .into_iter()
            .map(|t| t.id)
            .collect())
    }

    /// A published user and its account, or 404; 401 unless the caller may read it.
    async fn user_of(
        &self,
        db: &impl Connection,
        cx: &Caller,
        id: i64,
    ) -> Result<(content::Model, user::Model)> {
        let missing = || Error::not_found("User", id);
        let u = cairn_store::read::by_id::<user::Entity>(db, id)
            .await?
            .ok_or_else(missing)?;
        let c = cairn_store::read::by_id::<content::Entity>(db, id)
            .await?
            .filter(|c| c.status == content::PUBLISHED)
            .ok_or_else(missing)?;
        self.authorize(db, cx, READ, Subject::Content(ContentFacts::of(&c)), &[])
            .await?;
        Ok((c, u))
    }

    /// The published user group at a Location path, with that Location, or 404; 401 unless
    /// the caller may read it there.
    async fn group_at(
        &self,
        db: &impl Connection,
        cx: &Caller,
        path: &str,
    ) -> Result<(content::Model, location::Model)> {
        let missing = || Error::not_found("UserGroup", path);
        let l = tree::find_by_path(db, path).await.map_err(|_| missing())?;
        let c = cairn_store::read::by_id::<content::Entity>(db, l.content_id)
            .await?
            .filter(|c| c.status == content::PUBLISHED)
            .ok_or_else(missing)?;
        if !self.group_types(db).await?.contains(&c.content_type_id) {
            return Err(missing());
        }
        self.authorize_at(db, cx, READ, &l, vec![]).await?;
        Ok((c, l))
    }

    /// The content id of user `id`, for the resources of other families under
    /// `/user/users/{id}` (404 unless a published user).
    pub(crate) async fn subject_user(
        &self,
        db: &impl Connection,
        cx: &Caller,
        id: i64,
    ) -> Result<i64> {
        Ok(self.user_of(db, cx, id).await?.0.id)
    }

    /// The content id of the user group at `path` and the path as hrefs write it, for the
    /// resources of other families under `/user/groups/{path}`.
    pub(crate) async fn subject_group(
        &self,
        db: &impl Connection,
        cx: &Caller,
        path: &str,
    ) -> Result<(i64, String)> {
        let (c, l) = self.group_at(db, cx, path).await?;
        Ok((c.id, href_path(&l.path_string)))
    }
}

crate::services::family_service!(
    /// Implements the API of users and user groups.
    UsersService
);

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> UsersApi<B> for UsersService
{
    async fn load_users(&self, cx: &Caller, req: LoadUsersRequest) -> Result<LoadUsersResponse> {
        let db = cx.reader();
        let found = self
            .find_users(db, cx, &req.role_id, &req.remote_id, &req.login, &req.email)
            .await?;
        let href = hrefs::load_users();
        Ok(match req.accept {
            LoadUsersAccept::UserRefList => LoadUsersResponse::OkUserRefList {
                body: UserRefList {
                    href,
                    user: found.iter().map(|c| c.id).collect(),
                },
            },
            LoadUsersAccept::UserList => LoadUsersResponse::OkUserList {
                body: UserList {
                    href,
                    user: self.user_bodies(db, found).await?,
                },
            },
        })
    }

    async fn verify_users(
        &self,
        cx: &Caller,
        req: VerifyUsersRequest,
    ) -> Result<VerifyUsersResponse> {
        self.find_users(
            cx.reader(),
            cx,
            &req.role_id,
            &req.remote_id,
            &req.login,
            &req.email,
        )
        .await?;
        Ok(VerifyUsersResponse::Ok)
    }

    async fn load_user(&self, cx: &Caller, req: LoadUserRequest) -> Result<LoadUserResponse> {
        let db = cx.reader();
        let (c, u) = self.user_of(db, cx, req.user_id).await?;
        let body = self.user_body(db, c, Some(u)).await?;
        Ok(LoadUserResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn update_user(&self, cx: &Caller, req: UpdateUserRequest) -> Result<UpdateUserResponse> {
        let b = req.body;
        let id = req.user_id;
        self.db
            .write(cx.change(), async |tx| {
                if b.section.is_some() {
                    tree::hold(tx).await?;
                }
                let (c, u) = self.user_of(tx, cx, id).await?;
                self.authorize_user_update(tx, cx, &c, &b).await?;
                preconditions::if_match(&req.if_match, async || {
                    self.user_body(tx, c.clone(), Some(u.clone())).await
                })
                .await?;
                if let Some(login) = &b.login
                    && *login != u.login
                {
                    return Err(Error::BadRequest(format!(
                        "The login of user {id} is '{}' and cannot be changed",
                        u.login
                    )));
                }
                let mut fields = field_inputs(b.fields.as_ref());
                if b.email.is_some() || b.enabled.is_some() || b.password.is_some() {
                    let ty = self.defined_type(tx, c.content_type_id).await?;
                    fields.retain(|f| {
                        ty.field_by_identifier(&f.field_definition_identifier)
                            .is_none_or(|d| d.field_type != "user")
                    });
                    fields.push(account_input(
                        &UsersService::account_field(&ty)?,
                        &u.login,
                        b.email.as_deref().unwrap_or(&u.email),
                        b.enabled.unwrap_or(u.enabled),
                        b.password.as_deref(),
                        true,
                    ));
                }
                let metadata = UsersService::metadata(
                    b.main_language_code.clone(),
                    b.section,
                    b.remote_id.clone(),
                );
                self.update_member(tx, cx, c, metadata, fields).await?;
                if b.enabled == Some(false) {
                    keep_an_administrator(tx).await?;
                }
                // A user's new password ends its other sessions, not the one it used.
                if let Some(s) = cx.session.clone().filter(|s| s.user_id == id)
                    && user_session::Entity::find_by_id(s.id.clone())
                        .one(tx)
                        .await?
                        .is_none()
                {
                    cairn_store::write::insert(tx, user_session::ActiveModel::from(s)).await?;
                }
                Ok(())
            })
            .await?;
        let db = cx.reader();
        let (c, u) = self.user_of(db, cx, id).await?;
        let body = self.user_body(db, c, Some(u)).await?;
        Ok(UpdateUserResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn delete_user(&self, cx: &Caller, req: DeleteUserRequest) -> Result<DeleteUserResponse> {
        if req.user_id == cx.user_id {
            return Err(Error::Forbidden("A user cannot delete itself".into()));
        }
        self.db
            .write(cx.change(), async |tx| {
                tree::hold(tx).await?;
                let (c, u) = self.user_of(tx, cx, req.user_id).await?;
                preconditions::if_match(&req.if_match, async || {
                    self.user_body(tx, c.clone(), Some(u.clone())).await
                })
                .await?;
                let gone = [Target::Version(VersionTarget::Delete(None))];
                self.authorize_content(tx, cx, &c, &gone).await?;
                let locations = tree::of_content(tx, &c).await?;
                self.authorize_removal(tx, cx, &locations).await?;
                tree::delete_subtrees(tx, &*self.tree_changes, &locations, &[c.id]).await?;
                keep_an_administrator(tx).await
            })
            .await?;
        Ok(DeleteUserResponse::NoContent)
    }

    async fn redirect_to_current_user(
        &self,
        cx: &Caller,
        _req: RedirectToCurrentUserRequest,
    ) -> Result<RedirectToCurrentUserResponse> {
        if cx.is_anonymous() {
            return Err(Error::Unauthorized(
                "The anonymous user has no current user: log in first".into(),
            ));
        }
        Ok(RedirectToCurrentUserResponse::TemporaryRedirect {
            location: hrefs::load_user(cx.user_id),
        })
    }

    async fn load_user_groups_of_user(
        &self,
        cx: &Caller,
        req: LoadUserGroupsOfUserRequest,
    ) -> Result<LoadUserGroupsOfUserResponse> {
        membership::groups_of(self, cx, req).await
    }

    async fn assign_user_to_user_group(
        &self,
        cx: &Caller,
        req: AssignUserToUserGroupRequest,
    ) -> Result<AssignUserToUserGroupResponse> {
        membership::assign(self, cx, req).await
    }

    async fn unassign_user_from_user_group(
        &self,
        cx: &Caller,
        req: UnassignUserFromUserGroupRequest,
    ) -> Result<UnassignUserFromUserGroupResponse> {
        membership::unassign(self, cx, req).await
    }

    async fn load_user_drafts(
        &self,
        cx: &Caller,
        req: LoadUserDraftsRequest,
    ) -> Result<LoadUserDraftsResponse> {
        let db = cx.reader();
        self.user_of(db, cx, req.user_id).await?;
        Ok(LoadUserDraftsResponse::Ok {
            body: self.drafts_of(db, req.user_id).await?,
        })
    }

    async fn load_user_groups(
        &self,
        cx: &Caller,
        req: LoadUserGroupsRequest,
    ) -> Result<LoadUserGroupsResponse> {
        groups::list(self, cx, req).await
    }

    async fn load_root_user_group(
        &self,
        cx: &Caller,
        req: LoadRootUserGroupRequest,
    ) -> Result<LoadRootUserGroupResponse> {
        groups::root(self, cx, req).await
    }

    async fn create_root_user_group(
        &self,
        cx: &Caller,
        req: CreateRootUserGroupRequest,
    ) -> Result<CreateRootUserGroupResponse> {
        groups::create_at_root(self, cx, req).await
    }

    async fn load_user_group(
        &self,
        cx: &Caller,
        req: LoadUserGroupRequest,
    ) -> Result<LoadUserGroupResponse> {
        groups::load(self, cx, req).await
    }

    async fn update_user_group(
        &self,
        cx: &Caller,
        req: UpdateUserGroupRequest,
    ) -> Result<UpdateUserGroupResponse> {
        groups::update(self, cx, req).await
    }

    async fn delete_user_group(
        &self,
        cx: &Caller,
        req: DeleteUserGroupRequest,
    ) -> Result<DeleteUserGroupResponse> {
        groups::delete(self, cx, req).await
    }

    async fn move_user_group(
        &self,
        cx: &Caller,
        req: MoveUserGroupRequest,
    ) -> Result<MoveUserGroupResponse> {
        groups::move_group(self, cx, req).await
    }

    async fn load_sub_user_groups(
        &self,
        cx: &Caller,
        req: LoadSubUserGroupsRequest,
    ) -> Result<LoadSubUserGroupsResponse> {
        groups::subgroups(self, cx, req).await
    }

    async fn create_user_group(
        &self,
        cx: &Caller,
        req: CreateUserGroupRequest,
    ) -> Result<CreateUserGroupResponse> {
        groups::create(self, cx, req).await
    }

    async fn load_users_from_group(
        &self,
        cx: &Caller,
        req: LoadUsersFromGroupRequest,
    ) -> Result<LoadUsersFromGroupResponse> {
        groups::users_in(self, cx, req).await
    }

    async fn create_user(&self, cx: &Caller, req: CreateUserRequest) -> Result<CreateUserResponse> {
        let b = req.body;
        let db = cx.reader();
        let (_, group) = self.group_at(db, cx, &req.group_path).await?;
        let ty = self.type_for(db, b.content_type, USER_TYPE).await?;
        let account = UsersService::account_field(&ty)?;
        let mut fields = field_inputs(Some(&b.fields));
        fields.retain(|f| f.field_definition_identifier != account);
        fields.push(account_input(
            &account,
            &b.login,
            &b.email,
            b.enabled.unwrap_or(true),
            Some(&b.password),
            false,
        ));
        let head = (b.main_language_code, b.section, b.remote_id);
        let c = self.create_member(cx, &group, &ty, head, fields).await?;
        let body = self.user_body(db, c, None).await?;
        Ok(CreateUserResponse::Created { body })
    }
}

impl UsersService {
    /// The reference's rule for updating a user: `content/edit` on it, or for a change of
    /// password alone, `user/password` (on oneself).
    async fn authorize_user_update(
        &self,
        tx: &Tx,
        cx: &Caller,
        c: &content::Model,
        b: &UserUpdate,
    ) -> Result<()> {
        let edit = ("content", "edit");
        if self
            .allows(tx, cx, edit, Subject::Content(ContentFacts::of(c)), &[])
            .await?
        {
            return self
                .authorize_fields(tx, cx, c, &field_inputs(b.fields.as_ref()))
                .await;
        }
        let profile = b.email.is_some()
            || b.enabled.is_some()
            || b.fields.as_ref().is_some_and(|f| !f.field.is_empty())
            || b.main_language_code.is_some()
            || b.section.is_some()
            || b.remote_id.is_some();
        if profile || b.password.is_none() {
            return Err(denied("content", "edit"));
        }
        if c.id != cx.user_id || !cx.grants.may("user", "password") {
            return Err(denied("user", "password"));
        }
        Ok(())
    }
}
