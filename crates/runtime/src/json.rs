//! The JSON writer the generated encoders call: compact output, keys in element order,
//! attributes as `_name`, element text beside attributes as `#text`.

use crate::escape;
use crate::media::{Format, Wire};
use crate::values::{Float, HashValue, LangMap, Timestamp};

pub struct JsonWriter<'w> {
    out: Vec<u8>,
    wire: &'w Wire,
    /// A value was written at this level: the next key or item needs a comma.
    need_comma: bool,
    /// A key was just written: the next value follows it directly.
    after_key: bool,
}

/// A scalar JSON value.
pub trait JsonScalar {
    fn write_to(&self, w: &mut Vec<u8>);
}

impl JsonScalar for str {
    fn write_to(&self, w: &mut Vec<u8>) {
        write_string(self, w);
    }
}
impl JsonScalar for String {
    fn write_to(&self, w: &mut Vec<u8>) {
        write_string(self, w);
    }
}
impl JsonScalar for i64 {
    fn write_to(&self, w: &mut Vec<u8>) {
        w.extend_from_slice(self.to_string().as_bytes());
    }
}
impl JsonScalar for bool {
    fn write_to(&self, w: &mut Vec<u8>) {
        w.extend_from_slice(if *self { b"true" } else { b"false" });
    }
}
impl JsonScalar for Float {
    fn write_to(&self, w: &mut Vec<u8>) {
        if self.0.is_finite() {
            let s = self.0.to_string();
            w.extend_from_slice(s.as_bytes());
            if !s.contains(['.', 'e', 'E']) {
                w.extend_from_slice(b".0");
            }
        } else {
            w.extend_from_slice(b"null");
        }
    }
}
impl JsonScalar for Timestamp {
    fn write_to(&self, w: &mut Vec<u8>) {
        write_string(&self.to_iso8601(), w);
    }
}

/// Writes `s` as a JSON string.
fn write_string(s: &str, out: &mut Vec<u8>) {
    out.reserve(s.len() + 2);
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    loop {
        let i = escape::next(bytes, start, escapes);
        let Some(&b) = bytes.get(i) else { break };
        out.extend_from_slice(&bytes[start..i]);
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let (hi, lo) = (HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]);
                out.extend_from_slice(&[b'\\', b'u', b'0', b'0', hi, lo]);
            }
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// The bytes of `w` that a JSON string escapes: control characters, `"` and `\` (see
/// [`escape::next`]).
fn escapes(w: u64) -> u64 {
    escape::below(w, 0x20) | escape::equal(w, b'"') | escape::equal(w, b'\\')
}

impl<'w> JsonWriter<'w> {
    pub fn new(wire: &'w Wire) -> JsonWriter<'w> {
        JsonWriter {
            out: Vec::with_capacity(1024),
            wire,
            need_comma: false,
            after_key: false,
        }
    }

    pub fn finish(self) -> Vec<u8> {
        self.out
    }

    fn before_value(&mut self) {
        if self.after_key {
            self.after_key = false;
        } else if self.need_comma {
            self.out.push(b',');
        }
    }

    pub fn key(&mut self, name: &str) {
        if self.need_comma {
            self.out.push(b',');
        }
        write_string(name, &mut self.out);
        self.out.push(b':');
        self.after_key = true;
    }

    pub fn begin_object(&mut self) {
        self.before_value();
        self.out.push(b'{');
        self.need_comma = false;
    }

    pub fn end_object(&mut self) {
        self.out.push(b'}');
        self.need_comma = true;
    }

    pub fn begin_array(&mut self) {
        self.before_value();
        self.out.push(b'[');
        self.need_comma = false;
    }

    pub fn end_array(&mut self) {
        self.out.push(b']');
        self.need_comma = true;
    }

    pub fn value<T: JsonScalar + ?Sized>(&mut self, v: &T) {
        self.before_value();
        v.write_to(&mut self.out);
        self.need_comma = true;
    }

    pub fn null(&mut self) {
        self.before_value();
        self.out.extend_from_slice(b"null");
        self.need_comma = true;
    }

    /// `"name": value`.
    pub fn field<T: JsonScalar + ?Sized>(&mut self, name: &str, v: &T) {
        self.key(name);
        self.value(v);
    }

    /// Omitted when `None`.
    pub fn field_opt<T: JsonScalar>(&mut self, name: &str, v: &Option<T>) {
        if let Some(v) = v {
            self.field(name, v);
        }
    }

    /// `null` when `None`.
    pub fn field_nullable<T: JsonScalar>(&mut self, name: &str, v: &Option<T>) {
        self.key(name);
        match v {
            Some(v) => self.value(v),
            None => self.null(),
        }
    }

    /// `"_media-type": "application/vnd.<vendor>.api.<name>+json"` (empty for no name).
    pub fn media(&mut self, name: &str) {
        self.key("_media-type");
        self.before_value();
        if name.is_empty() {
            self.out.extend_from_slice(b"\"\"");
        } else {
            self.out.push(b'"');
            self.out
                .extend_from_slice(self.wire.media_prefix().as_bytes());
            self.out.extend_from_slice(name.as_bytes());
            self.out.extend_from_slice(b"+json\"");
        }
        self.need_comma = true;
    }

    /// `"_href": "<prefix><path>"`.
    pub fn href(&mut self, path: &str) {
        self.field_path("_href", path);
    }

    /// `"name": "<prefix><path>"`: a path under the API prefix.
    pub fn field_path(&mut self, name: &str, path: &str) {
        self.key(name);
        self.path_value(path);
    }

    /// `"<prefix><path>"`: a path under the API prefix, as a value.
    pub fn path_value(&mut self, path: &str) {
        let mut full = String::with_capacity(self.wire.prefix.len() + path.len());
        full.push_str(&self.wire.prefix);
        full.push_str(path);
        self.value(full.as_str());
    }

    /// A reference object `{"_media-type": .., "_href": ..}`.
    pub fn reference(&mut self, media: &str, path: &str) {
        self.begin_object();
        self.media(media);
        self.href(path);
        self.end_object();
    }

    /// `{"value": [{"_languageCode": .., "#text": ..}]}`.
    pub fn lang_map(&mut self, map: &LangMap) {
        self.begin_object();
        self.key("value");
        self.begin_array();
        for (lang, text) in &map.0 {
            self.begin_object();
            self.field("_languageCode", lang.as_str());
            self.field("#text", text.as_str());
            self.end_object();
        }
        self.end_array();
        self.end_object();
    }

    /// A key/value tree as plain JSON; an empty map is `[]` like the reference.
    pub fn hash(&mut self, v: &HashValue) {
        match v {
            HashValue::Null => self.null(),
            HashValue::Bool(b) => self.value(b),
            HashValue::Int(i) => self.value(i),
            HashValue::Float(f) => self.value(f),
            HashValue::String(s) => self.value(s.as_str()),
            HashValue::Href(path) => self.path_value(path),
            HashValue::List(items) => {
                self.begin_array();
                for i in items {
                    self.hash(i);
                }
                self.end_array();
            }
            HashValue::Map(m) if m.is_empty() => {
                self.begin_array();
                self.end_array();
            }
            HashValue::Map(m) => {
                self.begin_object();
                for (k, v) in m {
                    self.key(k);
                    self.hash(v);
                }
                self.end_object();
            }
        }
    }

    pub fn format(&self) -> Format {
        Format::Json
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every string reads back as itself, whatever falls where in the eight-byte words.
    #[test]
    fn strings_are_escaped_at_any_position() {
        let specials = [
            "\"", "\\", "\n", "\r", "\t", "\u{1}", "\u{1f}", "é", "€", "<p>", "\u{7f}",
        ];
        for special in specials {
            for before in 0..17 {
                for after in [0, 1, 7, 8, 9] {
                    let s = format!("{}{special}{}", "a".repeat(before), "b".repeat(after));
                    let mut out = Vec::new();
                    write_string(&s, &mut out);
                    let back: String = serde_json::from_slice(&out).expect("valid JSON");
                    assert_eq!(back, s);
                }
            }
        }
        let all: String = (0u8..128).map(char::from).collect::<String>().repeat(3);
        let mut out = Vec::new();
        write_string(&all, &mut out);
        assert_eq!(serde_json::from_slice::<String>(&out).unwrap(), all);
    }

    #[test]
    fn writes_nested_objects_with_commas() {
        let wire = Wire::new("ibexa", "/api/ibexa/v2");
        let mut w = JsonWriter::new(&wire);
        w.begin_object();
        w.key("Section");
        w.begin_object();
        w.media("Section");
        w.href("/content/sections/1");
        w.field("sectionId", &1i64);
        w.field("name", "A \"quoted\"\n");
        w.key("list");
        w.begin_array();
        w.value(&1i64);
        w.value(&true);
        w.hash(&HashValue::Map(vec![]));
        w.end_array();
        w.field_nullable::<i64>("width", &None);
        w.end_object();
        w.end_object();
        let s = String::from_utf8(w.finish()).unwrap();
        let v: serde_json::Value = serde_json::from_str(&s).expect(&s);
        assert_eq!(v["Section"]["_href"], "/api/ibexa/v2/content/sections/1");
        assert_eq!(
            v["Section"]["_media-type"],
            "application/vnd.ibexa.api.Section+json"
        );
        assert_eq!(v["Section"]["name"], "A \"quoted\"\n");
        assert_eq!(v["Section"]["list"], serde_json::json!([1, true, []]));
        assert!(v["Section"]["width"].is_null());
    }
}
