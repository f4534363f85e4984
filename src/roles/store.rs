//! Roles, drafts and Policies in the database. A draft copies its Role's Policies (new ids,
//! `original_id` the copied one); publishing replaces the Role's Policies by the draft's, as
//! the reference does (a Policy's id changes each time its Role is changed through a draft).

use crate::error::{Error, Result};
use crate::grants::policies::{
    DRAFT, Lim, PUBLISHED, PolicyRow, encode_values, load_policies, policies_of,
};
use cairn_store::Connection;
use cairn_store::Tx;
use cairn_store::entity::{policy, policy_limitation, role, role_assignment};
use cairn_store::ids::next_ids;
use sea_orm::{
    ActiveValue::Set,
    ColumnTrait, EntityTrait, QueryFilter, QueryOrder,
    sea_query::{Expr, ExprTrait, Query},
};

/// A published Role (404 otherwise).
pub(crate) async fn find_role(db: &impl Connection, id: i64) -> Result<role::Model> {
    role::Entity::find_by_id(id)
        .filter(role::Column::Status.eq(PUBLISHED))
        .one(db)
        .await?
        .ok_or_else(|| Error::not_found("Role", id))
}

/// A Role or Role draft by its own id.
pub(crate) async fn find_any(db: &impl Connection, id: i64) -> Result<role::Model> {
    cairn_store::read::by_id::<role::Entity>(db, id)
        .await?
        .ok_or_else(|| Error::not_found("Role", id))
}

/// A draft by its own id.
pub(crate) async fn find_draft_by_id(db: &impl Connection, id: i64) -> Result<Option<role::Model>> {
    Ok(role::Entity::find_by_id(id)
        .filter(role::Column::Status.eq(DRAFT))
        .one(db)
        .await?)
}

/// The draft of the Role `id`, or else the draft whose own id is `id` (404 when neither).
pub(crate) async fn find_draft(db: &impl Connection, id: i64) -> Result<role::Model> {
    let of_role = role::Entity::find()
        .filter(role::Column::OriginalId.eq(id))
        .order_by_asc(role::Column::Id)
        .one(db)
        .await?;
    match of_role {
        Some(d) => Ok(d),
        None => find_draft_by_id(db, id)
            .await?
            .ok_or_else(|| Error::not_found("RoleDraft", id)),
    }
}

/// 403 when a published Role other than `except` has `identifier`.
pub(crate) async fn ensure_free(
    db: &impl Connection,
    identifier: &str,
    except: Option<i64>,
) -> Result<()> {
    let taken = role::Entity::find()
        .filter(role::Column::Status.eq(PUBLISHED))
        .filter(role::Column::Identifier.eq(identifier))
        .one(db)
        .await?;
    match taken {
        Some(r) if Some(r.id) != except => Err(Error::Forbidden(format!(
            "A Role '{}' with identifier '{identifier}' already exists",
            r.id
        ))),
        _ => Ok(()),
    }
}

/// The Policy `id` of the Role `role_id`, matched on `column` (its id, or `original_id` for
/// the copy in a draft); 404 when there is none.
pub(crate) async fn find_policy(
    db: &impl Connection,
    role_id: i64,
    column: policy::Column,
    id: i64,
) -> Result<PolicyRow> {
    let cond = policy::Column::RoleId.eq(role_id).and(column.eq(id));
    load_policies(db, cond)
        .await?
        .pop()
        .ok_or_else(|| Error::not_found("Policy", id))
}

/// Inserts Policies into the Role `role_id` with ids from the sequence; returns their ids.
pub(crate) async fn insert_policies(
    tx: &Tx,
    role_id: i64,
    new: Vec<(String, String, Option<i64>, Vec<Lim>)>,
) -> Result<Vec<i64>> {
    if new.is_empty() {
        return Ok(Vec::new());
    }
    let ids = next_ids(tx, "policies", new.len() as i64).await?;
    let mut lims = Vec::new();
    let mut rows = Vec::new();
    for (id, (module, function, original_id, ls)) in ids.iter().zip(new) {
        rows.push(policy::ActiveModel {
            id: Set(*id),
            role_id: Set(role_id),
            module: Set(module),
            function: Set(function),
            original_id: Set(original_id),
        });
        lims.extend(ls.into_iter().map(|l| (*id, l)));
    }
    policy::Entity::insert_many(rows)
        .exec_without_returning(tx)
        .await?;
    insert_limitations(tx, lims).await?;
    Ok(ids)
}

async fn insert_limitations(tx: &Tx, lims: Vec<(i64, Lim)>) -> Result<()> {
    if lims.is_empty() {
        return Ok(());
    }
    policy_limitation::Entity::insert_many(lims.into_iter().map(|(policy_id, l)| {
        policy_limitation::ActiveModel {
            policy_id: Set(policy_id),
            identifier: Set(l.identifier),
            limitation_values: Set(encode_values(&l.values)),
            ..Default::default()
        }
    }))
    .exec_without_returning(tx)
    .await?;
    Ok(())
}

/// Replaces the limitations of the Policy `policy_id`.
pub(crate) async fn set_limitations(tx: &Tx, policy_id: i64, lims: Vec<Lim>) -> Result<()> {
    policy_limitation::Entity::delete_many()
        .filter(policy_limitation::Column::PolicyId.eq(policy_id))
        .exec(tx)
        .await?;
    insert_limitations(tx, lims.into_iter().map(|l| (policy_id, l)).collect()).await
}

/// Deletes Policies (with their limitations): the given ones, or all of the Roles `role_ids`.
pub(crate) async fn delete_policies(
    tx: &Tx,
    role_ids: &[i64],
    policy_ids: Option<&[i64]>,
) -> Result<()> {
    let mut of = Query::select()
        .column(policy::Column::Id)
        .from(policy::Entity)
        .and_where(policy::Column::RoleId.is_in(role_ids.iter().copied()))
        .to_owned();
    if let Some(ids) = policy_ids {
        of.and_where(policy::Column::Id.is_in(ids.iter().copied()));
    }
    policy_limitation::Entity::delete_many()
        .filter(policy_limitation::Column::PolicyId.in_subquery(of))
        .exec(tx)
        .await?;
    let mut q = policy::Entity::delete_many()
        .filter(policy::Column::RoleId.is_in(role_ids.iter().copied()));
    if let Some(ids) = policy_ids {
        q = q.filter(policy::Column::Id.is_in(ids.iter().copied()));
    }
    q.exec(tx).await?;
    Ok(())
}

/// Creates a Role (published, or a draft of a new Role).
pub(crate) async fn insert_role(
    tx: &Tx,
    identifier: String,
    status: i64,
    original_id: Option<i64>,
) -> Result<role::Model> {
    Ok(cairn_store::write::insert(
        tx,
        role::ActiveModel {
            identifier: Set(identifier),
            status: Set(status),
            original_id: Set(original_id),
            ..Default::default()
        },
    )
    .await?)
}

/// Creates the draft of a published Role with copies of its Policies; 403 when it has one.
pub(crate) async fn create_draft(tx: &Tx, r: &role::Model) -> Result<role::Model> {
    let existing = role::Entity::find()
        .filter(role::Column::OriginalId.eq(r.id))
        .one(tx)
        .await?;
    if existing.is_some() {
        return Err(Error::Forbidden(format!(
            "Cannot create a draft for Role '{}' because another draft exists",
            r.identifier
        )));
    }
    draft_of(tx, r).await
}

/// A draft of `r`, also while another is open: changes made to a Role directly go through one
/// of these, published at once (the other draft stays as it is, as in the reference).
pub(crate) async fn draft_of(tx: &Tx, r: &role::Model) -> Result<role::Model> {
    let draft = insert_role(tx, r.identifier.clone(), DRAFT, Some(r.id)).await?;
    let copies = policies_of(tx, &[r.id])
        .await?
        .into_iter()
        .map(|c| (c.p.module, c.p.function, Some(c.p.id), c.lims))
        .collect();
    insert_policies(tx, draft.id, copies).await?;
    Ok(draft)
}

/// Publishes a draft: over its Role (whose Policies it replaces), or as a new Role.
pub(crate) async fn publish(tx: &Tx, draft: role::Model) -> Result<role::Model> {
    // The draft of a Role deleted since is published as a Role of its own.
    let original = match draft.original_id {
        Some(id)
            if cairn_store::read::by_id::<role::Entity>(tx, id)
                .await?
                .is_some() =>
        {
            Some(id)
        }
        _ => None,
    };
    ensure_free(tx, &draft.identifier, original).await?;
    let Some(original) = original else {
        let mut active: role::ActiveModel = draft.into();
        active.status = Set(PUBLISHED);
        active.original_id = Set(None);
        return Ok(cairn_store::write::update(tx, active).await?);
    };
    delete_policies(tx, &[original], None).await?;
    policy::Entity::update_many()
        .col_expr(policy::Column::RoleId, Expr::value(original))
        .col_expr(policy::Column::OriginalId, Expr::value(Option::<i64>::None))
        .filter(policy::Column::RoleId.eq(draft.id))
        .exec(tx)
        .await?;
    role::Entity::delete_by_id(draft.id).exec(tx).await?;
    let mut active: role::ActiveModel = find_role(tx, original).await?.into();
    active.identifier = Set(draft.identifier);
    Ok(cairn_store::write::update(tx, active).await?)
}

/// Deletes a Role draft with its Policies.
pub(crate) async fn delete_draft(tx: &Tx, draft_id: i64) -> Result<()> {
    delete_policies(tx, &[draft_id], None).await?;
    role::Entity::delete_by_id(draft_id).exec(tx).await?;
    Ok(())
}

/// Deletes a published Role with its Policies and assignments; a draft of it stays, and may
/// still be published (as a Role of its own), as in the reference.
pub(crate) async fn delete_role(tx: &Tx, id: i64) -> Result<()> {
    role_assignment::Entity::delete_many()
        .filter(role_assignment::Column::RoleId.eq(id))
        .exec(tx)
        .await?;
    delete_draft(tx, id).await
}
