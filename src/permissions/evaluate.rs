//! Deciding one check in memory, as the reference's `canUser` does: a Role assignment whose
//! limitation denies the object is skipped; a Policy passes when every one of its
//! limitations grants; one passing Policy is enough.

use super::subject::{ContentFacts, LocationFacts, Member, Missing, Target, VersionTarget};
use crate::grants::policies::Lim;
use crate::grants::{Access, Grants};

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
        // Every placement (parent) must match, and there must be one.
        "ParentDepth" => match placements(subject, targets) {
            Err(m) => Vote::Need(m),
            Ok(ls) => vote(!ls.is_empty() && ls.iter().all(|loc| has(values, loc.depth))),
        },
        "ParentClass" => every_parent(targets, |p| has(values, p.content_type_id)),
        "ParentOwner" => every_parent(targets, |p| p.owner_id == me || p.content_id == me),
        "ParentGroup" => parent_group(grants, subject, targets),
        "Language" => language(values, subject, targets),
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
        "ChangeOwner" => change_owner(me, values, subject),
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
        "MemberOf" => member_of(grants, values, targets),
        "SiteAccess" => vote(targets.iter().any(|t| match t {
            Target::SiteAccess(crc) => has(values, i64::from(*crc)),
            _ => false,
        })),
        _ => Vote::Denied,
    }
}

/// The target Locations (the parents of a create, copy or move).
fn parents(targets: &[Target]) -> impl Iterator<Item = &LocationFacts> {
    targets.iter().filter_map(|t| match t {
        Target::Location(l) => Some(l),
        _ => None,
    })
}

/// The `Parent*` limitations: every target Location passes `pass`, and there is one.
fn every_parent(targets: &[Target], pass: impl Fn(&LocationFacts) -> bool) -> Vote {
    let mut found = false;
    for p in parents(targets) {
        if !pass(p) {
            return Vote::Denied;
        }
        found = true;
    }
    vote(found)
}

/// The reference's `ParentUserGroup`: the content at every target Location is owned by the
/// caller or by a user placed in one of the caller's groups.
fn parent_group(grants: &Grants, subject: &Subject, targets: &[Target]) -> Vote {
    if grants.parents.is_empty() || parents(targets).next().is_none() {
        return Vote::Denied;
    }
    let Some(f) = content(subject) else {
        return Vote::Denied;
    };
    let me = grants.user_id;
    if parents(targets).all(|p| p.owner_id == me) {
        return Vote::Granted;
    }
    let Some(known) = &f.target_owner_parents else {
        return Vote::Need(Missing::TargetOwnerParents);
    };
    vote(parents(targets).all(|p| {
        p.owner_id == me
            || known
                .iter()
                .find(|(owner, _)| *owner == p.owner_id)
                .is_some_and(|(_, ps)| ps.iter().any(|x| grants.parents.contains(x)))
    }))
}

/// The reference's `Language`: the first target that decides (a version change, a
/// destination), else the object (a content item being created: all its languages; a content
/// item or version: its initial language).
fn language(values: &[String], subject: &Subject, targets: &[Target]) -> Vote {
    let allowed = |ls: &[String]| !ls.is_empty() && ls.iter().all(|l| values.contains(l));
    let current = || match content(subject).map(|f| &f.current_languages) {
        Some(Some(ls)) => Ok(allowed(ls)),
        Some(None) => Err(Vote::Need(Missing::CurrentVersion)),
        None => Ok(false),
    };
    for t in targets {
        let decided = match t {
            Target::Version(VersionTarget::NewDraft) => Some(true),
            Target::Version(VersionTarget::Update { languages, initial }) => {
                let mut decided = (!languages.is_empty()).then(|| allowed(languages));
                if decided != Some(false)
                    && let Some(i) = initial
                {
                    decided = Some(values.contains(i));
                }
                decided
            }
            Target::Version(VersionTarget::Delete(Some(ls))) if !ls.is_empty() => Some(allowed(ls)),
            Target::Version(VersionTarget::Delete(None)) | Target::Destination => match current() {
                Ok(granted) => Some(granted),
                Err(need) => return need,
            },
            Target::Version(VersionTarget::AnyOf(ls)) if !ls.is_empty() => {
                Some(ls.iter().any(|l| values.contains(l)))
            }
            Target::Version(VersionTarget::Publish) => {
                match content(subject).map(|f| &f.changed_languages) {
                    // Nothing changes: the version's initial language decides.
                    Some(Some(ls)) if ls.is_empty() => None,
                    Some(Some(ls)) => Some(ls.iter().all(|l| values.contains(l))),
                    Some(None) => return Vote::Need(Missing::ChangedLanguages),
                    None => Some(false),
                }
            }
            _ => None,
        };
        if let Some(granted) = decided {
            return vote(granted);
        }
    }
    match subject {
        Subject::NewContent(f) => vote(allowed(&f.languages)),
        Subject::Content(f) => match &f.initial_language {
            Some(l) => vote(values.contains(l)),
            None if f.id.is_some() => Vote::Need(Missing::CurrentVersion),
            None => Vote::Denied,
        },
        Subject::Other => Vote::Denied,
    }
}

/// The reference's `MemberOf`: a user's groups must all be among the values (`-1`: every group
/// of the user is one of the caller's); a group must be one of them (`-1`: the caller's
/// groups).
fn member_of(grants: &Grants, values: &[String], targets: &[Target]) -> Vote {
    let Some(member) = targets.iter().find_map(|t| match t {
        Target::Member(m) => Some(m),
        _ => None,
    }) else {
        return Vote::Denied;
    };
    let own = values.iter().any(|v| v.trim() == "-1");
    let named: Vec<i64> = ids(values).filter(|v| *v != -1).collect();
    match member {
        Member::User {
            groups,
            group_locations,
        } => {
            if own && group_locations.iter().all(|l| grants.parents.contains(l)) {
                return Vote::Granted;
            }
            vote(!named.is_empty() && groups.iter().all(|g| named.contains(g)))
        }
        Member::Group { id, locations } => vote(
            named.contains(id) || (own && locations.iter().any(|l| grants.parents.contains(l))),
        ),
    }
}

/// The reference's `ChangeOwner`: decides only on a content item being created, whose owner
/// must be among the values (`-1`: the caller; no value: any owner); abstains (so does not
/// grant) on anything else.
fn change_owner(me: i64, values: &[String], subject: &Subject) -> Vote {
    let Subject::NewContent(f) = subject else {
        return Vote::Denied;
    };
    let owners: Vec<i64> = ids(values)
        .filter(|v| *v != 0)
        .map(|v| if v == -1 { me } else { v })
        .collect();
    vote(owners.is_empty() || owners.contains(&f.owner_id))
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
