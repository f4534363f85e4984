//! Who may do what, as the reference's permission resolver decides it: the Policies of the
//! Roles assigned to a user and to every user group above it, each assignment with its own
//! limitation, each Policy with its limitations.
//!
//! A user's Policies are read and kept by `crate::grants`;
//! `subject` describes what a check is about; `evaluate` decides a check on one object in
//! memory; `filter` turns the same rules into SQL conditions for lists and search;
//! `administrators` keeps the repository from losing its last administrator. A check asks
//! whoever calls ([`Asker`]: a request's `Caller`).

pub(crate) mod administrators;
mod check;
pub(crate) mod evaluate;
pub(crate) mod filter;
pub(crate) mod subject;

pub(crate) use crate::grants::Grants;
pub(crate) use evaluate::Subject;
pub(crate) use filter::{Filter, Scope};
pub(crate) use subject::{ContentFacts, LocationFacts, Member, Target, VersionTarget};

use crate::error::Error;

/// Whoever asks a check: their Policies, and the Policy the operation they call declares.
pub(crate) trait Asker {
    fn grants(&self) -> &Grants;
    /// The operation's Policy (its first, when it declares several).
    fn policy(&self) -> Option<(&'static str, &'static str)>;
}

/// The Policy reading content needs.
pub(crate) const READ: (&str, &str) = ("content", "read");

/// The reference's UnauthorizedException: 401, naming the module and function.
pub(crate) fn denied(module: &str, function: &str) -> Error {
    Error::Unauthorized(format!(
        "The User does not have the '{function}' '{module}' permission"
    ))
}
