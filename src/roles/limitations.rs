//! Limitations of Policies and Role assignments: their input, validation and representation.

use crate::api::model::{Limitation, LimitationValue, LimitationValues, PolicyLimitations};
use crate::api::routes::POLICY_MAP;
use crate::error::{Error, Result};

/// A limitation as stored: an identifier and its raw values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lim {
    pub identifier: String,
    pub values: Vec<String>,
}

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

/// The limitations of a PolicyCreate or PolicyUpdate: non-empty identifiers and values, each
/// identifier once (406 otherwise, as the reference's InvalidArgumentException).
pub(crate) fn of_policy(input: Option<PolicyLimitations>) -> Result<Vec<Lim>> {
    let mut out: Vec<Lim> = Vec::new();
    for l in input.map(|l| l.limitation).unwrap_or_default() {
        let lim = of_input(l, "limitations.limitation")?;
        if out.iter().any(|o| o.identifier == lim.identifier) {
            return Err(Error::NotAcceptable(format!(
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

/// Values as stored: a JSON array of strings.
pub(crate) fn encode_values(values: &[String]) -> String {
    serde_json::to_string(values).unwrap_or_else(|_| "[]".into())
}

pub(crate) fn decode_values(json: &str) -> Result<Vec<String>> {
    serde_json::from_str(json).map_err(|e| Error::Internal(format!("limitation values: {e}")))
}
