//! Object state groups and Object states (spec 4.4): the clean-install group, the life of a
//! group and its states in JSON and XML, priorities, every error, and the content items'
//! states (read straight from the database).

use crate::support::*;
use serde_json::{Value, json};

const GROUP_CHILDREN: [&str; 7] = [
    "id",
    "identifier",
    "defaultLanguageCode",
    "languageCodes",
    "ObjectStates",
    "names",
    "descriptions",
];
const STATE_CHILDREN: [&str; 8] = [
    "id",
    "identifier",
    "priority",
    "ObjectStateGroup",
    "defaultLanguageCode",
    "languageCodes",
    "names",
    "descriptions",
];

fn names(text: &str) -> Value {
    json!({"value": [{"_languageCode": "eng-GB", "#text": text}]})
}

pub(crate) fn group_input(identifier: &str) -> Value {
    json!({
        "identifier": identifier,
        "defaultLanguageCode": "eng-GB",
        "names": names(&format!("Group {identifier}")),
        "descriptions": names("A group"),
    })
}

pub(crate) fn state_input(identifier: &str, priority: i64) -> Value {
    json!({
        "identifier": identifier,
        "priority": priority,
        "defaultLanguageCode": "eng-GB",
        "names": names(&format!("State {identifier}")),
    })
}

async fn create_group(app: &TestApp, identifier: &str) -> i64 {
    let r = app
        .req("POST", "/content/objectstategroups")
        .admin()
        .accept("ObjectStateGroup+json")
        .json_body("ObjectStateGroupCreate", group_input(identifier))
        .send()
        .await;
    r.assert(201);
    r.json()["ObjectStateGroup"]["id"].as_i64().unwrap()
}

/// Creates a state; its (id, priority).
async fn create_state(app: &TestApp, group: i64, identifier: &str, priority: i64) -> (i64, i64) {
    let r = app
        .req(
            "POST",
            &format!("/content/objectstategroups/{group}/objectstates"),
        )
        .admin()
        .accept("ObjectState+json")
        .json_body("ObjectStateCreate", state_input(identifier, priority))
        .send()
        .await;
    r.assert(201);
    let s = &r.json()["ObjectState"];
    (s["id"].as_i64().unwrap(), s["priority"].as_i64().unwrap())
}

/// The group's states as the list gives them: (identifier, priority).
async fn states(app: &TestApp, group: i64) -> Vec<(String, i64)> {
    let r = app
        .get(&format!("/content/objectstategroups/{group}/objectstates"))
        .accept("ObjectStateList+json")
        .send()
        .await;
    r.assert(200);
    r.json()["ObjectStateList"]["ObjectState"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["identifier"].as_str().unwrap().to_string(),
                s["priority"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn order(list: &[(&str, i64)]) -> Vec<(String, i64)> {
    list.iter().map(|(i, p)| (i.to_string(), *p)).collect()
}

fn child_names(el: &cairn_runtime::xml::XmlElement) -> Vec<&str> {
    el.children.iter().map(|c| c.name.as_str()).collect()
}

fn child<'a>(
    el: &'a cairn_runtime::xml::XmlElement,
    name: &str,
) -> &'a cairn_runtime::xml::XmlElement {
    el.children.iter().find(|c| c.name == name).unwrap()
}

#[tokio::test]
async fn lists_the_clean_install_group_and_its_states_in_both_formats() {
    let app = TestApp::new().await;
    let r = app
        .get("/content/objectstategroups")
        .accept("ObjectStateGroupList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.content_type(),
        "application/vnd.ibexa.api.ObjectStateGroupList+json"
    );
    assert!(r.header("accept-patch").is_none());
    assert_eq!(
        r.json(),
        json!({"ObjectStateGroupList": {
            "_media-type": "application/vnd.ibexa.api.ObjectStateGroupList+json",
            "_href": "/api/ibexa/v2/content/objectstategroups",
            "ObjectStateGroup": [{
                "_media-type": "application/vnd.ibexa.api.ObjectStateGroup+json",
                "_href": "/api/ibexa/v2/content/objectstategroups/2",
                "id": 2,
                "identifier": "ez_lock",
                "defaultLanguageCode": "eng-GB",
                "languageCodes": "eng-GB",
                "ObjectStates": {
                    "_media-type": "application/vnd.ibexa.api.ObjectStateList+json",
                    "_href": "/api/ibexa/v2/content/objectstategroups/2/objectstates"
                },
                "names": names("Lock"),
                "descriptions": names(""),
            }]
        }})
    );

    let r = app
        .get("/content/objectstategroups")
        .accept("ObjectStateGroupList+xml")
        .send()
        .await;
    r.assert(200);
    let x = r.xml();
    assert_eq!(x.name, "ObjectStateGroupList");
    assert_eq!(attr(&x, "href"), "/api/ibexa/v2/content/objectstategroups");
    assert_eq!(x.children.len(), 1);
    let g = &x.children[0];
    assert_eq!(g.name, "ObjectStateGroup");
    assert_eq!(
        attr(g, "media-type"),
        "application/vnd.ibexa.api.ObjectStateGroup+xml"
    );
    assert_eq!(child_names(g), GROUP_CHILDREN);
    assert_eq!(child_text(g, "identifier"), "ez_lock");
    assert_eq!(
        attr(child(g, "ObjectStates"), "href"),
        "/api/ibexa/v2/content/objectstategroups/2/objectstates"
    );
    let name = &child(g, "names").children[0];
    assert_eq!(attr(name, "languageCode"), "eng-GB");
    assert_eq!(name.text, "Lock");

    let r = app
        .get("/content/objectstategroups/2/objectstates")
        .accept("ObjectStateList+json")
        .send()
        .await;
    r.assert(200);
    let j = r.json();
    assert_eq!(
        j["ObjectStateList"]["_href"],
        "/api/ibexa/v2/content/objectstategroups/2/objectstates"
    );
    assert_eq!(
        j["ObjectStateList"]["ObjectState"][1],
        json!({
            "_media-type": "application/vnd.ibexa.api.ObjectState+json",
            "_href": "/api/ibexa/v2/content/objectstategroups/2/objectstates/2",
            "id": 2,
            "identifier": "locked",
            "priority": 1,
            "ObjectStateGroup": {
                "_media-type": "application/vnd.ibexa.api.ObjectStateGroup+json",
                "_href": "/api/ibexa/v2/content/objectstategroups/2"
            },
            "defaultLanguageCode": "eng-GB",
            "languageCodes": "eng-GB",
            "names": names("Locked"),
            "descriptions": names(""),
        })
    );
    assert_eq!(
        states(&app, 2).await,
        order(&[("not_locked", 0), ("locked", 1)])
    );

    let r = app
        .get("/content/objectstategroups/2/objectstates")
        .accept("ObjectStateList+xml")
        .send()
        .await;
    r.assert(200);
    let x = r.xml();
    assert_eq!(x.name, "ObjectStateList");
    let s = &x.children[0];
    assert_eq!(s.name, "ObjectState");
    assert_eq!(child_names(s), STATE_CHILDREN);
    assert_eq!(child_text(s, "identifier"), "not_locked");
    assert_eq!(child_text(s, "priority"), "0");
    assert_eq!(
        attr(child(s, "ObjectStateGroup"), "href"),
        "/api/ibexa/v2/content/objectstategroups/2"
    );
}

#[tokio::test]
async fn single_resources_send_etags_and_accept_patch() {
    let app = TestApp::new().await;
    for (path, media, patch) in [
        (
            "/content/objectstategroups/2",
            "ObjectStateGroup",
            "ObjectStateGroupUpdate",
        ),
        (
            "/content/objectstategroups/2/objectstates/1",
            "ObjectState",
            "ObjectStateUpdate",
        ),
    ] {
        let r = app.get(path).accept(&format!("{media}+json")).send().await;
        r.assert(200);
        assert_eq!(
            r.content_type(),
            format!("application/vnd.ibexa.api.{media}+json")
        );
        assert_eq!(
            r.header("accept-patch").unwrap(),
            format!("application/vnd.ibexa.api.{patch}+json")
        );
        let etag = r.header("etag").expect("ETag");
        let x = app.get(path).accept(&format!("{media}+xml")).send().await;
        x.assert(200);
        assert_eq!(x.header("etag").unwrap(), etag, "same ETag in both formats");
        assert_eq!(
            x.header("accept-patch").unwrap(),
            format!("application/vnd.ibexa.api.{patch}+xml")
        );
        app.get(path)
            .header("if-none-match", &etag)
            .send()
            .await
            .assert(304);
    }
    let r = app
        .get("/content/objectstategroups/2/objectstates/1")
        .accept("ObjectState+json")
        .send()
        .await;
    assert_eq!(r.json()["ObjectState"]["identifier"], "not_locked");
}

#[tokio::test]
async fn a_group_lives_and_dies_with_its_states_in_json() {
    let app = TestApp::new().await;
    let r = app
        .req("POST", "/content/objectstategroups")
        .admin()
        .accept("ObjectStateGroup+json")
        .json_body(
            "ObjectStateGroupCreate",
            json!({
                "identifier": "custom-states",
                "defaultLanguageCode": "eng-GB",
                "names": names("Custom State"),
                "descriptions": names("Custom Object state"),
            }),
        )
        .send()
        .await;
    r.assert(201);
    assert_eq!(
        r.header("location").unwrap(),
        "/api/ibexa/v2/content/objectstategroups/3"
    );
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.ObjectStateGroupUpdate+json"
    );
    let g = &r.json()["ObjectStateGroup"];
    assert_eq!(g["id"], 3);
    assert_eq!(g["identifier"], "custom-states");
    assert_eq!(g["languageCodes"], "eng-GB");
    assert_eq!(g["names"], names("Custom State"));
    assert_eq!(g["descriptions"], names("Custom Object state"));
    assert_eq!(
        g["ObjectStates"]["_href"],
        "/api/ibexa/v2/content/objectstategroups/3/objectstates"
    );
    assert_eq!(states(&app, 3).await, []);

    // The reference's example: a priority given for the first state still makes it 0.
    let r = app
        .req("POST", "/content/objectstategroups/3/objectstates")
        .admin()
        .accept("ObjectState+json")
        .json_body(
            "ObjectStateCreate",
            json!({
                "identifier": "new-state",
                "priority": "1",
                "defaultLanguageCode": "eng-GB",
                "names": names("New State"),
                "descriptions": names("New Object State"),
            }),
        )
        .send()
        .await;
    r.assert(201);
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.ObjectStateUpdate+json"
    );
    let s = &r.json()["ObjectState"];
    let id = s["id"].as_i64().unwrap();
    assert_eq!(id, 3);
    assert_eq!(
        r.header("location").unwrap(),
        format!("/api/ibexa/v2/content/objectstategroups/3/objectstates/{id}")
    );
    assert_eq!(s["priority"], 0);
    assert_eq!(
        s["ObjectStateGroup"]["_href"],
        "/api/ibexa/v2/content/objectstategroups/3"
    );
    assert_eq!(s["descriptions"], names("New Object State"));

    // Update the group under If-Match: names merge, the identifier changes.
    let path = "/content/objectstategroups/3";
    let etag = app.get(path).send().await.header("etag").unwrap();
    let r = app
        .req("PATCH", path)
        .admin()
        .header("if-match", &etag)
        .accept("ObjectStateGroup+json")
        .json_body(
            "ObjectStateGroupUpdate",
            json!({"identifier": "custom", "names": names("New Custom State name")}),
        )
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.ObjectStateGroupUpdate+json"
    );
    let new_etag = r.header("etag").unwrap();
    assert_ne!(new_etag, etag);
    let g = &r.json()["ObjectStateGroup"];
    assert_eq!(g["identifier"], "custom");
    assert_eq!(g["names"], names("New Custom State name"));
    assert_eq!(g["descriptions"], names("Custom Object state"));
    assert_eq!(app.get(path).send().await.header("etag").unwrap(), new_etag);
    // The old ETag no longer matches.
    app.req("PATCH", path)
        .admin()
        .header("if-match", &etag)
        .json_body("ObjectStateGroupUpdate", json!({"identifier": "x"}))
        .send()
        .await
        .assert_error(412);

    // Update the state under If-Match.
    let spath = format!("{path}/objectstates/{id}");
    let etag = app.get(&spath).send().await.header("etag").unwrap();
    let r = app
        .req("PATCH", &spath)
        .admin()
        .header("if-match", &etag)
        .accept("ObjectState+json")
        .json_body(
            "ObjectStateUpdate",
            json!({"identifier": "closed", "names": names("New Object State name")}),
        )
        .send()
        .await;
    r.assert(200);
    let s = &r.json()["ObjectState"];
    assert_eq!(s["identifier"], "closed");
    assert_eq!(s["names"], names("New Object State name"));
    assert_eq!(s["descriptions"], names("New Object State"));
    assert_eq!(s["priority"], 0);
    assert_ne!(r.header("etag").unwrap(), etag);

    // Delete the state, then the group with a new state.
    app.req("DELETE", &spath)
        .admin()
        .header("if-match", &r.header("etag").unwrap())
        .send()
        .await
        .assert(204);
    app.get(&spath).send().await.assert_error(404);
    assert_eq!(states(&app, 3).await, []);
    let (other, _) = create_state(&app, 3, "open", 0).await;
    let etag = app.get(path).send().await.header("etag").unwrap();
    let r = app
        .req("DELETE", path)
        .admin()
        .header("if-match", &etag)
        .send()
        .await;
    r.assert(204);
    assert!(r.body.is_empty());
    app.get(path).send().await.assert_error(404);
    app.get(&format!("{path}/objectstates/{other}"))
        .send()
        .await
        .assert_error(404);
    app.get(&format!("{path}/objectstates"))
        .send()
        .await
        .assert_error(404);
    let list = app
        .get("/content/objectstategroups")
        .accept("ObjectStateGroupList+json")
        .send()
        .await;
    assert_eq!(
        list.json()["ObjectStateGroupList"]["ObjectStateGroup"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // The identifier is free again.
    assert_eq!(create_group(&app, "custom").await, 4);
}

#[tokio::test]
async fn priorities_stay_dense_and_reorder_like_the_reference() {
    let app = TestApp::new().await;
    let g = create_group(&app, "workflow").await;
    assert_eq!(create_state(&app, g, "a", 0).await.1, 0);
    // A priority past the end appends.
    assert_eq!(create_state(&app, g, "b", 5).await.1, 1);
    // A tie keeps the states already there first.
    assert_eq!(create_state(&app, g, "c", 1).await.1, 2);
    let (d, p) = create_state(&app, g, "d", 0).await;
    assert_eq!(p, 1);
    assert_eq!(
        states(&app, g).await,
        order(&[("a", 0), ("d", 1), ("b", 2), ("c", 3)])
    );

    let patch = async |id: i64, body: Value| {
        let r = app
            .req(
                "PATCH",
                &format!("/content/objectstategroups/{g}/objectstates/{id}"),
            )
            .admin()
            .accept("ObjectState+json")
            .json_body("ObjectStateUpdate", body)
            .send()
            .await;
        r.assert(200);
        r.json()["ObjectState"]["priority"].as_i64().unwrap()
    };
    let ids: std::collections::HashMap<String, i64> = app
        .get(&format!("/content/objectstategroups/{g}/objectstates"))
        .accept("ObjectStateList+json")
        .send()
        .await
        .json()["ObjectStateList"]["ObjectState"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["identifier"].as_str().unwrap().to_string(),
                s["id"].as_i64().unwrap(),
            )
        })
        .collect();

    // Before everything: c becomes the default.
    assert_eq!(patch(ids["c"], json!({"priority": -1})).await, 0);
    assert_eq!(
        states(&app, g).await,
        order(&[("c", 0), ("a", 1), ("d", 2), ("b", 3)])
    );
    // To the end.
    assert_eq!(patch(ids["a"], json!({"priority": 10})).await, 3);
    assert_eq!(
        states(&app, g).await,
        order(&[("c", 0), ("d", 1), ("b", 2), ("a", 3)])
    );
    // A tie with the state at that rank goes after it.
    assert_eq!(patch(ids["a"], json!({"priority": "1"})).await, 2);
    assert_eq!(
        states(&app, g).await,
        order(&[("c", 0), ("d", 1), ("a", 2), ("b", 3)])
    );
    // Other changes leave the priority alone.
    assert_eq!(patch(ids["b"], json!({"names": names("Bee")})).await, 3);

    // Deleting closes the gap.
    app.req(
        "DELETE",
        &format!("/content/objectstategroups/{g}/objectstates/{d}"),
    )
    .admin()
    .send()
    .await
    .assert(204);
    assert_eq!(
        states(&app, g).await,
        order(&[("c", 0), ("a", 1), ("b", 2)])
    );
    app.req(
        "DELETE",
        &format!("/content/objectstategroups/{g}/objectstates/{}", ids["c"]),
    )
    .admin()
    .send()
    .await
    .assert(204);
    assert_eq!(states(&app, g).await, order(&[("a", 0), ("b", 1)]));
}

#[tokio::test]
async fn groups_and_states_in_xml() {
    let app = TestApp::new().await;
    let r = app
        .req("POST", "/content/objectstategroups")
        .admin()
        .accept("ObjectStateGroup+xml")
        .xml_body(
            "ObjectStateGroupCreate",
            r#"<?xml version="1.0" encoding="UTF-8"?>
<ObjectStateGroupCreate>
    <identifier>custom</identifier>
    <defaultLanguageCode>eng-GB</defaultLanguageCode>
    <names>
        <value languageCode="eng-GB">Custom State</value>
    </names>
    <descriptions>
        <value languageCode="eng-GB">Custom Object state</value>
    </descriptions>
</ObjectStateGroupCreate>"#,
        )
        .send()
        .await;
    r.assert(201);
    assert_eq!(
        r.content_type(),
        "application/vnd.ibexa.api.ObjectStateGroup+xml"
    );
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.ObjectStateGroupUpdate+xml"
    );
    let x = r.xml();
    assert_eq!(x.name, "ObjectStateGroup");
    assert_eq!(
        attr(&x, "href"),
        "/api/ibexa/v2/content/objectstategroups/3"
    );
    assert_eq!(child_names(&x), GROUP_CHILDREN);
    assert_eq!(child_text(&x, "id"), "3");
    assert_eq!(child_text(&x, "languageCodes"), "eng-GB");
    assert_eq!(
        child(&x, "descriptions").children[0].text,
        "Custom Object state"
    );

    let r = app
        .req("POST", "/content/objectstategroups/3/objectstates")
        .admin()
        .accept("ObjectState+xml")
        .xml_body(
            "ObjectStateCreate",
            r#"<?xml version="1.0" encoding="UTF-8"?>
<ObjectStateCreate>
  <identifier>new-state</identifier>
  <priority>1</priority>
  <defaultLanguageCode>eng-GB</defaultLanguageCode>
  <names>
    <value languageCode="eng-GB">New State</value>
  </names>
</ObjectStateCreate>"#,
        )
        .send()
        .await;
    r.assert(201);
    let x = r.xml();
    assert_eq!(x.name, "ObjectState");
    assert_eq!(child_names(&x), STATE_CHILDREN);
    assert_eq!(child_text(&x, "priority"), "0");
    let id = child_text(&x, "id");
    assert_eq!(
        attr(&x, "href"),
        format!("/api/ibexa/v2/content/objectstategroups/3/objectstates/{id}")
    );
    // No description given: an empty one in the language of each name.
    let d = &child(&x, "descriptions").children;
    assert_eq!(d.len(), 1);
    assert_eq!(attr(&d[0], "languageCode"), "eng-GB");
    assert_eq!(d[0].text, "");

    // PATCH as POST with X-HTTP-Method-Override, in XML.
    let r = app
        .req(
            "POST",
            &format!("/content/objectstategroups/3/objectstates/{id}"),
        )
        .admin()
        .header("x-http-method-override", "PATCH")
        .accept("ObjectState+xml")
        .xml_body(
            "ObjectStateUpdate",
            r#"<ObjectStateUpdate>
  <priority>3</priority>
  <defaultLanguageCode>eng-GB</defaultLanguageCode>
  <names>
    <value languageCode="eng-GB">New Object State name</value>
  </names>
</ObjectStateUpdate>"#,
        )
        .send()
        .await;
    r.assert(200);
    let x = r.xml();
    assert_eq!(child_text(&x, "priority"), "0");
    assert_eq!(child(&x, "names").children[0].text, "New Object State name");

    let r = app
        .req("PATCH", "/content/objectstategroups/3")
        .admin()
        .accept("ObjectStateGroup+xml")
        .xml_body(
            "ObjectStateGroupUpdate",
            r#"<ObjectStateGroupUpdate><names><value languageCode="eng-GB">New Custom State name</value></names></ObjectStateGroupUpdate>"#,
        )
        .send()
        .await;
    r.assert(200);
    let x = r.xml();
    assert_eq!(child_text(&x, "identifier"), "custom");
    assert_eq!(child(&x, "names").children[0].text, "New Custom State name");
    assert_eq!(
        child(&x, "descriptions").children[0].text,
        "Custom Object state"
    );
}

#[tokio::test]
async fn create_refuses_bad_input_anonymous_callers_and_duplicates() {
    let app = TestApp::new().await;
    let post_group = async |body: Value| {
        app.req("POST", "/content/objectstategroups")
            .admin()
            .accept("ObjectStateGroup+json")
            .json_body("ObjectStateGroupCreate", body)
            .send()
            .await
    };
    // 400: a required element missing, or invalid.
    for missing in ["identifier", "defaultLanguageCode", "names"] {
        let mut body = group_input("g");
        body.as_object_mut().unwrap().remove(missing);
        let e = post_group(body).await.assert_error(400);
        assert!(e.contains(missing), "{e}");
    }
    let bad = [
        (json!({"identifier": " "}), "identifier"),
        (json!({"defaultLanguageCode": ""}), "defaultLanguageCode"),
        (json!({"names": {"value": []}}), "names"),
        (json!({"names": names("")}), "names"),
        (json!({"defaultLanguageCode": "ger-DE"}), "ger-DE"),
        (
            json!({"names": {"value": [
                {"_languageCode": "eng-GB", "#text": "G"},
                {"_languageCode": "xxx-XX", "#text": "G"}
            ]}}),
            "xxx-XX",
        ),
    ];
    for (change, expected) in bad {
        let mut body = group_input("g");
        for (k, v) in change.as_object().unwrap() {
            body[k] = v.clone();
        }
        let e = post_group(body).await.assert_error(400);
        assert!(e.contains(expected), "{e}");
    }
    let malformed = app
        .req("POST", "/content/objectstategroups")
        .admin()
        .accept("ObjectStateGroup+xml")
        .xml_body(
            "ObjectStateGroupCreate",
            "<ObjectStateGroupCreate><identifier>x</identifier>",
        )
        .send()
        .await;
    malformed.assert_error(400);
    // 401 for anonymous writes.
    app.req("POST", "/content/objectstategroups")
        .accept("ObjectStateGroup+json")
        .json_body("ObjectStateGroupCreate", group_input("g"))
        .send()
        .await
        .assert_error(401);
    // 403: the identifier exists.
    let e = post_group(group_input("ez_lock")).await.assert_error(403);
    assert!(e.contains("ez_lock"), "{e}");
    // 415: another input.
    app.req("POST", "/content/objectstategroups")
        .admin()
        .accept("ObjectStateGroup+json")
        .json_body("ObjectStateCreate", group_input("g"))
        .send()
        .await
        .assert_error(415);
    // Nothing was written.
    let list = app
        .get("/content/objectstategroups")
        .accept("ObjectStateGroupList+json")
        .send()
        .await;
    assert_eq!(
        list.json()["ObjectStateGroupList"]["ObjectStateGroup"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // States.
    let post_state = async |group: i64, body: Value| {
        app.req(
            "POST",
            &format!("/content/objectstategroups/{group}/objectstates"),
        )
        .admin()
        .accept("ObjectState+json")
        .json_body("ObjectStateCreate", body)
        .send()
        .await
    };
    for missing in ["identifier", "priority", "defaultLanguageCode", "names"] {
        let mut body = state_input("s", 0);
        body.as_object_mut().unwrap().remove(missing);
        let e = post_state(2, body).await.assert_error(400);
        assert!(e.contains(missing), "{e}");
    }
    let mut body = state_input("s", 0);
    body["identifier"] = json!("");
    post_state(2, body).await.assert_error(400);
    let mut body = state_input("s", 0);
    body["priority"] = json!("first");
    post_state(2, body).await.assert_error(400);
    app.req("POST", "/content/objectstategroups/2/objectstates")
        .accept("ObjectState+json")
        .json_body("ObjectStateCreate", state_input("s", 0))
        .send()
        .await
        .assert_error(401);
    let e = post_state(2, state_input("locked", 0))
        .await
        .assert_error(403);
    assert!(e.contains("locked"), "{e}");
    let e = post_state(99, state_input("s", 0)).await.assert_error(404);
    assert!(e.contains("ObjectStateGroup"), "{e}");
    assert_eq!(
        states(&app, 2).await,
        order(&[("not_locked", 0), ("locked", 1)])
    );
    // The same identifier in another group is fine.
    let g = create_group(&app, "other").await;
    create_state(&app, g, "locked", 0).await;
}

#[tokio::test]
async fn missing_resources_stale_etags_duplicates_and_anonymous_changes_are_refused() {
    let app = TestApp::new().await;
    let g = create_group(&app, "g").await;
    let (s, _) = create_state(&app, g, "s", 0).await;
    let (t, _) = create_state(&app, g, "t", 1).await;

    // 404: missing groups and states, and a state under another group.
    for path in [
        "/content/objectstategroups/99".to_string(),
        "/content/objectstategroups/99/objectstates".to_string(),
        "/content/objectstategroups/99/objectstates/1".to_string(),
        "/content/objectstategroups/2/objectstates/99".to_string(),
        format!("/content/objectstategroups/2/objectstates/{s}"),
        format!("/content/objectstategroups/{g}/objectstates/1"),
    ] {
        app.get(&path)
            .accept("ObjectState+json")
            .send()
            .await
            .assert_error(404);
    }
    for (path, input, body) in [
        (
            "/content/objectstategroups/99".to_string(),
            "ObjectStateGroupUpdate",
            json!({"identifier": "x"}),
        ),
        (
            format!("/content/objectstategroups/2/objectstates/{s}"),
            "ObjectStateUpdate",
            json!({"identifier": "x"}),
        ),
        (
            "/content/objectstategroups/2/objectstates/99".to_string(),
            "ObjectStateUpdate",
            json!({"identifier": "x"}),
        ),
    ] {
        app.req("PATCH", &path)
            .admin()
            .accept("ObjectState+json")
            .json_body(input, body)
            .send()
            .await
            .assert_error(404);
        app.req("DELETE", &path)
            .admin()
            .send()
            .await
            .assert_error(404);
    }

    let gpath = format!("/content/objectstategroups/{g}");
    let spath = format!("{gpath}/objectstates/{s}");
    // 412 on PATCH and DELETE of both.
    for (path, input) in [
        (&gpath, "ObjectStateGroupUpdate"),
        (&spath, "ObjectStateUpdate"),
    ] {
        app.req("PATCH", path)
            .admin()
            .header("if-match", "\"stale\"")
            .accept("ErrorMessage+json")
            .json_body(input, json!({"identifier": "x"}))
            .send()
            .await
            .assert_error(412);
        app.req("DELETE", path)
            .admin()
            .header("if-match", "\"stale\"")
            .send()
            .await
            .assert_error(412);
        // 401 for anonymous changes.
        app.req("PATCH", path)
            .accept("ErrorMessage+json")
            .json_body(input, json!({"identifier": "x"}))
            .send()
            .await
            .assert_error(401);
        app.req("DELETE", path).send().await.assert_error(401);
        // 400 for invalid changes.
        for body in [
            json!({"identifier": ""}),
            json!({"names": names("")}),
            json!({"defaultLanguageCode": "ger-DE"}),
        ] {
            app.req("PATCH", path)
                .admin()
                .accept("ErrorMessage+json")
                .json_body(input, body)
                .send()
                .await
                .assert_error(400);
        }
    }
    app.req("PATCH", &spath)
        .admin()
        .json_body("ObjectStateUpdate", json!({"priority": "high"}))
        .send()
        .await
        .assert_error(400);

    // 403: identifiers taken.
    let e = app
        .req("PATCH", &gpath)
        .admin()
        .accept("ObjectStateGroup+json")
        .json_body("ObjectStateGroupUpdate", json!({"identifier": "ez_lock"}))
        .send()
        .await
        .assert_error(403);
    assert!(e.contains("ez_lock"), "{e}");
    let e = app
        .req("PATCH", &spath)
        .admin()
        .accept("ObjectState+json")
        .json_body("ObjectStateUpdate", json!({"identifier": "t"}))
        .send()
        .await
        .assert_error(403);
    assert!(e.contains("'t'"), "{e}");
    // Its own identifier, or another group's state's, is fine.
    for identifier in ["s", "locked"] {
        app.req("PATCH", &spath)
            .admin()
            .accept("ObjectState+json")
            .json_body("ObjectStateUpdate", json!({"identifier": identifier}))
            .send()
            .await
            .assert(200);
    }
    app.req("PATCH", &gpath)
        .admin()
        .accept("ObjectStateGroup+json")
        .json_body("ObjectStateGroupUpdate", json!({"identifier": "g"}))
        .send()
        .await
        .assert(200);

    // Nothing refused changed anything.
    assert_eq!(states(&app, g).await, order(&[("locked", 0), ("t", 1)]));
    let r = app
        .get(&format!("{gpath}/objectstates/{t}"))
        .accept("ObjectState+json")
        .send()
        .await;
    assert_eq!(r.json()["ObjectState"]["names"], names("State t"));
}

/// The harness's app with the calls these tests make: JSON as admin, and reads of the
/// assignments straight from the database.
struct DbApp(TestApp);

impl DbApp {
    async fn new() -> DbApp {
        DbApp(TestApp::new().await)
    }

    /// A JSON request as admin; the status and the body (null when empty).
    async fn call(&self, method: &str, path: &str, input: Option<(&str, Value)>) -> (u16, Value) {
        let mut r = self.0.req(method, path).admin().accept("ObjectState+json");
        if let Some((name, value)) = input {
            r = r.json_body(name, value);
        }
        let resp = r.send().await;
        let value = if resp.body.is_empty() {
            Value::Null
        } else {
            resp.json()
        };
        (resp.status.as_u16(), value)
    }

    async fn sql(&self, sql: &str) -> Vec<Value> {
        self.0.query(sql, vec![]).await
    }

    /// `(content id, state id)` of every content item in group `group`, by content id.
    async fn states_in_group(&self, group: i64) -> Vec<(i64, i64)> {
        self.sql(&format!(
            "SELECT content_id, state_id FROM content_object_states WHERE group_id = {group} ORDER BY content_id"
        ))
        .await
        .iter()
        .map(|r| {
            (
                r["content_id"].as_i64().unwrap(),
                r["state_id"].as_i64().unwrap(),
            )
        })
        .collect()
    }

    async fn content_ids(&self) -> Vec<i64> {
        self.sql("SELECT id FROM contents ORDER BY id")
            .await
            .iter()
            .map(|r| r["id"].as_i64().unwrap())
            .collect()
    }
}

#[tokio::test]
async fn content_items_are_always_in_one_state_of_each_group_with_states() {
    let app = DbApp::new().await;
    let contents = app.content_ids().await;
    assert_eq!(contents.len(), 12, "the clean install's content items");
    let all_in = |state: i64| contents.iter().map(|c| (*c, state)).collect::<Vec<_>>();
    assert_eq!(app.states_in_group(2).await, all_in(1));

    let (status, body) = app
        .call(
            "POST",
            "/content/objectstategroups",
            Some(("ObjectStateGroupCreate", group_input("review"))),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let g = body["ObjectStateGroup"]["id"].as_i64().unwrap();
    assert_eq!(app.states_in_group(g).await, []);

    let create = async |identifier: &str, priority: i64| {
        let (status, body) = app
            .call(
                "POST",
                &format!("/content/objectstategroups/{g}/objectstates"),
                Some(("ObjectStateCreate", state_input(identifier, priority))),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        body["ObjectState"]["id"].as_i64().unwrap()
    };
    // The group's first state: every content item is in it.
    let draft = create("draft", 0).await;
    assert_eq!(app.states_in_group(g).await, all_in(draft));
    // Later states change nothing, even when they come first.
    let ready = create("ready", 1).await;
    let (status, body) = app
        .call(
            "PATCH",
            &format!("/content/objectstategroups/{g}/objectstates/{ready}"),
            Some(("ObjectStateUpdate", json!({"priority": -1}))),
        )
        .await;
    assert_eq!((status, &body["ObjectState"]["priority"]), (200, &json!(0)));
    assert_eq!(app.states_in_group(g).await, all_in(draft));
    // Deleting a state moves its content items to the group's default state.
    let (status, _) = app
        .call(
            "DELETE",
            &format!("/content/objectstategroups/{g}/objectstates/{draft}"),
            None,
        )
        .await;
    assert_eq!(status, 204);
    assert_eq!(app.states_in_group(g).await, all_in(ready));
    // Deleting the last state leaves the items in no state of the group.
    let (status, _) = app
        .call(
            "DELETE",
            &format!("/content/objectstategroups/{g}/objectstates/{ready}"),
            None,
        )
        .await;
    assert_eq!(status, 204);
    assert_eq!(app.states_in_group(g).await, []);
    // A first state again, then the group goes with its assignments.
    let again = create("again", 3).await;
    assert_eq!(app.states_in_group(g).await, all_in(again));
    let (status, _) = app
        .call("DELETE", &format!("/content/objectstategroups/{g}"), None)
        .await;
    assert_eq!(status, 204);
    assert_eq!(app.states_in_group(g).await, []);
    assert_eq!(
        app.sql(&format!(
            "SELECT id FROM object_states WHERE group_id = {g}"
        ))
        .await
        .len(),
        0
    );
    // The other group was not touched.
    assert_eq!(app.states_in_group(2).await, all_in(1));
}

#[tokio::test]
async fn names_and_descriptions_merge_per_language() {
    let app = DbApp::new().await;
    app.sql(
        "INSERT INTO languages (id, language_code, name, enabled) VALUES (4, 'ger-DE', 'Deutsch', TRUE)",
    )
    .await;
    let (status, body) = app
        .call(
            "POST",
            "/content/objectstategroups",
            Some(("ObjectStateGroupCreate", group_input("colour"))),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let g = body["ObjectStateGroup"]["id"].as_i64().unwrap();
    let patch = async |path: &str, input: &str, body: Value| {
        let (status, body) = app.call("PATCH", path, Some((input, body))).await;
        assert_eq!(status, 200, "{body}");
        body
    };
    let gpath = format!("/content/objectstategroups/{g}");
    let r = patch(
        &gpath,
        "ObjectStateGroupUpdate",
        json!({"names": {"value": [{"_languageCode": "ger-DE", "#text": "Farbe"}]}}),
    )
    .await;
    let o = &r["ObjectStateGroup"];
    assert_eq!(o["languageCodes"], "eng-GB,ger-DE");
    assert_eq!(
        o["names"],
        json!({"value": [
            {"_languageCode": "eng-GB", "#text": "Group colour"},
            {"_languageCode": "ger-DE", "#text": "Farbe"}
        ]})
    );
    assert_eq!(
        o["descriptions"],
        json!({"value": [
            {"_languageCode": "eng-GB", "#text": "A group"},
            {"_languageCode": "ger-DE", "#text": ""}
        ]})
    );
    let r = patch(
        &gpath,
        "ObjectStateGroupUpdate",
        json!({
            "defaultLanguageCode": "ger-DE",
            "descriptions": {"value": [{"_languageCode": "ger-DE", "#text": "Eine Gruppe"}]}
        }),
    )
    .await;
    let o = &r["ObjectStateGroup"];
    assert_eq!(o["defaultLanguageCode"], "ger-DE");
    assert_eq!(o["names"]["value"][0]["#text"], "Group colour");
    assert_eq!(
        o["descriptions"],
        json!({"value": [
            {"_languageCode": "eng-GB", "#text": "A group"},
            {"_languageCode": "ger-DE", "#text": "Eine Gruppe"}
        ]})
    );

    // A state in two languages; a description in a language without a name is dropped.
    let (status, body) = app
        .call(
            "POST",
            &format!("{gpath}/objectstates"),
            Some((
                "ObjectStateCreate",
                json!({
                    "identifier": "red",
                    "priority": 0,
                    "defaultLanguageCode": "ger-DE",
                    "names": {"value": [
                        {"_languageCode": "ger-DE", "#text": "Rot"},
                        {"_languageCode": "eng-GB", "#text": "Red"}
                    ]},
                    "descriptions": {"value": [
                        {"_languageCode": "eng-GB", "#text": "Like fire"},
                        {"_languageCode": "pol-PL", "#text": "Czerwony"}
                    ]}
                }),
            )),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let s = &body["ObjectState"];
    assert_eq!(s["languageCodes"], "ger-DE,eng-GB");
    assert_eq!(
        s["descriptions"],
        json!({"value": [
            {"_languageCode": "ger-DE", "#text": ""},
            {"_languageCode": "eng-GB", "#text": "Like fire"}
        ]})
    );
    let spath = format!("{gpath}/objectstates/{}", s["id"]);
    let r = patch(
        &spath,
        "ObjectStateUpdate",
        json!({"names": {"value": [{"_languageCode": "eng-GB", "#text": "Crimson"}]}}),
    )
    .await;
    assert_eq!(
        r["ObjectState"]["names"],
        json!({"value": [
            {"_languageCode": "ger-DE", "#text": "Rot"},
            {"_languageCode": "eng-GB", "#text": "Crimson"}
        ]})
    );
    // A language that is not installed.
    let (status, body) = app
        .call(
            "PATCH",
            &spath,
            Some((
                "ObjectStateUpdate",
                json!({"names": {"value": [{"_languageCode": "fre-FR", "#text": "Rouge"}]}}),
            )),
        )
        .await;
    assert_eq!(status, 400, "{body}");
}
