//! `cairn migrate --from URL`: brings a whole eZ Platform 2.5/3.x or Ibexa DXP 4.x/5.0
//! repository over from its legacy storage database (MySQL/MariaDB or PostgreSQL) into
//! cairn's database, ids kept: languages, Sections, Object states, content types, content with
//! every version, relations, Locations and the Trash, URL aliases and wildcards, users and
//! their password hashes, Roles, Policies and assignments, bookmarks, and (`--files`) the
//! uploaded files.
//!
//! Everything is written in one transaction that replaces the clean-install rows: a failure
//! leaves the repository as it was and names the source row and why; `--dry-run` rolls it
//! back at the end. Rows are read in batches (content item by content item range), never a
//! table at once. Each kind lives in a file of its own; `source` reads, `target` writes,
//! `report` counts.

mod ahead;
mod bookmarks;
mod content;
mod definitions;
mod files;
mod languages;
mod locations;
mod php;
mod report;
mod roles;
mod source;
mod states;
mod target;
mod types;
mod url_aliases;
mod users;
mod values;

pub use report::{Progress, Report};
pub use source::{RENAMED, RENAMED_COLUMNS, legacy_name};

use crate::field_types::Registry;
use crate::storage::FileStore;
use anyhow::{Result, anyhow};
use cairn_runtime::HashValue;
use cairn_store::Db;
use source::Source;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;
use target::Target;

/// How a migration runs.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The old site's database: `mysql://…`, `mariadb://…` or `postgres://…`.
    pub from: String,
    /// Read and check everything, write nothing.
    pub dry_run: bool,
    /// Replace a repository written to since its install.
    pub replace: bool,
    /// The old site's storage directory (`var/site/storage`'s parent or itself).
    pub files: Option<PathBuf>,
    /// No progress lines.
    pub quiet: bool,
}

/// The legacy tables a migration reads.
pub const CARRIED: &[&str] = &[
    "ezcontent_language",
    "ezsection",
    "ezcobj_state_group",
    "ezcobj_state_group_language",
    "ezcobj_state",
    "ezcobj_state_language",
    "ezcobj_state_link",
    "ezcontentclassgroup",
    "ezcontentclass",
    "ezcontentclass_name",
    "ezcontentclass_classgroup",
    "ezcontentclass_attribute",
    "ezcontentclass_attribute_ml",
    "ezcontentobject",
    "ezcontentobject_version",
    "ezcontentobject_name",
    "ezcontentobject_attribute",
    "ezcontentobject_link",
    "ezcontentobject_tree",
    "ezcontentobject_trash",
    "eznode_assignment",
    "ezurl",
    "ezurl_object_link",
    "ezkeyword",
    "ezkeyword_attribute_link",
    "ezgmaplocation",
    "ezbinaryfile",
    "ezmedia",
    "ezimagefile",
    "ezurlalias_ml",
    "ezurlwildcard",
    "ezuser",
    "ezuser_setting",
    "ezrole",
    "ezpolicy",
    "ezpolicy_limitation",
    "ezpolicy_limitation_value",
    "ezuser_role",
    "ezcontentbrowsebookmark",
];

/// The legacy tables a migration leaves, and why (the report names them).
pub const IGNORED: &[(&str, &str)] = &[
    (
        "ezsearch_word",
        "the legacy search index: cairn builds its own full-text index",
    ),
    (
        "ezsearch_object_word_link",
        "the legacy search index: cairn builds its own full-text index",
    ),
    (
        "ezurlalias",
        "the eZ Publish 3.x URL alias table, replaced by ezurlalias_ml",
    ),
    (
        "ezurlalias_ml_incr",
        "the id counter of ezurlalias_ml: cairn continues after the highest id",
    ),
    (
        "ezuser_accountkey",
        "pending account activation keys: users activate again",
    ),
    (
        "eznotification",
        "notifications of the back office: not served by the REST API",
    ),
    (
        "ezpreferences",
        "preferences of the back office: not served by the REST API",
    ),
    ("ezsite_data", "the installer's records"),
    ("ezpackage", "legacy packages"),
    (
        "ezdfsfile",
        "the cluster's file metadata: files come from --files",
    ),
    ("ibexa_setting", "back office settings"),
    ("ibexa_token", "one-time tokens"),
    ("ibexa_token_type", "one-time tokens"),
];

/// Names and descriptions by language code (JSON objects as cairn stores them).
pub(crate) type Texts = (
    serde_json::Map<String, serde_json::Value>,
    serde_json::Map<String, serde_json::Value>,
);

/// A Field definition as content fields need it.
#[derive(Debug, Clone)]
pub(crate) struct Def {
    /// The bare field type name cairn knows it by (`string`), `None` when cairn has none.
    pub field_type: Option<String>,
    /// The legacy identifier (`ezstring`).
    pub legacy: String,
    /// The settings and validators of a searchable Field definition (its fields' words go
    /// to the full-text index); `None` when not searchable.
    pub search: Option<(HashValue, HashValue)>,
}

/// What every kind's migration works with.
pub(crate) struct Cx<'a> {
    pub src: Arc<Source>,
    pub out: Target<'a>,
    pub report: Report,
    pub progress: Progress,
    pub types: &'a Registry,
    pub files: &'a dyn FileStore,
    pub files_dir: Option<PathBuf>,
    /// Language id → code.
    pub languages: HashMap<i64, String>,
    /// Object state id → its group.
    pub state_groups: HashMap<i64, i64>,
    /// Field definition id → what its fields need.
    pub defs: HashMap<i64, Arc<Def>>,
    /// The content items written.
    pub contents: HashSet<i64>,
}

impl Cx<'_> {
    /// The language code of a language id (`2` → `eng-GB`); the always-available bit (1) is
    /// ignored.
    pub fn code(&self, id: i64) -> Option<String> {
        self.languages.get(&(id & !1)).cloned()
    }

    /// The codes of a language mask, lowest bit first (bit 0, always available, is not one).
    pub fn codes(&self, mask: i64) -> Vec<String> {
        let mut ids: Vec<&i64> = self
            .languages
            .keys()
            .filter(|id| mask & **id != 0)
            .collect();
        ids.sort();
        ids.into_iter()
            .filter_map(|id| self.languages.get(id).cloned())
            .collect()
    }
}

/// Why a dry run's transaction is rolled back: it carries the report out.
#[derive(Debug)]
struct DryRun(Report);

impl std::fmt::Display for DryRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("dry run")
    }
}

impl std::error::Error for DryRun {}

/// Migrates the repository at `options.from` into `db` (files onto `files`) in one
/// transaction; the report of what was carried. An error names the source table, row and why,
/// and leaves `db` as it was.
pub async fn migrate(db: &Db, files: &dyn FileStore, options: &Options) -> Result<Report> {
    let src = Arc::new(Source::connect(&options.from).await?);
    let total = total_rows(&src).await?;
    let types = Registry::new("ez");
    let change = cairn_store::events::Change::by_server("migrate", "/");
    let out = db
        .write(change, async |tx| {
            let mut cx = Cx {
                src: src.clone(),
                out: Target {
                    tx,
                    backend: db.backend(),
                },
                report: Report {
                    dry_run: options.dry_run,
                    ..Report::default()
                },
                progress: Progress::new(total, options.quiet),
                types: &types,
                files,
                files_dir: options.files.clone(),
                languages: HashMap::new(),
                state_groups: HashMap::new(),
                defs: HashMap::new(),
                contents: HashSet::new(),
            };
            if let Some(why) = cx.out.written_since_install().await?
                && !options.replace
            {
                return Err(anyhow!(
                    "the target repository was written to since its install ({why}); --replace replaces it"
                ));
            }
            run(&mut cx).await?;
            if options.dry_run {
                return Err(anyhow::Error::new(DryRun(cx.report)));
            }
            Ok::<_, anyhow::Error>(cx.report)
        })
        .await;
    match out {
        Ok(report) => {
            // The planner's statistics of tables that were just filled, for the reads and
            // checks that follow (PostgreSQL would plan them for empty tables).
            if db.backend() == sea_orm::DbBackend::Postgres {
                use sea_orm::ConnectionTrait;
                db.conn().execute_unprepared("ANALYZE").await?;
            }
            Ok(report)
        }
        Err(e) => match e.downcast::<DryRun>() {
            Ok(DryRun(report)) => Ok(report),
            Err(e) => Err(e),
        },
    }
}

/// Every kind, parents before children; how long each took is logged (`--log info`).
async fn run(cx: &mut Cx<'_>) -> Result<()> {
    let mut clock = Clock(std::time::Instant::now());
    note_tables(cx).await?;
    cx.out.clear().await?;
    let unindexed = cx.out.unindex().await?;
    clock.lap("the clean install cleared");
    languages::languages(cx).await?;
    languages::sections(cx).await?;
    states::groups_and_states(cx).await?;
    types::groups(cx).await?;
    types::types(cx).await?;
    definitions::definitions(cx).await?;
    clock.lap("languages, Sections, Object states and content types");
    content::contents(cx).await?;
    clock.lap("content items");
    locations::locations(cx).await?;
    locations::trash(cx).await?;
    locations::pending(cx).await?;
    clock.lap("Locations");
    url_aliases::aliases(cx).await?;
    url_aliases::wildcards(cx).await?;
    clock.lap("URL aliases");
    roles::roles(cx).await?;
    bookmarks::bookmarks(cx).await?;
    locations::derived(cx).await?;
    clock.lap("Roles, bookmarks and derived columns");
    cx.out.reindex(unindexed).await?;
    cx.out.continue_ids().await?;
    clock.lap("indexes made again");
    if !cx.progress.quiet() {
        eprintln!("{}", cx.progress.line());
    }
    Ok(())
}

/// The time since the last lap, logged.
struct Clock(std::time::Instant);

impl Clock {
    fn lap(&mut self, what: &str) {
        let now = std::time::Instant::now();
        let took = now - self.0;
        tracing::info!("migrate: {what} in {:.2} s", took.as_secs_f64());
        self.0 = now;
    }
}

/// The source's tables that are not carried go into the report, with why.
async fn note_tables(cx: &mut Cx<'_>) -> Result<()> {
    let mut tables = cx.src.tables().await?;
    tables.sort();
    for t in tables {
        let legacy = legacy_name(&t);
        if legacy.is_some_and(|l| CARRIED.contains(&l)) {
            continue;
        }
        let why = match legacy.and_then(|l| IGNORED.iter().find(|(i, _)| *i == l)) {
            Some((_, why)) => why.to_string(),
            None => match IGNORED.iter().find(|(i, _)| *i == t) {
                Some((_, why)) => why.to_string(),
                None => "not a table of the legacy storage (a bundle's: page builder, \
                         comments, custom field types' storage…)"
                    .to_string(),
            },
        };
        cx.report.ignored.push((t, why));
    }
    Ok(())
}

/// The rows progress counts: content items, their versions and fields, Locations and URL
/// aliases (the bulk of any repository).
async fn total_rows(src: &Source) -> Result<u64> {
    let mut n = 0;
    for t in [
        "ezcontentobject",
        "ezcontentobject_version",
        "ezcontentobject_attribute",
        "ezcontentobject_tree",
        "ezurlalias_ml",
    ] {
        n += src.count(t).await?;
    }
    Ok(n.max(0) as u64)
}
