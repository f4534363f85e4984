//! `cairn migrate`: the reference's clean install and its integration fixture, loaded into a
//! real MariaDB and PostgreSQL in the reference's own schema, migrated into the test's target
//! (SQLite or PostgreSQL, as every HTTP test), then read back through the REST API and
//! compared with the source rows.

mod compare;
mod files;
mod safety;
mod source;

use crate::support::*;
use cairn::migrate::{Options, Report};
use cairn_store::scratch::ScratchDb;
use source::{Data, Server, SourceDb};

/// A migrated repository: its source, the app over it and the report.
pub struct Migrated {
    pub source: SourceDb,
    pub app: TestApp,
    pub report: Report,
}

/// Files of the tests' storage, one directory per target.
fn storage(dir: &std::path::Path) -> cairn::storage::Storage {
    cairn::storage::Storage::open(None, dir, "/var/storage").expect("storage")
}

/// Runs a migration of `source` into the repository at `target`.
pub async fn migrate_into(
    target: &ScratchDb,
    source: &SourceDb,
    options: Options,
) -> anyhow::Result<Report> {
    let db = target.open(2).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let options = Options {
        from: source.url.clone(),
        quiet: true,
        ..options
    };
    cairn::migrate::migrate(&db, &storage(dir.path()), &options).await
}

/// `data` loaded on `server` and migrated into a new repository; `None` when the server is
/// absent (skipped with a warning).
pub async fn migrated(server: Server, data: Data) -> Option<Migrated> {
    let source = SourceDb::new(server, data).await?;
    let target = ScratchDb::new().await;
    let report = migrate_into(&target, &source, Options::default())
        .await
        .expect("migration");
    let app = TestApp::over_scratch(target, &[]).await;
    Some(Migrated {
        source,
        app,
        report,
    })
}
