//! The clean install's group and its states listed in JSON and XML, and single groups and
//! states with their ETags and PATCH in `Accept-Patch`.

use super::*;

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
