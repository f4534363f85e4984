//! The groups a user is in: listed, joined and left (a user's Locations under its groups).

use super::UsersService;
use super::*;

pub(super) async fn groups_of(
    service: &UsersService,
    cx: &Caller,
    req: LoadUserGroupsOfUserRequest,
) -> Result<LoadUserGroupsOfUserResponse> {
    let db = cx.reader();
    let (c, _) = service.user_of(db, cx, req.user_id).await?;
    let body = service
        .group_refs_of_user(db, cx, &c, req.offset, req.limit.negative_as(25))
        .await?;
    Ok(LoadUserGroupsOfUserResponse::Ok { body })
}

pub(super) async fn assign(
    service: &UsersService,
    cx: &Caller,
    req: AssignUserToUserGroupRequest,
) -> Result<AssignUserToUserGroupResponse> {
    let href = req
        .group
        .as_deref()
        .ok_or_else(|| Error::BadRequest("The query parameter 'group' is missing".into()))?;
    let path = group_path_of(cx.api_path(href))
        .ok_or_else(|| Error::BadRequest(format!("'{href}' is not a user group href")))?
        .to_string();
    let c = service
        .db
        .write(cx.change(), async |tx| {
            let (c, _) = service.user_of(tx, cx, req.user_id).await?;
            let (_, group) = service.group_at(tx, cx, &path).await.map_err(|e| match e {
                Error::Unauthorized(_) => e,
                _ => Error::Forbidden(format!("There is no user group at '{path}'")),
            })?;
            service.authorize_new_location(tx, cx, &c, &group).await?;
            let placement = LocationCreate {
                parent_location: href_path(&group.path_string),
                priority: None,
                hidden: None,
                remote_id: None,
                sort_field: None,
                sort_order: None,
            };
            service
                .place(tx, c.clone(), &placement)
                .await
                .map_err(|e| match e {
                    Error::Forbidden(_) => Error::Forbidden(format!(
                        "User {} is in the user group at '{path}' already",
                        c.id
                    )),
                    e => e,
                })?;
            rows::content(tx, c.id).await
        })
        .await?;
    let body = service
        .group_refs_of_user(cx.reader(), cx, &c, Offset(0), Limit(None))
        .await?;
    Ok(AssignUserToUserGroupResponse::Ok { body })
}

pub(super) async fn unassign(
    service: &UsersService,
    cx: &Caller,
    req: UnassignUserFromUserGroupRequest,
) -> Result<UnassignUserFromUserGroupResponse> {
    let group_location: i64 = req
        .group_path
        .trim_matches('/')
        .rsplit('/')
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| Error::not_found("UserGroup", &req.group_path))?;
    let c = service
        .db
        .write(cx.change(), async |tx| {
            tree::hold(tx).await?;
            let (c, _) = service.user_of(tx, cx, req.user_id).await?;
            let locations = tree::of_content(tx, &c).await?;
            let Some(here) = locations.iter().find(|l| l.parent_id == group_location) else {
                return Err(Error::Forbidden(format!(
                    "User {} is not in the user group of Location {group_location}",
                    c.id
                )));
            };
            if locations.len() == 1 {
                return Err(Error::Forbidden(format!(
                    "User {} must stay in at least one user group",
                    c.id
                )));
            }
            service.authorize_location_removal(tx, cx, here).await?;
            tree::delete_subtrees(tx, &*service.tree_changes, std::slice::from_ref(here), &[])
                .await?;
            keep_an_administrator(tx).await?;
            rows::content(tx, c.id).await
        })
        .await?;
    let body = service
        .group_refs_of_user(cx.reader(), cx, &c, Offset(0), Limit(None))
        .await?;
    Ok(UnassignUserFromUserGroupResponse::Ok { body })
}
