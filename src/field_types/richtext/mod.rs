//! `ezrichtext` (fieldtype-richtext): a DocBook document, stored as `{xml}` (the document
//! with a UTF-8 XML declaration). Output adds `xhtml5edit`, the document converted for the
//! online editor. Links and embeds to `ezcontent://ID` and `ezlocation://ID` create LINK and
//! EMBED relations.
//!
//! Not done here: the reference validates the document against the DocBook RELAX NG
//! schema and checks that internal links point to existing content and locations (the
//! content service can do the latter); `ezlocation://ID` links name Locations, whose
//! content items the content service finds (`location_relations`);
//! `xhtml5edit` is a simplified rendering of the reference's XSLT (paragraphs, headings,
//! emphasis, links, lists, tables, code, quotes, anchors and embeds); `output` renders the
//! document for reading (GraphQL's `html5`) as the reference's output stylesheet.

use super::xml::{self, Element, Node, escape_attr, escape_text, local};
use super::*;
use std::sync::Arc;

mod edit;
mod from_edit;
mod output;
pub(crate) use from_edit::from_html;
pub(crate) use output::{Document, Target};
#[cfg(test)]
mod tests;

use edit::to_edit;

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
    fn schema(&self) -> Schema {
        Schema::named("richtext")
    }

    /// `{"xml": "<section xmlns=\"http://docbook.org/ns/docbook\" …>…</section>"}`: the
    /// document must be well-formed and its root a DocBook `section`.
    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
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

    fn to_hash(&self, value: &HashValue, _: &ValueContext<'_>) -> HashValue {
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

    /// LINK for `<link>`/`<ezlink>` and EMBED for `<ezembedinline>`/`<ezembed>` whose
    /// `xlink:href` is `ezcontent://ID`, in the reference's order (its `RelationProcessor`).
    fn relations(&self, value: &HashValue) -> Vec<(RelationKind, i64)> {
        root(value).map_or_else(Vec::new, |r| linked(&r, "ezcontent://"))
    }

    /// The same for `ezlocation://ID`.
    fn location_relations(&self, value: &HashValue) -> Vec<(RelationKind, i64)> {
        root(value).map_or_else(Vec::new, |r| linked(&r, "ezlocation://"))
    }
}

/// The ids the links and embeds under `root` name with `scheme` (`ezcontent://`), in the
/// reference's order: the links, then the embeds; of each, the elements of one name after the
/// other (in the order named here), each in the document's order, every id once.
fn linked(root: &Element, scheme: &str) -> Vec<(RelationKind, i64)> {
    let elements = root.descendants();
    let mut out = Vec::new();
    for (kind, names) in [
        (RelationKind::Link, ["link", "ezlink"]),
        (RelationKind::Embed, ["ezembedinline", "ezembed"]),
    ] {
        for name in names {
            for el in &elements {
                if el.local_name() != name {
                    continue;
                }
                let Some(id) = el.attr("xlink:href").and_then(|h| link_id(h, scheme)) else {
                    continue;
                };
                if !out.contains(&(kind, id)) {
                    out.push((kind, id));
                }
            }
        }
    }
    out
}

/// The id of an `<scheme>ID[#anchor]` link (`ezcontent://57#top`).
fn link_id(href: &str, scheme: &str) -> Option<i64> {
    let rest = href.trim().strip_prefix(scheme)?;
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
