//! Reads at the edge (issue 44), behind a real Varnish (`docs/varnish/cairn.vcl`, or the VCL
//! `CAIRN_VCL` names) in front of cairn served over TCP and purging it: every kind of change
//! is seen by the next read through it, anonymous answers are shared, an editor's never
//! reaches anonymous, and the purges of changes made while cairn was down arrive when it is
//! back. Skipped with a warning without varnishd and its xkey vmod (`.ci/varnish`), failing
//! instead under `CAIRN_REQUIRE_VARNISH`.

use crate::content::{publish_name, published_folder};
use crate::permissions::{PW, plain_user, role_for};
use crate::support::*;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// How long the purges nobody waits for may take to reach Varnish: those of another
/// instance's changes, sent when the purging instance next looks for them. (A write through an
/// instance that purges answers once Varnish has its purge: the next read sees it.)
const PURGED_WITHIN: Duration = Duration::from_secs(5);

/// cairn served over TCP with Varnish in front: reads go through `varnish`, changes are made
/// on `owner` (the instance that owns the database, beside the served one).
struct Edge {
    varnish: Varnish,
    served: Served,
    owner: TestApp,
    purge: Vec<String>,
}

impl Edge {
    /// Both instances purge Varnish.
    async fn start() -> Option<Edge> {
        Self::start_with(true).await
    }

    /// The served instance purges Varnish; the owner too when `owner_purges`.
    async fn start_with(owner_purges: bool) -> Option<Edge> {
        let mut served = Served::reserve();
        let varnish = Varnish::start(served.port())?;
        let purge = vec!["--purge-url".to_string(), varnish.purge_url()];
        knows_options(&purge);
        let owner = if owner_purges {
            TestApp::with_args(&args(&purge)).await
        } else {
            TestApp::new().await
        };
        served
            .start(owner.another_instance_with(&args(&purge)).await)
            .await;
        Some(Edge {
            varnish,
            served,
            owner,
            purge,
        })
    }

    /// The served instance stopped (nothing answers on its port, nothing of it purges).
    async fn stop_cairn(&mut self) {
        self.served.stop().await;
    }

    /// A new served instance on the same port, purging Varnish.
    async fn start_cairn(&mut self) {
        let app = self.owner.another_instance_with(&args(&self.purge)).await;
        self.served.start(app).await;
    }

    /// An anonymous GET of `path` (under the API prefix) in `media` through Varnish.
    async fn read(&self, path: &str, media: &str) -> EdgeResp {
        self.varnish.get(path).accept(media).send().await
    }

    /// Reads `path` until a second read is a HIT of the same answer (the purges of the
    /// test's own setup may still be arriving); that answer.
    async fn fill(&self, path: &str, media: &str) -> Value {
        let deadline = Instant::now() + PURGED_WITHIN;
        loop {
            let first = self.read(path, media).await;
            first.assert(200);
            let again = self.read(path, media).await;
            again.assert(200);
            if again.hit() && again.body == first.body {
                return again.json();
            }
            assert!(
                Instant::now() < deadline,
                "{path} not kept by Varnish: {again:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Reads `path` once and asserts that `seen` holds of its status and JSON body (`null`
    /// when not JSON): the read right after a change; that body.
    async fn next(&self, path: &str, media: &str, seen: impl Fn(u16, &Value) -> bool) -> Value {
        let r = self.read(path, media).await;
        let body = serde_json::from_str(&r.body).unwrap_or(Value::Null);
        assert!(
            seen(r.status, &body),
            "{path}: not as expected after the change: {r:?}"
        );
        body
    }

    /// Reads `path` until `seen` holds of its status and JSON body, for at most `within`;
    /// that body.
    async fn until_within(
        &self,
        within: Duration,
        path: &str,
        media: &str,
        seen: impl Fn(u16, &Value) -> bool,
    ) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let r = self.read(path, media).await;
            let body = serde_json::from_str(&r.body).unwrap_or(Value::Null);
            if seen(r.status, &body) {
                return body;
            }
            assert!(
                Instant::now() < deadline,
                "{path}: still not as expected {within:?} after the change: {r:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Fails the test (instead of ending the test process, as the harness's parse would) when
/// `cairn serve` lacks the options of issue 44's server side.
fn knows_options(extra: &[String]) {
    let mut all = vec!["cairn", "serve", "--database-url", "sqlite::memory:"];
    all.extend(args(extra));
    if let Err(e) = <cairn::config::Cli as clap::Parser>::try_parse_from(all) {
        panic!("cairn serve does not take {extra:?} (issue 44's server side): {e}");
    }
}

/// The ids of the Locations of a `LocationList` (JSON).
fn location_ids(list: &Value) -> Vec<i64> {
    items(list, "LocationList", "Location")
        .iter()
        .map(|l| last_id(l["_href"].as_str().unwrap()))
        .collect()
}

fn children(at: &str) -> String {
    format!("/content/locations/{at}/children")
}

fn id_at(path: &str) -> i64 {
    last_id(path)
}

/// Hides the Location at `at` (as admin).
async fn hide(app: &TestApp, at: &str) {
    app.req("PATCH", &format!("/content/locations/{at}"))
        .admin()
        .json_body("LocationUpdate", json!({"hidden": true}))
        .send()
        .await
        .assert(200);
}

/// Sends the Location at `at` to the trash (as admin); the trash item's href.
async fn trash(app: &TestApp, at: &str) -> String {
    let r = app
        .req("MOVE", &format!("/content/locations/{at}"))
        .admin()
        .header("destination", &format!("{PREFIX}/content/trash"))
        .send()
        .await;
    r.assert(201);
    r.header("location").unwrap()
}

/// Whether an anonymous read of a Location shows it hidden (or no longer shows it).
fn shown_hidden(status: u16, location: &Value) -> bool {
    status != 200 || location["Location"]["hidden"] == true
}

#[tokio::test]
async fn a_published_edit_is_seen_at_once() {
    let Some(edge) = Edge::start().await else {
        return;
    };
    let (id, at) = published_folder(&edge.owner, "Before", "1/2").await;
    let item = format!("/content/objects/{id}");
    let location = format!("/content/locations/{at}");
    assert_eq!(
        edge.fill(&item, "Content+json").await["Content"]["Name"],
        "Before"
    );
    let l = edge.fill(&location, "Location+json").await;
    assert_eq!(l["Location"]["ContentInfo"]["Content"]["Name"], "Before");

    publish_name(&edge.owner, id, "After").await;
    edge.next(&item, "Content+json", |s, c| {
        s == 200 && c["Content"]["Name"] == "After"
    })
    .await;
    edge.next(&location, "Location+json", |s, l| {
        s == 200 && l["Location"]["ContentInfo"]["Content"]["Name"] == "After"
    })
    .await;
}

#[tokio::test]
async fn a_move_is_seen_at_once() {
    let Some(edge) = Edge::start().await else {
        return;
    };
    let (_, a) = published_folder(&edge.owner, "A", "1/2").await;
    let (_, b) = published_folder(&edge.owner, "B", "1/2").await;
    let (_, x) = published_folder(&edge.owner, "X", &a).await;
    let x_id = id_at(&x);
    assert_eq!(
        location_ids(&edge.fill(&children(&a), "LocationList+json").await),
        [x_id]
    );
    assert!(location_ids(&edge.fill(&children(&b), "LocationList+json").await).is_empty());
    let moved = edge
        .fill(&format!("/content/locations/{x}"), "Location+json")
        .await;
    assert_eq!(moved["Location"]["pathString"], format!("/{x}/"));

    edge.owner.move_to(&x, &b).send().await.assert(201);
    edge.next(&children(&a), "LocationList+json", |s, l| {
        s == 200 && location_ids(l).is_empty()
    })
    .await;
    edge.next(&children(&b), "LocationList+json", |s, l| {
        s == 200 && location_ids(l) == [x_id]
    })
    .await;
    // Under its old path: moved, or not found there any more.
    let moved_to = format!("/{b}/{x_id}/");
    edge.next(
        &format!("/content/locations/{x}"),
        "Location+json",
        |s, l| s != 200 || l["Location"]["pathString"] == moved_to.as_str(),
    )
    .await;
}

#[tokio::test]
async fn a_hide_is_seen_at_once() {
    let Some(edge) = Edge::start().await else {
        return;
    };
    let (_, h) = published_folder(&edge.owner, "Hidden soon", "1/2").await;
    let location = format!("/content/locations/{h}");
    assert_eq!(
        edge.fill(&location, "Location+json").await["Location"]["hidden"],
        false
    );

    hide(&edge.owner, &h).await;
    edge.next(&location, "Location+json", shown_hidden).await;
}

#[tokio::test]
async fn a_trash_is_seen_at_once() {
    let Some(edge) = Edge::start().await else {
        return;
    };
    let (_, p) = published_folder(&edge.owner, "Parent", "1/2").await;
    let (_, t) = published_folder(&edge.owner, "Trashed soon", &p).await;
    let location = format!("/content/locations/{t}");
    edge.fill(&location, "Location+json").await;
    let list = edge.fill(&children(&p), "LocationList+json").await;
    assert_eq!(location_ids(&list), [id_at(&t)]);

    trash(&edge.owner, &t).await;
    edge.next(&location, "Location+json", |s, _| s == 404).await;
    edge.next(&children(&p), "LocationList+json", |s, l| {
        s == 200 && location_ids(l).is_empty()
    })
    .await;
    edge.next(
        &format!("/content/locations/{p}"),
        "Location+json",
        |s, l| s == 200 && l["Location"]["childCount"] == 0,
    )
    .await;
}

#[tokio::test]
async fn a_restore_is_seen_at_once() {
    let Some(edge) = Edge::start().await else {
        return;
    };
    let (_, p) = published_folder(&edge.owner, "Parent", "1/2").await;
    let (_, t) = published_folder(&edge.owner, "Trashed", &p).await;
    let parent = format!("/content/locations/{p}");
    let item = trash(&edge.owner, &t).await;
    assert!(location_ids(&edge.fill(&children(&p), "LocationList+json").await).is_empty());
    assert_eq!(
        edge.fill(&parent, "Location+json").await["Location"]["childCount"],
        0
    );

    edge.owner
        .abs("MOVE", &item)
        .admin()
        .send()
        .await
        .assert(201);
    edge.next(&children(&p), "LocationList+json", |s, l| {
        s == 200 && location_ids(l).len() == 1
    })
    .await;
    edge.next(&parent, "Location+json", |s, l| {
        s == 200 && l["Location"]["childCount"] == 1
    })
    .await;
}

#[tokio::test]
async fn a_role_change_is_seen_at_once() {
    let Some(edge) = Edge::start().await else {
        return;
    };
    // Of a parent in the Standard Section, one child in it and one in Media, which the
    // Anonymous Role does not read.
    let (_, p) = published_folder(&edge.owner, "Parent", "1/2").await;
    let (_, a) = published_folder(&edge.owner, "Standard", &p).await;
    let (m, m_at) = published_folder(&edge.owner, "Media", &p).await;
    edge.owner.set_section(m, 3).await;
    let media = format!("/content/objects/{m}");
    let list = edge.fill(&children(&p), "LocationList+json").await;
    assert_eq!(location_ids(&list), [id_at(&a)]);
    let refused = edge.read(&media, "Content+json").await;
    assert!(refused.status >= 400, "{refused:?}");

    // A Role that reads everything, given to the anonymous user (id 10).
    let all = [json!(["content", "read", []])];
    role_for(&edge.owner, 10, "Anonymous reads all", &all, None).await;
    let both = [id_at(&a), id_at(&m_at)];
    edge.next(&children(&p), "LocationList+json", |s, l| {
        s == 200 && location_ids(l) == both
    })
    .await;
    edge.next(&media, "Content+json", |s, _| s == 200).await;
}

#[tokio::test]
async fn a_content_type_change_is_seen_at_once() {
    let Some(edge) = Edge::start().await else {
        return;
    };
    let folder = edge.fill("/content/types/1", "ContentType+json").await;
    assert_eq!(folder["ContentType"]["isContainer"], true);

    let owner = &edge.owner;
    (owner.req("POST", "/content/types/1").admin())
        .json_body("ContentTypeUpdate", json!({}))
        .send()
        .await
        .assert(201);
    (owner.req("PATCH", "/content/types/1/draft").admin())
        .json_body("ContentTypeUpdate", json!({"isContainer": false}))
        .send()
        .await
        .assert(200);
    (owner.req("PUBLISH", "/content/types/1/draft").admin())
        .send()
        .await
        .assert(200);
    edge.next("/content/types/1", "ContentType+json", |s, t| {
        s == 200 && t["ContentType"]["isContainer"] == false
    })
    .await;
}

#[tokio::test]
async fn anonymous_answers_are_shared_and_tagged() {
    let Some(edge) = Edge::start().await else {
        return;
    };
    let (id, at) = published_folder(&edge.owner, "Shared", "1/2").await;
    let path = format!("/content/locations/{at}");
    // One reader, then another (with a tracker's cookie, which Varnish drops): its HIT.
    // Tried again while the purges of the setup may still empty the cache between the two.
    let deadline = Instant::now() + PURGED_WITHIN;
    let mut tries = 0;
    let other = loop {
        let first = edge.varnish.get(&path).accept("Location+json").send().await;
        first.assert(200);
        if tries == 0 {
            assert_eq!(first.x_cache(), "MISS", "{first:?}");
        }
        tries += 1;
        let other = (edge.varnish.get(&path).accept("Location+json"))
            .cookie("_ga=GA1.1.1234; theme=dark")
            .header("user-agent", "another reader")
            .send()
            .await;
        other.assert(200);
        if other.hit() && other.body == first.body {
            break other;
        }
        assert!(Instant::now() < deadline, "not shared: {other:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // Public, for a TTL; its tags shown to the tests (a debugger); the user context hash
    // neither in Vary nor anywhere else.
    let cc = other.header("cache-control").unwrap_or_default();
    assert!(cc.contains("public"), "{cc}");
    // The reference's tags: `p<id>` for each Location of its path (itself included), and
    // `c<id>` on its content item's answer.
    let tags = other.header("xkey").unwrap_or_default();
    let tags: Vec<&str> = tags.split_whitespace().collect();
    for tag in ["ez-all".to_string(), format!("p{}", id_at(&at))] {
        assert!(tags.contains(&tag.as_str()), "{tag} not in {tags:?}");
    }
    let item = edge
        .read(&format!("/content/objects/{id}"), "Content+json")
        .await;
    item.assert(200);
    let tags = item.header("xkey").unwrap_or_default();
    let tags: Vec<&str> = tags.split_whitespace().collect();
    for tag in ["ez-all".to_string(), format!("c{id}")] {
        assert!(tags.contains(&tag.as_str()), "{tag} not in {tags:?}");
    }
    let vary = other.header("vary").unwrap_or_default();
    assert!(!vary.to_lowercase().contains("user-context-hash"), "{vary}");
    assert!(other.header("x-user-context-hash").is_none());
    // Another format is another answer.
    let xml = edge.varnish.get(&path).accept("Location+xml").send().await;
    xml.assert(200);
    assert_eq!(xml.x_cache(), "MISS");
}

#[tokio::test]
async fn an_editors_answer_never_reaches_anonymous() {
    let Some(edge) = Edge::start().await else {
        return;
    };
    // An editor who reads every Section; an item in Media, which anonymous may not read.
    let editor = plain_user(&edge.owner, "editor").await;
    role_for(
        &edge.owner,
        editor,
        "Reads all",
        &[json!(["content", "read", []])],
        None,
    )
    .await;
    let (m, _) = published_folder(&edge.owner, "Media", "1/2").await;
    edge.owner.set_section(m, 3).await;
    let (s, _) = published_folder(&edge.owner, "Standard", "1/2").await;
    let (cookie, _) = edge.owner.login_as("editor", PW).await;
    let as_editor = |path: &str| {
        edge.varnish
            .get(path)
            .accept("Content+json")
            .cookie(&format!("_ga=1; {cookie}"))
    };

    for id in [m, s] {
        let path = format!("/content/objects/{id}");
        let mine = as_editor(&path).send().await;
        mine.assert(200);
        // Not for other caches to keep.
        let cc = mine.header("cache-control").unwrap_or_default();
        assert!(!cc.contains("public"), "{path}: {cc}");
        let again = as_editor(&path).send().await;
        assert_eq!(again.body, mine.body);

        let anonymous = edge.read(&path, "Content+json").await;
        assert!(
            !anonymous.hit(),
            "{path}: the editor's answer reached anonymous"
        );
        if id == m {
            assert!(anonymous.status >= 400, "{path}: {anonymous:?}");
        } else {
            anonymous.assert(200);
        }
        // Nor does an admin's (HTTP Basic).
        let admin = edge
            .varnish
            .get(&path)
            .accept("Content+json")
            .admin()
            .send()
            .await;
        admin.assert(200);
        let anonymous = edge.read(&path, "Content+json").await;
        let readable = id == s;
        assert_eq!(anonymous.status == 200, readable, "{path}: {anonymous:?}");
    }
}

#[tokio::test]
async fn changes_made_while_cairn_is_down_are_purged_when_it_is_back() {
    // The owner does not purge: the served instance, stopped while the owner changes things,
    // must purge them all once started again.
    let Some(mut edge) = Edge::start_with(false).await else {
        return;
    };
    // Made through the served instance, which purges them itself before it answers (the
    // owner's would reach Varnish only when the served instance next looks for other
    // instances' changes, perhaps once the cache is filled below).
    let served = edge.served.app();
    let (p, p_at) = published_folder(&served, "Parent", "1/2").await;
    let (e, _) = published_folder(&served, "Edited", &p_at).await;
    let (_, h) = published_folder(&served, "Hidden", &p_at).await;
    let (_, t) = published_folder(&served, "Trashed", &p_at).await;
    drop(served);
    let edited = format!("/content/objects/{e}");
    let hidden = format!("/content/locations/{h}");
    let parent = format!("/content/locations/{p_at}");
    let parent_item = format!("/content/objects/{p}");
    edge.fill(&edited, "Content+json").await;
    edge.fill(&parent_item, "Content+json").await;
    edge.fill(&hidden, "Location+json").await;
    assert_eq!(
        edge.fill(&parent, "Location+json").await["Location"]["childCount"],
        3
    );

    edge.stop_cairn().await;
    publish_name(&edge.owner, e, "Edited while down").await;
    hide(&edge.owner, &h).await;
    trash(&edge.owner, &t).await;
    (edge
        .owner
        .req("PATCH", &format!("/content/objects/{p}"))
        .admin())
    .json_body("ContentUpdate", json!({"remoteId": "changed-while-down"}))
    .send()
    .await
    .assert(200);
    // Nothing purged them yet: Varnish still has the old answers.
    for (path, media) in [
        (&edited, "Content+json"),
        (&hidden, "Location+json"),
        (&parent, "Location+json"),
        (&parent_item, "Content+json"),
    ] {
        let r = edge.read(path, media).await;
        assert!(r.hit(), "{path} while cairn is down: {r:?}");
    }

    // Started again, it sends every purge it owes (retried until Varnish takes them).
    edge.start_cairn().await;
    let within = Duration::from_secs(20);
    edge.until_within(within, &edited, "Content+json", |s, c| {
        s == 200 && c["Content"]["Name"] == "Edited while down"
    })
    .await;
    edge.until_within(within, &hidden, "Location+json", shown_hidden)
        .await;
    edge.until_within(within, &parent, "Location+json", |s, l| {
        s == 200 && l["Location"]["childCount"] == 2
    })
    .await;
    edge.until_within(within, &parent_item, "Content+json", |s, c| {
        s == 200 && c["Content"]["_remoteId"] == "changed-while-down"
    })
    .await;
}
