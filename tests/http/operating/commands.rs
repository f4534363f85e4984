//! The operator's commands in-process (`user password`, `language`, `check`, `backup`) and
//! through the binary, with their exit codes.

use crate::support::*;
use serde_json::json;

#[tokio::test]
async fn a_new_password_works_at_once_and_ends_the_sessions() {
    let app = TestApp::new().await;
    let (cookie, token) = app.login().await;
    cairn::admin::set_password(&app.service.db, "admin", "Recovered-123")
        .await
        .unwrap();
    app.get("/user/current")
        .admin()
        .send()
        .await
        .assert_error(401);
    app.get("/user/current")
        .basic("admin", "Recovered-123")
        .send()
        .await
        .assert(307);
    // The admin's session is gone.
    app.req("POST", "/content/sections")
        .header("cookie", &cookie)
        .header("x-csrf-token", &token)
        .json_body("SectionInput", json!({"identifier": "s", "name": "S"}))
        .send()
        .await
        .assert_error(401);
    let e = cairn::admin::set_password(&app.service.db, "nobody", "Whatever-123").await;
    assert!(e.unwrap_err().to_string().contains("no user"));
    let e = cairn::admin::set_password(&app.service.db, "admin", "short").await;
    assert!(e.unwrap_err().to_string().contains("8 characters"));
}

#[tokio::test]
async fn languages_are_added_and_listed() {
    let app = TestApp::new().await;
    cairn::admin::add_language(&app.service.db, "pol-PL", "Polish")
        .await
        .unwrap();
    let all = cairn::admin::languages(&app.service.db).await.unwrap();
    assert!(
        all.iter()
            .any(|(c, n, on)| c == "pol-PL" && n == "Polish" && *on)
    );
    assert!(
        cairn::admin::add_language(&app.service.db, "pol-PL", "Polish")
            .await
            .is_err()
    );
    assert!(
        cairn::admin::add_language(&app.service.db, "polish", "Polish")
            .await
            .is_err()
    );
    // The API sees it at once.
    app.get("/languages/pol-PL").send().await.assert(200);
}

#[tokio::test]
async fn check_reports_what_is_out_of_step() {
    let app = TestApp::new().await;
    assert_eq!(cairn::admin::check(&app.service.db).await.unwrap(), vec![]);
    app.sql("UPDATE locations SET depth = 7 WHERE id = 43", vec![])
        .await;
    app.sql(
        "INSERT INTO bookmarks (user_id, location_id, created) VALUES (14, 999, 0)",
        vec![],
    )
    .await;
    app.sql(
        "INSERT INTO content_fields (id, version_no, content_id, field_definition_id, \
         language_code, value, sort_key_string, sort_key_int) \
         VALUES (99999, 99, 41, 1, 'eng-GB', '\"x\"', '', 0)",
        vec![],
    )
    .await;
    let problems = cairn::admin::check(&app.service.db).await.unwrap();
    let checks: Vec<&str> = problems.iter().map(|p| p.check).collect();
    assert!(checks.iter().any(|c| c.contains("depths")), "{problems:?}");
    let fields = (problems.iter())
        .find(|p| p.check == "fields belong to a version")
        .unwrap_or_else(|| panic!("{problems:?}"));
    assert_eq!(
        (fields.count, &fields.first[..]),
        (1, &["99999".to_string()][..])
    );
    assert!(
        checks.iter().any(|c| c.contains("bookmarks")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.first.contains(&"43".to_string())),
        "{problems:?}"
    );
}

#[tokio::test]
async fn backup_copies_sqlite_and_names_pg_dump_for_postgresql() {
    let app = TestApp::new().await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("backup.db");
    let r = cairn::admin::backup(&app.service.db, &file).await;
    if backend() == "postgres" {
        assert!(r.unwrap_err().to_string().contains("pg_dump"));
        return;
    }
    r.unwrap();
    // The copy opens as a cairn database with the same content.
    let copy = cairn_store::Db::open(&cairn_store::DbOptions {
        statement_timeout: None,
        url: format!("sqlite://{}", file.display()),
        max_connections: 1,
    })
    .await
    .unwrap();
    assert!(cairn::admin::check(&copy).await.unwrap().is_empty());
    let n: i64 = {
        use sea_orm::ConnectionTrait;
        copy.conn()
            .query_one_raw(cairn_store::sql::stmt(
                copy.backend(),
                "SELECT COUNT(*) FROM locations",
                [],
            ))
            .await
            .unwrap()
            .unwrap()
            .try_get_by_index(0)
            .unwrap()
    };
    assert!(n > 10);
    // An existing file is never overwritten.
    assert!(cairn::admin::backup(&app.service.db, &file).await.is_err());
}

/// The binary's commands, with their exit codes, on a SQLite file.
#[test]
fn the_commands_run_from_the_command_line() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("c.db").display());
    let cairn = env!("CARGO_BIN_EXE_cairn");
    let run = |args: &[&str]| {
        Command::new(cairn)
            .args(args)
            .args(["--database-url", &url])
            .output()
            .unwrap()
    };
    let out = run(&["check"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["language", "add", "ger-DE", "German"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["language", "list"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("ger-DE\tGerman"));
    let mut child = Command::new(cairn)
        .args(["user", "password", "admin", "--database-url", &url])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"From-stdin-123\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let backup = dir.path().join("b.db");
    let out = run(&["backup", backup.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(backup.exists());
    for help in [
        &["user", "password", "--help"][..],
        &["check", "--help"],
        &["backup", "--help"],
    ] {
        assert!(
            Command::new(cairn)
                .args(help)
                .output()
                .unwrap()
                .status
                .success()
        );
    }
}
