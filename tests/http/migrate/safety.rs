//! Running a migration safely: `--dry-run` writes nothing, a repository written to since its
//! install is refused without `--replace`, a failing migration leaves the target as it was and
//! names the table, the row and why; the report counts each kind; a migrated account whose
//! hash cannot be verified is kept and named.

use super::source::{Data, Server, SourceDb};
use super::{migrate_into, migrated};
use crate::support::*;
use cairn::migrate::Options;
use cairn_store::scratch::ScratchDb;

/// (contents, sections, users) of a target, straight from its database.
async fn counts(target: &ScratchDb) -> (i64, i64, i64) {
    let db = target.open(2).await;
    let one = async |sql: &str| -> i64 {
        let ids = cairn_store::sql::ids(db.conn(), sql, []).await.unwrap();
        ids.first().copied().unwrap_or(0)
    };
    (
        one("SELECT COUNT(*) FROM contents").await,
        one("SELECT COUNT(*) FROM sections").await,
        one("SELECT COUNT(*) FROM users").await,
    )
}

#[tokio::test]
async fn a_dry_run_reads_everything_and_writes_nothing() {
    let Some(source) = SourceDb::new(Server::Postgres, Data::Fixture).await else {
        return;
    };
    let target = ScratchDb::new().await;
    let before = counts(&target).await;
    let report = migrate_into(
        &target,
        &source,
        Options {
            dry_run: true,
            ..Options::default()
        },
    )
    .await
    .unwrap();
    assert!(report.dry_run);
    assert_eq!(report.counts("content items").read, 18);
    assert_eq!(report.counts("content items").written, 18);
    assert_eq!(counts(&target).await, before);
    assert_eq!(before, (12, 3, 2));
    // Nothing recorded either: a real migration after it is welcome.
    migrate_into(&target, &source, Options::default())
        .await
        .unwrap();
    assert_eq!(counts(&target).await.0, 18);
}

#[tokio::test]
async fn a_written_repository_is_refused_unless_replaced() {
    let Some(source) = SourceDb::new(Server::Postgres, Data::Fixture).await else {
        return;
    };
    let target = ScratchDb::new().await;
    let url = target.url.clone();
    let app = TestApp::over_scratch(target, &[]).await;
    app.req("POST", "/content/sections")
        .admin()
        .json_body(
            "SectionInput",
            serde_json::json!({"identifier": "mine", "name": "Mine"}),
        )
        .send()
        .await
        .assert(201);
    let db = cairn::config::DbArgs {
        database_url: url,
        db_pool: 2,
        statement_timeout: 30,
        defaulted: false,
    }
    .open()
    .await
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let files = cairn::storage::Storage::open(None, dir.path(), "/var/storage").unwrap();
    let options = Options {
        from: source.url.clone(),
        quiet: true,
        ..Options::default()
    };
    let e = cairn::migrate::migrate(&db, &files, &options)
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("--replace"), "{e}");
    assert_eq!(
        app.get("/content/sections/4")
            .admin()
            .accept("Section+json")
            .send()
            .await
            .json()["Section"]["identifier"],
        "mine"
    );
    let replaced = cairn::migrate::migrate(
        &db,
        &files,
        &Options {
            replace: true,
            ..options
        },
    )
    .await
    .unwrap();
    assert_eq!(replaced.counts("Sections").written, 6);
    // A second migration is a write too: it needs --replace again.
    let again = Options {
        from: source.url.clone(),
        quiet: true,
        ..Options::default()
    };
    assert!(cairn::migrate::migrate(&db, &files, &again).await.is_err());
}

#[tokio::test]
async fn a_failing_migration_leaves_the_target_and_names_the_row() {
    let Some(source) = SourceDb::new(Server::MariaDb, Data::Fixture).await else {
        return;
    };
    // Two Locations with one remote id: cairn's Locations are unique by remote id.
    source
        .run("UPDATE ezcontentobject_tree SET remote_id = 'same' WHERE node_id IN (44, 45)")
        .await;
    let target = ScratchDb::new().await;
    let before = counts(&target).await;
    let e = migrate_into(&target, &source, Options::default())
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("ezcontentobject_tree (node_id=45"), "{e}");
    assert!(e.contains("locations"), "{e}");
    assert!(e.to_lowercase().contains("unique"), "{e}");
    assert_eq!(counts(&target).await, before);
}

#[tokio::test]
async fn the_report_counts_every_kind_and_names_what_it_skips() {
    let Some(source) = SourceDb::new(Server::MariaDb, Data::Fixture).await else {
        return;
    };
    // An account whose hash cannot be verified (md5 with the site's name) is kept and named.
    source
        .run("UPDATE ezuser SET password_hash_type = 3, password_hash = 'abc' WHERE login = 'anonymous'")
        .await;
    let target = ScratchDb::new().await;
    let report = migrate_into(&target, &source, Options::default())
        .await
        .unwrap();
    for (kind, n) in [
        ("content items", 18),
        ("versions", 20),
        ("Locations", 19),
        ("URL aliases", 40),
        ("Roles", 5),
        ("Policies", 52),
        ("users", 2),
    ] {
        assert_eq!(report.counts(kind).read, n, "{kind}");
    }
    assert_eq!(report.counts("Locations").written, 19);
    assert_eq!(
        report.unverifiable,
        [(
            "anonymous".to_string(),
            "md5 with the site's name (type 3)".to_string()
        )]
    );
    let shown = report.to_string();
    assert!(
        shown.contains("password not verifiable: anonymous"),
        "{shown}"
    );
    assert!(shown.contains("not carried: ezsearch_word"), "{shown}");
    assert!(
        shown.contains("field type ezinisetting is not one cairn has"),
        "{shown}"
    );
    assert_eq!(counts(&target).await.2, 2);
}

#[tokio::test]
async fn progress_shows_rows_per_second_and_time_left() {
    let mut p = cairn::migrate::Progress::new(1000, true);
    p.advance(250);
    let line = p.line();
    assert!(line.starts_with("250/1000 rows, "), "{line}");
    assert!(
        line.contains(" rows/s, about ") && line.ends_with(" s left"),
        "{line}"
    );
    let Some(m) = migrated(Server::Postgres, Data::Clean).await else {
        return;
    };
    assert_eq!(m.report.counts("content items").written, 12);
}

/// `cairn migrate` from the command line: progress on standard error, the report on standard
/// output, the full-text index caught up and `cairn check` passing after it; a second run is
/// refused (exit 1) unless `--replace`.
#[tokio::test]
async fn the_command_migrates_reports_and_checks() {
    let Some(source) = SourceDb::new(Server::MariaDb, Data::Fixture).await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("m.db").display());
    let storage = dir.path().join("storage").display().to_string();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "migrate",
            "--from",
            &source.url,
            "--database-url",
            &url,
            "--storage-dir",
            &storage,
        ];
        args.extend_from_slice(extra);
        std::process::Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(&args)
            .output()
            .unwrap()
    };
    let dry = run(&["--dry-run", "--quiet"]);
    let out = String::from_utf8_lossy(&dry.stdout).to_string();
    assert!(
        dry.status.success(),
        "{}",
        String::from_utf8_lossy(&dry.stderr)
    );
    assert!(out.contains("dry run: nothing was written"), "{out}");
    let done = run(&[]);
    let (out, err) = (
        String::from_utf8_lossy(&done.stdout),
        String::from_utf8_lossy(&done.stderr),
    );
    assert!(done.status.success(), "{out}\n{err}");
    assert!(
        out.contains("content items") && out.contains("The database is consistent."),
        "{out}"
    );
    assert!(err.contains(" rows/s, about "), "{err}");
    let again = run(&["--quiet"]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("--replace"));
    assert!(run(&["--quiet", "--replace"]).status.success());
    // The search finds migrated content by its words (the index was caught up).
    let db = cairn::config::DbArgs {
        database_url: url.clone(),
        db_pool: 2,
        statement_timeout: 30,
        defaulted: false,
    }
    .open()
    .await
    .unwrap();
    let indexed = cairn_store::sql::ids(db.conn(), "SELECT COUNT(*) FROM content_text", [])
        .await
        .unwrap();
    assert!(indexed[0] >= 18, "{indexed:?}");
}
