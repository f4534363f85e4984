//! Deep pages of children (issue 14): a page far down a long list is read from a kept start
//! of the list instead of walking the offset. It must be the very page the offset gives, in
//! each order an index follows, for a caller whose Policies filter the list, and again after a
//! write has moved the children.

use super::*;

/// Children of the seeded parent: thirteen strides of kept starts.
const CHILDREN: i64 = 1_300;

#[tokio::test]
async fn deep_pages_of_children_are_the_pages_the_offset_gives() {
    // Without the response cache, so that each page is read.
    let app = TestApp::with_args(&["--cache-mib", "0"]).await;
    let (_, parent) = published_folder(&app, "Long", "1/2").await;
    assert_eq!(seed_subtree(&app, &parent, CHILDREN, 0).await, CHILDREN);
    let pid = last_id(&parent);
    // Runs of equal priorities, so that starts fall inside a run; every fifth child in the
    // Users Section, which Anonymous may not read.
    app.sql(
        "UPDATE locations SET priority = (id % 97) / 7, \
         section_id = CASE WHEN id % 5 = 0 THEN 2 ELSE 1 END WHERE parent_id = ?",
        vec![pid.into()],
    )
    .await;
    app.sql(
        "UPDATE contents SET section_id = 2 WHERE id IN \
         (SELECT content_id FROM locations WHERE parent_id = ? AND section_id = 2)",
        vec![pid.into()],
    )
    .await;
    let page = async |admin: bool, offset: i64, limit: i64| {
        let path = format!("/content/locations/{parent}/children?offset={offset}&limit={limit}");
        let req = app.get(&path).accept("LocationList+json");
        let req = if admin { req.admin() } else { req };
        children_ids(&req.json_of(200).await)
    };
    // The whole list in an order, as SQL gives it, for admin or for Anonymous.
    let expected = async |order: &str, admin: bool| {
        let only = if admin { "" } else { " AND section_id <> 2" };
        let sql = format!("SELECT id FROM locations WHERE parent_id = ?{only} ORDER BY {order}");
        let rows = app.query(&sql, vec![pid.into()]).await;
        rows.iter()
            .map(|r| r["id"].as_i64().unwrap())
            .collect::<Vec<i64>>()
    };
    let window = |all: &[i64], offset: i64, limit: i64| -> Vec<i64> {
        all.iter()
            .skip(offset as usize)
            .take(limit as usize)
            .copied()
            .collect()
    };
    let sort = async |field: &str, order: &str| sort_children(&app, &parent, field, order).await;
    let offsets = [
        0, 499, 500, 501, 777, 999, 1_000, 1_024, 1_040, 1_299, 1_300, 2_000,
    ];
    for (field, dir, order) in [
        ("PRIORITY", "ASC", "priority ASC, id ASC"),
        ("PRIORITY", "DESC", "priority DESC, id DESC"),
        ("PATH", "ASC", "path_string ASC"),
        ("PATH", "DESC", "path_string DESC"),
        ("NODE_ID", "DESC", "id DESC"),
    ] {
        sort(field, dir).await;
        for admin in [true, false] {
            let all = expected(order, admin).await;
            // Each offset twice: the second reads from the starts the first kept.
            for offset in offsets.into_iter().chain(offsets.into_iter().rev()) {
                for limit in [25, 600] {
                    assert_eq!(
                        page(admin, offset, limit).await,
                        window(&all, offset, limit),
                        "{field} {dir}, admin {admin}, offset {offset}, limit {limit}"
                    );
                }
            }
        }
    }

    // A write moves children before the kept starts: the pages follow it.
    sort("PRIORITY", "ASC").await;
    let all = expected("priority ASC, id ASC", true).await;
    assert_eq!(page(true, 1_010, 25).await, window(&all, 1_010, 25));
    let first = all[0];
    let path = app
        .query(
            "SELECT path_string FROM locations WHERE id = ?",
            vec![first.into()],
        )
        .await[0]["path_string"]
        .as_str()
        .unwrap()
        .trim_matches('/')
        .to_string();
    app.req("PATCH", &format!("/content/locations/{path}"))
        .admin()
        .json_body("LocationUpdate", json!({"priority": 1000}))
        .send()
        .await
        .assert(200);
    let all = expected("priority ASC, id ASC", true).await;
    assert_eq!(all.last(), Some(&first));
    for offset in [500, 1_010, 1_280] {
        let want = window(&all, offset, 25);
        assert_eq!(page(true, offset, 25).await, want, "offset {offset}");
    }

    // A page from a kept start costs the statements of the first page.
    page(true, 0, 25).await;
    let before = app.statements();
    page(true, 0, 25).await;
    let first_page = app.statements() - before;
    page(true, 1_210, 25).await;
    let before = app.statements();
    page(true, 1_210, 25).await;
    assert_eq!(app.statements() - before, first_page);
}

/// A list's window as the reference's controller reads it: a negative offset counts as 0, a
/// negative limit pages the children by 25 (not all of them), in either format; what is not a
/// number is refused.
#[tokio::test]
async fn negative_windows_of_children_are_read_as_the_reference_reads_them() {
    let app = TestApp::new().await;
    let (_, parent) = published_folder(&app, "Thirty", "1/2").await;
    assert_eq!(seed_subtree(&app, &parent, 30, 0).await, 30);
    let ids = async |query: &str| {
        let path = format!("/content/locations/{parent}/children{query}");
        children_ids(
            &app.get(&path)
                .accept("LocationList+json")
                .json_of(200)
                .await,
        )
    };
    let all = ids("?limit=30").await;
    assert_eq!(all.len(), 30);
    assert_eq!(ids("?limit=-1").await, all[..25]);
    assert_eq!(ids("?limit=-30&offset=-2").await, all[..25]);
    assert_eq!(ids("?offset=-1").await, all[..10]);
    assert_eq!(ids("?offset=28&limit=-1").await, all[28..]);
    let xml = app
        .get(&format!(
            "/content/locations/{parent}/children?limit=-1&offset=-9"
        ))
        .send()
        .await
        .xml();
    assert_eq!(xml.name, "LocationList");
    assert_eq!(xml.children.len(), 25);
    app.get(&format!("/content/locations/{parent}/children?limit=many"))
        .send()
        .await
        .assert_error(400);
}
