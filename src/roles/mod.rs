//! Roles, Role drafts, Policies and Role assignments (spec `roles`). Changing a published Role
//! or its Policies directly goes through a draft published in the same transaction. Lists render
//! in a fixed number of statements.

pub(crate) mod assignments;
pub(crate) mod limitations;
mod policies;
pub(crate) mod store;

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::RolesApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::grants::policies::{DRAFT, PUBLISHED, PolicyRow, policies_of};
use crate::permissions::administrators::keep_an_administrator;
use crate::preconditions;
use assignments::Holder;
use cairn_runtime::ETag;
use cairn_store::entity::{policy, role};
use limitations::{check_applicable, check_function, check_values, of_policy, to_policy_model};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

fn role_model(r: &role::Model) -> Role {
    Role {
        href: hrefs::load_role(r.id),
        identifier: r.identifier.clone(),
        policies: r.id,
    }
}

fn draft_model(r: &role::Model) -> RoleDraft {
    RoleDraft {
        href: hrefs::load_role(r.id),
        identifier: r.identifier.clone(),
        policies: r.id,
    }
}

fn policy_model(p: &PolicyRow) -> Policy {
    Policy {
        href: hrefs::load_policy(p.p.role_id, p.p.id),
        id: p.p.id,
        original_id: p.p.original_id,
        module: p.p.module.clone(),
        function: p.p.function.clone(),
        limitations: to_policy_model(&p.lims),
    }
}

fn policy_list(href: String, rows: &[PolicyRow]) -> PolicyList {
    PolicyList {
        href,
        policy: rows.iter().map(policy_model).collect(),
    }
}

/// The identifier of a RoleInput: `None` when absent or empty.
fn identifier_of(input: RoleInput) -> Option<String> {
    input.identifier.filter(|i| !i.trim().is_empty())
}

crate::services::family_service!(
    /// Implements the API of Roles, Policies and assignments.
    RolesService
);

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> RolesApi<B> for RolesService
{
    async fn list_roles(&self, cx: &Caller, req: ListRolesRequest) -> Result<ListRolesResponse> {
        let mut q = role::Entity::find()
            .filter(role::Column::Status.eq(PUBLISHED))
            .order_by_asc(role::Column::Id);
        // `role/read` takes no limitation: the caller sees every Role or none.
        if !cx.grants.may("role", "read") {
            q = q.filter(role::Column::Id.lt(0));
        }
        if let Some(identifier) = &req.identifier {
            q = q.filter(role::Column::Identifier.eq(identifier.as_str()));
        }
        if req.offset.0 > 0 || req.limit.0.is_some() {
            // SQLite takes no OFFSET without a LIMIT.
            q = q.offset(req.offset.0).limit(req.limit.sql() as u64);
        }
        let roles = q.all(cx.reader()).await?;
        Ok(ListRolesResponse::Ok {
            body: RoleList {
                href: hrefs::list_roles(),
                role: roles.iter().map(role_model).collect(),
            },
        })
    }

    async fn create_role(&self, cx: &Caller, req: CreateRoleRequest) -> Result<CreateRoleResponse> {
        let identifier = identifier_of(req.body)
            .ok_or_else(|| Error::BadRequest("RoleInput.identifier: required".into()))?;
        let status = if req.publish { PUBLISHED } else { DRAFT };
        let r = self
            .db
            .write(cx.change(), async |tx| {
                store::ensure_free(tx, &identifier, None).await?;
                let r = store::insert_role(tx, identifier, status, None).await?;
                tx.created(&hrefs::load_role(r.id));
                Ok::<_, Error>(r)
            })
            .await?;
        Ok(if req.publish {
            CreateRoleResponse::CreatedRole {
                body: role_model(&r),
            }
        } else {
            CreateRoleResponse::CreatedRoleDraft {
                body: draft_model(&r),
            }
        })
    }

    async fn load_role(&self, cx: &Caller, req: LoadRoleRequest) -> Result<LoadRoleResponse> {
        let body = role_model(&store::find_role(cx.reader(), req.role_id).await?);
        Ok(LoadRoleResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn create_role_draft(
        &self,
        cx: &Caller,
        req: CreateRoleDraftRequest,
    ) -> Result<CreateRoleDraftResponse> {
        let d = self
            .db
            .write(cx.change(), async |tx| {
                let r = store::find_role(tx, req.role_id).await?;
                let d = store::create_draft(tx, &r).await?;
                // The draft's own href, as its answer's `Location` gives it.
                tx.created(&draft_model(&d).href);
                Ok::<_, Error>(d)
            })
            .await?;
        Ok(CreateRoleDraftResponse::Created {
            body: draft_model(&d),
        })
    }

    async fn update_role(&self, cx: &Caller, req: UpdateRoleRequest) -> Result<UpdateRoleResponse> {
        let identifier = identifier_of(req.body);
        let r = self
            .db
            .write(cx.change(), async |tx| {
                let r = store::find_role(tx, req.role_id).await?;
                preconditions::if_match(&req.if_match, async || Ok(role_model(&r))).await?;
                let mut d = store::draft_of(tx, &r).await?;
                if let Some(identifier) = identifier {
                    store::ensure_free(tx, &identifier, Some(r.id)).await?;
                    d.identifier = identifier;
                }
                store::publish(tx, d).await
            })
            .await?;
        let body = role_model(&r);
        Ok(UpdateRoleResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn delete_role(&self, cx: &Caller, req: DeleteRoleRequest) -> Result<DeleteRoleResponse> {
        self.db
            .write(cx.change(), async |tx| {
                let r = store::find_role(tx, req.role_id).await?;
                preconditions::if_match(&req.if_match, async || Ok(role_model(&r))).await?;
                store::delete_role(tx, r.id).await?;
                keep_an_administrator(tx).await
            })
            .await?;
        Ok(DeleteRoleResponse::NoContent)
    }

    async fn load_role_draft(
        &self,
        cx: &Caller,
        req: LoadRoleDraftRequest,
    ) -> Result<LoadRoleDraftResponse> {
        let body = draft_model(&store::find_draft(cx.reader(), req.role_id).await?);
        Ok(LoadRoleDraftResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn update_role_draft(
        &self,
        cx: &Caller,
        req: UpdateRoleDraftRequest,
    ) -> Result<UpdateRoleDraftResponse> {
        let identifier = identifier_of(req.body);
        let d = self
            .db
            .write(cx.change(), async |tx| {
                let d = store::find_draft(tx, req.role_id).await?;
                preconditions::if_match(&req.if_match, async || Ok(draft_model(&d))).await?;
                let Some(identifier) = identifier else {
                    return Ok(d);
                };
                store::ensure_free(tx, &identifier, d.original_id).await?;
                let mut active: role::ActiveModel = d.into();
                active.identifier = sea_orm::ActiveValue::Set(identifier);
                Ok::<_, Error>(sea_orm::ActiveModelTrait::update(active, tx).await?)
            })
            .await?;
        let body = draft_model(&d);
        Ok(UpdateRoleDraftResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn publish_role_draft(
        &self,
        cx: &Caller,
        req: PublishRoleDraftRequest,
    ) -> Result<PublishRoleDraftResponse> {
        let r = self
            .db
            .write(cx.change(), async |tx| {
                let d = store::find_draft(tx, req.role_id).await?;
                let r = store::publish(tx, d).await?;
                keep_an_administrator(tx).await?;
                Ok::<_, Error>(r)
            })
            .await?;
        Ok(PublishRoleDraftResponse::NoContent {
            location: hrefs::load_role(r.id),
        })
    }

    async fn delete_role_draft(
        &self,
        cx: &Caller,
        req: DeleteRoleDraftRequest,
    ) -> Result<DeleteRoleDraftResponse> {
        self.db
            .write(cx.change(), async |tx| {
                let d = store::find_draft_by_id(tx, req.role_id)
                    .await?
                    .ok_or_else(|| Error::not_found("RoleDraft", req.role_id))?;
                preconditions::if_match(&req.if_match, async || Ok(draft_model(&d))).await?;
                store::delete_draft(tx, d.id).await
            })
            .await?;
        Ok(DeleteRoleDraftResponse::NoContent)
    }

    async fn load_policies(
        &self,
        cx: &Caller,
        req: LoadPoliciesRequest,
    ) -> Result<LoadPoliciesResponse> {
        let db = cx.reader();
        let r = store::find_any(db, req.role_id).await?;
        let rows = policies_of(db, &[r.id]).await?;
        Ok(LoadPoliciesResponse::Ok {
            body: policy_list(hrefs::load_policies(r.id), &rows),
        })
    }

    async fn add_policy(&self, cx: &Caller, req: AddPolicyRequest) -> Result<AddPolicyResponse> {
        let PolicyCreate {
            module,
            function,
            limitations,
        } = req.body;
        check_function(&module, &function)?;
        let lims = of_policy(limitations)?;
        check_applicable(&module, &function, &lims)?;
        let p = self
            .db
            .write(cx.change(), async |tx| {
                check_values(tx, &lims).await?;
                let id = policies::on_draft(tx, req.role_id, async |d, _| {
                    let ids =
                        store::insert_policies(tx, d.id, vec![(module, function, None, lims)])
                            .await?;
                    Ok(ids[0])
                })
                .await?;
                tx.created(&hrefs::load_policy(req.role_id, id));
                store::find_policy(tx, req.role_id, policy::Column::Id, id).await
            })
            .await?;
        Ok(AddPolicyResponse::Created {
            body: policy_model(&p),
        })
    }

    async fn delete_policies(
        &self,
        cx: &Caller,
        req: DeletePoliciesRequest,
    ) -> Result<DeletePoliciesResponse> {
        self.db
            .write(cx.change(), async |tx| {
                policies::on_draft(tx, req.role_id, async |d, _| {
                    store::delete_policies(tx, &[d.id], None).await
                })
                .await?;
                keep_an_administrator(tx).await
            })
            .await?;
        Ok(DeletePoliciesResponse::NoContent)
    }

    async fn load_policy(&self, cx: &Caller, req: LoadPolicyRequest) -> Result<LoadPolicyResponse> {
        let db = cx.reader();
        let r = store::find_any(db, req.role_id).await?;
        let p = store::find_policy(db, r.id, policy::Column::Id, req.policy_id).await?;
        let body = policy_model(&p);
        Ok(LoadPolicyResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn update_policy(
        &self,
        cx: &Caller,
        req: UpdatePolicyRequest,
    ) -> Result<UpdatePolicyResponse> {
        let lims = of_policy(req.body.limitations)?;
        let p = self
            .db
            .write(cx.change(), async |tx| {
                let current = policies::addressed(tx, req.role_id, req.policy_id).await?;
                preconditions::if_match(&req.if_match, async || Ok(policy_model(&current))).await?;
                check_applicable(&current.p.module, &current.p.function, &lims)?;
                check_values(tx, &lims).await?;
                let id = policies::on_draft(tx, req.role_id, async |d, copied| {
                    let p = policies::in_draft(tx, d, req.policy_id, copied).await?;
                    store::set_limitations(tx, p.p.id, lims).await?;
                    Ok(p.p.id)
                })
                .await?;
                keep_an_administrator(tx).await?;
                store::find_policy(tx, req.role_id, policy::Column::Id, id).await
            })
            .await?;
        let body = policy_model(&p);
        Ok(UpdatePolicyResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn delete_policy(
        &self,
        cx: &Caller,
        req: DeletePolicyRequest,
    ) -> Result<DeletePolicyResponse> {
        self.db
            .write(cx.change(), async |tx| {
                let current = policies::addressed(tx, req.role_id, req.policy_id).await?;
                preconditions::if_match(&req.if_match, async || Ok(policy_model(&current))).await?;
                policies::on_draft(tx, req.role_id, async |d, copied| {
                    let p = policies::in_draft(tx, d, req.policy_id, copied).await?;
                    store::delete_policies(tx, &[d.id], Some(&[p.p.id])).await
                })
                .await?;
                keep_an_administrator(tx).await
            })
            .await?;
        Ok(DeletePolicyResponse::NoContent)
    }

    async fn list_policies_for_user(
        &self,
        cx: &Caller,
        req: ListPoliciesForUserRequest,
    ) -> Result<ListPoliciesForUserResponse> {
        let user_id = req
            .user_id
            .ok_or_else(|| Error::BadRequest("The query parameter 'userId' is required".into()))?;
        let db = cx.reader();
        self.subject_user(db, cx, user_id).await?;
        let roles = assignments::roles_of_user(db, user_id).await?;
        let mut rows = policies_of(db, &roles).await?;
        rows.sort_by_key(|p| roles.iter().position(|r| *r == p.p.role_id));
        Ok(ListPoliciesForUserResponse::Ok {
            body: policy_list(hrefs::list_policies_for_user(), &rows),
        })
    }

    async fn load_role_assignments_for_user(
        &self,
        cx: &Caller,
        req: LoadRoleAssignmentsForUserRequest,
    ) -> Result<LoadRoleAssignmentsForUserResponse> {
        let id = self.subject_user(cx.reader(), cx, req.user_id).await?;
        Ok(LoadRoleAssignmentsForUserResponse::Ok {
            body: self
                .assignment_list(cx.reader(), Holder::User(id), id)
                .await?,
        })
    }

    async fn assign_role_to_user(
        &self,
        cx: &Caller,
        req: AssignRoleToUserRequest,
    ) -> Result<AssignRoleToUserResponse> {
        let id = self.subject_user(cx.reader(), cx, req.user_id).await?;
        Ok(AssignRoleToUserResponse::Ok {
            body: self.assign_to(cx, Holder::User(id), id, req.body).await?,
        })
    }

    async fn load_role_assignment_for_user(
        &self,
        cx: &Caller,
        req: LoadRoleAssignmentForUserRequest,
    ) -> Result<LoadRoleAssignmentForUserResponse> {
        let id = self.subject_user(cx.reader(), cx, req.user_id).await?;
        let body = self
            .assignment(cx.reader(), Holder::User(id), id, req.role_id)
            .await?;
        Ok(LoadRoleAssignmentForUserResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn unassign_role_from_user(
        &self,
        cx: &Caller,
        req: UnassignRoleFromUserRequest,
    ) -> Result<UnassignRoleFromUserResponse> {
        let id = self.subject_user(cx.reader(), cx, req.user_id).await?;
        Ok(UnassignRoleFromUserResponse::Ok {
            body: self
                .unassign_from(cx, Holder::User(id), id, req.role_id, &req.if_match)
                .await?,
        })
    }

    async fn load_role_assignments_for_user_group(
        &self,
        cx: &Caller,
        req: LoadRoleAssignmentsForUserGroupRequest,
    ) -> Result<LoadRoleAssignmentsForUserGroupResponse> {
        let (id, path) = self.subject_group(cx.reader(), cx, &req.group_path).await?;
        Ok(LoadRoleAssignmentsForUserGroupResponse::Ok {
            body: self
                .assignment_list(cx.reader(), Holder::Group(&path), id)
                .await?,
        })
    }

    async fn assign_role_to_user_group(
        &self,
        cx: &Caller,
        req: AssignRoleToUserGroupRequest,
    ) -> Result<AssignRoleToUserGroupResponse> {
        let (id, path) = self.subject_group(cx.reader(), cx, &req.group_path).await?;
        Ok(AssignRoleToUserGroupResponse::Ok {
            body: self
                .assign_to(cx, Holder::Group(&path), id, req.body)
                .await?,
        })
    }

    async fn load_role_assignment_for_user_group(
        &self,
        cx: &Caller,
        req: LoadRoleAssignmentForUserGroupRequest,
    ) -> Result<LoadRoleAssignmentForUserGroupResponse> {
        let (id, path) = self.subject_group(cx.reader(), cx, &req.group_path).await?;
        let body = self
            .assignment(cx.reader(), Holder::Group(&path), id, req.role_id)
            .await?;
        Ok(LoadRoleAssignmentForUserGroupResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }

    async fn unassign_role_from_user_group(
        &self,
        cx: &Caller,
        req: UnassignRoleFromUserGroupRequest,
    ) -> Result<UnassignRoleFromUserGroupResponse> {
        let (id, path) = self.subject_group(cx.reader(), cx, &req.group_path).await?;
        Ok(UnassignRoleFromUserGroupResponse::Ok {
            body: self
                .unassign_from(cx, Holder::Group(&path), id, req.role_id, &req.if_match)
                .await?,
        })
    }
}
