//! Statements are bounded (issue 10): one that runs past the time limit is stopped with an
//! error (PostgreSQL's `statement_timeout`, SQLite's progress handler), and a search dropped
//! before it ends (its client disconnected) stops its statement, on both databases. A search
//! with aggregations costs one statement per aggregation, and its object keys a fixed
//! number more (issue 45).

use cairn_store::scratch::ScratchDb;
use cairn_store::{Db, DbOptions};
use sea_orm::ConnectionTrait;
use std::time::{Duration, Instant};

/// A statement that never ends by itself.
const ENDLESS: &str = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) \
                       SELECT COUNT(*) FROM n";

async fn open(scratch: &ScratchDb, limit: Duration) -> Db {
    Db::open(&DbOptions {
        url: scratch.url.clone(),
        max_connections: 4,
        statement_timeout: Some(limit),
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn a_statement_past_the_time_limit_is_stopped() {
    let scratch = ScratchDb::new().await;
    // Set up first without the short limit, which a busy machine's migrations could pass.
    drop(open(&scratch, Duration::from_secs(60)).await);
    let db = open(&scratch, Duration::from_millis(300)).await;
    let started = Instant::now();
    let mut watched = db.watched().await.unwrap();
    // A quick statement first: the limit is per statement.
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        watched
            .numbers("SELECT CAST(1 AS BIGINT)", vec![])
            .await
            .unwrap(),
        [(1, 0.0)]
    );
    let e = watched.numbers(ENDLESS, vec![]).await.unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("interrupted") || text.contains("statement timeout"),
        "{text}"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    watched.release().await.unwrap();
    // The pool serves the next statement.
    db.conn().execute_unprepared("SELECT 1").await.unwrap();
    if db.backend() == sea_orm::DbBackend::Postgres {
        // Every statement on PostgreSQL.
        let e = db.conn().execute_unprepared(ENDLESS).await.unwrap_err();
        assert!(e.to_string().contains("statement timeout"), "{e}");
    }
}

#[tokio::test]
async fn a_dropped_search_stops_its_statement() {
    let scratch = ScratchDb::new().await;
    // A limit long enough not to be what stops it.
    let db = open(&scratch, Duration::from_secs(600)).await;
    let during = std::sync::atomic::AtomicU32::new(0);
    let search = async {
        let mut watched = db.watched().await.unwrap();
        during.store(db.pool_use().0, std::sync::atomic::Ordering::Relaxed);
        watched.numbers(ENDLESS, vec![]).await
    };
    let outcome = tokio::time::timeout(Duration::from_millis(300), search).await;
    assert!(outcome.is_err(), "{outcome:?}");
    let during = during.load(std::sync::atomic::Ordering::Relaxed);
    // On PostgreSQL the connection is closed, which it can be only once its statement has
    // stopped, and the query is no longer active; on SQLite the connection is back, idle,
    // which it is only once its statement has stopped.
    let started = Instant::now();
    loop {
        let (open, idle) = db.pool_use();
        let running = match db.backend() {
            sea_orm::DbBackend::Postgres => db
                .conn()
                .query_one_raw(sea_orm::Statement::from_string(
                    db.backend(),
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE query LIKE 'WITH RECURSIVE n(x)%' AND state = 'active'",
                ))
                .await
                .unwrap()
                .unwrap()
                .try_get_by_index::<i64>(0)
                .unwrap(),
            _ => 0,
        };
        let stopped = match db.backend() {
            sea_orm::DbBackend::Postgres => open < during,
            _ => idle == open as usize,
        };
        if stopped && running == 0 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "still running: {open} connections open ({during} during the search), {running} active"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Each aggregation is one statement over all matches at most, whatever their number: those
/// over columns of the hits (content type, Section, dates) none, counted in the statement of
/// the count; keys that are objects are loaded for all buckets of an aggregation at once (a
/// Section: one statement; a content type: three, its Field definitions and groups).
#[tokio::test]
async fn aggregations_cost_one_statement_each() {
    use crate::support::TestApp;
    use crate::views::view;
    use serde_json::{Value, json};
    let app = TestApp::new().await;
    // The caller's Policies are loaded once, by the first request.
    view(&app, json!({"identifier": "w", "ContentQuery": {}})).await;
    let cost = async |aggregations: Value| {
        let input = json!({"identifier": "a", "ContentQuery": {
            "Filter": {"SubtreeCriterion": "/1/"},
            "SortClauses": {"ContentName": "ascending"}, "limit": 5,
            "Aggregations": aggregations}});
        let before = app.statements();
        view(&app, input).await;
        app.statements() - before
    };
    let none = cost(json!([])).await;
    let values = cost(json!([
        {"VisibilityTermAggregation": {"name": "v"}},
        {"DateMetadataRangeAggregation": {"name": "d", "type": "modified",
            "ranges": [{"from": null, "to": 1}, {"from": 1, "to": null}]}},
        {"RawStatsAggregation": {"name": "s", "fieldName": "content_id_id"}},
    ]))
    .await;
    // The dates and the stats counted with the hits, in the statement of the count; the
    // visibility of a content search (any visible Location) apart.
    assert_eq!(values - none, 1);
    let field = cost(json!([
        {"IntegerStatsAggregation": {"name": "i", "contentTypeIdentifier": "folder",
            "fieldDefinitionIdentifier": "name"}},
        {"LanguageTermAggregation": {"name": "l"}},
    ]))
    .await;
    // Two statements, and the kept list of languages read once.
    assert_eq!(field - none, 2 + 1);
    let objects = cost(json!([
        {"SectionTermAggregation": {"name": "s"}},
        {"ContentTypeTermAggregation": {"name": "t"}},
    ]))
    .await;
    // Counted with the hits; their keys loaded (a Section; a content type with its Field
    // definitions and groups).
    assert_eq!(objects - none, 1 + 3);
}
