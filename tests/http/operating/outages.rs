//! A database that is away (issue 42): its connections cut (PostgreSQL), its disk full
//! (SQLite, capped at its size), its pool exhausted (both) is a 503 with `Retry-After` and an
//! `ErrorMessage` that says which, never a 500; the server recovers by itself once the
//! database is back, and nothing committed is lost, nothing refused is half-written.

use crate::support::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// POSTs a Section `identifier` named `name` as admin.
async fn create_section(app: &TestApp, identifier: &str, name: &str) -> Resp {
    app.req("POST", "/content/sections")
        .admin()
        .accept("Section+json")
        .json_body(
            "SectionInput",
            serde_json::json!({"identifier": identifier, "name": name}),
        )
        .send()
        .await
}

/// The identifiers of the Sections. Once the database's connections were cut, a connection
/// of the pool that was idle meanwhile may still fail once: the read is tried again while it
/// answers 503 with `Retry-After`.
async fn section_identifiers(app: &TestApp) -> Vec<String> {
    let started = Instant::now();
    let r = loop {
        let r = app
            .get("/content/sections")
            .admin()
            .accept("SectionList+json")
            .send()
            .await;
        if r.status.as_u16() != 503 || started.elapsed() > Duration::from_secs(30) {
            break r;
        }
        assert!(r.header("retry-after").is_some(), "{}", r.body);
    };
    r.assert(200);
    let sections = r.json()["SectionList"]["Section"].clone();
    (sections.as_array().unwrap().iter())
        .map(|s| s["identifier"].as_str().unwrap().to_string())
        .collect()
}

/// Asserts a 503 whose `Retry-After` is `retry` and whose `ErrorMessage` says `says`.
fn assert_unavailable(r: &Resp, retry: &str, says: &str) {
    let text = r.assert_error(503);
    assert!(text.contains(says), "[{}] {text}", backend());
    assert_eq!(r.header("retry-after").as_deref(), Some(retry), "{text}");
}

#[tokio::test]
async fn a_full_disk_is_a_503_and_nothing_is_half_written() {
    if backend() != "sqlite" {
        // A full disk of a PostgreSQL server is not the test's to make.
        return;
    }
    let app = TestApp::new().await;
    create_section(&app, "before", "Before").await.assert(201);
    let before = section_identifiers(&app).await;
    let events_before = events(&app).await;
    app.service.db.cap_sqlite_size(true).unwrap();
    // A name of 1 MB needs hundreds of pages the database may not grow to.
    let big = "x".repeat(1 << 20);
    let r = create_section(&app, "big", &big).await;
    assert_unavailable(&r, "30", "disk is full");
    // Reads still answer, and the write left nothing: no Section, no event.
    assert_eq!(section_identifiers(&app).await, before);
    assert_eq!(events(&app).await, events_before);
    // Room again (the disk cleaned up): the same write goes through, without a restart.
    app.service.db.cap_sqlite_size(false).unwrap();
    create_section(&app, "big", &big).await.assert(201);
    let after = section_identifiers(&app).await;
    assert!(after.starts_with(&before) && after.ends_with(&["big".to_string()]));
    assert_eq!(events(&app).await, events_before + 1);
}

/// Events recorded so far.
async fn events(app: &TestApp) -> i64 {
    let rows = app.query("SELECT COUNT(*) AS n FROM events", vec![]).await;
    rows[0]["n"].as_i64().unwrap()
}

#[tokio::test]
async fn a_pool_exhausted_is_a_503() {
    // A request waits for a connection as long as a statement may run: 1 s here.
    let app = TestApp::with_args(&["--db-pool", "2", "--statement-timeout", "1"]).await;
    create_section(&app, "before", "Before").await.assert(201);
    // Every connection the pool may open, held (on PostgreSQL one listens for the changes
    // of other instances): the next one is not to be had.
    let mut held = Vec::new();
    let exhausted = loop {
        match app.service.db.watched().await {
            Ok(w) => held.push(w),
            Err(e) => break e,
        }
        assert!(
            held.len() <= 2,
            "the pool opened more connections than its size"
        );
    };
    assert_eq!(
        cairn_store::failure::Failure::of(&exhausted),
        cairn_store::failure::Failure::PoolExhausted,
        "{exhausted}"
    );
    let started = Instant::now();
    let r = create_section(&app, "during", "During").await;
    assert_unavailable(&r, "1", "connection");
    assert!(started.elapsed() < Duration::from_secs(10));
    for w in held {
        w.release().await.unwrap();
    }
    create_section(&app, "after", "After").await.assert(201);
    let sections = section_identifiers(&app).await;
    assert!(sections.contains(&"before".to_string()) && sections.contains(&"after".to_string()));
    assert!(!sections.contains(&"during".to_string()));
}

#[tokio::test]
async fn a_database_whose_connections_are_cut_is_a_503_until_it_is_back() {
    if backend() != "postgres" {
        // An embedded SQLite file has no connection to cut.
        return;
    }
    let app = TestApp::new().await;
    create_section(&app, "before", "Before").await.assert(201);
    assert!(app.cut_connections().await > 0);
    // Every answer meanwhile is a 503 that says the database cannot be reached, until the
    // pool has connected again by itself; a request whose connection was opened anew after
    // the cut may succeed at once (the pool does not test a connection before lending it,
    // so a cut one is noticed, as a 503, only when a statement meets it).
    let started = Instant::now();
    let mut n = 0;
    loop {
        n += 1;
        let r = create_section(&app, &format!("during{n}"), "During").await;
        if r.status.as_u16() == 201 {
            break;
        }
        assert_unavailable(&r, "5", "cannot be reached");
        assert!(started.elapsed() < Duration::from_secs(30), "no recovery");
    }
    let sections = section_identifiers(&app).await;
    assert!(sections.contains(&"before".to_string()), "{sections:?}");
    // What was refused was not written.
    assert!(!(1..n).any(|i| sections.contains(&format!("during{i}"))));
    assert!(sections.contains(&format!("during{n}")));
}

#[tokio::test]
async fn connections_cut_under_load_lose_nothing_acknowledged() {
    if backend() != "postgres" {
        return;
    }
    let app = TestApp::new().await;
    let done = AtomicBool::new(false);
    // For 2 s, every connection of the app is cut every 50 ms, as a server restarting over
    // and over would, while four clients write.
    let cutter = async {
        let started = Instant::now();
        let mut cuts = 0;
        while started.elapsed() < Duration::from_secs(2) {
            cuts += app.cut_connections().await;
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        done.store(true, Ordering::Relaxed);
        cuts
    };
    let writer = |w: usize| {
        let done = &done;
        let app = &app;
        async move {
            let (mut acknowledged, mut refused) = (Vec::new(), 0);
            for n in 0.. {
                if done.load(Ordering::Relaxed) {
                    break;
                }
                let identifier = format!("w{w}n{n}");
                let r = create_section(app, &identifier, "Load").await;
                match r.status.as_u16() {
                    201 => acknowledged.push(identifier),
                    // A refused write, whichever way the database was away, says to retry.
                    503 => {
                        let text = r.assert_error(503);
                        assert!(r.header("retry-after").is_some(), "{text}");
                        refused += 1;
                    }
                    _ => panic!("{}: {}", r.status, r.body),
                }
            }
            (acknowledged, refused)
        }
    };
    let (cuts, written) = tokio::join!(cutter, futures_util::future::join_all((0..4).map(writer)));
    assert!(cuts > 0);
    let refused: usize = written.iter().map(|w| w.1).sum();
    assert!(refused > 0, "no write met a cut connection");
    // Back by itself: the next write goes through (within a few tries).
    let started = Instant::now();
    while create_section(&app, "after", "After").await.status.as_u16() != 201 {
        assert!(started.elapsed() < Duration::from_secs(30), "no recovery");
    }
    // Every write acknowledged is there.
    let sections = section_identifiers(&app).await;
    for (acknowledged, _) in &written {
        for identifier in acknowledged {
            assert!(sections.contains(identifier), "{identifier} was lost");
        }
    }
}

#[tokio::test]
async fn a_database_server_down_and_up_again_is_a_503_meanwhile() {
    if backend() != "postgres" {
        return;
    }
    let app = TestApp::new().await;
    // A second instance reaches the database through a proxy: `postgres://user@host:port/...`.
    let url = app.url().to_string();
    let (scheme_user, rest) = url.split_once('@').expect("user@host");
    let (server, path) = rest.split_once('/').expect("host/db");
    let mut proxy = Proxy::start(server).await;
    let via = format!("{scheme_user}@{}/{path}", proxy.addr);
    // A request waits for a connection as long as a statement may run: 2 s here.
    let through = app
        .another_instance_at(&via, &["--statement-timeout", "2"])
        .await;
    create_section(&through, "before", "Before")
        .await
        .assert(201);
    proxy.stop();
    // Down: its connections cut, its port refusing. Every answer is a 503 with Retry-After,
    // the first ones on connections that were cut, the later ones once no connection could
    // be opened in time.
    for n in 0..3 {
        let r = create_section(&through, &format!("down{n}"), "Down").await;
        let text = r.assert_error(503);
        assert!(
            text.contains("cannot be reached") || text.contains("No connection"),
            "{text}"
        );
        assert!(r.header("retry-after").is_some(), "{text}");
    }
    proxy.resume().await;
    // Up again: served again without a restart, and nothing committed before was lost.
    let started = Instant::now();
    while create_section(&through, "after", "After")
        .await
        .status
        .as_u16()
        != 201
    {
        assert!(started.elapsed() < Duration::from_secs(30), "no recovery");
    }
    let sections = section_identifiers(&app).await;
    assert!(sections.contains(&"before".to_string()), "{sections:?}");
    assert!(sections.contains(&"after".to_string()), "{sections:?}");
    assert!(
        !sections.iter().any(|s| s.starts_with("down")),
        "{sections:?}"
    );
}
