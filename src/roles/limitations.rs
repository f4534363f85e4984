//! Limitations of Policies and Role assignments: their input, validation and representation.
//! A Policy takes the limitations the policy map (spec `api.yaml`, `policies:`) lists for its
//! module and function, with values that name what exists, as the reference's
//! `RoleService::validatePolicy` and limitation types check them.

use crate::api::model::{Limitation, LimitationValue, LimitationValues, PolicyLimitations};
use crate::api::routes::POLICY_MAP;
use crate::error::{Error, Result};
use crate::grants::policies::Lim;
use cairn_store::Connection;
use cairn_store::entity::{content_type, language, location, object_state, role, section};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QuerySelect};

/// 400 unless `module`/`function` is in the policy map (or `*`).
pub(crate) fn check_function(module: &str, function: &str) -> Result<()> {
    if module == "*" {
        return if function == "*" {
            Ok(())
        } else {
            Err(Error::BadRequest(format!(
                "PolicyCreate.function: must be '*' for module '*', not '{function}'"
            )))
        };
    }
    let Some((_, functions)) = POLICY_MAP.iter().find(|(m, _)| *m == module) else {
        return Err(Error::BadRequest(format!(
            "PolicyCreate.module: unknown module '{module}'"
        )));
    };
    if function != "*" && !functions.iter().any(|(f, _)| *f == function) {
        return Err(Error::BadRequest(format!(
            "PolicyCreate.function: module '{module}' has no function '{function}'"
        )));
    }
    Ok(())
}

/// The limitations `module`/`function` takes (every limitation of the module's functions for
/// `function` `*`; none for `*/*`).
pub(crate) fn accepted(module: &str, function: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for (m, functions) in POLICY_MAP.iter().filter(|(m, _)| *m == module) {
        debug_assert_eq!(*m, module);
        for (f, lims) in functions.iter() {
            if function == "*" || *f == function {
                for l in lims.iter() {
                    if !out.contains(l) {
                        out.push(l);
                    }
                }
            }
        }
    }
    out
}

/// 404 for an identifier that is no limitation at all, 406 for one `module`/`function` does
/// not take (the reference's "Limitation '…' is not applicable on '…/…'").
pub(crate) fn check_applicable(module: &str, function: &str, lims: &[Lim]) -> Result<()> {
    let taken = accepted(module, function);
    for l in lims {
        if taken.contains(&l.identifier.as_str()) {
            continue;
        }
        if !is_limitation(&l.identifier) {
            return Err(Error::not_found("Limitation", &l.identifier));
        }
        return Err(Error::InvalidArgument(format!(
            "Argument 'policy' is invalid: Limitation '{}' is not applicable on '{module}/{function}'",
            l.identifier
        )));
    }
    Ok(())
}

/// Whether some function of the policy map takes `identifier`.
fn is_limitation(identifier: &str) -> bool {
    POLICY_MAP
        .iter()
        .flat_map(|(_, functions)| functions.iter())
        .any(|(_, lims)| lims.contains(&identifier))
}

/// 400 naming each value that does not name what its limitation expects (as the reference's
/// limitation types validate them: existing content types, Locations and their paths,
/// Sections, Object states, languages and Roles; `1` or `2` for the owner limitations).
pub(crate) async fn check_values(db: &impl Connection, lims: &[Lim]) -> Result<()> {
    let mut wrong: Vec<String> = Vec::new();
    for l in lims {
        let ids = || -> Vec<i64> {
            l.values
                .iter()
                .filter_map(|v| v.trim().parse().ok())
                .collect()
        };
        let missing: Vec<String> = match l.identifier.as_str() {
            "Class" | "ParentClass" => {
                let found =
                    existing::<content_type::Entity, _>(db, content_type::Column::Id, ids())
                        .await?;
                absent(&l.values, |v| {
                    v.trim().parse().is_ok_and(|i| found.contains(&i))
                })
            }
            "Node" => {
                let found =
                    existing::<location::Entity, _>(db, location::Column::Id, ids()).await?;
                absent(&l.values, |v| {
                    v.trim().parse().is_ok_and(|i| found.contains(&i))
                })
            }
            "Section" | "NewSection" => {
                let found = existing::<section::Entity, _>(db, section::Column::Id, ids()).await?;
                absent(&l.values, |v| {
                    v.trim().parse().is_ok_and(|i| found.contains(&i))
                })
            }
            "State" | "NewState" => {
                let found =
                    existing::<object_state::Entity, _>(db, object_state::Column::Id, ids())
                        .await?;
                absent(&l.values, |v| {
                    v.trim().parse().is_ok_and(|i| found.contains(&i))
                })
            }
            "Role" => {
                let found = existing::<role::Entity, _>(db, role::Column::Id, ids()).await?;
                absent(&l.values, |v| {
                    v.trim().parse().is_ok_and(|i| found.contains(&i))
                })
            }
            "Subtree" => {
                let found: Vec<String> = location::Entity::find()
                    .select_only()
                    .column(location::Column::PathString)
                    .filter(location::Column::PathString.is_in(l.values.iter().map(|v| v.as_str())))
                    .into_tuple::<String>()
                    .all(db)
                    .await?;
                absent(&l.values, |v| found.iter().any(|f| f == v))
            }
            "Language" => {
                let found: Vec<String> = language::Entity::find()
                    .select_only()
                    .column(language::Column::LanguageCode)
                    .filter(
                        language::Column::LanguageCode.is_in(l.values.iter().map(|v| v.as_str())),
                    )
                    .into_tuple::<String>()
                    .all(db)
                    .await?;
                absent(&l.values, |v| found.iter().any(|f| f == v))
            }
            "Owner" | "ParentOwner" => absent(&l.values, |v| matches!(v.trim(), "1" | "2")),
            "Group" | "ParentGroup" => absent(&l.values, |v| v.trim() == "1"),
            "Status" => absent(&l.values, |v| matches!(v.trim(), "0" | "1" | "3")),
            "ParentDepth" | "ChangeOwner" | "MemberOf" | "SiteAccess" => {
                absent(&l.values, |v| v.trim().parse::<i64>().is_ok())
            }
            _ => vec![],
        };
        for v in missing {
            wrong.push(format!("{} '{v}'", l.identifier));
        }
    }
    if wrong.is_empty() {
        return Ok(());
    }
    Err(Error::BadRequest(format!(
        "Limitations did not validate: no such value: {}",
        wrong.join(", ")
    )))
}

/// The values `ok` does not accept.
fn absent(values: &[String], ok: impl Fn(&str) -> bool) -> Vec<String> {
    values.iter().filter(|v| !ok(v)).cloned().collect()
}

/// Which of `ids` are rows of `E` (by its id `column`).
async fn existing<E, C>(db: &impl Connection, column: C, ids: Vec<i64>) -> Result<Vec<i64>>
where
    E: EntityTrait,
    C: ColumnTrait,
{
    if ids.is_empty() {
        return Ok(vec![]);
    }
    Ok(E::find()
        .select_only()
        .column(column)
        .filter(column.is_in(ids))
        .into_tuple::<i64>()
        .all(db)
        .await?)
}

/// The limitations of a PolicyCreate or PolicyUpdate: non-empty identifiers and values, each
/// identifier once (406 otherwise, as the reference's InvalidArgumentException). What the
/// Policy's function takes is checked by [`check_applicable`].
pub(crate) fn of_policy(input: Option<PolicyLimitations>) -> Result<Vec<Lim>> {
    let mut out: Vec<Lim> = Vec::new();
    for l in input.map(|l| l.limitation).unwrap_or_default() {
        let lim = of_input(l, "limitations.limitation")?;
        if out.iter().any(|o| o.identifier == lim.identifier) {
            return Err(Error::InvalidArgument(format!(
                "Argument 'limitations' is invalid: '{}' was found multiple times among Limitations",
                lim.identifier
            )));
        }
        out.push(lim);
    }
    Ok(out)
}

/// One limitation of the input, its values as given.
pub(crate) fn of_input(l: Limitation, at: &str) -> Result<Lim> {
    if l.identifier.trim().is_empty() {
        return Err(Error::BadRequest(format!(
            "{at}: the identifier must not be empty"
        )));
    }
    let values: Vec<String> = l.values.r#ref.into_iter().map(|v| v.href).collect();
    if values.is_empty() || values.iter().any(|v| v.trim().is_empty()) {
        return Err(Error::BadRequest(format!(
            "{at} '{}': needs at least one non-empty value",
            l.identifier
        )));
    }
    Ok(Lim {
        identifier: l.identifier,
        values,
    })
}

pub(crate) fn to_model(l: &Lim) -> Limitation {
    Limitation {
        identifier: l.identifier.clone(),
        values: LimitationValues {
            r#ref: l
                .values
                .iter()
                .map(|v| LimitationValue { href: v.clone() })
                .collect(),
        },
    }
}

/// The `limitations` element of a Policy: absent when it has none.
pub(crate) fn to_policy_model(ls: &[Lim]) -> Option<PolicyLimitations> {
    (!ls.is_empty()).then(|| PolicyLimitations {
        limitation: ls.iter().map(to_model).collect(),
    })
}
