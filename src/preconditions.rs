//! Conditional writes: a write that carries `If-Match` goes ahead only while the resource's
//! current representation has one of the ETags it names (412 otherwise), checked inside the
//! write's transaction.

use crate::error::{Error, Result};
use cairn_runtime::{ETag, IfMatch};
use std::hash::Hash;

/// Ok when `if_match` is absent or names the ETag of `current()`, the representation as it is
/// served; `current` runs only for a conditional request (it may cost statements).
pub async fn if_match<T: Hash>(
    if_match: &Option<IfMatch>,
    current: impl AsyncFnOnce() -> Result<T>,
) -> Result<()> {
    if let Some(m) = if_match
        && !m.matches(&ETag::of(&current().await?))
    {
        return Err(Error::Stale(
            "The resource has changed since it was loaded (If-Match does not match its ETag)"
                .into(),
        ));
    }
    Ok(())
}
