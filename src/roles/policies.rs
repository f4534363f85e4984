//! Changes to Policies: on a Role draft addressed by its own id, or on a published Role through
//! a draft created and published in the same transaction.

use super::store;
use crate::error::Result;
use crate::grants::policies::PolicyRow;
use cairn_store::Tx;
use cairn_store::entity::{policy, role};

/// Runs `f` on the draft whose own id is `role_id`; else on a new draft of the published Role
/// `role_id`, then publishes it. `f` is told whether it works on such a new draft (whose
/// Policies name the published ones in `original_id`).
pub(crate) async fn on_draft<T>(
    tx: &Tx,
    role_id: i64,
    f: impl AsyncFnOnce(&role::Model, bool) -> Result<T>,
) -> Result<T> {
    if let Some(d) = store::find_draft_by_id(tx, role_id).await? {
        return f(&d, false).await;
    }
    let r = store::find_role(tx, role_id).await?;
    let d = store::draft_of(tx, &r).await?;
    let out = f(&d, true).await?;
    store::publish(tx, d).await?;
    Ok(out)
}

/// The Policy `policy_id` as addressed under `role_id`: of the draft with that own id, else of
/// the published Role.
pub(crate) async fn addressed(tx: &Tx, role_id: i64, policy_id: i64) -> Result<PolicyRow> {
    match store::find_draft_by_id(tx, role_id).await? {
        Some(d) => store::find_policy(tx, d.id, policy::Column::Id, policy_id).await,
        None => {
            let r = store::find_role(tx, role_id).await?;
            store::find_policy(tx, r.id, policy::Column::Id, policy_id).await
        }
    }
}

/// The copy in `draft` of the Policy `policy_id` (itself when `copied` is false).
pub(crate) async fn in_draft(
    tx: &Tx,
    draft: &role::Model,
    policy_id: i64,
    copied: bool,
) -> Result<PolicyRow> {
    let column = if copied {
        policy::Column::OriginalId
    } else {
        policy::Column::Id
    };
    store::find_policy(tx, draft.id, column, policy_id).await
}
