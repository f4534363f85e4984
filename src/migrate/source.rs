//! The old site's database: a MySQL/MariaDB or PostgreSQL connection, the legacy storage's
//! table names (the `ez*` names of 2.5–4.x, or the `ibexa_*` names 5.0 gave them), and rows
//! read in batches as plain values. Only `SELECT`s are sent; nothing here writes.

use anyhow::{Context, Result};
use sqlx_core::query::query;
use sqlx_core::row::Row as _;
use sqlx_core::sql_str::AssertSqlSafe;
use sqlx_mysql::{MySql, MySqlPool, MySqlRow};
use sqlx_postgres::{PgPool, PgRow, Postgres};
use std::collections::HashMap;
use std::sync::Arc;

/// Rows read per statement.
pub const BATCH: usize = 2000;

/// One value of a source row.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    Null,
    Int(i64),
    Float(f64),
    Text(String),
}

/// A row: the values of the columns the statement named, in that order.
#[derive(Debug, Clone)]
pub struct Row {
    columns: Arc<[&'static str]>,
    values: Vec<Val>,
}

impl Row {
    fn get(&self, column: &str) -> &Val {
        (self.columns.iter().position(|c| *c == column))
            .and_then(|i| self.values.get(i))
            .unwrap_or(&Val::Null)
    }

    /// An integer column (0 when null; a numeric text is read as its number).
    pub fn int(&self, column: &str) -> i64 {
        self.opt_int(column).unwrap_or(0)
    }

    pub fn opt_int(&self, column: &str) -> Option<i64> {
        match self.get(column) {
            Val::Int(i) => Some(*i),
            Val::Float(f) => Some(*f as i64),
            Val::Text(t) => t.trim().parse().ok(),
            Val::Null => None,
        }
    }

    pub fn float(&self, column: &str) -> f64 {
        match self.get(column) {
            Val::Int(i) => *i as f64,
            Val::Float(f) => *f,
            Val::Text(t) => t.trim().parse().unwrap_or(0.0),
            Val::Null => 0.0,
        }
    }

    /// A text column as it is ("" when null or not text).
    pub fn str(&self, column: &str) -> &str {
        match self.get(column) {
            Val::Text(t) => t,
            _ => "",
        }
    }

    /// A text column ("" when null).
    pub fn text(&self, column: &str) -> String {
        self.opt_text(column).unwrap_or_default()
    }

    pub fn opt_text(&self, column: &str) -> Option<String> {
        match self.get(column) {
            Val::Text(t) => Some(t.clone()),
            Val::Int(i) => Some(i.to_string()),
            Val::Float(f) => Some(f.to_string()),
            Val::Null => None,
        }
    }

    pub fn flag(&self, column: &str) -> bool {
        self.int(column) != 0
    }

    /// `table` and the key columns' values, for messages naming a row (made into text
    /// only when a message needs it).
    pub fn describe(&self, table: &'static str) -> Described {
        let key = |i: usize| {
            let c = self.columns.get(i).copied().unwrap_or_default();
            match self.values.get(i) {
                Some(Val::Text(t)) => (c, Val::Text(t.chars().take(40).collect())),
                Some(v) => (c, v.clone()),
                None => (c, Val::Null),
            }
        };
        Described {
            table,
            shown: self.values.len().min(3),
            key: [key(0), key(1), key(2)],
        }
    }
}

/// A source row named in a message: `table (column=value, …)`, its first three columns.
#[derive(Debug, Clone)]
pub struct Described {
    table: &'static str,
    shown: usize,
    key: [(&'static str, Val); 3],
}

impl std::fmt::Display for Described {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (", self.table)?;
        for (i, (c, v)) in self.key.iter().take(self.shown).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            match v {
                Val::Int(i) => write!(f, "{c}={i}")?,
                Val::Text(t) => write!(f, "{c}='{t}'")?,
                Val::Float(x) => write!(f, "{c}={x}")?,
                Val::Null => write!(f, "{c}=NULL")?,
            }
        }
        f.write_str(")")
    }
}

impl Described {
    /// The full-text document of content item `id` (written from its fields' rows).
    pub fn document(id: i64) -> Described {
        Described {
            table: "ezcontentobject_attribute",
            shown: 1,
            key: [
                ("contentobject_id", Val::Int(id)),
                ("", Val::Null),
                ("", Val::Null),
            ],
        }
    }
}

impl From<Described> for String {
    fn from(d: Described) -> String {
        d.to_string()
    }
}

enum Pool {
    Postgres(PgPool),
    MySql(MySqlPool),
}

/// The connection to the old site's database.
pub struct Source {
    pool: Pool,
    /// Legacy name → the name in this database.
    names: HashMap<&'static str, &'static str>,
    /// The tables this database has (by their legacy names).
    present: Vec<&'static str>,
}

/// The legacy tables and the names ibexa/core 5.0 gave them.
pub const RENAMED: &[(&str, &str)] = &[
    ("ezbinaryfile", "ibexa_binary_file"),
    ("ezcobj_state", "ibexa_object_state"),
    ("ezcobj_state_group", "ibexa_object_state_group"),
    (
        "ezcobj_state_group_language",
        "ibexa_object_state_group_language",
    ),
    ("ezcobj_state_language", "ibexa_object_state_language"),
    ("ezcobj_state_link", "ibexa_object_state_link"),
    ("ezcontent_language", "ibexa_content_language"),
    ("ezuser", "ibexa_user"),
    ("ezcontentobject_tree", "ibexa_content_tree"),
    ("ezcontentbrowsebookmark", "ibexa_content_bookmark"),
    ("ezcontentclass", "ibexa_content_type"),
    (
        "ezcontentclass_attribute",
        "ibexa_content_type_field_definition",
    ),
    (
        "ezcontentclass_attribute_ml",
        "ibexa_content_type_field_definition_ml",
    ),
    (
        "ezcontentclass_classgroup",
        "ibexa_content_type_group_assignment",
    ),
    ("ezcontentclass_name", "ibexa_content_type_name"),
    ("ezcontentclassgroup", "ibexa_content_type_group"),
    ("ezcontentobject", "ibexa_content"),
    ("ezcontentobject_attribute", "ibexa_content_field"),
    ("ezcontentobject_link", "ibexa_content_relation"),
    ("ezcontentobject_name", "ibexa_content_name"),
    ("ezcontentobject_trash", "ibexa_content_trash"),
    ("ezcontentobject_version", "ibexa_content_version"),
    ("ezdfsfile", "ibexa_dfs_file"),
    ("ezgmaplocation", "ibexa_map_location"),
    ("ezimagefile", "ibexa_image_file"),
    ("ezkeyword", "ibexa_keyword"),
    ("ezkeyword_attribute_link", "ibexa_keyword_field_link"),
    ("ezmedia", "ibexa_media"),
    ("eznode_assignment", "ibexa_node_assignment"),
    ("eznotification", "ibexa_notification"),
    ("ezpackage", "ibexa_package"),
    ("ezpolicy", "ibexa_policy"),
    ("ezpolicy_limitation", "ibexa_policy_limitation"),
    ("ezpolicy_limitation_value", "ibexa_policy_limitation_value"),
    ("ezpreferences", "ibexa_user_preference"),
    ("ezrole", "ibexa_role"),
    ("ezsearch_object_word_link", "ibexa_search_object_word_link"),
    ("ezsearch_word", "ibexa_search_word"),
    ("ezsection", "ibexa_section"),
    ("ezsite_data", "ibexa_site_data"),
    ("ezurl", "ibexa_url"),
    ("ezurl_object_link", "ibexa_url_content_link"),
    ("ezurlalias", "ibexa_url_alias"),
    ("ezurlalias_ml", "ibexa_url_alias_ml"),
    ("ezurlalias_ml_incr", "ibexa_url_alias_ml_incr"),
    ("ezurlwildcard", "ibexa_url_wildcard"),
    ("ezuser_accountkey", "ibexa_user_accountkey"),
    ("ezuser_role", "ibexa_user_role"),
    ("ezuser_setting", "ibexa_user_setting"),
];

/// The columns 5.0 renamed, by legacy table: (legacy name, 5.0 name).
pub const RENAMED_COLUMNS: &[(&str, &[(&str, &str)])] = &[
    ("ezcontentclass", &[("version", "status")]),
    (
        "ezcontentclass_attribute",
        &[
            ("version", "status"),
            ("contentclass_id", "content_type_id"),
        ],
    ),
    (
        "ezcontentclass_attribute_ml",
        &[
            (
                "contentclass_attribute_id",
                "content_type_field_definition_id",
            ),
            ("version", "status"),
        ],
    ),
    (
        "ezcontentclass_classgroup",
        &[
            ("contentclass_id", "content_type_id"),
            ("contentclass_version", "content_type_status"),
        ],
    ),
    (
        "ezcontentclass_name",
        &[
            ("contentclass_id", "content_type_id"),
            ("contentclass_version", "content_type_status"),
        ],
    ),
    ("ezcontentobject", &[("contentclass_id", "content_type_id")]),
    (
        "ezcontentobject_attribute",
        &[(
            "contentclassattribute_id",
            "content_type_field_definition_id",
        )],
    ),
    (
        "ezcontentobject_link",
        &[(
            "contentclassattribute_id",
            "content_type_field_definition_id",
        )],
    ),
];

/// The legacy name of a table of either generation (`ibexa_content` → `ezcontentobject`).
pub fn legacy_name(name: &str) -> Option<&'static str> {
    (RENAMED.iter())
        .find(|(old, new)| *old == name || *new == name)
        .map(|(old, _)| *old)
}

impl Source {
    /// Connects to `url` (`mysql://…`, `mariadb://…` or `postgres://…`) and finds which
    /// generation of names it uses; a database with neither `ezcontentobject` nor
    /// `ibexa_content` is refused.
    pub async fn connect(url: &str) -> Result<Source> {
        let pool = if url.starts_with("mysql:") || url.starts_with("mariadb:") {
            let url = url.replacen("mariadb:", "mysql:", 1);
            Pool::MySql(MySqlPool::connect(&url).await.with_context(|| {
                format!("cannot connect to the source database {}", redact(&url))
            })?)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Pool::Postgres(PgPool::connect(url).await.with_context(|| {
                format!("cannot connect to the source database {}", redact(url))
            })?)
        } else {
            anyhow::bail!(
                "--from takes a mysql://, mariadb:// or postgres:// URL, not '{}'",
                redact(url)
            );
        };
        let mut source = Source {
            pool,
            names: HashMap::new(),
            present: Vec::new(),
        };
        let tables = source.tables().await?;
        let new = tables.iter().any(|t| t == "ibexa_content");
        if !new && !tables.iter().any(|t| t == "ezcontentobject") {
            anyhow::bail!(
                "the source database has no ezcontentobject (nor ibexa_content) table: it is not an eZ Platform / Ibexa DXP repository"
            );
        }
        for (old, renamed) in RENAMED {
            let name = if new { *renamed } else { *old };
            source.names.insert(old, name);
            if tables.iter().any(|t| t == name) {
                source.present.push(old);
            }
        }
        Ok(source)
    }

    /// The source's tables, by the names it has.
    pub async fn tables(&self) -> Result<Vec<String>> {
        let sql = match self.pool {
            Pool::MySql(_) => {
                "SELECT CAST(table_name AS CHAR) AS t FROM information_schema.tables WHERE table_schema = DATABASE()"
            }
            Pool::Postgres(_) => {
                "SELECT CAST(table_name AS TEXT) AS t FROM information_schema.tables WHERE table_schema = current_schema()"
            }
        };
        let rows = self.fetch(sql, &["t"]).await?;
        Ok(rows.iter().map(|r| r.text("t")).collect())
    }

    /// The columns of legacy `table` (none when absent).
    pub async fn columns(&self, table: &str) -> Result<Vec<String>> {
        let (cast, schema) = match self.pool {
            Pool::MySql(_) => ("CHAR", "DATABASE()"),
            Pool::Postgres(_) => ("TEXT", "current_schema()"),
        };
        let sql = format!(
            "SELECT CAST(column_name AS {cast}) AS c FROM information_schema.columns \
             WHERE table_schema = {schema} AND table_name = '{}'",
            self.name(table)
        );
        Ok(self
            .fetch(&sql, &["c"])
            .await?
            .iter()
            .map(|r| r.text("c"))
            .collect())
    }

    /// Whether the source has the legacy table `table` (under either name).
    pub fn has(&self, table: &str) -> bool {
        self.present.contains(&table)
    }

    /// The name of the legacy table `table` in this database.
    pub fn name(&self, table: &str) -> String {
        self.names
            .get(table)
            .map_or_else(|| table.to_string(), |n| n.to_string())
    }

    /// `sql` (column names, a filter, an order) with the legacy column names of `table` as
    /// this database names them (5.0 renamed some).
    fn columns_of(&self, table: &str, sql: &str) -> String {
        let renamed = (RENAMED_COLUMNS.iter())
            .find(|(t, _)| *t == table)
            .map_or(&[][..], |(_, c)| *c);
        if renamed.is_empty() || self.name(table) == table {
            return sql.to_string();
        }
        let mut out = String::with_capacity(sql.len());
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut String| {
            let w = std::mem::take(word);
            match renamed.iter().find(|(old, _)| *old == w) {
                Some((_, new)) => out.push_str(new),
                None => out.push_str(&w),
            }
        };
        for c in sql.chars() {
            if c.is_ascii_alphanumeric() || c == '_' {
                word.push(c);
            } else {
                flush(&mut word, &mut out);
                out.push(c);
            }
        }
        flush(&mut word, &mut out);
        out
    }

    /// Runs a `SELECT` whose columns are `columns`, in that order.
    pub async fn fetch(&self, sql: &str, columns: &[&'static str]) -> Result<Vec<Row>> {
        let names: Arc<[&'static str]> = columns.into();
        let rows = match &self.pool {
            Pool::Postgres(p) => {
                let rows = query::<Postgres>(AssertSqlSafe(sql.to_string()))
                    .fetch_all(p)
                    .await
                    .with_context(|| format!("reading the source: {sql}"))?;
                let kinds = rows.first().map(kinds).unwrap_or_default();
                rows.iter().map(|r| pg_row(r, &names, &kinds)).collect()
            }
            Pool::MySql(p) => {
                let rows = query::<MySql>(AssertSqlSafe(sql.to_string()))
                    .fetch_all(p)
                    .await
                    .with_context(|| format!("reading the source: {sql}"))?;
                let kinds = rows.first().map(kinds).unwrap_or_default();
                rows.iter().map(|r| my_row(r, &names, &kinds)).collect()
            }
        };
        Ok(rows)
    }

    /// The rows of legacy `table` (absent: none) with `columns`, `filter` (SQL, may be empty)
    /// applied, ordered by `order`.
    pub async fn select(
        &self,
        table: &str,
        columns: &[&'static str],
        filter: &str,
        order: &str,
    ) -> Result<Vec<Row>> {
        self.select_limited(table, columns, filter, order, None)
            .await
    }

    /// [`Source::select`] of at most `limit` rows.
    pub async fn select_limited(
        &self,
        table: &str,
        columns: &[&'static str],
        filter: &str,
        order: &str,
        limit: Option<usize>,
    ) -> Result<Vec<Row>> {
        if !self.has(table) {
            return Ok(Vec::new());
        }
        let filter = if filter.is_empty() {
            String::new()
        } else {
            format!(" WHERE {filter}")
        };
        let order = if order.is_empty() {
            String::new()
        } else {
            format!(" ORDER BY {order}")
        };
        let limit = limit.map_or(String::new(), |n| format!(" LIMIT {n}"));
        let sql = format!(
            "SELECT {} FROM {}{}{}{limit}",
            self.columns_of(table, &columns.join(", ")),
            self.name(table),
            self.columns_of(table, &filter),
            self.columns_of(table, &order),
        );
        self.fetch(&sql, columns).await
    }

    /// The next batch of `table` after `after` by its integer column `key` (ascending): rows
    /// are read [`BATCH`] at a time, never the whole table at once.
    pub async fn batch_after(
        &self,
        table: &str,
        columns: &[&'static str],
        key: &str,
        after: i64,
        filter: &str,
    ) -> Result<Vec<Row>> {
        let more = if filter.is_empty() {
            String::new()
        } else {
            format!(" AND ({filter})")
        };
        let sql_filter = format!("{key} > {after}{more}");
        (self.select_limited(table, columns, &sql_filter, key, Some(BATCH))).await
    }

    /// How many rows `table` has (0 when absent).
    pub async fn count(&self, table: &str) -> Result<i64> {
        if !self.has(table) {
            return Ok(0);
        }
        let sql = format!("SELECT COUNT(*) AS n FROM {}", self.name(table));
        let rows = self.fetch(&sql, &["n"]).await?;
        Ok(rows.first().map_or(0, |r| r.int("n")))
    }
}

/// `url` without its password.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => match url[s + 3..at].split_once(':') {
            Some((user, _)) => format!("{}://{user}:***{}", &url[..s], &url[at..]),
            None => url.to_string(),
        },
        _ => url.to_string(),
    }
}

/// What a column's declared type says to decode it as (a failed decode costs an error value
/// each time, so the type is looked at first).
#[derive(Clone, Copy)]
enum Kind {
    Int,
    Float,
    Bool,
    Text,
}

fn kind(type_name: &str) -> Kind {
    let t = type_name.to_ascii_uppercase();
    if t.starts_with("BOOL") {
        Kind::Bool
    } else if t.contains("INT") || t == "SERIAL" || t == "BIGSERIAL" {
        Kind::Int
    } else if t.contains("FLOAT") || t.contains("DOUBLE") || t.contains("REAL") {
        Kind::Float
    } else {
        Kind::Text
    }
}

macro_rules! decode_row {
    ($row:expr, $i:expr, $kind:expr, [$($int:ty),*], [$($float:ty),*]) => {{
        let (row, i) = ($row, $i);
        let mut out = None;
        if matches!($kind, Kind::Int) {
            $(
                if out.is_none() && let Ok(v) = row.try_get::<Option<$int>, _>(i) {
                    out = Some(v.map_or(Val::Null, |v| Val::Int(v as i64)));
                }
            )*
        }
        if matches!($kind, Kind::Float | Kind::Int) {
            $(
                if out.is_none() && let Ok(v) = row.try_get::<Option<$float>, _>(i) {
                    out = Some(v.map_or(Val::Null, |v| Val::Float(v as f64)));
                }
            )*
        }
        if out.is_none() && let Ok(v) = row.try_get::<Option<String>, _>(i) {
            out = Some(v.map_or(Val::Null, Val::Text));
        }
        if out.is_none() && let Ok(v) = row.try_get::<Option<bool>, _>(i) {
            out = Some(v.map_or(Val::Null, |b| Val::Int(b as i64)));
        }
        if out.is_none() && let Ok(v) = row.try_get::<Option<Vec<u8>>, _>(i) {
            out = Some(v.map_or(Val::Null, |b| Val::Text(String::from_utf8_lossy(&b).into_owned())));
        }
        if out.is_none() {
            // Declared otherwise than its values decode (a numeric text, …): every kind.
            $(
                if out.is_none() && let Ok(v) = row.try_get::<Option<$int>, _>(i) {
                    out = Some(v.map_or(Val::Null, |v| Val::Int(v as i64)));
                }
            )*
            $(
                if out.is_none() && let Ok(v) = row.try_get::<Option<$float>, _>(i) {
                    out = Some(v.map_or(Val::Null, |v| Val::Float(v as f64)));
                }
            )*
        }
        out.unwrap_or(Val::Null)
    }};
}

/// The decode kinds of a result's columns (the same for every row of a result: read from
/// its first).
fn kinds<R: sqlx_core::row::Row>(row: &R) -> Vec<Kind> {
    use sqlx_core::column::Column;
    use sqlx_core::type_info::TypeInfo;
    row.columns()
        .iter()
        .map(|c| kind(c.type_info().name()))
        .collect()
}

fn pg_row(row: &PgRow, names: &Arc<[&'static str]>, kinds: &[Kind]) -> Row {
    let values = (0..names.len())
        .map(|i| {
            let k = kinds.get(i).copied().unwrap_or(Kind::Text);
            decode_row!(row, i, k, [i64, i32, i16], [f64, f32])
        })
        .collect();
    Row {
        columns: names.clone(),
        values,
    }
}

fn my_row(row: &MySqlRow, names: &Arc<[&'static str]>, kinds: &[Kind]) -> Row {
    let values = (0..names.len())
        .map(|i| {
            let k = kinds.get(i).copied().unwrap_or(Kind::Text);
            decode_row!(
                row,
                i,
                k,
                [i64, i32, i16, i8, u64, u32, u16, u8],
                [f64, f32]
            )
        })
        .collect();
    Row {
        columns: names.clone(),
        values,
    }
}
