//! What a shared HTTP cache in front is told: `Cache-Control`, `Vary`, tags and
//! `X-Location-Id` on GET answers, the user context hash, and the purges every committed
//! change sends to `--purge-url` (here a small HTTP server of the test's own that records
//! them). The tests behind a real Varnish are in `varnish.rs`.

use crate::content::{publish_name, published_folder};
use crate::permissions::role_for;
use crate::support::*;
use crate::users::{PASSWORD, new_user};
use serde_json::json;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

fn tags(r: &Resp) -> Vec<String> {
    r.header("xkey")
        .unwrap_or_default()
        .split(' ')
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn public_answers_may_be_kept_by_shared_caches_with_their_tags() {
    let app = TestApp::new().await;
    let (id, path) = published_folder(&app, "Kept", "1/2").await;
    let location: i64 = path.rsplit('/').next().unwrap().parse().unwrap();
    for accept in ["Content+json", "Content+xml"] {
        let r = app
            .get(&format!("/content/objects/{id}"))
            .admin()
            .accept(accept)
            .send()
            .await;
        r.assert(200);
        assert_eq!(r.header("cache-control").unwrap(), "public, s-maxage=60");
        assert_eq!(
            r.header("vary").unwrap(),
            "Accept, Accept-Language, X-Siteaccess, Cookie, Authorization"
        );
        assert_eq!(tags(&r), ["ez-all".to_string(), format!("c{id}")]);
    }
    let r = app
        .get(&format!("/content/locations/{path}"))
        .accept("Location+json")
        .admin()
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.header("x-location-id").unwrap(), location.to_string());
    let t = tags(&r);
    for tag in [
        "ez-all".to_string(),
        format!("l{location}"),
        "pl2".into(),
        "p1".into(),
        "p2".into(),
        format!("p{location}"),
    ] {
        assert!(t.contains(&tag), "{tag} in {t:?}");
    }
    assert!(!t.contains(&"cairn-any".to_string()), "{t:?}");
    // Children may show anything a change touches: every change purges them.
    let r = app
        .get(&format!("/content/locations/{path}/children"))
        .accept("LocationList+json")
        .admin()
        .send()
        .await;
    assert_eq!(r.header("cache-control").unwrap(), "public, s-maxage=60");
    assert!(tags(&r).contains(&"cairn-any".to_string()));
    // A cache that sent the user context hash gets answers varying on it.
    let r = app
        .get("/content/sections/1")
        .admin()
        .header("X-User-Context-Hash", "abc")
        .accept("Section+json")
        .send()
        .await;
    assert_eq!(r.header("cache-control").unwrap(), "public, s-maxage=60");
    assert_eq!(
        r.header("vary").unwrap(),
        "Accept, Accept-Language, X-Siteaccess, X-User-Context-Hash"
    );
    assert!(tags(&r).contains(&"s1".to_string()));
    // A 304 says the same.
    let etag = r.header("etag").unwrap();
    let again = app
        .get("/content/sections/1")
        .admin()
        .header("If-None-Match", &etag)
        .accept("Section+json")
        .send()
        .await;
    again.assert(304);
    assert_eq!(
        again.header("cache-control").unwrap(),
        "public, s-maxage=60"
    );
}

#[tokio::test]
async fn other_answers_are_private_and_sessions_never_kept() {
    let app = TestApp::new().await;
    let table = [
        ("/content/sections", "SectionList+json", "private, no-cache"),
        ("/user/roles", "RoleList+json", "private, no-cache"),
        (
            "/content/objects/999999",
            "Content+json",
            "private, no-cache",
        ),
        ("/no/such/route", "Content+json", "private, no-cache"),
    ];
    for (path, accept, control) in table {
        let r = app.get(path).admin().accept(accept).send().await;
        assert_eq!(r.header("cache-control").unwrap(), control, "{path}");
        assert!(r.header("vary").is_some() || r.status == 404, "{path}");
    }
    let (cookie, csrf) = app.login().await;
    let r = app
        .get("/user/sessions/current")
        .header("Cookie", &cookie)
        .header("X-CSRF-Token", &csrf)
        .accept("Session+json")
        .send()
        .await;
    assert_eq!(r.header("cache-control").unwrap(), "no-store, private");
    assert!(r.header("xkey").is_none());
    // A denied read is private too: a cache never keeps a refusal for others.
    let r = app
        .get("/content/objects/14")
        .accept("Content+json")
        .send()
        .await;
    r.assert_error(401);
    assert_eq!(r.header("cache-control").unwrap(), "private, no-cache");
}

#[tokio::test]
async fn the_ttl_and_the_tag_header_are_the_operators() {
    let app = TestApp::with_args(&[
        "--http-cache-ttl",
        "5",
        "--http-cache-tag-header",
        "Surrogate-Key",
    ])
    .await;
    let r = app.get("/content/sections/2").admin().send().await;
    assert_eq!(r.header("cache-control").unwrap(), "public, s-maxage=5");
    assert_eq!(r.header("surrogate-key").unwrap(), "ez-all cairn-any s2");
    assert!(r.header("xkey").is_none());
}

async fn context_hash(app: &TestApp, req: Req<'_>) -> String {
    let _ = app;
    let r = req
        .header("Accept", "application/vnd.fos.user-context-hash")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.header("content-type").unwrap(),
        "application/vnd.fos.user-context-hash"
    );
    assert_eq!(r.header("cache-control").unwrap(), "max-age=600, public");
    assert!(
        r.header("vary")
            .unwrap()
            .starts_with("Cookie, Authorization")
    );
    assert!(r.header("xkey").unwrap().contains("ez-user-context-hash"));
    let hash = r.header("x-user-context-hash").unwrap();
    assert_eq!(hash.len(), 64, "{hash}");
    hash
}

#[tokio::test]
async fn the_user_context_hash_is_shared_by_users_with_the_same_rights_only() {
    let app = TestApp::new().await;
    let at = |path: &str| app.abs("GET", path);
    let anonymous = context_hash(&app, at("/_fos_user_context_hash")).await;
    assert_eq!(
        anonymous,
        context_hash(&app, at("/_fos_user_context_hash")).await
    );
    let admin = context_hash(&app, at("/_fos_user_context_hash").admin()).await;
    assert_ne!(anonymous, admin);
    // Two editors (the Editors group, 1/5/13) share theirs, by credentials or session.
    let ed1 = new_user(&app, "1/5/13", "ed1").await;
    let ed2 = new_user(&app, "1/5/13", "ed2").await;
    let hash = async |login: &str| {
        context_hash(&app, at("/_fos_user_context_hash").basic(login, PASSWORD)).await
    };
    let (h1, h2) = (hash("ed1").await, hash("ed2").await);
    assert_eq!(h1, h2);
    assert_ne!(h1, anonymous);
    let (cookie, _) = app.login_as("ed1", PASSWORD).await;
    let by_session = at("/_fos_user_context_hash").header("Cookie", &cookie);
    assert_eq!(context_hash(&app, by_session).await, h1);
    // The same Policy with a limitation that depends on who asks (Owner) makes each
    // user's hash their own.
    let own = [json!(["content", "read", [["Owner", ["1"]]]])];
    role_for(&app, ed1, "Own things 1", &own, None).await;
    role_for(&app, ed2, "Own things 2", &own, None).await;
    let (h1, h2) = (hash("ed1").await, hash("ed2").await);
    assert_ne!(h1, h2);
    // Wrong credentials are refused, never the anonymous user's hash.
    let r = at("/_fos_user_context_hash")
        .basic("ed1", "wrong")
        .header("Accept", "application/vnd.fos.user-context-hash")
        .send()
        .await;
    assert_eq!(r.status, 401);
}

/// A cache of the test's own: records every purge it is sent (method, tags), answering 500
/// to the first `failing` ones.
struct Cache {
    url: String,
    seen: Arc<Mutex<Vec<(String, String)>>>,
}

impl Cache {
    async fn start(failing: usize) -> Cache {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let failures = Arc::new(Mutex::new(failing));
        let (s, f) = (seen.clone(), failures.clone());
        tokio::spawn(async move {
            loop {
                let Ok((conn, _)) = listener.accept().await else {
                    return;
                };
                let (s, f) = (s.clone(), f.clone());
                tokio::spawn(async move {
                    let (read, mut write) = conn.into_split();
                    let mut lines = BufReader::new(read).lines();
                    while let Ok(Some(first)) = lines.next_line().await {
                        let method = first.split(' ').next().unwrap_or("").to_string();
                        let mut tags = String::new();
                        while let Ok(Some(line)) = lines.next_line().await {
                            if line.is_empty() {
                                break;
                            }
                            if let Some((k, v)) = line.split_once(':')
                                && k.eq_ignore_ascii_case("xkey-purge")
                            {
                                tags = v.trim().to_string();
                            }
                        }
                        let fail = {
                            let mut f = f.lock().unwrap();
                            let fail = *f > 0;
                            *f = f.saturating_sub(1);
                            fail
                        };
                        let status = if fail {
                            "500 Internal Server Error"
                        } else {
                            s.lock().unwrap().push((method, tags));
                            "200 OK"
                        };
                        let reply = format!("HTTP/1.1 {status}\r\nContent-Length: 0\r\n\r\n");
                        if write.write_all(reply.as_bytes()).await.is_err() {
                            return;
                        }
                    }
                });
            }
        });
        Cache { url, seen }
    }

    /// Waits (up to 10 s) for a purge whose tags hold `tag`; every purge seen until then.
    async fn wait_for(&self, tag: &str) -> Vec<(String, String)> {
        for _ in 0..200 {
            let seen = self.seen.lock().unwrap().clone();
            if seen.iter().any(|(_, t)| t.split(' ').any(|x| x == tag)) {
                return seen;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("no purge of {tag}: {:?}", self.seen.lock().unwrap());
    }

    fn count(&self, tag: &str) -> usize {
        let seen = self.seen.lock().unwrap();
        seen.iter()
            .filter(|(_, t)| t.split(' ').any(|x| x == tag))
            .count()
    }
}

#[tokio::test]
async fn every_change_purges_what_it_touched_and_broad_ones_everything() {
    let cache = Cache::start(0).await;
    let app = TestApp::with_args(&["--purge-url", &cache.url]).await;
    let (id, path) = published_folder(&app, "Purged", "1/2").await;
    let location = path.rsplit('/').next().unwrap().to_string();
    let seen = cache.wait_for(&format!("c{id}")).await;
    assert!(seen.iter().all(|(m, _)| m == "PURGEKEYS"), "{seen:?}");
    let before = cache.count(&format!("l{location}"));
    app.req("POST", &format!("/content/objects/{id}/hide"))
        .admin()
        .send()
        .await
        .assert(204);
    // The write answered once the cache had its purge: the next read sees the change.
    assert_eq!(cache.count(&format!("l{location}")), before + 1);
    let seen = cache.seen.lock().unwrap().clone();
    let last = &seen.last().unwrap().1;
    assert!(last.contains("cairn-any"), "{last}");
    assert!(!last.contains("ez-all"), "{last}");
    // A Section renamed may show anywhere: everything.
    app.req("PATCH", "/content/sections/1")
        .admin()
        .json_body("SectionInput", json!({"name": "Renamed"}))
        .send()
        .await
        .assert(200);
    assert_eq!(cache.count("ez-all"), 1);
    let metrics = app.abs("GET", "/metrics").send().await;
    let text = metrics.body.clone();
    assert!(text.contains("cairn_purge_lag_changes"), "{text}");
}

#[tokio::test]
async fn a_failed_purge_is_sent_again_and_outlives_a_restart() {
    // A cache that fails its first two purges: they are retried until it takes them.
    let cache = Cache::start(2).await;
    let app = TestApp::with_args(&["--purge-url", &cache.url]).await;
    let (id, _) = published_folder(&app, "Retried", "1/2").await;
    cache.wait_for(&format!("c{id}")).await;
    let metrics = app.abs("GET", "/metrics").send().await;
    let text = metrics.body.clone();
    assert!(text.contains("cairn_purge_failures_total"), "{text}");

    // cairn stops; changes are made (through another instance that purges nowhere); cairn
    // starts again: it purges them.
    app.service.feed.stop();
    let other = app.another_instance().await;
    let (id2, _) = published_folder(&other, "Meanwhile", "1/2").await;
    publish_name(&other, id, "Edited").await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(cache.count(&format!("c{id2}")), 0, "nobody purged yet");
    let again = app
        .another_instance_with(&["--purge-url", &cache.url])
        .await;
    cache.wait_for(&format!("c{id2}")).await;
    drop(again);
}

#[tokio::test]
async fn several_instances_purge_each_change_once() {
    if backend() != "postgres" {
        return;
    }
    let cache = Cache::start(0).await;
    let app = TestApp::with_args(&["--purge-url", &cache.url]).await;
    let others = [
        app.another_instance_with(&["--purge-url", &cache.url])
            .await,
        app.another_instance_with(&["--purge-url", &cache.url])
            .await,
    ];
    let (id, _) = published_folder(&app, "Once", "1/2").await;
    cache.wait_for(&format!("c{id}")).await;
    let before = cache.count(&format!("c{id}"));
    // Ten changes through the three instances, each purged by one of them (changes that
    // come together may share a purge).
    for i in 0..10 {
        let by = [&app, &others[0], &others[1]][i % 3];
        let verb = if i % 2 == 0 { "hide" } else { "reveal" };
        by.req("POST", &format!("/content/objects/{id}/{verb}"))
            .admin()
            .send()
            .await
            .assert(204);
    }
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    let purged = cache.count(&format!("c{id}")) - before;
    assert!(
        (1..=10).contains(&purged),
        "10 changes purged {purged} times"
    );
}
