//! Value types the generated model uses beside plain integers, strings and booleans.

use std::hash::{Hash, Hasher};

/// A point in time, as Unix seconds; written as ISO 8601 with a UTC offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Timestamp(pub i64);

impl Timestamp {
    pub fn now() -> Timestamp {
        Timestamp(chrono::Utc::now().timestamp())
    }

    /// `2018-09-17T06:48:13+00:00`.
    /// Written by hand: chrono's format string is parsed again on every call, and every
    /// answer holds several of these.
    pub fn to_iso8601(self) -> String {
        use chrono::{Datelike, Timelike};
        use std::fmt::Write;
        let t = chrono::DateTime::from_timestamp(self.0, 0).unwrap_or_default();
        let (date, time) = (t.date_naive(), t.time());
        let mut out = String::with_capacity(25);
        let _ = write!(
            out,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}+00:00",
            date.year(),
            date.month(),
            date.day(),
            time.hour(),
            time.minute(),
            time.second()
        );
        out
    }

    /// Reads ISO 8601 (with or without offset, date only) or Unix seconds.
    pub fn parse(s: &str) -> Option<Timestamp> {
        let s = s.trim();
        if let Ok(n) = s.parse::<i64>() {
            return Some(Timestamp(n));
        }
        if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
            return Some(Timestamp(t.timestamp()));
        }
        if let Ok(t) = chrono::DateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S%z") {
            return Some(Timestamp(t.timestamp()));
        }
        if let Ok(t) = chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S") {
            return Some(Timestamp(t.and_utc().timestamp()));
        }
        if let Ok(d) = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d") {
            return Some(Timestamp(d.and_hms_opt(0, 0, 0)?.and_utc().timestamp()));
        }
        None
    }
}

/// A float that can be hashed (by its bits) so that models holding one can derive `Hash`.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default)]
pub struct Float(pub f64);

impl Hash for Float {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state);
    }
}

impl From<f64> for Float {
    fn from(v: f64) -> Float {
        Float(v)
    }
}

/// A free key/value tree: `fieldValue`, `defaultValue`, `fieldSettings`,
/// `validatorConfiguration`. Map keys keep their order.
#[derive(Debug, Clone, PartialEq, Hash, Default)]
pub enum HashValue {
    #[default]
    Null,
    Bool(bool),
    Int(i64),
    Float(Float),
    String(String),
    /// A path under the API prefix (`/content/objects/4`): written as a string with the
    /// prefix of the dialect the response is in, like the hrefs of bodies.
    Href(String),
    List(Vec<HashValue>),
    Map(Vec<(String, HashValue)>),
}

impl HashValue {
    pub fn get(&self, key: &str) -> Option<&HashValue> {
        match self {
            HashValue::Map(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, HashValue::Null)
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            HashValue::String(s) | HashValue::Href(s) => Some(s),
            _ => None,
        }
    }

    /// An integer, also from a numeric string or an integral float.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            HashValue::Int(i) => Some(*i),
            HashValue::Float(f) if f.0.fract() == 0.0 => Some(f.0 as i64),
            HashValue::String(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            HashValue::Int(i) => Some(*i as f64),
            HashValue::Float(f) => Some(f.0),
            HashValue::String(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    /// A boolean, also from `"true"`/`"false"`/`"1"`/`"0"` and 0/1.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            HashValue::Bool(b) => Some(*b),
            HashValue::Int(0) => Some(false),
            HashValue::Int(1) => Some(true),
            HashValue::String(s) => match s.to_ascii_lowercase().as_str() {
                "true" | "1" => Some(true),
                "false" | "0" | "" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }

    /// The value as text: strings as they are, numbers and booleans printed.
    pub fn to_text(&self) -> Option<String> {
        match self {
            HashValue::String(s) | HashValue::Href(s) => Some(s.clone()),
            HashValue::Int(i) => Some(i.to_string()),
            HashValue::Float(f) => Some(f.0.to_string()),
            HashValue::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    /// Converts from JSON, keeping JSON's types.
    /// The tree of a JSON text, read straight into it (no `serde_json::Value` between): what
    /// [`HashValue::from_json`] makes of the parsed text, keys in their order, a repeated
    /// key's last value in its first place.
    pub fn parse_json(text: &str) -> serde_json::Result<HashValue> {
        serde_json::from_str::<JsonTree>(text).map(|t| t.0)
    }

    pub fn from_json(v: &serde_json::Value) -> HashValue {
        match v {
            serde_json::Value::Null => HashValue::Null,
            serde_json::Value::Bool(b) => HashValue::Bool(*b),
            serde_json::Value::Number(n) => match n.as_i64() {
                Some(i) => HashValue::Int(i),
                None => HashValue::Float(Float(n.as_f64().unwrap_or(0.0))),
            },
            serde_json::Value::String(s) => HashValue::String(s.clone()),
            serde_json::Value::Array(a) => HashValue::List(a.iter().map(Self::from_json).collect()),
            serde_json::Value::Object(o) => HashValue::Map(
                o.iter()
                    .map(|(k, v)| (k.clone(), Self::from_json(v)))
                    .collect(),
            ),
        }
    }

    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            HashValue::Null => Value::Null,
            HashValue::Bool(b) => Value::Bool(*b),
            HashValue::Int(i) => Value::from(*i),
            HashValue::Float(f) => Value::from(f.0),
            HashValue::String(s) | HashValue::Href(s) => Value::String(s.clone()),
            HashValue::List(l) => Value::Array(l.iter().map(Self::to_json).collect()),
            HashValue::Map(m) => {
                Value::Object(m.iter().map(|(k, v)| (k.clone(), v.to_json())).collect())
            }
        }
    }

    /// Casts XML text the way the reference does: digits → int, `[0-9.]` → float,
    /// `true`/`false` → bool, empty → null, anything else a string.
    pub fn cast_xml_text(text: &str) -> HashValue {
        let t = text;
        if t.is_empty() {
            return HashValue::Null;
        }
        let digits = t.strip_prefix('-').unwrap_or(t);
        if !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && let Ok(i) = t.parse()
        {
            return HashValue::Int(i);
        }
        if digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && digits.bytes().filter(|&b| b == b'.').count() == 1
            && digits.len() > 1
            && let Ok(f) = t.parse()
        {
            return HashValue::Float(Float(f));
        }
        if t.eq_ignore_ascii_case("true") {
            return HashValue::Bool(true);
        }
        if t.eq_ignore_ascii_case("false") {
            return HashValue::Bool(false);
        }
        HashValue::String(t.to_string())
    }
}

impl From<&str> for HashValue {
    fn from(s: &str) -> HashValue {
        HashValue::String(s.to_string())
    }
}

impl From<String> for HashValue {
    fn from(s: String) -> HashValue {
        HashValue::String(s)
    }
}

impl From<i64> for HashValue {
    fn from(i: i64) -> HashValue {
        HashValue::Int(i)
    }
}

impl From<bool> for HashValue {
    fn from(b: bool) -> HashValue {
        HashValue::Bool(b)
    }
}

/// Texts by language code (`names`, `descriptions`), in insertion order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct LangMap(pub Vec<(String, String)>);

impl LangMap {
    pub fn get(&self, lang: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(l, _)| l == lang)
            .map(|(_, t)| t.as_str())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Sets the text of `lang`, replacing an existing entry.
    pub fn set(&mut self, lang: &str, text: &str) {
        match self.0.iter_mut().find(|(l, _)| l == lang) {
            Some(e) => e.1 = text.to_string(),
            None => self.0.push((lang.to_string(), text.to_string())),
        }
    }
}

/// A [`HashValue`] read by serde (`HashValue::parse_json`).
struct JsonTree(HashValue);

impl<'de> serde::Deserialize<'de> for JsonTree {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<JsonTree, D::Error> {
        d.deserialize_any(TreeVisitor).map(JsonTree)
    }
}

struct TreeVisitor;

impl<'de> serde::de::Visitor<'de> for TreeVisitor {
    type Value = HashValue;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<HashValue, E> {
        Ok(HashValue::Null)
    }
    fn visit_none<E>(self) -> Result<HashValue, E> {
        Ok(HashValue::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<HashValue, E> {
        Ok(HashValue::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<HashValue, E> {
        Ok(HashValue::Int(i))
    }
    fn visit_u64<E>(self, u: u64) -> Result<HashValue, E> {
        Ok(i64::try_from(u).map_or(HashValue::Float(Float(u as f64)), HashValue::Int))
    }
    fn visit_f64<E>(self, f: f64) -> Result<HashValue, E> {
        Ok(HashValue::Float(Float(f)))
    }
    fn visit_str<E>(self, s: &str) -> Result<HashValue, E> {
        Ok(HashValue::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<HashValue, E> {
        Ok(HashValue::String(s))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<HashValue, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(JsonTree(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(HashValue::List(out))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<HashValue, A::Error> {
        let mut out: Vec<(String, HashValue)> = Vec::new();
        while let Some((k, JsonTree(v))) = map.next_entry::<String, JsonTree>()? {
            match out.iter_mut().find(|(name, _)| *name == k) {
                Some(entry) => entry.1 = v,
                None => out.push((k, v)),
            }
        }
        Ok(HashValue::Map(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Read straight from the text, a tree is what `from_json` makes of the parsed text.
    #[test]
    fn json_is_read_as_from_json_reads_it() {
        for text in [
            r#"{"xml":"<p>a \"b\" \u00e9\n</p>","n":1,"f":1.5,"big":18446744073709551615}"#,
            r#"{"b":1,"a":[true,false,null,{"z":[],"y":{}}],"b":2}"#,
            r#"[-9223372036854775808, 1e3, "", "\ud83d\ude00"]"#,
            "null",
            "12",
        ] {
            let parsed: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(
                HashValue::parse_json(text).unwrap(),
                HashValue::from_json(&parsed),
                "{text}"
            );
        }
        assert!(HashValue::parse_json("{").is_err());
    }

    #[test]
    fn xml_text_is_cast_like_the_reference() {
        assert_eq!(HashValue::cast_xml_text("42"), HashValue::Int(42));
        assert_eq!(HashValue::cast_xml_text("-7"), HashValue::Int(-7));
        assert_eq!(
            HashValue::cast_xml_text("1.5"),
            HashValue::Float(Float(1.5))
        );
        assert_eq!(HashValue::cast_xml_text("TRUE"), HashValue::Bool(true));
        assert_eq!(HashValue::cast_xml_text(""), HashValue::Null);
        assert_eq!(
            HashValue::cast_xml_text("1.2.3"),
            HashValue::String("1.2.3".into())
        );
        assert_eq!(
            HashValue::cast_xml_text("abc"),
            HashValue::String("abc".into())
        );
    }

    #[test]
    fn timestamps_round_trip_iso8601() {
        let t = Timestamp(1537166893);
        assert_eq!(t.to_iso8601(), "2018-09-17T06:48:13+00:00");
        assert_eq!(Timestamp::parse("2018-09-17T06:48:13+00:00"), Some(t));
        assert_eq!(Timestamp::parse("2018-09-17T08:48:13+02:00"), Some(t));
        assert_eq!(Timestamp::parse("2018-09-17T06:48:13"), Some(t));
        assert_eq!(Timestamp::parse("nonsense"), None);
    }
}
