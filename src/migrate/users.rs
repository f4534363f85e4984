//! User accounts (`ezuser` with `ezuser_setting`): login, email, enabled flag, maximum
//! concurrent logins and the password hash, kept so that users log in with the password they
//! had (`cairn_store::password` verifies the old kinds; the first login stores cairn's own).
//! A hash cairn cannot verify (md5 with the site name, a missing hash) keeps its account, and
//! the report names the login.

use super::Cx;
use super::source::{Row, Source};
use super::target::{Insert, Rows};
use anyhow::Result;
use std::collections::HashMap;

/// The accounts of the content items with ids in `items`, by content id.
pub async fn accounts(src: &Source, items: (i64, i64)) -> Result<HashMap<i64, Row>> {
    if !src.has("ezuser") {
        return Ok(HashMap::new());
    }
    let updated = if src
        .columns("ezuser")
        .await?
        .iter()
        .any(|c| c == "password_updated_at")
    {
        "u.password_updated_at"
    } else {
        "NULL"
    };
    let (settings, enabled, max) = if src.has("ezuser_setting") {
        (
            format!(
                "LEFT JOIN {} s ON s.user_id = u.contentobject_id",
                src.name("ezuser_setting")
            ),
            "s.is_enabled",
            "s.max_login",
        )
    } else {
        (String::new(), "1", "10")
    };
    let sql = format!(
        "SELECT u.contentobject_id, u.login, u.email, u.password_hash, u.password_hash_type, {updated}, \
         {enabled}, {max} FROM {} u {settings} WHERE u.contentobject_id BETWEEN {} AND {} ORDER BY u.contentobject_id",
        src.name("ezuser"),
        items.0,
        items.1,
    );
    let columns = [
        "contentobject_id",
        "login",
        "email",
        "password_hash",
        "password_hash_type",
        "password_updated_at",
        "is_enabled",
        "max_login",
    ];
    let rows = src.fetch(&sql, &columns).await?;
    Ok(rows
        .into_iter()
        .map(|r| (r.int("contentobject_id"), r))
        .collect())
}

/// cairn's `users.password_hash` of a legacy hash and its type (1 md5 of the password, 2 md5
/// of login and password, 3 md5 with the site name, 5 plain text, 6 bcrypt, 7 PHP's default);
/// `Err(why)` when cairn cannot verify it.
pub fn password_hash(login: &str, hash: &str, kind: i64) -> Result<String, String> {
    let hash = hash.trim();
    match kind {
        _ if hash.is_empty() => Err("no password hash".into()),
        6 | 7 if cairn_store::password::is_verifiable(hash) => Ok(hash.to_string()),
        1 => Ok(format!("md5_password:{hash}")),
        2 => Ok(format!("md5_user:{hash}:{login}")),
        5 => Ok(cairn_store::password::hash(hash)),
        3 => Err("md5 with the site's name (type 3)".into()),
        k => Err(format!("password hash type {k}")),
    }
}

/// The accounts of a batch of content items (converted already), by content id: the rows
/// to write.
pub fn users(cx: &mut Cx<'_>, accounts: &HashMap<i64, Row>) -> Rows {
    let mut rows: Vec<&Row> = accounts.values().collect();
    rows.sort_by_key(|r| r.int("contentobject_id"));
    cx.report.read("users", rows.len());
    let mut out = Vec::new();
    for r in rows {
        let (id, login) = (r.int("contentobject_id"), r.text("login"));
        let from = r.describe("ezuser");
        if !cx.contents.contains(&id) {
            cx.report
                .skip("users", "its content item is not carried", from);
            continue;
        }
        let hash = match password_hash(
            &login,
            &r.text("password_hash"),
            r.int("password_hash_type"),
        ) {
            Ok(h) => h,
            Err(why) => {
                cx.report.unverifiable.push((login.clone(), why.clone()));
                format!("unverifiable:{why}")
            }
        };
        out.push(Insert {
            from,
            values: vec![
                id.into(),
                login.into(),
                r.text("email").into(),
                hash.into(),
                r.opt_int("password_updated_at").into(),
                (r.opt_int("is_enabled").unwrap_or(1) != 0).into(),
                r.opt_int("max_login").unwrap_or(10).into(),
            ],
        });
    }
    cx.report.written("users", out.len());
    Rows {
        table: "users",
        columns: &[
            "id",
            "login",
            "email",
            "password_hash",
            "password_updated_at",
            "enabled",
            "max_login",
        ],
        rows: out,
    }
}
