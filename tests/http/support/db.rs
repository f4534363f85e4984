//! The app's database straight, for tests that set up or inspect data under the API: the
//! statements run, ids taken from a sequence, raw SQL and queries read as JSON rows.

use super::TestApp;
use sea_orm::ConnectionTrait;

impl TestApp {
    /// Statements the database has run so far.
    pub fn statements(&self) -> u64 {
        self.service.db.statements()
    }

    /// Takes `n` ids of the shared id sequence `name`, as the server takes them.
    pub async fn take_ids(&self, name: &str, n: usize) -> Vec<i64> {
        cairn_store::ids::next_ids(self.service.db.conn(), name, n as i64)
            .await
            .unwrap()
    }

    /// PostgreSQL: ends every connection of this app's database from the server's side (as a
    /// restart would), with an administrator's connection of its own; how many it ended.
    pub async fn cut_connections(&self) -> usize {
        let base = std::env::var("CAIRN_TEST_DATABASE_URL").expect("a PostgreSQL server");
        // The scratch database names its connections after its schema (`application_name`).
        let name = (self.url.split(['?', '&']))
            .find_map(|p| p.strip_prefix("application_name="))
            .expect("the connections' name");
        let admin = sea_orm::Database::connect(base.as_str()).await.unwrap();
        let rows = admin
            .query_all_raw(sea_orm::Statement::from_sql_and_values(
                sea_orm::DbBackend::Postgres,
                "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE application_name = $1 AND pid <> pg_backend_pid()",
                [name.into()],
            ))
            .await
            .unwrap();
        let pids: Vec<i32> = rows.iter().map(|r| r.try_get("", "pid").unwrap()).collect();
        // `pg_terminate_backend` only signals: wait until those backends are gone, so that
        // the app's next statement meets a cut connection, not one still ending.
        let started = std::time::Instant::now();
        loop {
            let left = admin
                .query_one_raw(sea_orm::Statement::from_sql_and_values(
                    sea_orm::DbBackend::Postgres,
                    "SELECT count(*) AS n FROM pg_stat_activity WHERE pid = ANY($1)",
                    [pids.clone().into()],
                ))
                .await
                .unwrap()
                .map_or(0, |r| r.try_get::<i64>("", "n").unwrap());
            if left == 0 || started.elapsed() > std::time::Duration::from_secs(10) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        admin.close().await.unwrap();
        pids.len()
    }

    /// Runs raw SQL (`?` placeholders) on the app's database.
    pub async fn sql(&self, sql: &str, values: Vec<sea_orm::Value>) {
        let conn = self.service.db.conn();
        conn.execute_raw(cairn_store::sql::stmt(
            conn.get_database_backend(),
            sql,
            values,
        ))
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }

    /// Runs a query and returns its rows as (column → value) JSON objects; values are read
    /// as integers, then booleans, then text.
    pub async fn query(&self, sql: &str, values: Vec<sea_orm::Value>) -> Vec<serde_json::Value> {
        let conn = self.service.db.conn();
        let rows = conn
            .query_all_raw(cairn_store::sql::stmt(
                conn.get_database_backend(),
                sql,
                values,
            ))
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
        rows.into_iter()
            .map(|r| {
                let mut o = serde_json::Map::new();
                // SQLite's rows (`cairn_store::sqlite`) carry typed values, also keyed by
                // position ("\0...").
                if let Some(row) = r.try_as_proxy_row() {
                    for (name, v) in row.values.iter().filter(|(k, _)| !k.starts_with('\0')) {
                        let v = match v {
                            sea_orm::Value::BigInt(i) => serde_json::json!(i),
                            sea_orm::Value::Bool(b) => serde_json::json!(b),
                            sea_orm::Value::String(s) => serde_json::json!(s),
                            sea_orm::Value::Double(f) => serde_json::json!(f),
                            _ => serde_json::Value::Null,
                        };
                        o.insert(name.clone(), v);
                    }
                    return serde_json::Value::Object(o);
                }
                for (i, name) in r.column_names().into_iter().enumerate() {
                    let v = if let Ok(v) = r.try_get_by_index::<Option<i64>>(i) {
                        serde_json::json!(v)
                    } else if let Ok(v) = r.try_get_by_index::<Option<bool>>(i) {
                        serde_json::json!(v)
                    } else if let Ok(v) = r.try_get_by_index::<Option<String>>(i) {
                        serde_json::json!(v)
                    } else {
                        serde_json::Value::Null
                    };
                    o.insert(name, v);
                }
                serde_json::Value::Object(o)
            })
            .collect()
    }
}
