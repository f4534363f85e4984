//! The change feed (`GET /events`): the outbox read in commit order (`cairn_store::events`),
//! as pages or as Server-Sent Events, each caller seeing the events it may read; and the
//! outbox's pruning to the last `--events-kept`.

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::EventsApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::permissions::{Filter, Scope};
use crate::shared::Shared;
use cairn_runtime::Timestamp;
use cairn_runtime::sse::Items;
use cairn_store::Connection;
use cairn_store::Db;
use cairn_store::entity::event;
use cairn_store::events;
use cairn_store::sql::stmt;
use sea_orm::Value;
use std::collections::{HashSet, VecDeque};
use std::time::Duration;
use tokio::sync::watch;

/// Most events one request may ask for.
const MAX_LIMIT: i64 = 1_000;

/// Most events one page looks at for those its caller may read (a caller who may read few
/// gets a short page and goes on after its `next`).
const MAX_SCAN: u64 = 10_000;

/// How long an idle stream waits for a change it was not told of (one made through another
/// instance or by a command) before it looks again.
const POLL: Duration = Duration::from_secs(1);

crate::services::family_service!(
    /// Implements the API of the change feed.
    EventsService
);

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> EventsApi<B> for EventsService
{
    async fn load_events(&self, cx: &Caller, req: LoadEventsRequest) -> Result<LoadEventsResponse> {
        let (after, limit) = start(&req)?;
        let readable = Readable::of(self, cx);
        let db = cx.reader();
        let page = page(db, &readable, after, limit).await?;
        page.refuse_gap(after)?;
        let last = events::generation(db).await? as i64;
        Ok(LoadEventsResponse::Ok {
            body: EventList {
                href: hrefs::load_events(),
                last,
                next: page.next,
                event: page.events.into_iter().map(body).collect(),
            },
        })
    }

    async fn load_events_stream(
        &self,
        cx: &Caller,
        req: LoadEventsRequest,
    ) -> Result<Items<Event>> {
        let (after, limit) = start(&req)?;
        let readable = Readable::of(self, cx);
        // The first page answers now: a client resuming after pruned events gets the 410.
        let first = page(cx.reader(), &readable, after, limit).await?;
        first.refuse_gap(after)?;
        let stream = Stream {
            db: self.db.clone(),
            readable,
            next: first.next,
            limit,
            queued: first.events.into(),
            wake: self.feed.subscribe(),
        };
        Ok(Box::pin(futures_util::stream::unfold(stream, Stream::next)))
    }
}

/// `after` (or the later `Last-Event-ID`) and `limit` of a request, checked.
fn start(req: &LoadEventsRequest) -> Result<(i64, u64)> {
    if !(1..=MAX_LIMIT).contains(&req.limit) {
        return Err(Error::BadRequest(format!(
            "limit must be 1 to {MAX_LIMIT}, not {}",
            req.limit
        )));
    }
    let resumed = match &req.last_event_id {
        None => 0,
        Some(id) => id.trim().parse::<i64>().map_err(|_| {
            Error::BadRequest(format!("Last-Event-ID must be an event id, not '{id}'"))
        })?,
    };
    if req.after < 0 || resumed < 0 {
        return Err(Error::BadRequest(format!(
            "after must be 0 or more, not {}",
            req.after.min(resumed)
        )));
    }
    Ok((req.after.max(resumed), req.limit as u64))
}

fn body(e: event::Model) -> Event {
    Event {
        id: e.id,
        time: Timestamp(e.at),
        operation: e.operation,
        resource: e.resource,
        user_id: e.user_id,
    }
}

/// What of the feed a caller may read: everything (who may `setup/administrate` without
/// limitation), or the events on content items (also users, by their content) and Locations
/// (also user groups) it may `content/read` now.
#[derive(Debug, Clone)]
enum Readable {
    All,
    Content { items: Filter, locations: Filter },
}

impl Readable {
    fn of(service: &Shared, cx: &Caller) -> Readable {
        if cx.grants.may_all("setup", "administrate") {
            return Readable::All;
        }
        let read = ("content", "read");
        Readable::Content {
            items: service.visible(
                cx,
                read,
                Scope {
                    content: "pc",
                    location: None,
                    location_sections: false,
                },
            ),
            locations: service.visible(
                cx,
                read,
                Scope {
                    content: "pc",
                    location: Some("l"),
                    location_sections: true,
                },
            ),
        }
    }

    /// The events of `rows` this caller may read.
    async fn keep(
        &self,
        db: &impl Connection,
        rows: Vec<event::Model>,
    ) -> Result<Vec<event::Model>> {
        let Readable::Content { items, locations } = self else {
            return Ok(rows);
        };
        let subjects: Vec<Subject> = rows.iter().map(|e| Subject::of(&e.resource)).collect();
        let ids = |want: fn(&Subject) -> Option<i64>| -> Vec<i64> {
            let set: HashSet<i64> = subjects.iter().filter_map(want).collect();
            set.into_iter().collect()
        };
        let content_ids = ids(|s| match s {
            Subject::Content(id) => Some(*id),
            _ => None,
        });
        let location_ids = ids(|s| match s {
            Subject::Location(id) => Some(*id),
            _ => None,
        });
        let items = readable_ids(
            db,
            "SELECT pc.id FROM contents pc WHERE",
            "pc.id",
            &content_ids,
            items,
        )
        .await?;
        let locations = readable_ids(
            db,
            "SELECT l.id FROM locations l JOIN contents pc ON pc.id = l.content_id WHERE",
            "l.id",
            &location_ids,
            locations,
        )
        .await?;
        Ok(rows
            .into_iter()
            .zip(subjects)
            .filter(|(_, s)| match s {
                Subject::Content(id) => items.contains(id),
                Subject::Location(id) => locations.contains(id),
                Subject::Other => false,
            })
            .map(|(e, _)| e)
            .collect())
    }
}

/// What an event's resource names, for who may read it.
enum Subject {
    Content(i64),
    Location(i64),
    Other,
}

impl Subject {
    /// `/content/objects/57/…` and `/user/users/14/…` name content items (a user is its
    /// content item); `/content/locations/1/2/54/…` and `/user/groups/1/5/13/…` the last
    /// Location of their path.
    fn of(resource: &str) -> Subject {
        let after = |prefix: &str| resource.strip_prefix(prefix).map(|r| r.split('/'));
        let numbers =
            |parts: std::str::Split<'_, char>| parts.map_while(|p| p.parse::<i64>().ok()).last();
        if let Some(id) = after("/content/objects/")
            .or(after("/user/users/"))
            .and_then(|mut p| p.next()?.parse().ok())
        {
            return Subject::Content(id);
        }
        match after("/content/locations/")
            .or(after("/user/groups/"))
            .and_then(numbers)
        {
            Some(id) => Subject::Location(id),
            None => Subject::Other,
        }
    }
}

/// Which of `ids` pass `filter` (a condition on `pc`, the content row, and `l`).
async fn readable_ids(
    db: &impl Connection,
    select: &str,
    column: &str,
    ids: &[i64],
    filter: &Filter,
) -> Result<HashSet<i64>> {
    if ids.is_empty() || *filter == Filter::Nothing {
        return Ok(HashSet::new());
    }
    let only = filter.sql();
    let marks = vec!["?"; ids.len()].join(", ");
    let mut values: Vec<Value> = ids.iter().map(|&id| id.into()).collect();
    values.extend(only.values);
    let rows = db
        .query_all_raw(stmt(
            db.get_database_backend(),
            &format!("{select} {column} IN ({marks}) AND {}", only.sql),
            values,
        ))
        .await?;
    rows.iter()
        .map(|r| r.try_get_by_index::<i64>(0).map_err(Into::into))
        .collect()
}

/// The events after `after` a caller may read, up to `limit`.
struct Page {
    events: Vec<event::Model>,
    /// Where the next page starts: the last event looked at.
    next: i64,
    /// The oldest event kept, when any.
    oldest: Option<i64>,
}

impl Page {
    /// 410 when events after `after` were pruned already.
    fn refuse_gap(&self, after: i64) -> Result<()> {
        match self.oldest {
            Some(oldest) if after + 1 < oldest => Err(Error::Pruned(format!(
                "The events after {after} were pruned: the oldest kept is {oldest}"
            ))),
            _ => Ok(()),
        }
    }
}

/// Reads pages of the outbox until `limit` readable events, its end, or [`MAX_SCAN`] events
/// looked at.
async fn page(db: &impl Connection, readable: &Readable, after: i64, limit: u64) -> Result<Page> {
    let mut out = Vec::new();
    let mut next = after;
    let mut scanned = 0;
    let mut oldest = None;
    loop {
        let want = limit - out.len() as u64;
        let (rows, first) = events::since(db, next, want).await?;
        if scanned == 0 {
            oldest = first;
        }
        let Some(last) = rows.last().map(|e| e.id) else {
            break;
        };
        let seen = rows.len() as u64;
        scanned += seen;
        out.extend(readable.keep(db, rows).await?);
        next = last;
        if out.len() as u64 >= limit || seen < want || scanned >= MAX_SCAN {
            break;
        }
    }
    Ok(Page {
        events: out,
        next,
        oldest,
    })
}

/// A stream's state: what it sends next, and how it learns of changes.
struct Stream {
    db: Db,
    readable: Readable,
    next: i64,
    limit: u64,
    queued: VecDeque<event::Model>,
    wake: watch::Receiver<crate::feed::Signal>,
}

impl Stream {
    /// The next event; waits for one when all were sent. Ends when the server stops, when
    /// the events it would send next were pruned (the client reconnects and learns it), or
    /// on a database error.
    async fn next(mut self) -> Option<(Event, Stream)> {
        loop {
            if let Some(e) = self.queued.pop_front() {
                return Some((body(e), self));
            }
            // Seen before the read: a change committed from here on wakes the wait below.
            if self.wake.borrow_and_update().stopping {
                return None;
            }
            let page = match page(self.db.conn(), &self.readable, self.next, self.limit).await {
                Ok(page) => page,
                Err(e) => {
                    tracing::warn!(error = %e, "the change feed's stream ends");
                    return None;
                }
            };
            if page.refuse_gap(self.next).is_err() {
                return None;
            }
            let idle = page.next == self.next;
            self.next = page.next;
            self.queued.extend(page.events);
            if idle {
                // Woken by a change here, or after POLL for one made elsewhere; the sender
                // gone means the server is going.
                if let Ok(Err(_)) = tokio::time::timeout(POLL, self.wake.changed()).await {
                    return None;
                }
            }
        }
    }
}

/// Prunes the outbox to its last `keep` events every minute, until the server stops.
pub async fn prune_every_minute(db: Db, keep: u64) {
    // The first pruning a minute after startup, not during it (nor amid the first requests).
    let minute = std::time::Duration::from_secs(60);
    let mut every = tokio::time::interval_at(tokio::time::Instant::now() + minute, minute);
    loop {
        every.tick().await;
        match events::prune(db.conn(), keep).await {
            Ok(0) => {}
            Ok(n) => tracing::debug!(pruned = n, "events pruned"),
            Err(e) => tracing::warn!(error = %e, "the events could not be pruned"),
        }
    }
}
