//! After each kind of write, every kept answer is what a server without a cache answers:
//! the instance under test keeps its answers; an instance started after the write over the
//! same database, with the cache off, is the truth it is compared with. Two callers read: the administrator, and
//! a user who may read one subtree only (so a write that moves something in or out of it
//! changes what that user may see).

use crate::support::*;
use serde_json::json;

/// The repository as the writes leave it: content items and Location paths to read.
struct Scene {
    items: Vec<i64>,
    locations: Vec<String>,
}

impl Scene {
    /// Every read compared: the items, their Locations, versions and aliases, the lists a
    /// write may change, and a search.
    fn reads(&self) -> Vec<(String, &'static str)> {
        let mut r = vec![];
        for id in &self.items {
            r.push((format!("/content/objects/{id}"), "Content+json"));
            r.push((
                format!("/content/objects/{id}/locations"),
                "LocationList+json",
            ));
            r.push((
                format!("/content/objects/{id}/versions"),
                "VersionList+json",
            ));
            r.push((
                format!("/content/objects/{id}/objectstates"),
                "ContentObjectStates+json",
            ));
        }
        for p in &self.locations {
            r.push((format!("/content/locations/{p}"), "Location+json"));
            r.push((
                format!("/content/locations/{p}/children"),
                "LocationList+json",
            ));
            r.push((
                format!("/content/locations/{p}/urlaliases"),
                "UrlAliasRefList+json",
            ));
        }
        for (p, accept) in [
            ("/content/locations/1/2", "Location+json"),
            ("/content/locations/1/2/children", "LocationList+json"),
            ("/content/trash", "Trash+json"),
            ("/content/urlaliases", "UrlAliasRefList+json"),
            ("/content/sections", "SectionList+json"),
            ("/content/sections/1", "Section+json"),
            ("/content/types/1", "ContentType+json"),
            ("/content/typegroups/1/types", "ContentTypeInfoList+json"),
            ("/content/objectstategroups", "ObjectStateGroupList+json"),
            ("/user/users/14", "User+json"),
            ("/user/users/14/roles", "RoleAssignmentList+json"),
            ("/user/groups/1/5/subgroups", "UserGroupList+json"),
            ("/user/roles", "RoleList+json"),
        ] {
            r.push((p.to_string(), accept));
        }
        r
    }
}

/// A search for folders, as a kept `POST /views` answer.
async fn search(app: &TestApp, reader: Option<&str>) -> Resp {
    by(app.req("POST", "/views"), reader)
        .accept("View+json")
        .raw_body(
            "application/vnd.ibexa.api.ViewInput+json; version=1.1",
            &json!({"ViewInput": {"identifier": "f", "LocationQuery": {
                "Filter": {"ContentTypeIdentifierCriterion": "folder"}, "limit": 50}}})
            .to_string(),
        )
        .send()
        .await
}

/// The readers: the administrator, and the user who reads one subtree.
const READERS: [Option<&str>; 2] = [None, Some("reader")];

/// `r` as `reader` (none: the administrator).
fn by<'a>(r: Req<'a>, reader: Option<&str>) -> Req<'a> {
    match reader {
        None => r.admin(),
        Some(login) => r.basic(login, crate::permissions::PW),
    }
}

/// Reads everything twice on `app`, so that the second answer is a kept one.
async fn warm(app: &TestApp, scene: &Scene) {
    for _ in 0..2 {
        for reader in READERS {
            for (p, accept) in scene.reads() {
                by(app.get(&p), reader).accept(accept).send().await;
            }
            search(app, reader).await;
        }
    }
}

/// Every read of `app` answers as the uncached `truth` does, after the write `what`.
async fn same_as_truth(app: &TestApp, truth: &TestApp, scene: &Scene, what: &str) {
    for reader in READERS {
        for (p, accept) in scene.reads() {
            let kept = by(app.get(&p), reader).accept(accept).send().await;
            let fresh = by(truth.get(&p), reader).accept(accept).send().await;
            assert_eq!(
                kept.status, fresh.status,
                "after {what}: GET {p} as {reader:?}"
            );
            assert_eq!(kept.body, fresh.body, "after {what}: GET {p} as {reader:?}");
        }
        // The same hits; the time each took is its own.
        let hits = |r: Resp| {
            let mut j = r.json();
            j["View"]["Result"]["time"] = json!(null);
            j
        };
        let kept = hits(search(app, reader).await);
        let fresh = hits(search(truth, reader).await);
        assert!(kept == fresh, "after {what}: the search as {reader:?}");
    }
}

/// After the write `what`: every read of `app` answers as an instance started now, without
/// a cache, does.
async fn after(app: &TestApp, scene: &Scene, what: &str) {
    let truth = Box::pin(app.another_instance_with(&["--cache-mib", "0", "--db-pool", "2"])).await;
    Box::pin(same_as_truth(app, &truth, scene, what)).await;
}

/// The trash item's id from the answer of a MOVE to the trash.
fn trash_item(r: &Resp) -> i64 {
    last_id(&r.header("location").unwrap())
}

async fn send(r: Req<'_>, status: u16) -> Resp {
    let r = r.send().await;
    r.assert(status);
    r
}

fn destination(path: &str) -> String {
    format!("/api/ibexa/v2/content/locations/{path}")
}

#[tokio::test]
async fn after_every_kind_of_write_kept_answers_are_what_an_uncached_server_answers() {
    let app = TestApp::new().await;
    let (f, fp) = crate::content::published_folder(&app, "F", "1/2").await;
    let (g, gp) = crate::content::published_folder(&app, "G", &fp).await;
    let (h, hp) = crate::content::published_folder(&app, "H", "1/2").await;
    let reader = crate::permissions::plain_user(&app, "reader").await;
    let subtree = format!("/{fp}/");
    crate::permissions::role_for(
        &app,
        reader,
        "subtree_reader",
        &[json!(["content", "read", [["Subtree", [subtree]]]])],
        None,
    )
    .await;
    let status = async |id: i64| {
        let r = by(app.get(&format!("/content/objects/{id}")), Some("reader"));
        r.accept("Content+json").send().await.status.as_u16()
    };
    assert_eq!((status(f).await, status(g).await), (200u16, 200u16));
    assert_eq!(status(h).await, 401u16, "H is outside the reader's subtree");
    let mut scene = Scene {
        items: vec![f, g, h],
        locations: vec![fp.clone(), gp.clone(), hp.clone()],
    };
    macro_rules! step {
        ($what:expr, $write:expr) => {{
            Box::pin(warm(&app, &scene)).await;
            $write;
            Box::pin(after(&app, &scene, $what)).await;
        }};
    }
    // A write that is requests only, each with the status it answers.
    macro_rules! writes {
        ($what:expr, $(($req:expr, $status:expr)),+ $(,)?) => {
            step!($what, { $(send($req, $status).await;)+ })
        };
    }

    step!("a draft created and published", {
        let id = crate::content::create_folder(&app, "New", &fp).await;
        crate::content::publish(&app, id, 1).await;
        scene.items.push(id);
    });
    writes!(
        "content metadata updated",
        (
            app.req("PATCH", &format!("/content/objects/{f}"))
                .admin()
                .json_body("ContentUpdate", json!({"remoteId": "renamed-f"})),
            200
        )
    );
    writes!(
        "a content item hidden",
        (
            app.req("POST", &format!("/content/objects/{f}/hide"))
                .admin(),
            204
        )
    );
    writes!(
        "a content item revealed",
        (
            app.req("POST", &format!("/content/objects/{f}/reveal"))
                .admin(),
            204
        )
    );
    writes!(
        "an Object state set",
        (
        app.req("PATCH", &format!("/content/objects/{g}/objectstates"))
            .admin()
            .json_body(
                "ContentObjectStates",
                json!({"ObjectState": [{"_href": "/api/ibexa/v2/content/objectstategroups/2/objectstates/2"}]}),
            ),
            200
        )
    );
    step!("a new version published", {
        let r = send(
            app.req("COPY", &format!("/content/objects/{f}/currentversion"))
                .admin()
                .accept("Version+json"),
            201,
        )
        .await;
        let no = r.json()["Version"]["VersionInfo"]["versionNo"]
            .as_i64()
            .unwrap();
        send(
            app.req("PATCH", &format!("/content/objects/{f}/versions/{no}"))
                .admin()
                .json_body(
                    "VersionUpdate",
                    json!({"fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "F2"}]}}),
                ),
            200,
        )
        .await;
        crate::content::publish(&app, f, no).await;
    });
    writes!(
        "a version deleted",
        (
            app.req("DELETE", &format!("/content/objects/{f}/versions/1"))
                .admin(),
            204
        )
    );
    writes!(
        "a Location hidden",
        (
            app.req("PATCH", &format!("/content/locations/{fp}"))
                .admin()
                .json_body("LocationUpdate", json!({"hidden": true})),
            200
        )
    );
    writes!(
        "a Location revealed",
        (
            app.req("PATCH", &format!("/content/locations/{fp}"))
                .admin()
                .json_body("LocationUpdate", json!({"hidden": false})),
            200
        )
    );
    step!("a Location moved", {
        send(
            app.req("MOVE", &format!("/content/locations/{gp}"))
                .admin()
                .header("destination", &destination(&hp)),
            201,
        )
        .await;
        let id = gp.rsplit('/').next().unwrap();
        scene.locations.push(format!("{hp}/{id}"));
    });
    writes!(
        "a subtree copied",
        (
            app.req("COPY", &format!("/content/locations/{hp}"))
                .admin()
                .header("destination", &destination(&fp)),
            201
        )
    );
    writes!(
        "two Locations swapped",
        (
            app.req("SWAP", &format!("/content/locations/{fp}"))
                .admin()
                .header("destination", &destination(&hp)),
            204
        )
    );
    let moved = scene.locations.last().unwrap().clone();
    let item;
    step!("a Location trashed", {
        let r = send(
            app.req("MOVE", &format!("/content/locations/{moved}"))
                .admin()
                .header("destination", "/api/ibexa/v2/content/trash"),
            201,
        )
        .await;
        item = trash_item(&r);
    });
    writes!(
        "a trash item restored",
        (
            app.req("MOVE", &format!("/content/trash/{item}")).admin(),
            201
        )
    );
    writes!(
        "a Location deleted",
        (
            app.req("DELETE", &format!("/content/locations/{moved}"))
                .admin(),
            204
        )
    );
    step!("a content item deleted", {
        let last = *scene.items.last().unwrap();
        send(
            app.req("DELETE", &format!("/content/objects/{last}"))
                .admin(),
            204,
        )
        .await;
    });
    step!("the reader's group moved under another group", {
        let path = async |content: i64| {
            let rows = app
                .query(
                    "SELECT path_string FROM locations WHERE content_id = ?",
                    vec![content.into()],
                )
                .await;
            rows[0]["path_string"]
                .as_str()
                .unwrap()
                .trim_matches('/')
                .to_string()
        };
        let own = path(reader).await;
        let group = own.rsplit_once('/').unwrap().0.to_string();
        let editors = path(13).await;
        send(
            app.req("MOVE", &format!("/content/locations/{group}"))
                .admin()
                .header("destination", &destination(&editors)),
            201,
        )
        .await;
    });
    writes!(
        "a URL alias created",
        (
            app.req("POST", "/content/urlaliases").admin().json_body(
                "UrlAliasCreate",
                json!({"_type": "LOCATION", "location": {"_href": destination(&hp)},
                       "path": "/my-h", "languageCode": "eng-GB"}),
            ),
            201
        )
    );
    writes!(
        "a Section renamed",
        (
            app.req("PATCH", "/content/sections/1")
                .admin()
                .json_body("SectionInput", json!({"name": "Renamed"})),
            200
        )
    );
    step!("a content type changed", {
        send(
            app.req("POST", "/content/types/1").admin().json_body(
                "ContentTypeUpdate",
                json!({"names": {"value": [{"_languageCode": "eng-GB", "#text": "Dossier"}]}}),
            ),
            201,
        )
        .await;
        send(app.req("PUBLISH", "/content/types/1/draft").admin(), 200).await;
    });
    writes!(
        "an Object state group created",
        (
            app.req("POST", "/content/objectstategroups")
                .admin()
                .json_body(
                    "ObjectStateGroupCreate",
                    json!({"identifier": "review", "defaultLanguageCode": "eng-GB",
                       "names": {"value": [{"_languageCode": "eng-GB", "#text": "Review"}]}}),
                ),
            201
        )
    );
    writes!(
        "a user updated",
        (
            app.req("PATCH", "/user/users/14")
                .admin()
                .json_body("UserUpdate", json!({"email": "root@example.com"})),
            200
        )
    );
    writes!(
        "a user group created",
        (
        app.req("POST", "/user/groups/1/5/subgroups")
            .admin()
            .json_body(
                "UserGroupCreate",
                json!({"mainLanguageCode": "eng-GB", "fields": {"field": [
                    {"fieldDefinitionIdentifier": "name", "languageCode": "eng-GB", "fieldValue": "Staff"}]}}),
            ),
            201
        )
    );
    step!("a Role created and assigned", {
        let r = send(
            app.req("POST", "/user/roles")
                .admin()
                .accept("Role+json")
                .json_body("RoleInput", json!({"identifier": "reviewer"})),
            201,
        )
        .await;
        let href = r.json()["Role"]["_href"].as_str().unwrap().to_string();
        send(
            app.req("POST", "/user/users/14/roles")
                .admin()
                .json_body("RoleAssignInput", json!({"Role": {"_href": href}})),
            200,
        )
        .await;
    });
}
