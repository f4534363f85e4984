//! Deciding one check in memory, as the reference's `canUser` does: a Role assignment whose
//! limitation denies the object is skipped; a Policy passes when every one of its
//! limitations grants; one passing Policy is enough.

use super::grants::{Access, Grants};
use super::subject::{ContentFacts, LocationFacts, Missing, Target};
use crate::roles::limitations::Lim;

/// What a check is about.
#[derive(Debug, Clone)]
pub(crate) enum Subject {
    /// A stored content item (or one of its versions, Locations, relations).
    Content(ContentFacts),
    /// A content item being created; the targets hold its parent Locations.
    NewContent(ContentFacts),
    /// Anything else: limitations that need a content item deny it.
    Other,
}

/// The outcome of a check, or the fact it needs first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Vote {
    Granted,
    Denied,
    Need(Missing),
}

fn vote(granted: bool) -> Vote {
    if granted { Vote::Granted } else { Vote::Denied }
}

/// The reference's `canUser(module, function, subject, targets)`.
pub(crate) fn can(
    grants: &Grants,
    module: &str,
    function: &str,
    subject: &Subject,
    targets: &[Target],
) -> Vote {
    let sets = match grants.has_access(module, function) {
        Access::All => return Vote::Granted,
        Access::Nothing => return Vote::Denied,
        Access::Limited(sets) => sets,
    };
    for (assignment, policies) in sets {
        if let Some(l) = assignment {
            match role_limitation(l, subject, targets) {
                Vote::Denied => continue,
                Vote::Need(m) => return Vote::Need(m),
                Vote::Granted => {}
            }
        }
        'policies: for p in policies {
            for l in &p.limitations {
                match limitation(grants, l, subject, targets) {
                    Vote::Granted => {}
                    Vote::Denied => continue 'policies,
                    Vote::Need(m) => return Vote::Need(m),
                }
            }
            return Vote::Granted;
        }
    }
    Vote::Denied
}

/// The Locations a placement limitation looks at: the targeted ones, else the content's.
fn placements<'a>(
    subject: &'a Subject,
    targets: &'a [Target],
) -> Result<Vec<&'a LocationFacts>, Missing> {
    let targeted: Vec<&LocationFacts> = targets
        .iter()
        .filter_map(|t| match t {
            Target::Location(l) => Some(l),
            _ => None,
        })
        .collect();
    if !targeted.is_empty() {
        return Ok(targeted);
    }
    match subject {
        Subject::Content(f) => match &f.locations {
            Some(ls) => Ok(ls.iter().collect()),
            None => Err(Missing::Locations),
        },
        _ => Ok(vec![]),
    }
}

fn content(subject: &Subject) -> Option<&ContentFacts> {
    match subject {
        Subject::Content(f) | Subject::NewContent(f) => Some(f),
        _ => None,
    }
}

/// A limitation's values that are ids (others are skipped).
pub(super) fn ids(values: &[String]) -> impl Iterator<Item = i64> + '_ {
    values.iter().filter_map(|v| v.trim().parse::<i64>().ok())
}

fn has(values: &[String], id: i64) -> bool {
    ids(values).any(|v| v == id)
}

fn in_subtree(l: &LocationFacts, values: &[String]) -> bool {
    values.iter().any(|v| l.path_string.starts_with(v.as_str()))
}

/// A Role assignment's limitation (`Subtree` or `Section`): objects it cannot judge pass.
fn role_limitation(l: &Lim, subject: &Subject, targets: &[Target]) -> Vote {
    match l.identifier.as_str() {
        "Subtree" => match subject {
            Subject::Content(_) | Subject::NewContent(_) => match placements(subject, targets) {
                Err(m) => Vote::Need(m),
                Ok(ls) => vote(ls.iter().any(|loc| in_subtree(loc, &l.values))),
            },
            _ => Vote::Granted,
        },
        "Section" => match subject {
            Subject::Content(f) | Subject::NewContent(f) => vote(has(&l.values, f.section_id)),
            Subject::Other => Vote::Granted,
        },
        _ => Vote::Denied,
    }
}

/// A Policy's limitation: only an explicit grant passes.
fn limitation(grants: &Grants, l: &Lim, subject: &Subject, targets: &[Target]) -> Vote {
    let me = grants.user_id;
    let values = &l.values;
    let parents = || {
        targets.iter().filter_map(|t| match t {
            Target::Location(l) => Some(l),
            _ => None,
        })
    };
    match l.identifier.as_str() {
        "Class" => vote(content(subject).is_some_and(|f| has(values, f.content_type_id))),
        "Section" => vote(content(subject).is_some_and(|f| has(values, f.section_id))),
        "Owner" => match subject {
            Subject::Content(f) => vote(f.owner_id == me || f.id == Some(me)),
            Subject::NewContent(f) => vote(f.owner_id == me),
            _ => Vote::Denied,
        },
        "Group" => match content(subject) {
            None => Vote::Denied,
            Some(f) if f.owner_id == me => Vote::Granted,
            Some(f) => match &f.owner_parents {
                None => Vote::Need(Missing::OwnerParents),
                Some(ps) => vote(ps.iter().any(|p| grants.parents.contains(p))),
            },
        },
        "Node" => match placements(subject, targets) {
            Err(m) => Vote::Need(m),
            Ok(ls) => vote(ls.iter().any(|loc| has(values, loc.id))),
        },
        "Subtree" => match placements(subject, targets) {
            Err(m) => Vote::Need(m),
            Ok(ls) => vote(ls.iter().any(|loc| in_subtree(loc, values))),
        },
        "ParentDepth" => match placements(subject, targets) {
            Err(m) => Vote::Need(m),
            Ok(ls) => vote(ls.iter().any(|loc| has(values, loc.depth))),
        },
        "ParentClass" => vote(parents().any(|p| has(values, p.content_type_id))),
        "ParentOwner" => vote(parents().any(|p| p.owner_id == me)),
        "ParentGroup" => vote(parents().any(|p| p.owner_id == me)),
        "Language" => match content(subject) {
            Some(f) => vote(f.languages.iter().all(|code| values.contains(code))),
            None => Vote::Denied,
        },
        "State" => match content(subject) {
            None => Vote::Denied,
            Some(f) => match &f.states {
                None if f.id.is_some() => Vote::Need(Missing::States),
                None => Vote::Granted,
                Some(states) => vote(states_match(grants, values, states)),
            },
        },
        "Status" => vote(
            content(subject)
                .and_then(|f| f.version_status)
                .is_some_and(|s| has(values, s)),
        ),
        "ChangeOwner" => Vote::Granted,
        "NewSection" => targeted(targets, values, |t| match t {
            Target::Section(id) => Some(*id),
            _ => None,
        }),
        "NewState" => targeted(targets, values, |t| match t {
            Target::State(id) => Some(*id),
            _ => None,
        }),
        "Role" => targeted(targets, values, |t| match t {
            Target::Role(id) => Some(*id),
            _ => None,
        }),
        "MemberOf" => vote(targets.iter().any(|t| match t {
            Target::Members(ids) => ids.iter().any(|id| has(values, *id)),
            _ => false,
        })),
        "SiteAccess" => vote(targets.iter().any(|t| match t {
            Target::SiteAccess(crc) => has(values, i64::from(*crc)),
            _ => false,
        })),
        _ => Vote::Denied,
    }
}

/// Every target of the kind `pick` finds is among `values` (and there is one).
fn targeted(targets: &[Target], values: &[String], pick: impl Fn(&Target) -> Option<i64>) -> Vote {
    let found: Vec<i64> = targets.iter().filter_map(pick).collect();
    vote(!found.is_empty() && found.iter().all(|id| has(values, *id)))
}

/// The reference's Object state limitation: in every state group the limitation names a
/// state of, the content's state is one of the named ones.
fn states_match(grants: &Grants, values: &[String], states: &[i64]) -> bool {
    let named: Vec<i64> = ids(values).collect();
    grants
        .states_by_group(&named)
        .values()
        .all(|in_group| states.iter().any(|s| in_group.contains(s)))
}
