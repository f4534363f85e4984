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
