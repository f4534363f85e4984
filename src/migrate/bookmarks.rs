//! Bookmarks (`ezcontentbrowsebookmark`): the Locations each user marked. The legacy table
//! keeps no date; cairn's `created` is 0 for them (they list first, in id order).

use super::Cx;
use super::target::Insert;
use anyhow::Result;
use std::collections::HashSet;

pub async fn bookmarks(cx: &mut Cx<'_>) -> Result<()> {
    let rows = (cx.src)
        .select(
            "ezcontentbrowsebookmark",
            &["id", "user_id", "node_id"],
            "",
            "id",
        )
        .await?;
    cx.report.read("bookmarks", rows.len());
    let users: HashSet<i64> = cx
        .out
        .ids("SELECT id FROM users")
        .await?
        .into_iter()
        .collect();
    let locations: HashSet<i64> = cx
        .out
        .ids("SELECT id FROM locations")
        .await?
        .into_iter()
        .collect();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for r in &rows {
        let (user, node) = (r.int("user_id"), r.int("node_id"));
        let from = r.describe("ezcontentbrowsebookmark");
        if !users.contains(&user) {
            cx.report.skip("bookmarks", "its user is not carried", from);
        } else if !locations.contains(&node) {
            cx.report
                .skip("bookmarks", "its Location is not carried", from);
        } else if seen.insert((user, node)) {
            out.push(Insert {
                from,
                values: vec![user.into(), node.into(), 0i64.into()],
            });
        }
    }
    cx.report.written("bookmarks", out.len());
    cx.out
        .insert("bookmarks", &["user_id", "location_id", "created"], out)
        .await
}
