//! The change feed (`GET /events`): the outbox read in commit order (`cairn_store::events`),
//! and its pruning to the last `--events-kept`.

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::EventsApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::service::Service;
use cairn_runtime::Timestamp;
use cairn_store::Db;
use cairn_store::events;

/// Most events one request may ask for.
const MAX_LIMIT: i64 = 1_000;

impl EventsApi for Service {
    async fn load_events(
        &self,
        _cx: &Caller,
        req: LoadEventsRequest,
    ) -> Result<LoadEventsResponse> {
        if !(1..=MAX_LIMIT).contains(&req.limit) {
            return Err(Error::BadRequest(format!(
                "limit must be 1 to {MAX_LIMIT}, not {}",
                req.limit
            )));
        }
        let resumed = match &req.last_event_id {
            None => 0,
            Some(id) => id.parse::<i64>().map_err(|_| {
                Error::BadRequest(format!("Last-Event-ID must be an event id, not '{id}'"))
            })?,
        };
        if req.after < 0 || resumed < 0 {
            return Err(Error::BadRequest(format!(
                "after must be 0 or more, not {}",
                req.after.min(resumed)
            )));
        }
        let after = req.after.max(resumed);
        let db = self.db.conn();
        let (rows, oldest) = events::since(db, after, req.limit as u64).await?;
        if let Some(oldest) = oldest
            && after + 1 < oldest
        {
            return Err(Error::Gone(format!(
                "The events after {after} were pruned: the oldest kept is {oldest}"
            )));
        }
        let last = events::generation(db).await? as i64;
        Ok(LoadEventsResponse::Ok {
            body: EventList {
                href: hrefs::load_events(),
                last,
                event: rows
                    .into_iter()
                    .map(|e| Event {
                        id: e.id,
                        time: Timestamp(e.at),
                        operation: e.operation,
                        resource: e.resource,
                        user_id: e.user_id,
                    })
                    .collect(),
            },
        })
    }
}

/// Prunes the outbox to its last `keep` events every minute, until the server stops.
pub async fn prune_every_minute(db: Db, keep: u64) {
    let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
    loop {
        every.tick().await;
        match events::prune(db.conn(), keep).await {
            Ok(0) => {}
            Ok(n) => tracing::debug!(pruned = n, "events pruned"),
            Err(e) => tracing::warn!(error = %e, "the events could not be pruned"),
        }
    }
}
