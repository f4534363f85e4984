//! Creations name what they created: the event's resource is the `Location` of the 201
//! answer, for content and for every other resource.

use super::*;
use crate::content::{add_location, published_folder};

/// The events of creations name what was created: a content item, a Location, a copy.
#[tokio::test]
async fn a_creation_names_what_it_created() {
    let app = TestApp::new().await;
    let start = events(&app, "").admin().send().await.json()["EventList"]["last"]
        .as_i64()
        .unwrap();
    let (folder, _) = published_folder(&app, "Made", "/content/locations/1/2").await;
    let location = add_location(&app, folder, "1/43").await;
    app.req("COPY", &format!("/content/objects/{folder}"))
        .admin()
        .header("destination", "/api/ibexa/v2/content/locations/1/43")
        .send()
        .await
        .assert(201);
    let page = events(&app, &format!("?after={start}"))
        .admin()
        .send()
        .await
        .json();
    let seen: Vec<(String, String)> = items(&page, "EventList", "Event")
        .iter()
        .map(|e| {
            (
                e["operation"].as_str().unwrap().to_string(),
                e["Resource"]["_href"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let of = |op: &str| {
        seen.iter()
            .find(|(o, _)| o == op)
            .map(|(_, r)| r.clone())
            .unwrap_or_else(|| panic!("no {op} in {seen:?}"))
    };
    assert_eq!(
        of("createContent"),
        format!("{PREFIX}/content/objects/{folder}")
    );
    let copy = of("copyContent");
    assert!(
        copy.starts_with(&format!("{PREFIX}/content/objects/")),
        "{copy}"
    );
    assert_ne!(copy, format!("{PREFIX}/content/objects/{folder}"));
    assert_eq!(of("createLocation"), location);
}

/// Every other creation names what it created too: the event's resource is the `Location`
/// of the 201 answer (a Role, a Policy, an Object state group and state, a URL wildcard and
/// alias, a bookmark, a content type group, a content type and its draft, a version draft and
/// a relation of it).
#[tokio::test]
async fn every_creation_names_its_resource() {
    let app = TestApp::new().await;
    let (folder, _) = published_folder(&app, "Bookmarked", "/content/locations/1/2").await;
    let last_event = async || {
        let page = events(&app, "?after=0&limit=1000")
            .admin()
            .send()
            .await
            .json();
        let all = items(&page, "EventList", "Event");
        let last = all.last().expect("an event").clone();
        (
            last["operation"].as_str().unwrap().to_string(),
            last["Resource"]["_href"].as_str().unwrap().to_string(),
        )
    };
    let created = async |op: &str, req: Req<'_>| {
        let r = req.send().await;
        r.assert(201);
        let location = r.header("location").expect("a Location header");
        assert_eq!(last_event().await, (op.to_string(), location.clone()));
        location
    };
    let post = |path: &str| app.req("POST", path).admin();
    let role_input = |identifier: &str| json!({ "identifier": identifier });
    let role = created(
        "createRole",
        post("/user/roles").json_body("RoleInput", role_input("evented")),
    )
    .await;
    let role = role.rsplit('/').next().unwrap().to_string();
    let published =
        post("/user/roles?publish=true").json_body("RoleInput", role_input("published"));
    let published = created("createRole", published).await;
    created("createRoleDraft", app.abs("POST", &published).admin()).await;
    let read = json!({"module": "content", "function": "read"});
    let policy = post(&format!("/user/roles/{role}/policies")).json_body("PolicyCreate", read);
    created("addPolicy", policy).await;
    let group = crate::object_states::group_input("evented");
    let group = post("/content/objectstategroups").json_body("ObjectStateGroupCreate", group);
    let group = created("createObjectStateGroup", group).await;
    let group = group.rsplit('/').next().unwrap().to_string();
    let main = app
        .get(&format!("/content/objects/{folder}"))
        .accept("ContentInfo+json")
        .admin()
        .send()
        .await
        .json()["Content"]["MainLocation"]["_href"]
        .as_str()
        .unwrap()
        .to_string();
    let location_id = main.rsplit('/').next().unwrap().to_string();
    // The rest depend on nothing created above but the group: a table, in order.
    let states = format!("/content/objectstategroups/{group}/objectstates");
    let state = crate::object_states::state_input("on", 0);
    let wildcard = json!({"sourceUrl": "/old/*", "destinationUrl": "/new/{1}", "forward": false});
    let alias = json!({"_type": "LOCATION", "location": {"_href": format!("{PREFIX}/content/locations/1/2")},
        "path": "/evented", "languageCode": "eng-GB"});
    let content_type = crate::content_types::type_create("evented", vec![]);
    let relation = json!({"Destination": {"_href": format!("{PREFIX}/content/objects/4")}});
    let relations = format!("/content/objects/{folder}/versions/2/relations");
    let table = [
        (
            "createObjectState",
            post(&states).json_body("ObjectStateCreate", state),
        ),
        (
            "createURLWildcard",
            post("/content/urlwildcards").json_body("UrlWildcardCreate", wildcard),
        ),
        (
            "createURLAlias",
            post("/content/urlaliases").json_body("UrlAliasCreate", alias),
        ),
        ("createBookmark", post(&format!("/bookmark/{location_id}"))),
        (
            "createContentTypeGroup",
            post("/content/typegroups")
                .json_body("ContentTypeGroupInput", json!({"identifier": "Evented"})),
        ),
        (
            "createContentType",
            post("/content/typegroups/1/types")
                .accept("ContentType+json")
                .json_body("ContentTypeCreate", content_type),
        ),
        (
            "createContentTypeDraft",
            post("/content/types/1")
                .json_body("ContentTypeUpdate", json!({"identifier": "folder"})),
        ),
        (
            "createDraftFromCurrentVersion",
            app.req("COPY", &format!("/content/objects/{folder}/currentversion"))
                .admin(),
        ),
        (
            "createRelation",
            post(&relations).json_body("RelationCreate", relation),
        ),
    ];
    for (op, req) in table {
        created(op, req).await;
    }
}
