//! User groups: the tree of groups (read, created, changed, moved, deleted) and the users
//! in each.

use super::UsersService;
use super::*;

pub(super) async fn list(
    service: &UsersService,
    cx: &Caller,
    req: LoadUserGroupsRequest,
) -> Result<LoadUserGroupsResponse> {
    let db = cx.reader();
    let groups = service
        .find_groups(db, cx, req.id, req.role_id, req.remote_id.as_deref())
        .await?;
    let href = hrefs::load_user_groups();
    Ok(match req.accept {
        LoadUserGroupsAccept::UserGroupRefList => LoadUserGroupsResponse::OkUserGroupRefList {
            body: service.group_ref_list(href, &groups, None),
        },
        LoadUserGroupsAccept::UserGroupList => LoadUserGroupsResponse::OkUserGroupList {
            body: UserGroupList {
                href,
                user_group: service.group_bodies(db, groups).await?,
            },
        },
    })
}

pub(super) async fn root(
    _service: &UsersService,
    _cx: &Caller,
    _req: LoadRootUserGroupRequest,
) -> Result<LoadRootUserGroupResponse> {
    Ok(LoadRootUserGroupResponse::MovedPermanently {
        location: hrefs::load_user_group(ROOT_GROUP),
    })
}

pub(super) async fn create_at_root(
    service: &UsersService,
    cx: &Caller,
    req: CreateRootUserGroupRequest,
) -> Result<CreateRootUserGroupResponse> {
    let body = service.new_group(cx, ROOT_GROUP, req.body).await?;
    Ok(CreateRootUserGroupResponse::Created { body })
}

pub(super) async fn load(
    service: &UsersService,
    cx: &Caller,
    req: LoadUserGroupRequest,
) -> Result<LoadUserGroupResponse> {
    let db = cx.reader();
    let group = service.group_at(db, cx, &req.group_path).await?;
    let body = service.group_bodies(db, vec![group]).await?.remove(0);
    Ok(LoadUserGroupResponse::Ok {
        etag: ETag::of(&body),
        body,
    })
}

pub(super) async fn update(
    service: &UsersService,
    cx: &Caller,
    req: UpdateUserGroupRequest,
) -> Result<UpdateUserGroupResponse> {
    let b = req.body;
    service
        .db
        .write(cx.change(), async |tx| {
            if b.section.is_some() {
                tree::hold(tx).await?;
            }
            let (c, l) = service.group_at(tx, cx, &req.group_path).await?;
            service
                .authorize_at(tx, cx, ("content", "edit"), &l, vec![])
                .await?;
            let fields = field_inputs(b.fields.as_ref());
            service.authorize_fields(tx, cx, &c, &fields).await?;
            preconditions::if_match(&req.if_match, async || {
                Ok(service
                    .group_bodies(tx, vec![(c.clone(), l)])
                    .await?
                    .remove(0))
            })
            .await?;
            let metadata = UsersService::metadata(
                b.main_language_code.clone(),
                b.section,
                b.remote_id.clone(),
            );
            service
                .update_member(tx, cx, c, metadata, field_inputs(b.fields.as_ref()))
                .await
        })
        .await?;
    let db = cx.reader();
    let group = service.group_at(db, cx, &req.group_path).await?;
    let body = service.group_bodies(db, vec![group]).await?.remove(0);
    Ok(UpdateUserGroupResponse::Ok {
        etag: ETag::of(&body),
        body,
    })
}

pub(super) async fn delete(
    service: &UsersService,
    cx: &Caller,
    req: DeleteUserGroupRequest,
) -> Result<DeleteUserGroupResponse> {
    service.db
        .write(cx.change(), async |tx| {
            tree::hold(tx).await?;
            let (c, l) = service.group_at(tx, cx, &req.group_path).await?;
            preconditions::if_match(&req.if_match, async || {
                Ok(service.group_bodies(tx, vec![(c.clone(), l)]).await?.remove(0))
            })
            .await?;
            let gone = Target::Version(VersionTarget::Delete(None));
            service.authorize_content(tx, cx, &c, std::slice::from_ref(&gone)).await?;
            let locations = tree::of_content(tx, &c).await?;
            for l in &locations {
                service.authorize_at(tx, cx, ("content", "remove"), l, vec![gone.clone()]).await?;
                if exists(
                    tx,
                    "SELECT 1 FROM locations WHERE path_string >= ? AND path_string < ? AND content_id IN (SELECT id FROM users)",
                    vec![l.path_string.clone().into(), subtree_end(&l.path_string).into()],
                )
                .await?
                {
                    return Err(Error::Forbidden(format!(
                        "The user group {} still has users",
                        c.id
                    )));
                }
            }
            service.authorize_removal(tx, cx, &locations).await?;
            tree::delete_subtrees(tx, &*service.tree_changes, &locations, &[c.id]).await
        })
        .await?;
    Ok(DeleteUserGroupResponse::NoContent)
}

pub(super) async fn move_group(
    service: &UsersService,
    cx: &Caller,
    req: MoveUserGroupRequest,
) -> Result<MoveUserGroupResponse> {
    let target = group_path_of(cx.api_path(&req.destination))
        .ok_or_else(|| {
            Error::BadRequest(format!(
                "Destination '{}' is not a user group",
                req.destination
            ))
        })?
        .to_string();
    let moved = service
        .db
        .write(cx.change(), async |tx| {
            tree::hold(tx).await?;
            let (_, l) = service.group_at(tx, cx, &req.group_path).await?;
            let (_, parent) = service
                .group_at(tx, cx, &target)
                .await
                .map_err(|_| Error::Forbidden(format!("There is no user group at '{target}'")))?;
            if parent.path_string.starts_with(&l.path_string) {
                return Err(Error::Forbidden(
                    "A user group cannot be moved below itself".into(),
                ));
            }
            service
                .authorize_subtree_placement(tx, cx, &l, &parent)
                .await?;
            let moved = crate::locations::ops::move_under(
                tx,
                &service.languages,
                &*service.tree_changes,
                &l,
                &parent,
            )
            .await?;
            keep_an_administrator(tx).await?;
            Ok(moved)
        })
        .await?;
    Ok(MoveUserGroupResponse::Created {
        location: hrefs::load_user_group(&href_path(&moved.path_string)),
    })
}

pub(super) async fn subgroups(
    service: &UsersService,
    cx: &Caller,
    req: LoadSubUserGroupsRequest,
) -> Result<LoadSubUserGroupsResponse> {
    let db = cx.reader();
    let (_, l) = service.group_at(db, cx, &req.group_path).await?;
    let groups = service
        .subgroups(db, cx, &l, (req.offset, req.limit.negative_as(25)))
        .await?;
    let href = hrefs::load_sub_user_groups(&href_path(&l.path_string));
    Ok(match req.accept {
        LoadSubUserGroupsAccept::UserGroupRefList => {
            LoadSubUserGroupsResponse::OkUserGroupRefList {
                body: service.group_ref_list(href, &groups, None),
            }
        }
        LoadSubUserGroupsAccept::UserGroupList => LoadSubUserGroupsResponse::OkUserGroupList {
            body: UserGroupList {
                href,
                user_group: service.group_bodies(db, groups).await?,
            },
        },
    })
}

pub(super) async fn create(
    service: &UsersService,
    cx: &Caller,
    req: CreateUserGroupRequest,
) -> Result<CreateUserGroupResponse> {
    let body = service.new_group(cx, &req.group_path, req.body).await?;
    Ok(CreateUserGroupResponse::Created { body })
}

pub(super) async fn users_in(
    service: &UsersService,
    cx: &Caller,
    req: LoadUsersFromGroupRequest,
) -> Result<LoadUsersFromGroupResponse> {
    let db = cx.reader();
    let (_, l) = service.group_at(db, cx, &req.group_path).await?;
    let users = service
        .users_under(db, cx, &l, (req.offset, req.limit.negative_as(25)))
        .await?;
    let href = hrefs::load_users_from_group(&href_path(&l.path_string));
    Ok(match req.accept {
        LoadUsersFromGroupAccept::UserRefList => LoadUsersFromGroupResponse::OkUserRefList {
            body: UserRefList {
                href,
                user: users.iter().map(|c| c.id).collect(),
            },
        },
        LoadUsersFromGroupAccept::UserList => LoadUsersFromGroupResponse::OkUserList {
            body: UserList {
                href,
                user: service.user_bodies(db, users).await?,
            },
        },
    })
}

impl UsersService {
    /// Creates and publishes a user group under the group at `parent_path`.
    pub(super) async fn new_group(
        &self,
        cx: &Caller,
        parent_path: &str,
        b: UserGroupCreate,
    ) -> Result<UserGroup> {
        let db = cx.reader();
        let (_, parent) = self.group_at(db, cx, parent_path).await?;
        let ty = self.type_for(db, b.content_type, GROUP_TYPE).await?;
        let head = (b.main_language_code, b.section, b.remote_id);
        let c = self
            .create_member(cx, &parent, &ty, head, field_inputs(Some(&b.fields)))
            .await?;
        let main = c
            .main_location_id
            .ok_or_else(|| Error::Internal(format!("user group {} has no Location", c.id)))?;
        let l = tree::find(db, main).await?;
        Ok(self.group_bodies(db, vec![(c, l)]).await?.remove(0))
    }
}
