//! `ezrichtext` (fieldtype-richtext): a DocBook document, stored as `{xml}` (the document
//! with a UTF-8 XML declaration). Output adds `xhtml5edit`, the document converted for the
//! online editor. Links and embeds to `ezcontent://ID` create LINK and EMBED relations.
//!
//! Not done here: the reference validates the document against the DocBook RELAX NG
//! schema and checks that internal links point to existing content and locations (the
//! content service can do the latter); `ezlocation://ID` links create relations only once a
//! location is resolved to its content, which needs the repository (see `relations`);
//! `xhtml5edit` is a simplified rendering of the reference's XSLT (paragraphs, headings,
//! emphasis, links, lists, tables, code, quotes, anchors and embeds).

use super::xml::{self, Element, Node, escape_attr, escape_text, local};
use super::*;
use std::sync::Arc;

pub(crate) struct RichTextType {
    /// Each document's `xhtml5edit`, by the document (its 128-bit hash): a stored version's
    /// document never changes, so it is converted once, not on every read of the version.
    edits: quick_cache::sync::Cache<u128, Arc<str>, EditWeight>,
}

/// Bytes of converted documents kept.
const EDITS_KEPT: u64 = 8 << 20;

#[derive(Clone)]
struct EditWeight;

impl quick_cache::Weighter<u128, Arc<str>> for EditWeight {
    fn weight(&self, _key: &u128, edit: &Arc<str>) -> u64 {
        edit.len() as u64 + 48
    }
}

impl Default for RichTextType {
    fn default() -> Self {
        RichTextType {
            edits: quick_cache::sync::Cache::with_weighter(4096, EDITS_KEPT, EditWeight),
        }
    }
}

impl RichTextType {
    /// The document's `xhtml5edit`, converted once.
    fn edit(&self, value: &HashValue) -> Arc<str> {
        let xml = xml_of(value);
        let key = xxhash_rust::xxh3::xxh3_128(xml.as_bytes());
        if let Some(edit) = self.edits.get(&key) {
            return edit;
        }
        let edit: Arc<str> = match root(value) {
            Some(r) => to_edit(&r),
            None => to_edit(&Element::default()),
        }
        .into();
        self.edits.insert(key, edit.clone());
        edit
    }
}

const DOCBOOK: &str = "http://docbook.org/ns/docbook";
const EDIT: &str = "http://ibexa.co/namespaces/ezpublish5/xhtml5/edit";
const DECLARATION: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

/// The empty document.
pub(crate) const EMPTY_XML: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<section xmlns=\"http://docbook.org/ns/docbook\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"5.0-variant ezpublish-1.0\"/>\n";

fn xml_of(value: &HashValue) -> &str {
    field(value, "xml").as_str().unwrap_or(EMPTY_XML)
}

fn root(value: &HashValue) -> Option<Element> {
    xml::parse(xml_of(value)).ok()
}

/// The document with one UTF-8 declaration and a final newline.
fn normalize(doc: &str) -> String {
    let mut body = doc.trim_start_matches('\u{feff}').trim_start();
    if body.starts_with("<?xml")
        && let Some(end) = body.find("?>")
    {
        body = body[end + 2..].trim_start();
    }
    format!("{DECLARATION}{}\n", body.trim_end())
}

impl FieldType for RichTextType {
    fn name(&self) -> &'static str {
        "richtext"
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        no_settings(input)
    }

    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        no_validators(input)
    }

    /// `{"xml": "<section xmlns=\"http://docbook.org/ns/docbook\" …>…</section>"}`: the
    /// document must be well-formed and its root a DocBook `section`.
    fn from_hash(
        &self,
        input: &HashValue,
        _cx: &ValueContext<'_>,
    ) -> Result<HashValue, ValueError> {
        let doc = match input {
            HashValue::Null => return Ok(self.empty_value()),
            HashValue::String(s) => s.clone(),
            HashValue::Map(_) => match field(input, "xml") {
                HashValue::String(s) => s.clone(),
                _ => return Err(ValueError::new("xml", "'xml' index is missing in hash.")),
            },
            _ => return Err(ValueError::new("xml", "'xml' index is missing in hash.")),
        };
        let root = xml::parse(&doc).map_err(|e| {
            ValueError::new(
                "xml",
                format!("Argument '$inputValue' is invalid: Could not create XML document: {e}"),
            )
        })?;
        if root.local_name() != "section" || root.namespace() != Some(DOCBOOK) {
            return Err(ValueError::new(
                "xml",
                format!(
                    "Argument '$inputValue' is invalid: the root element must be a DocBook section ({DOCBOOK})"
                ),
            ));
        }
        Ok(map([("xml", HashValue::String(normalize(&doc)))]))
    }

    fn to_hash(&self, value: &HashValue, _cx: &ValueContext<'_>) -> HashValue {
        map([
            ("xml", HashValue::String(xml_of(value).to_string())),
            (
                "xhtml5edit",
                HashValue::String(self.edit(value).to_string()),
            ),
        ])
    }

    fn empty_value(&self) -> HashValue {
        map([("xml", HashValue::String(EMPTY_XML.to_string()))])
    }

    /// A document whose root has no child nodes.
    fn is_empty(&self, value: &HashValue) -> bool {
        root(value).is_none_or(|r| r.children.is_empty())
    }

    fn validate(
        &self,
        _value: &HashValue,
        _def: &Definition<'_>,
        _cx: &ValueContext<'_>,
    ) -> Vec<ValueError> {
        Vec::new()
    }

    /// The first line of the short text (not lowercased, as the reference).
    fn sort_key(&self, value: &HashValue) -> SortKey {
        let text = root(value).map(|r| first_text(&r)).unwrap_or_default();
        let line = text
            .trim()
            .split(['\r', '\n'])
            .find(|l| !l.is_empty())
            .unwrap_or("")
            .chars()
            .take(255)
            .collect::<String>();
        SortKey::Text(line.trim().to_string())
    }

    /// The text of the first block, spaces collapsed (the reference's `getName`).
    fn name_text(&self, value: &HashValue) -> String {
        let text = root(value).map(|r| first_text(&r)).unwrap_or_default();
        let mut out = String::new();
        for word in text.replace('\n', " ").split(char::is_whitespace) {
            if word.is_empty() {
                continue;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
        out
    }

    /// The text of the whole document.
    fn search_text(&self, value: &HashValue, _def: &Definition<'_>, _language: &str) -> String {
        root(value).map(|r| r.text_content()).unwrap_or_default()
    }

    /// LINK for `<link>`/`<ezlink>` and EMBED for `<ezembed>`/`<ezembedinline>` whose
    /// `xlink:href` is `ezcontent://ID`. `ezlocation://ID` targets are skipped: which content
    /// a location holds is known only to the repository.
    fn relations(&self, value: &HashValue) -> Vec<(RelationKind, i64)> {
        let Some(root) = root(value) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (kind, names) in [
            (RelationKind::Link, ["link", "ezlink"]),
            (RelationKind::Embed, ["ezembed", "ezembedinline"]),
        ] {
            for el in root.descendants() {
                if !names.contains(&el.local_name()) {
                    continue;
                }
                let Some(id) = el.attr("xlink:href").and_then(content_link) else {
                    continue;
                };
                if !out.contains(&(kind, id)) {
                    out.push((kind, id));
                }
            }
        }
        out
    }
}

/// The id of an `ezcontent://ID[#anchor]` link.
fn content_link(href: &str) -> Option<i64> {
    let rest = href.trim().strip_prefix("ezcontent://")?;
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok().filter(|id| *id != 0)
}

/// The reference's short text: the first child of the first child of the root (its first
/// child's text when it has children), else the whole text.
fn first_text(root: &Element) -> String {
    let Some(first) = root.children.first() else {
        return String::new();
    };
    match first.children().first() {
        Some(inner) => match inner.children().first() {
            Some(deeper) => deeper.text_content(),
            None => inner.text_content(),
        },
        None => root.text_content(),
    }
}

// ---------------------------------------------------------------------------------------
// DocBook → XHTML5 edit.

/// The document converted for the editor.
fn to_edit(root: &Element) -> String {
    let mut out = format!("{DECLARATION}<section xmlns=\"{EDIT}\"");
    if root.children.is_empty() {
        out.push_str("/>\n");
        return out;
    }
    out.push('>');
    for child in &root.children {
        convert(child, 1, false, &mut out);
    }
    out.push_str("</section>\n");
    out
}

/// `data-ezattribute-KEY` attributes from `<ezattribute><ezvalue key="KEY">`.
fn ez_attributes(el: &Element, attrs: &mut Vec<(String, String)>) {
    for child in &el.children {
        if let Node::Element(a) = child
            && a.local_name() == "ezattribute"
        {
            for v in &a.children {
                if let Node::Element(v) = v
                    && let Some(key) = v.attr("key")
                {
                    attrs.push((format!("data-ezattribute-{key}"), v.text_content()));
                }
            }
        }
    }
}

fn common_attrs(el: &Element, attrs: &mut Vec<(String, String)>) {
    if let Some(id) = el.attr("xml:id") {
        attrs.push(("id".into(), id.into()));
    }
    if let Some(class) = el.attr("ezxhtml:class") {
        attrs.push(("class".into(), class.into()));
    }
}

fn open(out: &mut String, name: &str, attrs: &[(String, String)]) {
    out.push('<');
    out.push_str(name);
    for (k, v) in attrs {
        out.push_str(&format!(" {k}=\"{}\"", escape_attr(v)));
    }
    out.push('>');
}

fn children(el: &Element, depth: usize, literal: bool, out: &mut String) {
    for c in &el.children {
        convert(c, depth, literal, out);
    }
}

fn wrap(
    el: &Element,
    name: &str,
    attrs: Vec<(String, String)>,
    depth: usize,
    literal: bool,
    out: &mut String,
) {
    open(out, name, &attrs);
    children(el, depth, literal, out);
    out.push_str(&format!("</{name}>"));
}

fn convert(node: &Node, depth: usize, literal: bool, out: &mut String) {
    let el = match node {
        Node::Text(t) => {
            let escaped = escape_text(t);
            out.push_str(&if literal {
                escaped.replace('\n', "<br/>")
            } else {
                escaped
            });
            return;
        }
        Node::Element(el) => el,
    };
    let mut attrs = Vec::new();
    match local(&el.name) {
        "section" => wrap(el, "section", attrs, depth + 1, literal, out),
        "para" | "title" => {
            common_attrs(el, &mut attrs);
            if let Some(align) = el.attr("ezxhtml:textalign") {
                attrs.push(("style".into(), format!("text-align:{align};")));
            }
            ez_attributes(el, &mut attrs);
            let name = if el.local_name() == "para" {
                "p".to_string()
            } else {
                let level = el
                    .attr("ezxhtml:level")
                    .and_then(|l| l.parse::<usize>().ok())
                    .unwrap_or(depth)
                    .clamp(1, 6);
                format!("h{level}")
            };
            wrap(el, &name, attrs, depth, literal, out);
        }
        "emphasis" => {
            let name = match el.attr("role") {
                Some("strong") => "strong",
                Some("underlined") => "u",
                Some("strikedthrough") if el.attr("revisionflag") == Some("deleted") => "del",
                Some("strikedthrough") => "s",
                _ => "em",
            };
            if matches!(name, "strong" | "em")
                && let Some(class) = el.attr("ezxhtml:class")
            {
                attrs.push(("class".into(), class.into()));
            }
            ez_attributes(el, &mut attrs);
            wrap(el, name, attrs, depth, literal, out);
        }
        "subscript" => wrap(el, "sub", attrs, depth, literal, out),
        "superscript" => wrap(el, "sup", attrs, depth, literal, out),
        "anchor" => {
            attrs.push(("id".into(), el.attr("xml:id").unwrap_or_default().into()));
            open(out, "a", &attrs);
            out.pop();
            out.push_str("/>");
        }
        "link" if el.attr("xlink:href").is_some() => {
            attrs.push((
                "href".into(),
                el.attr("xlink:href").unwrap_or_default().into(),
            ));
            if el.attr("xlink:show") == Some("new") {
                attrs.push(("target".into(), "_blank".into()));
            }
            if let Some(id) = el.attr("xml:id") {
                attrs.push(("id".into(), id.into()));
            }
            if let Some(title) = el.attr("xlink:title") {
                attrs.push(("title".into(), title.into()));
            }
            if let Some(class) = el.attr("ezxhtml:class") {
                attrs.push(("class".into(), class.into()));
            }
            ez_attributes(el, &mut attrs);
            wrap(el, "a", attrs, depth, true, out);
        }
        "itemizedlist" | "orderedlist" => {
            common_attrs(el, &mut attrs);
            if let Some(mark) = el.attr("mark") {
                attrs.push(("style".into(), format!("list-style-type:{mark};")));
            }
            ez_attributes(el, &mut attrs);
            let name = if el.local_name() == "itemizedlist" {
                "ul"
            } else {
                "ol"
            };
            wrap(el, name, attrs, depth, literal, out);
        }
        "listitem" => {
            if let Some(class) = el.attr("ezxhtml:class") {
                attrs.push(("class".into(), class.into()));
            }
            ez_attributes(el, &mut attrs);
            wrap(el, "li", attrs, depth, literal, out);
        }
        "programlisting" => {
            common_attrs(el, &mut attrs);
            if let Some(lang) = el.attr("language") {
                attrs.push(("data-language".into(), lang.into()));
            }
            open(out, "pre", &attrs);
            out.push_str(&escape_text(&el.text_content()));
            out.push_str("</pre>");
        }
        "blockquote" => {
            ez_attributes(el, &mut attrs);
            wrap(el, "blockquote", attrs, depth, literal, out);
        }
        "literallayout" => children(el, depth, true, out),
        "informaltable" | "table" => {
            common_attrs(el, &mut attrs);
            wrap(el, "table", attrs, depth, literal, out);
        }
        name @ ("caption" | "thead" | "tbody" | "tfoot" | "tr" | "td" | "th") => {
            for key in ["colspan", "rowspan", "scope"] {
                if let Some(v) = el.attr(key) {
                    attrs.push((key.into(), v.into()));
                }
            }
            wrap(el, name, attrs, depth, literal, out);
        }
        name @ ("ezembed" | "ezembedinline") => {
            attrs.push(("data-ezelement".into(), name.into()));
            if let Some(href) = el.attr("xlink:href") {
                attrs.push(("data-href".into(), href.into()));
            }
            if let Some(view) = el.attr("view") {
                attrs.push(("data-ezview".into(), view.into()));
            }
            common_attrs(el, &mut attrs);
            let tag = if name == "ezembed" { "div" } else { "span" };
            open(out, tag, &attrs);
            out.push_str(&format!("</{tag}>"));
        }
        name @ ("eztemplate" | "eztemplateinline") => {
            attrs.push(("data-ezelement".into(), name.into()));
            if let Some(n) = el.attr("name") {
                attrs.push(("data-ezname".into(), n.into()));
            }
            let tag = if name == "eztemplate" { "div" } else { "span" };
            wrap(el, tag, attrs, depth, literal, out);
        }
        "ezattribute" | "ezconfig" => {}
        _ => children(el, depth, literal, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::tests::cx;

    const DOC: &str = r#"<section xmlns="http://docbook.org/ns/docbook" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:ezxhtml="http://ibexa.co/xmlns/dxp/docbook/xhtml" version="5.0-variant ezpublish-1.0"><title ezxhtml:level="2">Hello   world</title><para>See <link xlink:href="ezcontent://57#top">this</link>, <link xlink:href="ezlocation://2">that</link> and <emphasis role="strong">x &amp; y</emphasis>.</para><ezembed xlink:href="ezcontent://12" view="embed"/></section>"#;

    #[test]
    fn reads_and_writes_docbook() {
        let c = cx();
        let v = RichTextType::default()
            .from_hash(&map([("xml", DOC.into())]), &c.cx())
            .unwrap();
        let xml = xml_of(&v);
        assert!(xml.starts_with(DECLARATION) && xml.ends_with("</section>\n"));
        assert_eq!(RichTextType::default().name_text(&v), "Hello world");
        assert_eq!(
            RichTextType::default().sort_key(&v),
            SortKey::Text("Hello   world".into())
        );
        assert_eq!(
            RichTextType::default().relations(&v),
            [(RelationKind::Link, 57), (RelationKind::Embed, 12)]
        );
        let t = RichTextType::default();
        let out = t.to_hash(&v, &c.cx());
        // Converted once: the second reading is the kept conversion.
        assert_eq!(t.edits.len(), 1);
        assert_eq!(t.to_hash(&v, &c.cx()), out);
        assert_eq!(t.edits.len(), 1);
        assert_eq!(
            field(&out, "xhtml5edit").as_str().unwrap(),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<section xmlns=\"http://ibexa.co/namespaces/ezpublish5/xhtml5/edit\"><h2>Hello   world</h2><p>See <a href=\"ezcontent://57#top\">this</a>, <a href=\"ezlocation://2\">that</a> and <strong>x &amp; y</strong>.</p><div data-ezelement=\"ezembed\" data-href=\"ezcontent://12\" data-ezview=\"embed\"></div></section>\n"
        );
        assert!(!RichTextType::default().is_empty(&v));
    }

    #[test]
    fn empty_and_invalid_documents() {
        let c = cx();
        let empty = RichTextType::default().empty_value();
        assert!(RichTextType::default().is_empty(&empty));
        assert_eq!(
            RichTextType::default().to_hash(&empty, &c.cx()),
            map([
                ("xml", EMPTY_XML.into()),
                (
                    "xhtml5edit",
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<section xmlns=\"http://ibexa.co/namespaces/ezpublish5/xhtml5/edit\"/>\n".into()
                )
            ])
        );
        let err = |h: HashValue| {
            RichTextType::default()
                .from_hash(&h, &c.cx())
                .unwrap_err()
                .message
        };
        assert_eq!(
            err(map([("x", 1.into())])),
            "'xml' index is missing in hash."
        );
        assert!(err(map([("xml", "<section>".into())])).contains("Could not create XML document"));
        assert!(err(map([("xml", "<section/>".into())])).contains("DocBook section"));
    }
}
