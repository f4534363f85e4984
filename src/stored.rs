//! How model values are kept in columns: language maps and value trees as JSON, new remote ids.

use cairn_runtime::{HashValue, LangMap};

/// A new remote id: 32 random hex digits, as the reference makes them.
pub fn new_remote_id() -> String {
    let bytes: [u8; 16] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `{"eng-GB": "Name"}` → a language map (insertion order kept); malformed text is empty.
pub fn lang_map(json: &str) -> LangMap {
    match serde_json::from_str::<serde_json::Value>(json) {
        Ok(serde_json::Value::Object(o)) => LangMap(
            o.into_iter()
                .filter_map(|(k, v)| v.as_str().map(|t| (k, t.to_string())))
                .collect(),
        ),
        _ => LangMap::default(),
    }
}

/// A language map as a JSON object.
pub fn lang_map_json(map: &LangMap) -> String {
    let o: serde_json::Map<String, serde_json::Value> = map
        .0
        .iter()
        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
        .collect();
    serde_json::Value::Object(o).to_string()
}

/// A JSON value tree; malformed text is null.
pub fn hash(json: &str) -> HashValue {
    HashValue::parse_json(json).unwrap_or(HashValue::Null)
}

pub fn hash_json(v: &HashValue) -> String {
    v.to_json().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lang_maps_round_trip_in_order() {
        let m = LangMap(vec![
            ("pol-PL".into(), "Nazwa".into()),
            ("eng-GB".into(), "Name".into()),
        ]);
        assert_eq!(lang_map(&lang_map_json(&m)), m);
        assert_eq!(lang_map("not json"), LangMap::default());
    }
}
