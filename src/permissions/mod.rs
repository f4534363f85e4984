//! Who may do what, as the reference's permission resolver decides it: the Policies of the
//! Roles assigned to a user and to every user group above it, each assignment with its own
//! limitation, each Policy with its limitations.
//!
//! `policies` reads the stored Policies and Role assignments; `grants` holds one user's Policies, loaded once and kept in [`PermissionCache`];
//! `subject` describes what a check is about; `evaluate` decides a check on one object in
//! memory; `filter` turns the same rules into SQL conditions for lists and search;
//! `administrators` keeps the repository from losing its last administrator.

pub(crate) mod administrators;
mod check;
pub(crate) mod evaluate;
pub(crate) mod filter;
pub(crate) mod grants;
pub(crate) mod policies;
pub(crate) mod subject;

pub(crate) use evaluate::Subject;
pub(crate) use filter::{Filter, Scope};
pub(crate) use grants::{Grants, PermissionCache};
pub(crate) use subject::{ContentFacts, LocationFacts, Member, Target, VersionTarget};

use crate::error::Error;

/// The Policy reading content needs.
pub(crate) const READ: (&str, &str) = ("content", "read");

/// The reference's UnauthorizedException: 401, naming the module and function.
pub(crate) fn denied(module: &str, function: &str) -> Error {
    Error::Unauthorized(format!(
        "The User does not have the '{function}' '{module}' permission"
    ))
}
