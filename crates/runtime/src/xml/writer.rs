//! [`XmlWriter`]: writes one XML document for the generated encoders, escaping as it goes.

use crate::escape;
use crate::media::{Format, Wire};
use crate::values::{Float, HashValue, LangMap, Timestamp};

/// Writes one XML document. Start tags stay open until the first child, text or close, so an
/// element without content is written as `<name .../>`.
pub struct XmlWriter<'w> {
    out: Vec<u8>,
    wire: &'w Wire,
    tag_open: bool,
}

/// A scalar that can be element text or an attribute value.
pub trait XmlText {
    fn write_to(&self, out: &mut Vec<u8>);
}

impl XmlText for str {
    fn write_to(&self, out: &mut Vec<u8>) {
        escape_into(self, out);
    }
}
impl XmlText for String {
    fn write_to(&self, out: &mut Vec<u8>) {
        escape_into(self, out);
    }
}
impl XmlText for i64 {
    fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.to_string().as_bytes());
    }
}
impl XmlText for bool {
    fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(if *self { b"true" } else { b"false" });
    }
}
impl XmlText for Float {
    fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.0.to_string().as_bytes());
    }
}
impl XmlText for Timestamp {
    fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.to_iso8601().as_bytes());
    }
}

/// Escapes `<`, `>`, `&` and `"` (text and attribute values alike).
fn escape_into(s: &str, out: &mut Vec<u8>) {
    out.reserve(s.len());
    let bytes = s.as_bytes();
    let mut start = 0;
    loop {
        let i = escape::next(bytes, start, specials);
        let Some(&b) = bytes.get(i) else { break };
        out.extend_from_slice(&bytes[start..i]);
        out.extend_from_slice(match b {
            b'<' => b"&lt;",
            b'>' => b"&gt;",
            b'&' => b"&amp;",
            _ => b"&quot;",
        });
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
}

/// The bytes of `w` that are `<`, `>`, `&` or `"` (see [`escape::next`]).
fn specials(w: u64) -> u64 {
    use escape::equal;
    equal(w, b'<') | equal(w, b'>') | equal(w, b'&') | equal(w, b'"')
}

impl<'w> XmlWriter<'w> {
    /// A document with its XML declaration.
    pub fn new(wire: &'w Wire) -> XmlWriter<'w> {
        let mut out = Vec::with_capacity(1024);
        out.extend_from_slice(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        XmlWriter {
            out,
            wire,
            tag_open: false,
        }
    }

    pub fn finish(self) -> Vec<u8> {
        self.out
    }

    fn close_tag(&mut self) {
        if self.tag_open {
            self.out.push(b'>');
            self.tag_open = false;
        }
    }

    /// Starts `<name`; attributes may follow until content or [`Self::close`].
    pub fn open(&mut self, name: &str) {
        self.close_tag();
        self.out.push(b'<');
        self.out.extend_from_slice(name.as_bytes());
        self.tag_open = true;
    }

    /// Ends the element opened last with this name.
    pub fn close(&mut self, name: &str) {
        if self.tag_open {
            self.out.extend_from_slice(b"/>");
            self.tag_open = false;
        } else {
            self.out.extend_from_slice(b"</");
            self.out.extend_from_slice(name.as_bytes());
            self.out.push(b'>');
        }
    }

    pub fn attr<T: XmlText + ?Sized>(&mut self, name: &str, value: &T) {
        debug_assert!(self.tag_open, "attribute `{name}` outside a start tag");
        self.out.push(b' ');
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(b"=\"");
        value.write_to(&mut self.out);
        self.out.push(b'"');
    }

    pub fn attr_opt<T: XmlText>(&mut self, name: &str, value: &Option<T>) {
        if let Some(v) = value {
            self.attr(name, v);
        }
    }

    /// `media-type="application/vnd.<vendor>.api.<name>+xml"`, or empty for no name.
    pub fn attr_media(&mut self, name: &str) {
        self.out.extend_from_slice(b" media-type=\"");
        if !name.is_empty() {
            self.out
                .extend_from_slice(self.wire.media_prefix().as_bytes());
            self.out.extend_from_slice(name.as_bytes());
            self.out.extend_from_slice(b"+xml");
        }
        self.out.push(b'"');
    }

    /// `href="<prefix><path>"`.
    pub fn attr_href(&mut self, path: &str) {
        self.attr_path("href", path);
    }

    /// `name="<prefix><path>"`: a path under the API prefix.
    pub fn attr_path(&mut self, name: &str, path: &str) {
        self.out.push(b' ');
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(b"=\"");
        escape_into(&self.wire.prefix, &mut self.out);
        escape_into(path, &mut self.out);
        self.out.push(b'"');
    }

    pub fn text<T: XmlText + ?Sized>(&mut self, value: &T) {
        self.close_tag();
        value.write_to(&mut self.out);
    }

    /// `<name>value</name>`.
    pub fn elem<T: XmlText + ?Sized>(&mut self, name: &str, value: &T) {
        self.open(name);
        self.close_tag();
        value.write_to(&mut self.out);
        self.close(name);
    }

    /// Omitted when `None`.
    pub fn elem_opt<T: XmlText>(&mut self, name: &str, value: &Option<T>) {
        if let Some(v) = value {
            self.elem(name, v);
        }
    }

    /// An empty element when `None`.
    pub fn elem_nullable<T: XmlText>(&mut self, name: &str, value: &Option<T>) {
        match value {
            Some(v) => self.elem(name, v),
            None => {
                self.open(name);
                self.close(name);
            }
        }
    }

    /// A reference: `<name media-type=".." href=".."/>`.
    pub fn reference(&mut self, name: &str, media: &str, path: &str) {
        self.open(name);
        self.attr_media(media);
        self.attr_href(path);
        self.close(name);
    }

    /// `<name><value languageCode="..">text</value>…</name>`.
    pub fn lang_map(&mut self, name: &str, map: &LangMap) {
        self.open(name);
        for (lang, text) in &map.0 {
            self.open("value");
            self.attr("languageCode", lang);
            self.text(text);
            self.close("value");
        }
        self.close(name);
    }

    /// A key/value tree: `<name><value key="k">v</value>…</name>`; list items have no key.
    pub fn hash(&mut self, name: &str, value: &HashValue) {
        self.open(name);
        self.hash_content(value);
        self.close(name);
    }

    fn hash_content(&mut self, value: &HashValue) {
        match value {
            HashValue::Null => {}
            HashValue::Bool(b) => self.text(b),
            HashValue::Int(i) => self.text(i),
            HashValue::Float(f) => self.text(f),
            HashValue::String(s) => self.text(s),
            HashValue::Href(path) => {
                self.close_tag();
                escape_into(&self.wire.prefix, &mut self.out);
                escape_into(path, &mut self.out);
            }
            HashValue::List(items) => {
                for item in items {
                    self.open("value");
                    self.hash_content(item);
                    self.close("value");
                }
            }
            HashValue::Map(entries) => {
                for (k, v) in entries {
                    self.open("value");
                    self.attr("key", k);
                    self.hash_content(v);
                    self.close("value");
                }
            }
        }
    }

    pub fn format(&self) -> Format {
        Format::Xml
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every special byte is escaped wherever it falls in the eight-byte words, and nothing
    /// else changes.
    #[test]
    fn text_is_escaped_at_any_position() {
        let check = |s: &str| {
            let mut out = Vec::new();
            escape_into(s, &mut out);
            let expected = (s.replace('&', "&amp;").replace('<', "&lt;"))
                .replace('>', "&gt;")
                .replace('"', "&quot;");
            assert_eq!(String::from_utf8(out).unwrap(), expected);
        };
        for special in ["<", ">", "&", "\"", "é", "'", "\n"] {
            for before in 0..17 {
                for after in [0, 1, 7, 8, 9] {
                    check(&format!(
                        "{}{special}{}",
                        "a".repeat(before),
                        "b".repeat(after)
                    ));
                }
            }
        }
        check(&(0u8..128).map(char::from).collect::<String>().repeat(3));
    }

    #[test]
    fn writes_attributes_text_and_empty_elements() {
        let wire = Wire::new("ibexa", "/api/ibexa/v2");
        let mut w = XmlWriter::new(&wire);
        w.open("Section");
        w.attr_media("Section");
        w.attr_href("/content/sections/1");
        w.elem("name", "A & B");
        w.reference("Owner", "User", "/user/users/14");
        w.elem_nullable::<i64>("width", &None);
        w.close("Section");
        let s = String::from_utf8(w.finish()).unwrap();
        assert!(s.ends_with(
            "<Section media-type=\"application/vnd.ibexa.api.Section+xml\" href=\"/api/ibexa/v2/content/sections/1\"><name>A &amp; B</name><Owner media-type=\"application/vnd.ibexa.api.User+xml\" href=\"/api/ibexa/v2/user/users/14\"/><width/></Section>"
        ), "{s}");
    }
}
