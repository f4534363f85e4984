//! The response cache's side in the service: which generation of the repository a cached
//! GET is answered in (read from the outbox, so a change made through any instance counts
//! the moment it commits), and who the answer is for (the caller's user: Policies, owner and
//! group limitations all follow the user, and any change to them is a change).

use crate::auth::Caller;
use crate::error::Result;
use crate::service::Service;
use cairn_runtime::ResponseCache;
use cairn_runtime::http::{Operation, Rq};
use cairn_runtime::responses::Lookup;

impl Service {
    /// For a cached GET with the cache on: the repository's generation now. A change not
    /// seen before also drops the caches of Policies and content types, which another
    /// instance may have made stale.
    pub(crate) async fn generation_for(&self, op: &Operation) -> Result<Option<u64>> {
        let Some(responses) = self.responses.as_ref().filter(|_| op.cached) else {
            return Ok(None);
        };
        let generation = cairn_store::events::generation(self.db.conn()).await?;
        if responses.observe(generation) {
            self.changed_elsewhere();
        }
        Ok(Some(generation))
    }

    /// The answer kept for `cx`'s request, or where to keep it.
    pub(crate) fn lookup(&self, cx: &Caller, request: &Rq) -> Lookup {
        let (Some(responses), Some(generation)) = (&self.responses, cx.generation) else {
            return Lookup::Off;
        };
        let slot = ResponseCache::slot(request, &cx.user_id.to_string(), generation);
        let found = responses.get(&slot);
        let result = if found.is_some() { "hit" } else { "miss" };
        metrics::counter!("cairn_cache_total", "cache" => "responses", "result" => result)
            .increment(1);
        let (_, bytes) = responses.usage();
        metrics::gauge!("cairn_response_cache_bytes").set(bytes as f64);
        match found {
            Some(page) => Lookup::Hit(page),
            None => Lookup::Miss(slot),
        }
    }
}
