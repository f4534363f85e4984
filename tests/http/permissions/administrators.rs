//! The last administrator (issue 48): no change leaves the repository without an enabled
//! user holding `*/*` without limitations, whichever operation would take it (Policies, the
//! Role, its draft, its assignment, the account disabled, moved, taken out of its group,
//! trashed, deleted or swapped away): 403 with an `ErrorMessage` saying why, nothing changed.
//! `cairn user grant-admin` gives one back to a repository that lost it anyway.

use super::*;

/// A manager: every content function and every Role function, but no `*/*`.
async fn manager(app: &TestApp) {
    let user = plain_user(app, "manager").await;
    role_for(
        app,
        user,
        "Manager",
        &[json!(["content", "*", []]), json!(["role", "*", []])],
        None,
    )
    .await;
}

fn m(r: Req<'_>) -> Req<'_> {
    as_user(r, "manager")
}

/// 403 saying no one could administrate any more.
async fn refused(r: Req<'_>) {
    let r = r.send().await;
    let msg = r.assert_error(403);
    assert!(msg.contains("administrate"), "{msg}");
}

/// The admin still works: it reads the Administrator Role's Policies, `*/*` among them.
async fn admin_works(app: &TestApp) {
    let r = app
        .get("/user/roles/2/policies")
        .admin()
        .accept("PolicyList+json")
        .send()
        .await;
    r.assert(200);
    let all = r.json()["PolicyList"]["Policy"].clone();
    assert!(
        all.as_array()
            .unwrap()
            .iter()
            .any(|p| p["module"] == "*" && p["function"] == "*"),
        "{all}"
    );
}

fn to(path: &str) -> String {
    format!("{PREFIX}{path}")
}

#[tokio::test]
async fn no_change_takes_the_last_administrator_away() {
    let app = TestApp::new().await;
    manager(&app).await;
    let star = {
        let r = app
            .get("/user/roles/2/policies")
            .admin()
            .accept("PolicyList+json")
            .send()
            .await;
        r.json()["PolicyList"]["Policy"][0]["id"].as_i64().unwrap()
    };
    // The Administrator Role's Policies, the Role, one Policy, a draft without it.
    refused(m(app.req("DELETE", "/user/roles/2/policies"))).await;
    refused(m(app.req("DELETE", "/user/roles/2"))).await;
    refused(m(
        app.req("DELETE", &format!("/user/roles/2/policies/{star}"))
    ))
    .await;
    let draft = m(app.req("POST", "/user/roles/2"))
        .accept("RoleDraft+json")
        .send()
        .await;
    draft.assert(201);
    let draft_id = last_id(
        draft.json()["Role"]["_href"]
            .as_str()
            .unwrap_or_else(|| panic!("{}", draft.body)),
    );
    let in_draft = m(app.get(&format!("/user/roles/{draft_id}/policies")))
        .accept("PolicyList+json")
        .send()
        .await
        .json()["PolicyList"]["Policy"][0]["id"]
        .as_i64()
        .unwrap();
    m(app.req(
        "DELETE",
        &format!("/user/roles/{draft_id}/policies/{in_draft}"),
    ))
    .send()
    .await
    .assert(204);
    refused(m(app.req("PUBLISH", "/user/roles/2/draft"))).await;
    m(app.req("DELETE", &format!("/user/roles/{draft_id}/draft")))
        .send()
        .await
        .assert(204);
    // Its assignment to the Administrator users.
    refused(m(app.req("DELETE", "/user/groups/1/5/13/roles/2"))).await;
    // The account disabled, in JSON and XML.
    refused(
        m(app.req("PATCH", "/user/users/14")).json_body("UserUpdate", json!({"enabled": false})),
    )
    .await;
    refused(
        m(app.req("PATCH", "/user/users/14")).xml_body(
            "UserUpdate",
            r#"<?xml version="1.0" encoding="UTF-8"?><UserUpdate><enabled>false</enabled></UserUpdate>"#,
        ),
    )
    .await;
    // Taken out of its group (once it is in another), moved away, swapped away, trashed,
    // deleted.
    m(app.req(
        "POST",
        &format!("/user/users/14/groups?group={}", to("/user/groups/1/5/14")),
    ))
    .send()
    .await
    .assert(200);
    refused(m(app.req("DELETE", "/user/users/14/groups/1/5/13"))).await;
    m(app.req("DELETE", "/user/users/14/groups/1/5/14"))
        .send()
        .await
        .assert(200);
    refused(
        m(app.req("MOVE", "/content/locations/1/5/13/15"))
            .header("destination", &to("/content/locations/1/5/14")),
    )
    .await;
    refused(
        m(app.req("SWAP", "/content/locations/1/5/13"))
            .header("destination", &to("/content/locations/1/5/14")),
    )
    .await;
    refused(
        m(app.req("MOVE", "/content/locations/1/5/13/15"))
            .header("destination", &to("/content/trash")),
    )
    .await;
    refused(m(app.req("DELETE", "/content/locations/1/5/13/15"))).await;
    refused(m(app.req("DELETE", "/content/objects/14"))).await;
    refused(m(app.req("DELETE", "/user/users/14"))).await;
    // Moving the group keeps its assignment: allowed.
    m(app.req("MOVE", "/user/groups/1/5/13"))
        .header("destination", &to("/user/groups/1/5/14"))
        .send()
        .await
        .assert(201);
    admin_works(&app).await;
    assert!(
        cairn::admin::check(&app.service.db)
            .await
            .unwrap()
            .is_empty()
    );

    // With a second administrator, the first may go.
    let boss = plain_user(&app, "boss").await;
    app.req("POST", &format!("/user/users/{boss}/roles"))
        .admin()
        .json_body(
            "RoleAssignInput",
            json!({"Role": {"_href": to("/user/roles/2")}}),
        )
        .send()
        .await
        .assert(200);
    m(app.req("PATCH", "/user/users/14"))
        .json_body("UserUpdate", json!({"enabled": false}))
        .send()
        .await
        .assert(200);
    app.get("/user/roles")
        .admin()
        .send()
        .await
        .assert_error(401);
    refused(
        m(app.req("PATCH", &format!("/user/users/{boss}")))
            .json_body("UserUpdate", json!({"enabled": false})),
    )
    .await;
}

#[tokio::test]
async fn grant_admin_gives_an_administrator_back() {
    let app = TestApp::new().await;
    // A database edited by hand: the Administrator Role's Policies gone, the admin disabled.
    app.sql("DELETE FROM policy_limitations WHERE policy_id IN (SELECT id FROM policies WHERE role_id = 2)", vec![]).await;
    app.sql("DELETE FROM policies WHERE role_id = 2", vec![])
        .await;
    app.sql(
        "UPDATE users SET enabled = ? WHERE id = 14",
        vec![false.into()],
    )
    .await;
    let db = &app.service.db;
    let done = cairn::admin::grant_admin(db, "admin").await.unwrap();
    assert!(
        done.contains("'*/*' Policy was restored") && done.contains("enabled"),
        "{done}"
    );
    admin_works(&app).await;
    assert_eq!(
        cairn::admin::grant_admin(db, "admin").await.unwrap(),
        "it was one already"
    );
    // The Role gone too: made again, and assigned.
    app.sql("DELETE FROM role_assignments WHERE role_id = 2", vec![])
        .await;
    app.sql("DELETE FROM policies WHERE role_id = 2", vec![])
        .await;
    app.sql("DELETE FROM roles WHERE id = 2", vec![]).await;
    app.get("/user/roles")
        .admin()
        .send()
        .await
        .assert_error(401);
    let done = cairn::admin::grant_admin(db, "admin").await.unwrap();
    assert!(
        done.contains("created") && done.contains("assigned"),
        "{done}"
    );
    let r = app
        .get("/user/roles?identifier=Administrator")
        .admin()
        .accept("RoleList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["RoleList"]["Role"].as_array().unwrap().len(), 1);
    // Recorded in the change feed.
    let events = app
        .get("/events?after=0&limit=1000")
        .admin()
        .accept("EventList+json")
        .send()
        .await;
    assert!(events.body.contains("grantAdmin"), "{}", events.body);
    let e = cairn::admin::grant_admin(db, "nobody").await.unwrap_err();
    assert!(e.to_string().contains("nobody"), "{e}");
}
