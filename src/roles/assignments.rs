//! Role assignments of users and user groups, and the Policies that apply to a user: the
//! rows, and the service's assigning and unassigning (checked against `role/assign`).

use super::RolesService;
use super::limitations::{of_input, to_model};
use crate::api::hrefs;
use crate::api::model::{Limitation, RoleAssignInput, RoleAssignment, RoleAssignmentList};
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::grants::policies::{
    Lim, ancestors, assignments_under, decode_values, encode_values, places_of,
};
use crate::permissions::administrators::keep_an_administrator;
use crate::permissions::{Member, Subject, Target};
use crate::preconditions;
use crate::tree::find_by_path;
use cairn_runtime::IfMatch;
use cairn_runtime::media::Wire;
use cairn_store::Connection;
use cairn_store::Tx;
use cairn_store::entity::{location, role_assignment, section};
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter, QueryOrder};

/// The assignments of the user or group `content_id`, by id.
pub(crate) async fn of_subject(
    db: &impl Connection,
    content_id: i64,
) -> Result<Vec<role_assignment::Model>> {
    Ok(role_assignment::Entity::find()
        .filter(role_assignment::Column::ContentId.eq(content_id))
        .order_by_asc(role_assignment::Column::Id)
        .all(db)
        .await?)
}

/// Whose assignments: a user's, or a user group's (by the path of its Location).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Holder<'a> {
    User(i64),
    Group(&'a str),
}

impl Holder<'_> {
    /// The href of the holder's `RoleAssignmentList`.
    pub(crate) fn list(self) -> String {
        match self {
            Holder::User(id) => hrefs::load_role_assignments_for_user(id),
            Holder::Group(path) => hrefs::load_role_assignments_for_user_group(path),
        }
    }

    /// The href of the holder's assignment of the Role `role_id`.
    pub(crate) fn item(self, role_id: i64) -> String {
        match self {
            Holder::User(id) => hrefs::load_role_assignment_for_user(id, role_id),
            Holder::Group(path) => hrefs::load_role_assignment_for_user_group(path, role_id),
        }
    }
}

/// An assignment of `holder`.
pub(crate) fn to_item(holder: Holder<'_>, a: &role_assignment::Model) -> Result<RoleAssignment> {
    let limitation = match (&a.limitation_identifier, &a.limitation_values) {
        (Some(identifier), Some(values)) => Some(to_model(&Lim {
            identifier: identifier.clone(),
            values: decode_values(values)?,
        })),
        _ => None,
    };
    Ok(RoleAssignment {
        href: holder.item(a.role_id),
        limitation,
        role: a.role_id,
    })
}

pub(crate) fn to_list(
    holder: Holder<'_>,
    rows: &[role_assignment::Model],
) -> Result<RoleAssignmentList> {
    Ok(RoleAssignmentList {
        href: holder.list(),
        role_assignment: rows
            .iter()
            .map(|a| to_item(holder, a))
            .collect::<Result<_>>()?,
    })
}

/// The first assignment of the Role `role_id` among `rows` (404 when none).
pub(crate) fn find_in(
    holder: Holder<'_>,
    rows: &[role_assignment::Model],
    role_id: i64,
) -> Result<RoleAssignment> {
    let a = rows
        .iter()
        .find(|a| a.role_id == role_id)
        .ok_or_else(|| Error::not_found("RoleAssignment", holder.item(role_id)))?;
    to_item(holder, a)
}

/// Assigns a Role to `content_id`, one row per limitation value; values already assigned are
/// left out, and 406 when nothing is new (as the reference). Limitation values are hrefs in
/// `wire`'s dialect.
pub(crate) async fn assign(
    tx: &Tx,
    wire: &Wire,
    content_id: i64,
    input: RoleAssignInput,
) -> Result<()> {
    let role = super::store::find_role(tx, input.role).await?;
    let mut lim = match input.limitation {
        Some(l) => Some(of_assignment(tx, wire, l).await?),
        None => None,
    };
    let already = |what: String| {
        Error::InvalidArgument(format!(
            "Argument '$role' is invalid: Role '{}' {what}",
            role.id
        ))
    };
    for a in of_subject(tx, content_id)
        .await?
        .iter()
        .filter(|a| a.role_id == role.id)
    {
        let (Some(identifier), Some(values)) = (&a.limitation_identifier, &a.limitation_values)
        else {
            return Err(already("already assigned without Limitations".into()));
        };
        if let Some(l) = lim.as_mut().filter(|l| &l.identifier == identifier) {
            let existing = decode_values(values)?;
            l.values.retain(|v| !existing.contains(v));
            if l.values.is_empty() {
                return Err(already(format!(
                    "is already assigned with the same '{identifier}' value"
                )));
            }
        }
    }
    let rows: Vec<role_assignment::ActiveModel> = match lim {
        None => vec![row(role.id, content_id, None)],
        Some(l) => l
            .values
            .iter()
            .map(|v| row(role.id, content_id, Some((&l.identifier, v))))
            .collect(),
    };
    role_assignment::Entity::insert_many(rows)
        .exec_without_returning(tx)
        .await?;
    Ok(())
}

fn row(
    role_id: i64,
    content_id: i64,
    lim: Option<(&String, &String)>,
) -> role_assignment::ActiveModel {
    role_assignment::ActiveModel {
        role_id: Set(role_id),
        content_id: Set(content_id),
        limitation_identifier: Set(lim.map(|(i, _)| i.clone())),
        limitation_values: Set(lim.map(|(_, v)| encode_values(std::slice::from_ref(v)))),
        ..Default::default()
    }
}

/// The limitation of a RoleAssignInput: `Section` (Section hrefs → ids) or `Subtree`
/// (Location hrefs → path strings); 400 for anything else or what does not exist.
async fn of_assignment(db: &impl Connection, wire: &Wire, l: Limitation) -> Result<Lim> {
    let at = "RoleAssignInput.limitation";
    let mut lim = of_input(l, at)?;
    let bad = |v: &str| {
        Error::BadRequest(format!(
            "{at} '{}': '{v}' is not the href of an existing {}",
            lim.identifier,
            if lim.identifier == "Section" {
                "Section"
            } else {
                "Location"
            }
        ))
    };
    let mut values = Vec::new();
    for href in &lim.values {
        let path = wire.strip_prefix(href).unwrap_or(href);
        let value = match lim.identifier.as_str() {
            "Section" => {
                let id = hrefs::read::load_section(path).ok_or_else(|| bad(href))?;
                cairn_store::read::by_id::<section::Entity>(db, id)
                    .await?
                    .ok_or_else(|| bad(href))?;
                id.to_string()
            }
            "Subtree" => {
                let p = hrefs::read::load_location(path).ok_or_else(|| bad(href))?;
                let l: location::Model = find_by_path(db, p).await.map_err(|_| bad(href))?;
                // The value is the subtree's path: it must be the Location's real one.
                if crate::tree::href_path(&l.path_string) != p.trim_matches('/') {
                    return Err(bad(href));
                }
                l.path_string
            }
            other => {
                return Err(Error::BadRequest(format!(
                    "{at}: '{other}' is not allowed on a Role assignment (only Section and Subtree)"
                )));
            }
        };
        if !values.contains(&value) {
            values.push(value);
        }
    }
    lim.values = values;
    Ok(lim)
}

/// Removes every assignment of the Role `role_id` to `content_id`.
pub(crate) async fn unassign(tx: &Tx, content_id: i64, role_id: i64) -> Result<()> {
    role_assignment::Entity::delete_many()
        .filter(role_assignment::Column::ContentId.eq(content_id))
        .filter(role_assignment::Column::RoleId.eq(role_id))
        .exec(tx)
        .await?;
    Ok(())
}

/// The Roles that apply to the user `user_id`: assigned to it or to a group above any of its
/// Locations, in the order of their first assignment (a fixed number of statements).
pub(crate) async fn roles_of_user(db: &impl Connection, user_id: i64) -> Result<Vec<i64>> {
    let mut roles: Vec<i64> = Vec::new();
    for a in assignments_of_user(db, user_id).await? {
        if !roles.contains(&a.role_id) {
            roles.push(a.role_id);
        }
    }
    Ok(roles)
}

/// The Role assignments that apply to the user `user_id` (its own and those of every group
/// above any of its Locations), by id.
pub(crate) async fn assignments_of_user(
    db: &impl Connection,
    user_id: i64,
) -> Result<Vec<role_assignment::Model>> {
    let places = places_of(db, user_id).await?;
    assignments_under(db, user_id, &ancestors(&places)).await
}

/// The content ids of the parents of `places` (the groups a user or group is in).
pub(crate) async fn contents_at(
    db: &impl Connection,
    places: &[location::Model],
) -> Result<Vec<i64>> {
    if places.is_empty() {
        return Ok(vec![]);
    }
    Ok(location::Entity::find()
        .filter(location::Column::Id.is_in(places.iter().map(|l| l.parent_id)))
        .all(db)
        .await?
        .into_iter()
        .map(|l| l.content_id)
        .collect())
}

impl RolesService {
    pub(super) async fn assignment_list(
        &self,
        db: &impl cairn_store::Connection,
        holder: Holder<'_>,
        content_id: i64,
    ) -> Result<RoleAssignmentList> {
        to_list(holder, &of_subject(db, content_id).await?)
    }

    /// Assigns a Role to the user or group `content_id`: `role/assign`, whose `Role`
    /// limitation names the Roles and `MemberOf` the groups (the subject or a group it is in)
    /// the caller may assign to.
    pub(super) async fn assign_to(
        &self,
        cx: &Caller,
        holder: Holder<'_>,
        content_id: i64,
        input: RoleAssignInput,
    ) -> Result<RoleAssignmentList> {
        self.db
            .write(cx.change(), async |tx| {
                self.authorize_assignment(tx, cx, holder, content_id, input.role)
                    .await?;
                assign(tx, &cx.dialect.wire, content_id, input).await
            })
            .await?;
        self.assignment_list(cx.reader(), holder, content_id).await
    }

    /// `role/assign` of the Role `role_id` to or from the user or group `content_id`: its
    /// `Role` limitation names the Roles, `MemberOf` the groups the caller may assign to.
    async fn authorize_assignment(
        &self,
        tx: &Tx,
        cx: &Caller,
        holder: Holder<'_>,
        content_id: i64,
        role_id: i64,
    ) -> Result<()> {
        if cx.grants.may_all("role", "assign") {
            return Ok(());
        }
        let places = places_of(tx, content_id).await?;
        let member = match holder {
            Holder::User(_) => Member::User {
                groups: contents_at(tx, &places).await?,
                group_locations: places.iter().map(|l| l.parent_id).collect(),
            },
            Holder::Group(_) => Member::Group {
                id: content_id,
                locations: places.iter().map(|l| l.id).collect(),
            },
        };
        let targets = [Target::Role(role_id), Target::Member(member)];
        self.authorize(tx, cx, ("role", "assign"), Subject::Other, &targets)
            .await
    }

    pub(super) async fn assignment(
        &self,
        db: &impl cairn_store::Connection,
        holder: Holder<'_>,
        content_id: i64,
        role_id: i64,
    ) -> Result<RoleAssignment> {
        let rows = of_subject(db, content_id).await?;
        find_in(holder, &rows, role_id)
    }

    pub(super) async fn unassign_from(
        &self,
        cx: &Caller,
        holder: Holder<'_>,
        content_id: i64,
        role_id: i64,
        if_match: &Option<IfMatch>,
    ) -> Result<RoleAssignmentList> {
        self.db
            .write(cx.change(), async |tx| {
                preconditions::if_match(if_match, async || {
                    let rows = of_subject(tx, content_id).await?;
                    find_in(holder, &rows, role_id)
                })
                .await?;
                self.authorize_assignment(tx, cx, holder, content_id, role_id)
                    .await?;
                unassign(tx, content_id, role_id).await?;
                keep_an_administrator(tx).await
            })
            .await?;
        self.assignment_list(cx.reader(), holder, content_id).await
    }
}
