//! A shared HTTP cache in front of cairn (Varnish with the reference's VCL, a CDN): the user
//! context hash it asks for (`context_hash`) and the purges every committed change sends it
//! (`purges`). How answers say they may be kept is the HTTP layer's
//! (`cairn_runtime::http::Edge`), from the spec.

pub(crate) mod context_hash;
pub(crate) mod purges;

pub use context_hash::endpoint as context_hash_endpoint;
pub use purges::{Progress, PurgeSettings, WAIT, spawn as spawn_purgers};
