//! The old site's database for the migration tests: a database of its own (uniquely named) on
//! the real MariaDB or PostgreSQL server, with the reference's legacy schema made from its
//! `schema.yaml` and one of its data sets loaded: the clean install (`cleandata.*.sql`) or the
//! integration fixture (`test_data.yaml`, rows per table). Read from
//! `../shared/reference/ibexa-core-4.6/`, never copied into the project.

use serde_yaml::Value as Yaml;
use sqlx_core::executor::Executor;
use sqlx_core::query::query;
use sqlx_core::raw_sql::raw_sql;
use sqlx_core::row::Row as _;
use sqlx_core::sql_str::AssertSqlSafe;
use sqlx_mysql::MySqlPool;
use sqlx_postgres::PgPool;
use std::path::PathBuf;

/// The two servers a source can live on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Server {
    MariaDb,
    Postgres,
}

/// Which of the reference's data sets a source holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Data {
    Clean,
    Fixture,
    /// The fixture in the tables and columns 5.0 renamed (`ibexa_content`, `content_type_id`).
    FixtureFive,
}

/// 5.0's name of a legacy table.
fn five_table(table: &str) -> String {
    (cairn::migrate::RENAMED.iter())
        .find(|(old, _)| *old == table)
        .map_or(table.to_string(), |(_, new)| new.to_string())
}

/// 5.0's name of a legacy column of `table`.
fn five_column(table: &str, column: &str) -> String {
    (cairn::migrate::RENAMED_COLUMNS.iter())
        .find(|(t, _)| *t == table)
        .and_then(|(_, cols)| cols.iter().find(|(old, _)| *old == column))
        .map_or(column.to_string(), |(_, new)| new.to_string())
}

pub const MARIADB: &str = "mysql://root@127.0.0.1:3306";
pub const POSTGRES: &str = "postgres://postgres@127.0.0.1:5432";

/// The reference's data: `CAIRN_REFERENCE`, or `../shared/reference/ibexa-core-4.6` beside
/// the checkout (where CI's checkout has it).
pub fn reference() -> PathBuf {
    match std::env::var_os("CAIRN_REFERENCE") {
        Some(dir) => PathBuf::from(dir),
        None => {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/ibexa-core-4.6")
        }
    }
}

/// Why the reference's data cannot be read (`None`: it can), for a skip with a warning;
/// a panic instead when CI requires the migration tests (`CAIRN_REQUIRE_MARIADB`).
pub fn reference_missing() -> Option<String> {
    let schema = reference().join("schema.yaml");
    if schema.is_file() {
        return None;
    }
    let why = format!(
        "the reference's data is not at {} (CAIRN_REFERENCE names another place)",
        reference().display()
    );
    if std::env::var_os("CAIRN_REQUIRE_MARIADB").is_some() {
        panic!("{why}");
    }
    Some(why)
}

fn read(name: &str) -> String {
    let p = reference().join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The fixture's rows, table by table, in its order.
pub fn fixture() -> Vec<(String, Vec<serde_yaml::Mapping>)> {
    let y: serde_yaml::Mapping =
        serde_yaml::from_str(&read("test_data.yaml")).expect("test_data.yaml");
    y.into_iter()
        .map(|(k, v)| {
            let rows = match v {
                Yaml::Sequence(s) => s
                    .into_iter()
                    .filter_map(|r| match r {
                        Yaml::Mapping(m) => Some(m),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            (k.as_str().unwrap_or_default().to_string(), rows)
        })
        .collect()
}

/// A column of the schema: name, type, length, nullable, default.
struct Column {
    name: String,
    ty: String,
    length: Option<u64>,
    nullable: bool,
    default: Option<String>,
    autoincrement: bool,
}

/// The tables of `schema.yaml`: name, columns, primary key.
fn schema() -> Vec<(String, Vec<Column>, Vec<String>)> {
    let y: Yaml = serde_yaml::from_str(&read("schema.yaml")).expect("schema.yaml");
    let mut out = Vec::new();
    let Some(tables) = y.get("tables").and_then(Yaml::as_mapping) else {
        return out;
    };
    for (name, t) in tables {
        let mut columns = Vec::new();
        let mut key = Vec::new();
        for (part, is_key) in [("id", true), ("fields", false)] {
            let Some(cols) = t.get(part).and_then(Yaml::as_mapping) else {
                continue;
            };
            for (c, spec) in cols {
                let c = c.as_str().unwrap_or_default().to_string();
                if is_key {
                    key.push(c.clone());
                }
                let options = spec.get("options");
                columns.push(Column {
                    name: c,
                    ty: spec
                        .get("type")
                        .and_then(Yaml::as_str)
                        .unwrap_or("string")
                        .to_string(),
                    length: spec.get("length").and_then(Yaml::as_u64),
                    nullable: spec.get("nullable").and_then(Yaml::as_bool).unwrap_or(true),
                    default: options
                        .and_then(|o| o.get("default"))
                        .and_then(|d| match d {
                            Yaml::String(s) => Some(s.clone()),
                            Yaml::Number(n) => Some(n.to_string()),
                            Yaml::Bool(b) => Some(if *b { "1" } else { "0" }.to_string()),
                            _ => None,
                        }),
                    autoincrement: options
                        .and_then(|o| o.get("autoincrement"))
                        .and_then(Yaml::as_bool)
                        .unwrap_or(false),
                });
            }
        }
        out.push((name.as_str().unwrap_or_default().to_string(), columns, key));
    }
    out
}

/// The `CREATE TABLE` statements of the schema for `server` (with 5.0's names: `five`).
pub fn ddl(server: Server, five: bool) -> Vec<String> {
    schema()
        .into_iter()
        .map(|(table, mut columns, mut key)| {
            if five {
                for c in &mut columns {
                    c.name = five_column(&table, &c.name);
                }
                for k in &mut key {
                    *k = five_column(&table, k);
                }
            }
            let table = if five { five_table(&table) } else { table };
            let mut parts: Vec<String> = columns
                .iter()
                .map(|c| {
                    let ty = match (server, c.ty.as_str()) {
                        (Server::MariaDb, "integer") => "INT".to_string(),
                        (Server::Postgres, "integer") => "INTEGER".to_string(),
                        (_, "bigint") => "BIGINT".to_string(),
                        (_, "smallint") => "SMALLINT".to_string(),
                        (Server::MariaDb, "float") => "DOUBLE".to_string(),
                        (Server::Postgres, "float") => "DOUBLE PRECISION".to_string(),
                        (Server::MariaDb, "boolean") => "TINYINT(1)".to_string(),
                        (Server::Postgres, "boolean") => "BOOLEAN".to_string(),
                        (Server::MariaDb, "text" | "blob") => "LONGTEXT".to_string(),
                        (Server::Postgres, "text" | "blob") => "TEXT".to_string(),
                        (Server::MariaDb, "json") => "LONGTEXT".to_string(),
                        (Server::Postgres, "json") => "JSON".to_string(),
                        (_, "datetime") => "TIMESTAMP".to_string(),
                        (_, _) => {
                            format!("VARCHAR({})", c.length.filter(|l| *l > 0).unwrap_or(255))
                        }
                    };
                    let name = quote(server, &c.name);
                    let mut d = format!("{name} {ty}");
                    if c.autoincrement {
                        return match server {
                            Server::MariaDb => format!("{name} {ty} NOT NULL AUTO_INCREMENT"),
                            Server::Postgres => format!("{name} SERIAL"),
                        };
                    }
                    if !c.nullable {
                        d.push_str(" NOT NULL");
                    }
                    if let Some(v) = &c.default {
                        let v = match (server, c.ty.as_str()) {
                            (Server::Postgres, "boolean") => {
                                if v == "1" { "TRUE" } else { "FALSE" }.to_string()
                            }
                            (_, "integer" | "bigint" | "smallint" | "float" | "boolean") => {
                                v.clone()
                            }
                            _ => format!("'{}'", v.replace('\'', "''")),
                        };
                        if !(server == Server::MariaDb && c.ty == "text") {
                            d.push_str(&format!(" DEFAULT {v}"));
                        }
                    }
                    d
                })
                .collect();
            if !key.is_empty() {
                let key: Vec<String> = key.iter().map(|k| quote(server, k)).collect();
                parts.push(format!("PRIMARY KEY ({})", key.join(", ")));
            }
            let tail = match server {
                Server::MariaDb => " DEFAULT CHARSET=utf8mb4",
                Server::Postgres => "",
            };
            format!("CREATE TABLE {table} (\n  {}\n){tail}", parts.join(",\n  "))
        })
        .collect()
}

/// A column name quoted for `server` (the schema has `group`).
fn quote(server: Server, name: &str) -> String {
    match server {
        Server::MariaDb => format!("`{name}`"),
        Server::Postgres => format!("\"{name}\""),
    }
}

/// The boolean columns of the schema (PostgreSQL takes no integer for them).
fn booleans() -> Vec<(String, String)> {
    schema()
        .into_iter()
        .flat_map(|(t, cols, _)| {
            cols.into_iter()
                .filter(|c| c.ty == "boolean")
                .map(move |c| (t.clone(), c.name))
        })
        .collect()
}

fn literal(v: &Yaml, boolean: bool, server: Server) -> String {
    match v {
        Yaml::Null => "NULL".into(),
        Yaml::Bool(b) => if *b { "1" } else { "0" }.into(),
        Yaml::Number(n) if boolean && server == Server::Postgres => {
            if n.as_f64().unwrap_or(0.0) != 0.0 {
                "TRUE"
            } else {
                "FALSE"
            }
            .into()
        }
        Yaml::Number(n) => n.to_string(),
        Yaml::String(s) => {
            let s = s.replace('\'', "''");
            match server {
                Server::MariaDb => format!("'{}'", s.replace('\\', "\\\\")),
                Server::Postgres => format!("'{s}'"),
            }
        }
        other => format!(
            "'{}'",
            serde_yaml::to_string(other).unwrap_or_default().trim()
        ),
    }
}

/// A source database of its own on a real server.
pub struct SourceDb {
    pub server: Server,
    pub name: String,
    /// The URL `cairn migrate --from` takes.
    pub url: String,
}

enum Pool {
    My(MySqlPool),
    Pg(PgPool),
}

impl SourceDb {
    /// A new database on `server` with the schema and `data`; `None` (with a warning) when
    /// the server does not answer or the reference's data is absent, unless CI requires it (`CAIRN_REQUIRE_MARIADB`,
    /// `CAIRN_REQUIRE_POSTGRES`), then a panic.
    pub async fn new(server: Server, data: Data) -> Option<SourceDb> {
        if let Some(why) = reference_missing() {
            eprintln!("!! migration tests skipped: {why}");
            return None;
        }
        let name = format!("cairn_migrate_{:016x}", rand_u64());
        let (admin, require) = match server {
            Server::MariaDb => (format!("{MARIADB}/mysql"), "CAIRN_REQUIRE_MARIADB"),
            Server::Postgres => (format!("{POSTGRES}/postgres"), "CAIRN_REQUIRE_POSTGRES"),
        };
        let created = async {
            match server {
                Server::MariaDb => {
                    let p = MySqlPool::connect(&admin)
                        .await
                        .map_err(|e| e.to_string())?;
                    p.execute(AssertSqlSafe(format!(
                        "CREATE DATABASE {name} CHARACTER SET utf8mb4"
                    )))
                    .await
                    .map_err(|e| e.to_string())?;
                }
                Server::Postgres => {
                    let p = PgPool::connect(&admin).await.map_err(|e| e.to_string())?;
                    p.execute(AssertSqlSafe(format!("CREATE DATABASE {name}")))
                        .await
                        .map_err(|e| e.to_string())?;
                }
            }
            Ok::<_, String>(())
        }
        .await;
        if let Err(why) = created {
            if std::env::var_os(require).is_some() {
                panic!("{server:?} is required ({require}) but does not answer: {why}");
            }
            eprintln!("!! migration tests from {server:?} skipped: {why}");
            return None;
        }
        let url = match server {
            Server::MariaDb => format!("{MARIADB}/{name}"),
            Server::Postgres => format!("{POSTGRES}/{name}"),
        };
        let db = SourceDb { server, name, url };
        db.load(data).await;
        Some(db)
    }

    async fn pool(&self) -> Pool {
        match self.server {
            Server::MariaDb => Pool::My(MySqlPool::connect(&self.url).await.expect("source")),
            Server::Postgres => Pool::Pg(PgPool::connect(&self.url).await.expect("source")),
        }
    }

    /// Runs statements (separated by `;` at line ends) on the source.
    pub async fn run(&self, sql: &str) {
        match self.pool().await {
            Pool::My(p) => {
                raw_sql(AssertSqlSafe(sql.to_string()))
                    .execute(&p)
                    .await
                    .unwrap_or_else(|e| panic!("{e}: {sql}"));
            }
            Pool::Pg(p) => {
                raw_sql(AssertSqlSafe(sql.to_string()))
                    .execute(&p)
                    .await
                    .unwrap_or_else(|e| panic!("{e}: {sql}"));
            }
        }
    }

    async fn load(&self, data: Data) {
        let ddl = ddl(self.server, data == Data::FixtureFive).join(";\n");
        self.run(&ddl).await;
        match data {
            Data::Clean => {
                let file = match self.server {
                    Server::MariaDb => "cleandata.mysql.sql",
                    Server::Postgres => "cleandata.postgresql.sql",
                };
                self.run(&read(file)).await;
            }
            Data::Fixture | Data::FixtureFive => {
                let five = data == Data::FixtureFive;
                let booleans = booleans();
                let mut sql = String::new();
                for (table, rows) in fixture() {
                    for row in rows {
                        let cols: Vec<String> = (row.keys())
                            .map(|k| k.as_str().unwrap_or_default())
                            .map(|k| {
                                if five {
                                    five_column(&table, k)
                                } else {
                                    k.to_string()
                                }
                            })
                            .map(|k| quote(self.server, &k))
                            .collect();
                        let vals: Vec<String> = (row.iter())
                            .map(|(k, v)| {
                                let b = booleans
                                    .iter()
                                    .any(|(t, c)| *t == table && Some(c.as_str()) == k.as_str());
                                literal(v, b, self.server)
                            })
                            .collect();
                        let name = if five {
                            five_table(&table)
                        } else {
                            table.clone()
                        };
                        sql.push_str(&format!(
                            "INSERT INTO {name} ({}) VALUES ({});\n",
                            cols.join(", "),
                            vals.join(", ")
                        ));
                    }
                }
                self.run(&sql).await;
            }
        }
    }

    /// Rows of a `SELECT` of text-castable columns, each value as text (`None` for NULL).
    pub async fn rows(&self, sql: &str) -> Vec<Vec<Option<String>>> {
        fn text<R: sqlx_core::row::Row>(r: &R, i: usize) -> Option<String>
        where
            for<'a> Option<String>:
                sqlx_core::decode::Decode<'a, R::Database> + sqlx_core::types::Type<R::Database>,
            for<'a> Option<i64>:
                sqlx_core::decode::Decode<'a, R::Database> + sqlx_core::types::Type<R::Database>,
            for<'a> Option<i32>:
                sqlx_core::decode::Decode<'a, R::Database> + sqlx_core::types::Type<R::Database>,
            for<'a> Option<f64>:
                sqlx_core::decode::Decode<'a, R::Database> + sqlx_core::types::Type<R::Database>,
            for<'a> Option<bool>:
                sqlx_core::decode::Decode<'a, R::Database> + sqlx_core::types::Type<R::Database>,
            usize: sqlx_core::column::ColumnIndex<R>,
        {
            if let Ok(v) = r.try_get::<Option<i64>, _>(i) {
                return v.map(|v| v.to_string());
            }
            if let Ok(v) = r.try_get::<Option<i32>, _>(i) {
                return v.map(|v| v.to_string());
            }
            if let Ok(v) = r.try_get::<Option<bool>, _>(i) {
                return v.map(|v| i32::from(v).to_string());
            }
            if let Ok(v) = r.try_get::<Option<f64>, _>(i) {
                return v.map(|v| v.to_string());
            }
            r.try_get::<Option<String>, _>(i).ok().flatten()
        }
        match self.pool().await {
            Pool::My(p) => {
                let rows = query(AssertSqlSafe(sql.to_string()))
                    .fetch_all(&p)
                    .await
                    .unwrap_or_else(|e| panic!("{e}: {sql}"));
                rows.iter()
                    .map(|r| (0..r.len()).map(|i| text(r, i)).collect())
                    .collect()
            }
            Pool::Pg(p) => {
                let rows = query(AssertSqlSafe(sql.to_string()))
                    .fetch_all(&p)
                    .await
                    .unwrap_or_else(|e| panic!("{e}: {sql}"));
                rows.iter()
                    .map(|r| (0..r.len()).map(|i| text(r, i)).collect())
                    .collect()
            }
        }
    }
}

impl Drop for SourceDb {
    fn drop(&mut self) {
        let (server, name) = (self.server, self.name.clone());
        // Dropped on a thread of its own: Drop cannot await, and the test's runtime may be
        // ending.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build();
            let Ok(rt) = rt else { return };
            rt.block_on(async {
                match server {
                    Server::MariaDb => {
                        if let Ok(p) = MySqlPool::connect(&format!("{MARIADB}/mysql")).await {
                            let _ = p
                                .execute(AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name}")))
                                .await;
                        }
                    }
                    Server::Postgres => {
                        if let Ok(p) = PgPool::connect(&format!("{POSTGRES}/postgres")).await {
                            let _ = p
                                .execute(AssertSqlSafe(format!(
                                    "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                                )))
                                .await;
                        }
                    }
                }
            });
        })
        .join();
    }
}

fn rand_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}
