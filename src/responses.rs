//! The response cache's side in the service: the changes committed since the cache last
//! looked, read from the outbox (so a change made through any instance counts the moment it
//! commits) and applied to it before a cached GET is answered; what a request's answer is
//! rendered from (its tags); and who the answer is for (the caller's user: Policies, owner
//! and group limitations all follow the user, and any change to them is a change).

use crate::auth::Caller;
use crate::error::Result;
use crate::shared::Shared;
use cairn_runtime::ResponseCache;
use cairn_runtime::http::{Operation, Rq};
use cairn_runtime::responses::Lookup;
use cairn_store::events::Touched;

impl Shared {
    /// For a cached GET with the cache on: the repository's generation now, with the changes
    /// up to it applied to the cache. A change not seen before also drops the caches of
    /// Policies and content types, which another instance may have made stale.
    /// Read on the request's `reader`.
    pub(crate) async fn generation_for(
        &self,
        reader: &cairn_store::Reader,
        op: &Operation,
    ) -> Result<Option<u64>> {
        let Some(responses) = self.responses.as_ref().filter(|_| op.cached) else {
            return Ok(None);
        };
        let (generation, news) = self.generations.current(reader, responses).await?;
        if news {
            self.changed_elsewhere();
        }
        Ok(Some(generation))
    }

    /// The answer kept for `cx`'s request, or where to keep it.
    pub(crate) fn lookup(&self, cx: &Caller, request: &Rq) -> Lookup {
        let (Some(responses), Some(generation)) = (&self.responses, cx.generation) else {
            return Lookup::Off;
        };
        let tags = tags(cx.op, request);
        let slot = ResponseCache::slot(request, &cx.user_id.to_string(), generation, tags);
        let found = responses.get(&slot);
        crate::metrics::cache_lookup("responses", found.is_some());
        match found {
            Some(page) => Lookup::Hit(page),
            None => Lookup::Miss(slot),
        }
    }
}

/// What the answer of operation `op` to `request` is rendered from, as the changes that
/// touch it name it (the spec's `shows`); none when it may be rendered from anything. A
/// Content item and a user are their content item's rows; a Location is its row, its content
/// item's info and its count of children.
fn tags(op: &Operation, request: &Rq) -> Option<Vec<u64>> {
    let (kind, param) = op.shows?;
    let tag = match kind {
        "content" => Touched::Content(request.path(param).ok()?),
        _ => {
            let path: String = request.path(param).ok()?;
            Touched::Location(
                path.trim_end_matches('/')
                    .rsplit('/')
                    .next()?
                    .parse()
                    .ok()?,
            )
        }
    };
    Some(vec![tag.key()])
}
