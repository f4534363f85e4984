//! One user's Policies, grouped by Role assignment as the reference's `hasAccess` returns
//! them, and the cache that keeps them per user until a Role, Policy, assignment or group
//! membership changes. `policies` reads them as stored.

pub(crate) mod policies;

use crate::error::Result;
use cairn_store::Connection;
use cairn_store::entity::{object_state, role};
use policies::{
    Lim, PUBLISHED, ancestors, assignments_under, decode_values, places_of, policies_of,
};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use std::collections::{BTreeMap, HashMap};

/// A Policy as a check sees it.
#[derive(Debug, Clone)]
pub(crate) struct Grant {
    pub module: String,
    pub function: String,
    pub limitations: Vec<Lim>,
}

/// The Policies one Role assignment gives, with the assignment's own limitation.
#[derive(Debug, Clone)]
pub(crate) struct GrantSet {
    pub limitation: Option<Lim>,
    pub grants: Vec<Grant>,
}

/// What `has_access` finds for a module and function.
pub(crate) enum Access<'a> {
    /// Every object, whatever its attributes.
    All,
    /// Nothing.
    Nothing,
    /// Objects that pass an assignment's limitation and all limitations of one of its
    /// Policies.
    Limited(Vec<(Option<&'a Lim>, Vec<&'a Grant>)>),
}

/// The Policies of one user.
#[derive(Debug, Clone, Default)]
pub(crate) struct Grants {
    pub user_id: i64,
    pub sets: Vec<GrantSet>,
    /// The parents of the user's own Locations (its groups' Locations), for `Group`
    /// limitations.
    pub parents: Vec<i64>,
    /// The group of every Object state that a `State` limitation names.
    pub state_groups: HashMap<i64, i64>,
}

/// Limitations whose verdict never depends on who asks: on the object, its placement and
/// the request alone. Any other (`Owner`, `Group`, `ParentOwner`, …) makes a user's rights
/// their own.
const IMPERSONAL: &[&str] = &[
    "Class",
    "Section",
    "Node",
    "Subtree",
    "ParentDepth",
    "ParentClass",
    "Language",
    "State",
    "Status",
    "NewSection",
    "NewState",
    "Role",
    "SiteAccess",
];

impl Grants {
    /// The user context hash (the reference's, FOSHttpCache's): the same for every user with
    /// the same Policies and limitations, so that a shared cache gives them the same answers;
    /// a user whose limitations depend on who they are (an `Owner` limitation) has one of
    /// their own.
    pub(crate) fn context_hash(&self) -> String {
        let lim = |l: &Lim| format!("{}={}", l.identifier, l.values.join(","));
        let mut personal = false;
        let mut sets: Vec<String> = (self.sets.iter())
            .map(|set| {
                let mut grants: Vec<String> = (set.grants.iter())
                    .map(|g| {
                        personal |= (g.limitations.iter())
                            .any(|l| !IMPERSONAL.contains(&l.identifier.as_str()));
                        let lims: Vec<String> = g.limitations.iter().map(lim).collect();
                        format!("{}/{}[{}]", g.module, g.function, lims.join(";"))
                    })
                    .collect();
                grants.sort();
                let assignment = set.limitation.as_ref().map(lim).unwrap_or_default();
                format!("{assignment}:{}", grants.join("|"))
            })
            .collect();
        sets.sort();
        let mut text = sets.join("\n");
        if personal {
            text.push_str(&format!(
                "\nuser={} groups={:?}",
                self.user_id, self.parents
            ));
        }
        use sha2::Digest;
        let digest = sha2::Sha256::digest(text.as_bytes());
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The states a `State` limitation names, by their group (in the order of the groups):
    /// the limitation holds when, in every one of these groups, the content's state is one of
    /// the group's named states.
    pub(crate) fn states_by_group(&self, named: &[i64]) -> BTreeMap<i64, Vec<i64>> {
        let mut out = BTreeMap::<i64, Vec<i64>>::new();
        for s in named {
            if let Some(g) = self.state_groups.get(s) {
                out.entry(*g).or_default().push(*s);
            }
        }
        out
    }

    /// The reference's `hasAccess`: a `*` module or function, or a Policy without
    /// limitations in an assignment without one, gives everything.
    pub(crate) fn has_access(&self, module: &str, function: &str) -> Access<'_> {
        let mut out = Vec::new();
        for set in &self.sets {
            let mut grants = Vec::new();
            for g in &set.grants {
                if g.module == "*" && set.limitation.is_none() {
                    return Access::All;
                }
                if g.module != module && g.module != "*" {
                    continue;
                }
                if g.function == "*" && set.limitation.is_none() {
                    return Access::All;
                }
                if g.function != function && g.function != "*" {
                    continue;
                }
                if g.limitations.is_empty() && set.limitation.is_none() {
                    return Access::All;
                }
                grants.push(g);
            }
            if !grants.is_empty() {
                out.push((set.limitation.as_ref(), grants));
            }
        }
        if out.is_empty() {
            Access::Nothing
        } else {
            Access::Limited(out)
        }
    }

    /// Whether the user may use `module`/`function` on at least some objects.
    pub(crate) fn may(&self, module: &str, function: &str) -> bool {
        !matches!(self.has_access(module, function), Access::Nothing)
    }

    /// Whether the user may use `module`/`function` on everything.
    pub(crate) fn may_all(&self, module: &str, function: &str) -> bool {
        matches!(self.has_access(module, function), Access::All)
    }

    /// Loads the Policies of `user_id` (a fixed number of statements).
    pub(crate) async fn load(db: &impl Connection, user_id: i64) -> Result<Grants> {
        let places = places_of(db, user_id).await?;
        let assignments = assignments_under(db, user_id, &ancestors(&places)).await?;
        let mut role_ids: Vec<i64> = assignments.iter().map(|a| a.role_id).collect();
        role_ids.sort_unstable();
        role_ids.dedup();
        // Only published Roles count (a draft's rows have ids of their own).
        let published: Vec<i64> = if role_ids.is_empty() {
            vec![]
        } else {
            role::Entity::find()
                .filter(role::Column::Id.is_in(role_ids))
                .filter(role::Column::Status.eq(PUBLISHED))
                .all(db)
                .await?
                .into_iter()
                .map(|r| r.id)
                .collect()
        };
        let policies = policies_of(db, &published).await?;
        let mut sets = Vec::new();
        for a in assignments
            .iter()
            .filter(|a| published.contains(&a.role_id))
        {
            let limitation = match (&a.limitation_identifier, &a.limitation_values) {
                (Some(identifier), Some(values)) => Some(Lim {
                    identifier: identifier.clone(),
                    values: decode_values(values)?,
                }),
                _ => None,
            };
            let grants = policies
                .iter()
                .filter(|p| p.p.role_id == a.role_id)
                .map(|p| Grant {
                    module: p.p.module.clone(),
                    function: p.p.function.clone(),
                    limitations: p.lims.clone(),
                })
                .collect();
            sets.push(GrantSet { limitation, grants });
        }
        let named_states: Vec<i64> = sets
            .iter()
            .flat_map(|s| s.grants.iter())
            .flat_map(|g| g.limitations.iter())
            .filter(|l| l.identifier == "State" || l.identifier == "NewState")
            .flat_map(|l| l.values.iter().filter_map(|v| v.parse::<i64>().ok()))
            .collect();
        let state_groups = if named_states.is_empty() {
            HashMap::new()
        } else {
            object_state::Entity::find()
                .filter(object_state::Column::Id.is_in(named_states))
                .all(db)
                .await?
                .into_iter()
                .map(|s| (s.id, s.group_id))
                .collect()
        };
        Ok(Grants {
            user_id,
            sets,
            parents: places.iter().map(|l| l.parent_id).collect(),
            state_groups,
        })
    }
}

/// The Policies of recent users, dropped when Roles, Policies, assignments or the tree of
/// users change.
pub(crate) type PermissionCache = crate::cache::Cache<i64, Grants>;
