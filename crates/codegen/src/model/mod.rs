//! The validated API model: every name resolved, every rule of `spec/README.md` checked.
//!
//! [`Api::from_raw`] is the only way in; an error names the spec file and the entry at fault.
//! The model's types are in `types` (representations) and `endpoints` (operations); the checks
//! that build them are in `validate`, `parse_type` and `parse_endpoint`.

mod endpoints;
mod examples;
mod names;
mod parse_endpoint;
mod parse_type;
mod reachability;
mod types;
mod validate;

pub use endpoints::{Access, CUSTOM_METHODS, Endpoint, QueryParam, RequestHeader, Response};
pub use examples::Examples;
pub use names::{pascal, snake};
pub(crate) use parse_endpoint::route_shape;
pub use types::{Field, Place, RefTemplate, Ty, TypeBody, TypeDef};

use indexmap::IndexMap;

#[derive(Debug, Clone)]
pub struct Api {
    pub title: String,
    pub version: String,
    pub description: String,
    pub vendor: String,
    pub params: IndexMap<String, ParamKind>,
    pub common_errors: Vec<u16>,
    /// The policy map: module → function → limitation identifiers.
    pub policies: IndexMap<String, IndexMap<String, Vec<String>>>,
    pub types: IndexMap<String, TypeDef>,
    pub families: Vec<Family>,
    /// Example bodies by type name (`spec/examples/`).
    pub examples: IndexMap<String, Examples>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    Int,
    String,
    /// A slash-separated chain of ids (`1/2/54`).
    Path,
}

#[derive(Debug, Clone)]
pub struct Family {
    /// File stem, e.g. `content_types`.
    pub name: String,
    pub doc: String,
    pub endpoints: Vec<Endpoint>,
}

impl Api {
    pub fn endpoints(&self) -> impl Iterator<Item = &Endpoint> {
        self.families.iter().flat_map(|f| f.endpoints.iter())
    }

    /// A union field whose members are all written as the field's own element: the member
    /// stands in for the field (`ContentInfo.Content`: a ContentInfo, or a full Content), not
    /// wrapped inside it.
    pub fn inline_union(&self, f: &Field) -> bool {
        match &f.ty {
            Ty::Named(n) => match &self.types[n].body {
                TypeBody::OneOf(members) => members.iter().all(|m| self.types[m].element == f.wire),
                _ => false,
            },
            _ => false,
        }
    }
}
