//! Assigning a Section (issue 48): as the reference's metadata update splits its checks, the
//! Section changes with `section/assign` (its `Section` and `NewSection` limitations) and
//! `content/read`; any other property of the same request needs `content/edit`, and a refused
//! request changes nothing, the Section included.

use super::*;
use crate::content::published_folder;

async fn section_of(app: &TestApp, id: i64) -> String {
    let r = app
        .get(&format!("/content/objects/{id}"))
        .admin()
        .accept("ContentInfo+json")
        .send()
        .await;
    r.json()["Content"]["Section"]["_href"]
        .as_str()
        .unwrap()
        .to_string()
}

fn to(section: i64) -> Value {
    json!({"Section": {"_href": format!("{PREFIX}/content/sections/{section}")}})
}

#[tokio::test]
async fn section_assign_alone_changes_a_section() {
    let app = TestApp::new().await;
    let (id, _) = published_folder(&app, "Assigned", "1/2").await;
    let user = plain_user(&app, "assigner").await;
    role_for(
        &app,
        user,
        "Assigner",
        &[
            json!(["content", "read", []]),
            json!(["section", "assign", [["NewSection", ["3"]]]]),
        ],
        None,
    )
    .await;
    let patch = || {
        as_user(
            app.req("PATCH", &format!("/content/objects/{id}")),
            "assigner",
        )
    };
    // Another Section than NewSection names: refused, unchanged.
    let msg = patch()
        .json_body("ContentUpdate", to(2))
        .send()
        .await
        .assert_error(401);
    assert!(msg.contains("'assign' 'section'"), "{msg}");
    assert!(section_of(&app, id).await.ends_with("/sections/1"));
    // With another property, `content/edit` is asked for: refused, the Section unchanged.
    let mut both = to(3);
    both["alwaysAvailable"] = json!(false);
    let msg = patch()
        .json_body("ContentUpdate", both)
        .send()
        .await
        .assert_error(401);
    assert!(msg.contains("'edit' 'content'"), "{msg}");
    assert!(section_of(&app, id).await.ends_with("/sections/1"));
    // The Section alone: done, in JSON and in XML.
    let r = patch()
        .json_body("ContentUpdate", to(3))
        .accept("ContentInfo+json")
        .send()
        .await;
    r.assert(200);
    assert!(
        r.json()["Content"]["Section"]["_href"]
            .as_str()
            .unwrap()
            .ends_with("/sections/3")
    );
    let xml = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><ContentUpdate><Section href="{PREFIX}/content/sections/3"/></ContentUpdate>"#
    );
    let r = patch()
        .xml_body("ContentUpdate", &xml)
        .accept("ContentInfo+xml")
        .send()
        .await;
    r.assert(200);
    assert!(r.content_type().contains("ContentInfo+xml"));
    // Without `section/assign`, a user with `content/edit` alone cannot move it either.
    let editor = plain_user(&app, "editor").await;
    role_for(
        &app,
        editor,
        "EditorOnly",
        &[
            json!(["content", "read", []]),
            json!(["content", "edit", []]),
        ],
        None,
    )
    .await;
    let msg = as_user(
        app.req("PATCH", &format!("/content/objects/{id}")),
        "editor",
    )
    .json_body("ContentUpdate", to(1))
    .send()
    .await
    .assert_error(401);
    assert!(msg.contains("'assign' 'section'"), "{msg}");
    assert!(section_of(&app, id).await.ends_with("/sections/3"));
    as_user(
        app.req("PATCH", &format!("/content/objects/{id}")),
        "editor",
    )
    .json_body("ContentUpdate", json!({"alwaysAvailable": false}))
    .send()
    .await
    .assert(200);
    // Nobody reads what it may not: `content/read` is needed too.
    let blind = plain_user(&app, "blind").await;
    role_for(
        &app,
        blind,
        "Blind",
        &[json!(["section", "assign", []])],
        None,
    )
    .await;
    as_user(app.req("PATCH", &format!("/content/objects/{id}")), "blind")
        .json_body("ContentUpdate", to(1))
        .send()
        .await
        .assert_error(401);
    assert!(section_of(&app, id).await.ends_with("/sections/3"));
}
