//! The content items' states, read straight from the database: every item is in one state
//! of each group that has states, as groups and states come and go.

use super::*;

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
