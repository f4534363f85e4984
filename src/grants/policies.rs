//! Policies, their limitations and Role assignments as stored: what a user's grants are read
//! from. The roles family writes them; a limitation's values are a JSON array of strings.

use crate::error::{Error, Result};
use cairn_store::Connection;
use cairn_store::entity::{location, policy, policy_limitation, role_assignment};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, sea_query::Expr};
use std::collections::HashMap;

/// A limitation as stored: an identifier and its raw values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lim {
    pub identifier: String,
    pub values: Vec<String>,
}

pub(crate) const PUBLISHED: i64 = 0;
pub(crate) const DRAFT: i64 = 1;

/// A Policy with its limitations.
#[derive(Debug, Clone)]
pub(crate) struct PolicyRow {
    pub p: policy::Model,
    pub lims: Vec<Lim>,
}

/// The Policies of the Roles `role_ids` with their limitations, by id (two statements).
pub(crate) async fn policies_of(db: &impl Connection, role_ids: &[i64]) -> Result<Vec<PolicyRow>> {
    if role_ids.is_empty() {
        return Ok(Vec::new());
    }
    load_policies(db, policy::Column::RoleId.is_in(role_ids.iter().copied())).await
}

pub(crate) async fn load_policies(db: &impl Connection, cond: Expr) -> Result<Vec<PolicyRow>> {
    let ps = policy::Entity::find()
        .filter(cond)
        .order_by_asc(policy::Column::Id)
        .all(db)
        .await?;
    let mut lims: HashMap<i64, Vec<Lim>> = HashMap::new();
    if !ps.is_empty() {
        let rows = policy_limitation::Entity::find()
            .filter(policy_limitation::Column::PolicyId.is_in(ps.iter().map(|p| p.id)))
            .order_by_asc(policy_limitation::Column::Id)
            .all(db)
            .await?;
        for l in rows {
            lims.entry(l.policy_id).or_default().push(Lim {
                identifier: l.identifier,
                values: decode_values(&l.limitation_values)?,
            });
        }
    }
    Ok(ps
        .into_iter()
        .map(|p| PolicyRow {
            lims: lims.remove(&p.id).unwrap_or_default(),
            p,
        })
        .collect())
}

/// The Locations of the content `content_id`.
pub(crate) async fn places_of(
    db: &impl Connection,
    content_id: i64,
) -> Result<Vec<location::Model>> {
    Ok(location::Entity::find()
        .filter(location::Column::ContentId.eq(content_id))
        .all(db)
        .await?)
}

/// The Role assignments of the user `user_id` and of the content at the Locations
/// `ancestors` (the groups above it), by id.
pub(crate) async fn assignments_under(
    db: &impl Connection,
    user_id: i64,
    ancestors: &[i64],
) -> Result<Vec<role_assignment::Model>> {
    let mut subjects = vec![user_id];
    if !ancestors.is_empty() {
        subjects.extend(
            location::Entity::find()
                .filter(location::Column::Id.is_in(ancestors.iter().copied()))
                .all(db)
                .await?
                .into_iter()
                .map(|l| l.content_id),
        );
    }
    Ok(role_assignment::Entity::find()
        .filter(role_assignment::Column::ContentId.is_in(subjects))
        .order_by_asc(role_assignment::Column::Id)
        .all(db)
        .await?)
}

/// The ids of the Locations above any of `places`.
pub(crate) fn ancestors(places: &[location::Model]) -> Vec<i64> {
    let mut ancestors: Vec<i64> = Vec::new();
    for p in places {
        let ids: Vec<i64> = p
            .path_string
            .split('/')
            .filter_map(|s| s.parse().ok())
            .collect();
        for id in ids.iter().take(ids.len().saturating_sub(1)) {
            if !ancestors.contains(id) {
                ancestors.push(*id);
            }
        }
    }
    ancestors
}

/// Values as stored: a JSON array of strings.
pub(crate) fn encode_values(values: &[String]) -> String {
    serde_json::to_string(values).unwrap_or_else(|_| "[]".into())
}

pub(crate) fn decode_values(json: &str) -> Result<Vec<String>> {
    serde_json::from_str(json).map_err(|e| Error::Internal(format!("limitation values: {e}")))
}
