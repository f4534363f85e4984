//! XML: the writer the generated encoders call, and the element tree request bodies are read
//! into before the generated decoders map them.

use crate::decode::{Node, Scalar};
use crate::media::{Format, Wire};
use crate::values::{Float, HashValue, LangMap, Timestamp};
use quick_xml::events::Event;

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
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let rep: &[u8] = match b {
            b'<' => b"&lt;",
            b'>' => b"&gt;",
            b'&' => b"&amp;",
            b'"' => b"&quot;",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        out.extend_from_slice(rep);
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
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

/// An element of a request body.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct XmlElement {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<XmlElement>,
    pub text: String,
}

impl XmlElement {
    /// Whether `test` holds for the text, an attribute name or value, or an element name
    /// anywhere in the tree.
    pub fn any_text(&self, test: &dyn Fn(&str) -> bool) -> bool {
        test(&self.name)
            || test(&self.text)
            || self.attrs.iter().any(|(k, v)| test(k) || test(v))
            || self.children.iter().any(|c| c.any_text(test))
    }
}

/// Elements nested deeper than this are refused (a request body is never that deep).
const MAX_DEPTH: usize = 128;

impl XmlElement {
    /// Reads a document into its root element.
    pub fn parse(input: &str) -> Result<XmlElement, String> {
        let mut reader = quick_xml::Reader::from_str(input);
        let mut stack: Vec<XmlElement> = Vec::new();
        let mut root: Option<XmlElement> = None;
        loop {
            let event = reader
                .read_event()
                .map_err(|e| format!("malformed XML at byte {}: {e}", reader.error_position()))?;
            match event {
                Event::Start(s) | Event::Empty(s) if root.is_some() => {
                    let _ = s;
                    return Err("malformed XML: content after the root element".into());
                }
                Event::Start(s) => {
                    if stack.len() >= MAX_DEPTH {
                        return Err("XML nested too deeply".into());
                    }
                    stack.push(element_of(&s)?);
                }
                Event::Empty(s) => {
                    let el = element_of(&s)?;
                    match stack.last_mut() {
                        Some(parent) => parent.children.push(el),
                        None => root = Some(el),
                    }
                }
                Event::End(_) => {
                    let el = stack.pop().ok_or("malformed XML: unexpected end tag")?;
                    match stack.last_mut() {
                        Some(parent) => parent.children.push(el),
                        None => root = Some(el),
                    }
                }
                Event::Text(t) => {
                    if let Some(cur) = stack.last_mut() {
                        cur.text.push_str(&t.xml10_content());
                    } else if !t.xml10_content().trim().is_empty() {
                        return Err("malformed XML: text outside the root element".into());
                    }
                }
                Event::CData(t) => {
                    if let Some(cur) = stack.last_mut() {
                        cur.text.push_str(&t.into_inner());
                    }
                }
                Event::GeneralRef(r) => {
                    let Some(cur) = stack.last_mut() else {
                        return Err("malformed XML: entity outside the root element".into());
                    };
                    if let Some(c) = r
                        .resolve_char_ref()
                        .map_err(|e| format!("malformed XML: {e}"))?
                    {
                        cur.text.push(c);
                    } else {
                        let name = r.xml10_content();
                        let value = quick_xml::escape::resolve_predefined_entity(&name)
                            .ok_or_else(|| format!("malformed XML: unknown entity &{name};"))?;
                        cur.text.push_str(value);
                    }
                }
                Event::Eof => break,
                Event::Decl(_) | Event::Comment(_) | Event::PI(_) | Event::DocType(_) => {}
            }
        }
        if !stack.is_empty() {
            return Err(format!(
                "malformed XML: element <{}> is not closed",
                stack.last().map(|e| e.name.as_str()).unwrap_or("")
            ));
        }
        root.ok_or_else(|| "the body holds no XML element".to_string())
    }

    fn has_text(&self) -> bool {
        self.children.is_empty() && !self.text.is_empty()
    }
}

fn element_of(s: &quick_xml::events::BytesStart<'_>) -> Result<XmlElement, String> {
    let name = s.name().as_ref().to_string();
    let mut attrs = Vec::new();
    for a in s.attributes() {
        let a = a.map_err(|e| format!("malformed XML attribute in <{name}>: {e}"))?;
        let value = a
            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .map_err(|e| format!("malformed XML attribute in <{name}>: {e}"))?;
        attrs.push((a.key.as_ref().to_string(), value.into_owned()));
    }
    Ok(XmlElement {
        name,
        attrs,
        children: Vec::new(),
        text: String::new(),
    })
}

impl Node for XmlElement {
    const JSON: bool = false;
    fn attr(&self, name: &str) -> Option<Scalar<'_>> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| Scalar::Str(v))
    }

    fn child(&self, name: &str) -> Option<&Self> {
        self.children.iter().find(|c| c.name == name)
    }

    fn children(&self, name: &str) -> Vec<&Self> {
        self.children.iter().filter(|c| c.name == name).collect()
    }

    fn items(&self, item: &str) -> Vec<&Self> {
        self.children(item)
    }

    fn scalar(&self) -> Scalar<'_> {
        if !self.children.is_empty() {
            return Scalar::Complex;
        }
        if self.text.is_empty() {
            Scalar::Null
        } else {
            Scalar::Str(&self.text)
        }
    }

    fn to_hash(&self) -> HashValue {
        let values: Vec<&XmlElement> = self.children.iter().filter(|c| c.name == "value").collect();
        // Data in attributes (`<Field identifier="folder/name">descending</Field>`): the
        // attributes, and the text as `#text`, as the reference's XML reader gives them. A
        // `key` is the name of a hash entry, not data.
        let data: Vec<&(String, String)> = self.attrs.iter().filter(|(k, _)| k != "key").collect();
        if values.is_empty() && !data.is_empty() && self.children.is_empty() {
            let mut map: Vec<(String, HashValue)> = data
                .iter()
                .map(|(k, v)| (k.clone(), HashValue::String(v.clone())))
                .collect();
            if self.has_text() {
                map.push(("#text".to_string(), HashValue::cast_xml_text(&self.text)));
            }
            return HashValue::Map(map);
        }
        if values.is_empty() {
            if self.has_text() {
                return HashValue::cast_xml_text(&self.text);
            }
            if self.children.is_empty() {
                return HashValue::Null;
            }
            // Plain elements (a search query's criteria): keyed by name, repeats as lists.
            let mut map: Vec<(String, HashValue)> = Vec::new();
            for c in &self.children {
                let v = c.to_hash();
                match map.iter_mut().find(|(k, _)| *k == c.name) {
                    Some((_, HashValue::List(items)))
                        if self.children.iter().filter(|o| o.name == c.name).count() > 1 =>
                    {
                        items.push(v)
                    }
                    Some(_) => {}
                    None if self.children.iter().filter(|o| o.name == c.name).count() > 1 => {
                        map.push((c.name.clone(), HashValue::List(vec![v])))
                    }
                    None => map.push((c.name.clone(), v)),
                }
            }
            return HashValue::Map(map);
        }
        if values
            .iter()
            .all(|v| v.attrs.iter().any(|(k, _)| k == "key"))
        {
            HashValue::Map(
                values
                    .iter()
                    .map(|v| {
                        let key = v
                            .attrs
                            .iter()
                            .find(|(k, _)| k == "key")
                            .map(|(_, k)| k.clone())
                            .unwrap_or_default();
                        (key, v.to_hash())
                    })
                    .collect(),
            )
        } else {
            HashValue::List(values.iter().map(|v| v.to_hash()).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn reads_elements_entities_and_value_trees() {
        let el = XmlElement::parse(
            "<?xml version=\"1.0\"?><A x=\"1 &amp; 2\"><b>&lt;t&gt;&#65;</b><fieldValue><value key=\"n\">5</value><value key=\"l\"><value>a</value><value>b</value></value></fieldValue></A>",
        )
        .unwrap();
        assert_eq!(el.attr("x"), Some(Scalar::Str("1 & 2")));
        assert_eq!(el.child("b").unwrap().scalar(), Scalar::Str("<t>A"));
        let h = el.child("fieldValue").unwrap().to_hash();
        assert_eq!(h.get("n"), Some(&HashValue::Int(5)));
        assert_eq!(
            h.get("l"),
            Some(&HashValue::List(vec!["a".into(), "b".into()]))
        );
        assert!(XmlElement::parse("<a><b></a>").is_err());
        let q = XmlElement::parse("<Filter><A>1</A><B>x</B><B>y</B></Filter>").unwrap();
        assert_eq!(
            q.to_hash(),
            HashValue::Map(vec![
                ("A".into(), HashValue::Int(1)),
                ("B".into(), HashValue::List(vec!["x".into(), "y".into()])),
            ])
        );
        assert!(XmlElement::parse("").is_err());
    }
}
