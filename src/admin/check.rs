//! `cairn check`: the tree of Locations and its URL aliases are consistent, no row points at
//! one that is gone, and every Policy holds only limitations its function takes. Each check is
//! one SQL statement over the whole database.

use cairn_store::Db;
use cairn_store::sql::stmt;
use sea_orm::ConnectionTrait;

/// A check that found rows out of step: what it checks, how many, and the first few.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub check: &'static str,
    pub count: usize,
    pub first: Vec<String>,
}

const CHECKS: &[(&str, &str)] = &[
    (
        "Location paths and depths follow their parent's",
        "SELECT l.id FROM locations l JOIN locations p ON p.id = l.parent_id \
         WHERE l.id <> 1 AND (l.path_string <> p.path_string || CAST(l.id AS TEXT) || '/' \
         OR l.depth <> p.depth + 1)",
    ),
    (
        "Location visibility follows its parent's and its content's",
        "SELECT l.id FROM locations l JOIN locations p ON p.id = l.parent_id \
         LEFT JOIN contents c ON c.id = l.content_id \
         WHERE l.id <> 1 AND l.is_invisible <> (l.is_hidden OR COALESCE(c.is_hidden, FALSE) OR p.is_invisible)",
    ),
    (
        "Locations carry their content's Section",
        "SELECT l.id FROM locations l JOIN contents c ON c.id = l.content_id \
         WHERE l.section_id <> c.section_id",
    ),
    (
        "Locations have a parent",
        "SELECT l.id FROM locations l WHERE l.parent_id NOT IN (SELECT id FROM locations)",
    ),
    (
        "Locations hold a content item",
        "SELECT l.id FROM locations l WHERE l.id <> 1 AND l.content_id NOT IN (SELECT id FROM contents)",
    ),
    (
        "published content has a main Location",
        "SELECT c.id FROM contents c WHERE c.status = 1 AND (c.main_location_id IS NULL \
         OR c.main_location_id NOT IN (SELECT id FROM locations WHERE content_id = c.id))",
    ),
    (
        "content items have their current version",
        "SELECT c.id FROM contents c WHERE NOT EXISTS (SELECT 1 FROM content_versions v \
         WHERE v.content_id = c.id AND v.version_no = c.current_version)",
    ),
    (
        "versions belong to a content item",
        "SELECT v.id FROM content_versions v WHERE v.content_id NOT IN (SELECT id FROM contents)",
    ),
    (
        "fields belong to a version",
        "SELECT f.id FROM content_fields f WHERE NOT EXISTS (SELECT 1 FROM content_versions v \
         WHERE v.content_id = f.content_id AND v.version_no = f.version_no)",
    ),
    (
        "Locations of published content have their current URL alias below their parent's",
        "SELECT l.id FROM locations l JOIN contents c ON c.id = l.content_id \
         WHERE l.id NOT IN (1, 2) AND c.status = 1 AND NOT EXISTS ( \
           SELECT 1 FROM url_aliases a WHERE a.action = 'eznode:' || CAST(l.id AS TEXT) \
           AND a.is_original AND NOT a.is_alias AND a.parent = CASE WHEN l.parent_id IN (1, 2) THEN 0 ELSE \
             COALESCE((SELECT MIN(pa.id) FROM url_aliases pa WHERE pa.action = 'eznode:' || CAST(l.parent_id AS TEXT) \
               AND pa.is_original AND NOT pa.is_alias), -1) END)",
    ),
    (
        "current URL aliases name an existing (or trashed) Location",
        "SELECT a.action FROM url_aliases a WHERE a.action LIKE 'eznode:%' AND a.is_original \
         AND a.action NOT IN (SELECT 'eznode:' || CAST(id AS TEXT) FROM locations) \
         AND a.action NOT IN (SELECT 'eznode:' || CAST(id AS TEXT) FROM trash)",
    ),
    (
        "trash items hold a content item",
        "SELECT t.id FROM trash t WHERE t.content_id NOT IN (SELECT id FROM contents)",
    ),
    (
        "bookmarks, sessions and Role assignments point at existing rows",
        "SELECT 'bookmark ' || CAST(b.location_id AS TEXT) FROM bookmarks b \
           WHERE b.location_id NOT IN (SELECT id FROM locations) \
         UNION ALL SELECT 'session of ' || CAST(s.user_id AS TEXT) FROM user_sessions s \
           WHERE s.user_id NOT IN (SELECT id FROM users) \
         UNION ALL SELECT 'assignment ' || CAST(r.id AS TEXT) FROM role_assignments r \
           WHERE r.content_id NOT IN (SELECT id FROM contents) OR r.role_id NOT IN (SELECT id FROM roles)",
    ),
];

/// Runs every check; the problems found (none: consistent).
pub async fn check(db: &Db) -> anyhow::Result<Vec<Problem>> {
    let conn = db.conn();
    let mut problems = Vec::new();
    for (what, sql) in CHECKS {
        let rows = conn
            .query_all_raw(stmt(db.backend(), sql, []))
            .await
            .map_err(|e| anyhow::anyhow!("{what}: {e}"))?;
        if rows.is_empty() {
            continue;
        }
        let first = rows
            .iter()
            .take(5)
            .map(|r| {
                r.try_get_by_index::<i64>(0)
                    .map(|i| i.to_string())
                    .or_else(|_| r.try_get_by_index::<String>(0))
                    .unwrap_or_default()
            })
            .collect();
        problems.push(Problem {
            check: what,
            count: rows.len(),
            first,
        });
    }
    let misplaced = misplaced_limitations(db).await?;
    if !misplaced.is_empty() {
        problems.push(Problem {
            check: "Policies hold only limitations their function takes (the policy map)",
            count: misplaced.len(),
            first: misplaced.into_iter().take(5).collect(),
        });
    }
    Ok(problems)
}

/// The limitations of Policies whose module and function do not take them (stored before
/// cairn refused them, or written by hand), as `Role <id> Policy <id> <module>/<function>:
/// <identifier>`.
async fn misplaced_limitations(db: &Db) -> anyhow::Result<Vec<String>> {
    let rows = db
        .conn()
        .query_all_raw(stmt(
            db.backend(),
            "SELECT p.role_id, p.id, p.module, p.function, l.identifier FROM policies p \
             JOIN policy_limitations l ON l.policy_id = p.id ORDER BY p.role_id, p.id, l.id",
            [],
        ))
        .await?;
    let mut out = Vec::new();
    for r in rows {
        let module: String = r.try_get_by_index(2)?;
        let function: String = r.try_get_by_index(3)?;
        let identifier: String = r.try_get_by_index(4)?;
        if !crate::roles::limitations::accepted(&module, &function).contains(&identifier.as_str()) {
            out.push(format!(
                "Role {} Policy {} {module}/{function}: {identifier}",
                r.try_get_by_index::<i64>(0)?,
                r.try_get_by_index::<i64>(1)?
            ));
        }
    }
    Ok(out)
}
