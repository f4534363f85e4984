//! Groups and states created, read and updated in XML, with the reference's examples.

use super::*;

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
