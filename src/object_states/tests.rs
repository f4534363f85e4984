//! The content side's rules on a scratch database.

use super::*;
use cairn_store::scratch::CleanDb;

fn state(id: i64, group_id: i64, priority: i64) -> object_state::ActiveModel {
    object_state::ActiveModel {
        id: Set(id),
        group_id: Set(group_id),
        identifier: Set(format!("s{id}")),
        priority: Set(priority),
        default_language_code: Set("eng-GB".into()),
        names: Set(r#"{"eng-GB":"S"}"#.into()),
        descriptions: Set(r#"{"eng-GB":""}"#.into()),
    }
}

#[tokio::test]
async fn default_states_are_the_lowest_priority_of_each_group_with_states() {
    let t = CleanDb::new().await;
    let c = t.db.conn();
    assert_eq!(default_states(c).await.unwrap(), [(2, 1)]);
    for id in [7, 9] {
        let group = object_state_group::ActiveModel {
            id: Set(id),
            identifier: Set(format!("g{id}")),
            default_language_code: Set("eng-GB".into()),
            names: Set(r#"{"eng-GB":"G"}"#.into()),
            descriptions: Set(r#"{"eng-GB":""}"#.into()),
        };
        cairn_store::write::insert(c, group).await.unwrap();
    }
    // Group 9 has no state: it has no default.
    object_state::Entity::insert_many([state(20, 7, 1), state(21, 7, 0), state(22, 7, 2)])
        .exec_without_returning(c)
        .await
        .unwrap();
    assert_eq!(default_states(c).await.unwrap(), [(2, 1), (7, 21)]);
}

/// [`assign_states`] in a write of its own.
async fn assign(db: &cairn_store::Db, content_id: i64, states: &[i64]) -> Result<()> {
    db.write_untracked(async |tx| assign_states(tx, content_id, states).await)
        .await
}

#[tokio::test]
async fn assign_states_replaces_the_state_of_each_group_concerned() {
    let t = CleanDb::new().await;
    let c = t.db.conn();
    assert_eq!(content_states(c, 1).await.unwrap(), [(2, 1)]);
    assign(&t.db, 1, &[2]).await.unwrap();
    assert_eq!(content_states(c, 1).await.unwrap(), [(2, 2)]);
    // Other content items keep theirs; nothing given changes nothing.
    assert_eq!(content_states(c, 4).await.unwrap(), [(2, 1)]);
    assign(&t.db, 1, &[]).await.unwrap();
    assert_eq!(content_states(c, 1).await.unwrap(), [(2, 2)]);
    assert_eq!(content_states(c, 999).await.unwrap(), []);

    let e = assign(&t.db, 1, &[1, 2]).await.unwrap_err();
    assert!(
        matches!(&e, Error::Forbidden(m) if m == "Multiple Object states provided for group with ID 2"),
        "{e}"
    );
    let e = assign(&t.db, 1, &[1, 1]).await.unwrap_err();
    assert!(matches!(e, Error::Forbidden(_)), "{e}");
    let e = assign(&t.db, 1, &[1, 99]).await.unwrap_err();
    assert!(
        matches!(&e, Error::NotFound { what: "ObjectState", id } if id == "99"),
        "{e}"
    );
    // The refused assignments changed nothing.
    assert_eq!(content_states(c, 1).await.unwrap(), [(2, 2)]);
}
