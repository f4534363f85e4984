//! The migration timed (issue 41): a source database in the reference's legacy schema (made
//! from its `schema.yaml`, with its clean install) filled with N image items, each in two
//! languages with three versions (two archived, one published), a Location, URL aliases in
//! both languages and an Object state; then `cairn migrate` of it into a fresh SQLite
//! database and, given a PostgreSQL server, into a fresh PostgreSQL database. The rate is the
//! items over the wall time of the command; its peak resident memory is read from `/proc`
//! while it runs.

use crate::server::Cairn;
use anyhow::{Context, Result, bail};
use md5::{Digest, Md5};
use serde::Serialize;
use serde_yaml::Value as Yaml;
use sqlx_core::executor::Executor;
use sqlx_core::raw_sql::raw_sql;
use sqlx_core::sql_str::AssertSqlSafe;
use sqlx_mysql::MySqlPool;
use sqlx_postgres::PgPool;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

pub const NAME: &str = "migrate";

/// Items written per batch of statements.
const BATCH: usize = 500;

/// What one migration measured.
#[derive(Debug, Serialize)]
pub struct Outcome {
    pub target: String,
    pub items: usize,
    pub seconds: f64,
    pub items_per_s: f64,
    pub peak_rss_mib: f64,
}

enum Pool {
    My(MySqlPool),
    Pg(PgPool),
}

impl Pool {
    async fn run(&self, sql: String) -> Result<()> {
        match self {
            Pool::My(p) => raw_sql(AssertSqlSafe(sql)).execute(p).await.map(|_| ()),
            Pool::Pg(p) => raw_sql(AssertSqlSafe(sql)).execute(p).await.map(|_| ()),
        }
        .context("writing the source")
    }
}

/// `server/name` (a database named `name` on the server at `server`).
fn database_url(server: &str, name: &str) -> String {
    format!("{}/{name}", server.trim_end_matches('/'))
}

/// Creates (or recreates) the database `name` on `server` (`mysql://…` or `postgres://…`).
async fn create_database(server: &str, name: &str) -> Result<()> {
    if server.starts_with("mysql:") {
        let p = MySqlPool::connect(&database_url(server, "mysql")).await?;
        p.execute(AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name}")))
            .await?;
        p.execute(AssertSqlSafe(format!(
            "CREATE DATABASE {name} CHARACTER SET utf8mb4"
        )))
        .await?;
    } else {
        let p = PgPool::connect(&database_url(server, "postgres")).await?;
        p.execute(AssertSqlSafe(format!(
            "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
        )))
        .await?;
        p.execute(AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .await?;
    }
    Ok(())
}

async fn drop_database(server: &str, name: &str) {
    if server.starts_with("mysql:") {
        if let Ok(p) = MySqlPool::connect(&database_url(server, "mysql")).await {
            let _ = p
                .execute(AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name}")))
                .await;
        }
    } else if let Ok(p) = PgPool::connect(&database_url(server, "postgres")).await {
        let _ = p
            .execute(AssertSqlSafe(format!(
                "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
            )))
            .await;
    }
}

/// The `CREATE TABLE`s of the reference's `schema.yaml` (columns, types, primary keys), and
/// the `CREATE INDEX`es of its indexes and unique constraints (as plain indexes, with the
/// prefix lengths MySQL needs), which the migration's reads by content item use as a real
/// site's would; the indexes are made after the rows are written, as a bulk load would.
fn ddl(reference: &Path, mysql: bool) -> Result<(String, String)> {
    let text = std::fs::read_to_string(reference.join("schema.yaml"))
        .context("schema.yaml of --reference")?;
    let y: Yaml = serde_yaml::from_str(&text)?;
    let mut out = String::new();
    let mut indexes = String::new();
    let tables = y
        .get("tables")
        .and_then(Yaml::as_mapping)
        .context("schema.yaml has no tables")?;
    let q = |c: &str| {
        if mysql {
            format!("`{c}`")
        } else {
            format!("\"{c}\"")
        }
    };
    for (name, t) in tables {
        let mut parts = Vec::new();
        let mut key = Vec::new();
        for part in ["id", "fields"] {
            for (c, spec) in t.get(part).and_then(Yaml::as_mapping).into_iter().flatten() {
                let c = c.as_str().unwrap_or_default();
                if part == "id" {
                    key.push(q(c));
                }
                let ty = spec.get("type").and_then(Yaml::as_str).unwrap_or("string");
                let len = spec
                    .get("length")
                    .and_then(Yaml::as_u64)
                    .filter(|l| *l > 0)
                    .unwrap_or(255);
                let sql_ty = match (ty, mysql) {
                    ("integer", _) => "INTEGER".to_string(),
                    ("bigint", _) => "BIGINT".to_string(),
                    ("smallint", _) => "SMALLINT".to_string(),
                    ("float", true) => "DOUBLE".to_string(),
                    ("float", false) => "DOUBLE PRECISION".to_string(),
                    ("boolean", true) => "TINYINT(1)".to_string(),
                    ("boolean", false) => "BOOLEAN".to_string(),
                    ("text" | "blob" | "json", true) => "LONGTEXT".to_string(),
                    ("text" | "blob", false) => "TEXT".to_string(),
                    ("json", false) => "JSON".to_string(),
                    ("datetime", _) => "TIMESTAMP".to_string(),
                    _ => format!("VARCHAR({len})"),
                };
                let auto = spec
                    .get("options")
                    .and_then(|o| o.get("autoincrement"))
                    .and_then(Yaml::as_bool)
                    == Some(true);
                parts.push(match (auto, mysql) {
                    (true, true) => format!("{} {sql_ty} NOT NULL AUTO_INCREMENT", q(c)),
                    (true, false) => format!("{} SERIAL", q(c)),
                    _ => format!("{} {sql_ty} NULL", q(c)),
                });
            }
        }
        if !key.is_empty() {
            parts.push(format!("PRIMARY KEY ({})", key.join(", ")));
        }
        let table = name.as_str().unwrap_or_default();
        out.push_str(&format!("CREATE TABLE {table} ({});\n", parts.join(", ")));
        for part in ["indexes", "uniqueConstraints"] {
            for (index, spec) in t.get(part).and_then(Yaml::as_mapping).into_iter().flatten() {
                let fields = spec.get("fields").and_then(Yaml::as_sequence);
                let lengths = spec
                    .get("options")
                    .and_then(|o| o.get("lengths"))
                    .and_then(Yaml::as_sequence);
                let columns: Vec<String> = (fields.into_iter().flatten().enumerate())
                    .map(|(i, c)| {
                        let c = q(c.as_str().unwrap_or_default());
                        let length = lengths.and_then(|l| l.get(i)).and_then(|l| {
                            l.as_str()
                                .map(str::to_string)
                                .or(l.as_u64().map(|n| n.to_string()))
                        });
                        match length {
                            Some(n) if mysql => format!("{c}({n})"),
                            _ => c,
                        }
                    })
                    .collect();
                // MySQL names indexes per table, PostgreSQL per schema.
                let index = index.as_str().unwrap_or_default();
                let index = if mysql {
                    index.to_string()
                } else {
                    format!("{table}__{index}")
                };
                indexes.push_str(&format!(
                    "CREATE INDEX {index} ON {table} ({});\n",
                    columns.join(", ")
                ));
            }
        }
    }
    Ok((out, indexes))
}

fn md5_hex(text: &str) -> String {
    Md5::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The rows of items `from..to` (content ids 1000 + n), as multi-row INSERTs.
fn items_sql(from: usize, to: usize) -> String {
    let (mut objects, mut versions, mut names, mut fields) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut nodes, mut aliases, mut states) = (Vec::new(), Vec::new(), Vec::new());
    let t = 1_700_000_000;
    for n in from..to {
        let id = 1000 + n;
        objects.push(format!(
            "({id}, 5, 3, 2, 7, {t}, 'Image {n}', 14, {t}, 'bench-{id}', 3, 1)"
        ));
        for v in 1..=3 {
            let status = if v == 3 { 1 } else { 3 };
            versions.push(format!(
                "({}, {id}, {v}, {status}, 14, {t}, {t}, 2, 6, 0, 0)",
                10 * id + v
            ));
            for (lang, code, word) in [(2, "eng-GB", "Image"), (4, "ger-DE", "Bild")] {
                names.push(format!(
                    "({id}, {v}, '{code}', {lang}, '{word} {n}', '{code}')"
                ));
                let base = 10 * id + if lang == 2 { 0 } else { 3 };
                let text = format!("{word} {n}");
                fields.push(format!(
                    "({base}, {v}, {id}, 116, 'ezstring', '{code}', {lang}, 0, 0, '{text}', 0, '{}', 0)",
                    text.to_lowercase()
                ));
                let caption = format!(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?><section xmlns=\"http://docbook.org/ns/docbook\" version=\"5.0-variant ezpublish-1.0\"><para>{word} {n}, version {v}.</para></section>"
                );
                fields.push(format!(
                    "({}, {v}, {id}, 117, 'ezrichtext', '{code}', {lang}, 0, 0, '{caption}', 0, '', 0)",
                    base + 1
                ));
                let image = format!(
                    "<?xml version=\"1.0\" encoding=\"utf-8\"?><ezimage serial_number=\"1\" is_valid=\"1\" filename=\"image-{n}.png\" suffix=\"png\" basename=\"image-{n}\" dirpath=\"var/site/storage/images/{n}\" url=\"var/site/storage/images/{n}/image-{n}.png\" original_filename=\"image-{n}.png\" mime_type=\"image/png\" width=\"640\" height=\"480\" alternative_text=\"{word} {n}\" alias_key=\"1\" timestamp=\"{t}\"/>"
                );
                fields.push(format!(
                    "({}, {v}, {id}, 118, 'ezimage', '{code}', {lang}, 0, 0, '{image}', 0, '', 0)",
                    base + 2
                ));
            }
        }
        nodes.push(format!(
            "({id}, 51, {id}, 1, 3, 3, 0, 0, {id}, 0, 'media/images/image_{n}', '/1/43/51/{id}/', 0, 'bench-node-{id}', 1, 1)"
        ));
        for (mask, text) in [(3, format!("Image-{n}")), (4, format!("Bild-{n}"))] {
            aliases.push(format!(
                "('eznode:{id}', 'eznode', 1, {id}, 0, 1, {mask}, {id}, 18, '{text}', '{}')",
                md5_hex(&text.to_lowercase())
            ));
        }
        states.push(format!("({id}, 1)"));
    }
    let mut sql = String::new();
    let mut put = |table: &str, cols: &str, rows: Vec<String>| {
        sql.push_str(&format!(
            "INSERT INTO {table} ({cols}) VALUES {};\n",
            rows.join(", ")
        ));
    };
    put(
        "ezcontentobject",
        "id, contentclass_id, current_version, initial_language_id, language_mask, modified, name, owner_id, published, remote_id, section_id, status",
        objects,
    );
    put(
        "ezcontentobject_version",
        "id, contentobject_id, version, status, creator_id, created, modified, initial_language_id, language_mask, user_id, workflow_event_pos",
        versions,
    );
    put(
        "ezcontentobject_name",
        "contentobject_id, content_version, content_translation, language_id, name, real_translation",
        names,
    );
    put(
        "ezcontentobject_attribute",
        "id, version, contentobject_id, contentclassattribute_id, data_type_string, language_code, language_id, data_float, data_int, data_text, sort_key_int, sort_key_string, attribute_original_id",
        fields,
    );
    put(
        "ezcontentobject_tree",
        "node_id, parent_node_id, contentobject_id, contentobject_is_published, contentobject_version, depth, is_hidden, is_invisible, main_node_id, modified_subnode, path_identification_string, path_string, priority, remote_id, sort_field, sort_order",
        nodes,
    );
    put(
        "ezurlalias_ml",
        "action, action_type, alias_redirects, id, is_alias, is_original, lang_mask, link, parent, text, text_md5",
        aliases,
    );
    put(
        "ezcobj_state_link",
        "contentobject_id, contentobject_state_id",
        states,
    );
    sql
}

/// Makes the source database `name` on `server` with `items` image items; its URL.
pub async fn generate(server: &str, name: &str, reference: &Path, items: usize) -> Result<String> {
    let mysql = server.starts_with("mysql:");
    create_database(server, name).await?;
    let url = database_url(server, name);
    let pool = if mysql {
        Pool::My(MySqlPool::connect(&url).await?)
    } else {
        Pool::Pg(PgPool::connect(&url).await?)
    };
    let (tables, indexes) = ddl(reference, mysql)?;
    pool.run(tables).await?;
    let clean = if mysql {
        "cleandata.mysql.sql"
    } else {
        "cleandata.postgresql.sql"
    };
    pool.run(
        std::fs::read_to_string(reference.join(clean)).context("the clean data of --reference")?,
    )
    .await?;
    pool.run(
        "INSERT INTO ezcontent_language (disabled, id, locale, name) VALUES (0, 4, 'ger-DE', 'German');\n\
         UPDATE ezcontentclass SET language_mask = 7 WHERE id = 5"
            .to_string(),
    )
    .await?;
    let t = Instant::now();
    for from in (0..items).step_by(BATCH) {
        pool.run(items_sql(from, (from + BATCH).min(items))).await?;
    }
    pool.run(indexes).await?;
    eprintln!(
        "migrate: {items} items written to {name} and indexed in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    Ok(url)
}

/// Times `cairn migrate --from source` into `target` (a database URL), watching its memory.
async fn time(
    cairn: &Cairn,
    source: &str,
    target: &str,
    items: usize,
    dir: &Path,
) -> Result<Outcome> {
    let mut command = cairn.command();
    command
        .current_dir(dir)
        .args([
            "migrate",
            "--quiet",
            "--from",
            source,
            "--database-url",
            target,
            "--log",
            "warn",
        ])
        .arg("--storage-dir")
        .arg(dir.join("storage"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let t = Instant::now();
    let child = command.spawn().context("running cairn migrate")?;
    let pid = child.id();
    let watch = tokio::spawn(async move {
        let mut peak = 0u64;
        loop {
            let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
                return peak;
            };
            if let Some(kb) = status.lines().find_map(|l| l.strip_prefix("VmHWM:")) {
                peak = peak.max(kb.trim().trim_end_matches("kB").trim().parse().unwrap_or(0));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    let output = tokio::task::spawn_blocking(move || child.wait_with_output()).await??;
    let seconds = t.elapsed().as_secs_f64();
    let peak = watch.await.unwrap_or(0);
    if !output.status.success() {
        bail!(
            "cairn migrate failed ({}): {}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let out = String::from_utf8_lossy(&output.stdout);
    for line in String::from_utf8_lossy(&output.stderr).lines() {
        eprintln!("migrate ({target}): {line}");
    }
    let written = (out.lines())
        .find(|l| l.starts_with("content items "))
        .and_then(|l| l.split_whitespace().nth(3))
        .and_then(|n| n.parse::<usize>().ok());
    if written != Some(items + 12) {
        bail!(
            "cairn migrate wrote {written:?} content items, not {}: {out}",
            items + 12
        );
    }
    let o = Outcome {
        target: target.split(':').next().unwrap_or_default().to_string(),
        items,
        seconds,
        items_per_s: items as f64 / seconds,
        peak_rss_mib: peak as f64 / 1024.0,
    };
    eprintln!("migrate: {o:?}");
    Ok(o)
}

/// Generates the source and times the migration into SQLite and (given) PostgreSQL; the
/// source is dropped at the end unless `keep`.
pub async fn run(
    cairn: &Cairn,
    source_server: &str,
    postgres: Option<&str>,
    reference: &Path,
    items: usize,
    keep: bool,
) -> Result<Vec<Outcome>> {
    let name = format!("cairn_bench_source_{}", std::process::id());
    let source = generate(source_server, &name, reference, items).await?;
    let dir = tempfile::tempdir()?;
    let sqlite = format!("sqlite://{}", dir.path().join("migrated.db").display());
    let mut outcomes = vec![time(cairn, &source, &sqlite, items, dir.path()).await];
    if let Some(pg) = postgres {
        let target = format!("cairn_bench_target_{}", std::process::id());
        create_database(pg, &target).await?;
        outcomes.push(
            time(
                cairn,
                &source,
                &database_url(pg, &target),
                items,
                dir.path(),
            )
            .await,
        );
        drop_database(pg, &target).await;
    }
    if keep {
        eprintln!("migrate: the source is kept: {source}");
    } else {
        drop_database(source_server, &name).await;
    }
    outcomes.into_iter().collect()
}

/// The Markdown table.
pub fn markdown(outcomes: &[Outcome]) -> String {
    let mut s = String::from(
        "## cairn migrate\n\nImage items in two languages with three versions each (the reference's \
         legacy schema, its clean install around them), migrated by the command into a fresh \
         database; the wall time of the command and its peak resident memory.\n\n\
         | target | items | seconds | items/s | peak RSS MiB |\n| --- | ---: | ---: | ---: | ---: |\n",
    );
    for o in outcomes {
        s.push_str(&format!(
            "| {} | {} | {:.1} | {:.0} | {:.0} |\n",
            o.target, o.items, o.seconds, o.items_per_s, o.peak_rss_mib
        ));
    }
    s
}
