//! The example bodies of `spec/examples/`: one JSON and one XML document per media type,
//! checked here only for what the generator relies on (the type exists and has a media type,
//! the document's root is the type's element). Whether a body matches its type field by field
//! is the business of the tests that read it with cairn's codecs.

use super::TypeDef;
use crate::spec::{ExampleFormat, RawExample};
use indexmap::IndexMap;
use serde_json::Value;

/// The examples of one type.
#[derive(Debug, Clone, Default)]
pub struct Examples {
    /// The JSON document, `{"<Element>": {...}}`.
    pub json: Option<Value>,
    /// The XML document, as written.
    pub xml: Option<String>,
}

/// The examples by type name, and a message (file: problem) for each that is wrong.
pub fn collect(
    raw: &[RawExample],
    types: &IndexMap<String, TypeDef>,
) -> (IndexMap<String, Examples>, Vec<String>) {
    let mut out: IndexMap<String, Examples> = IndexMap::new();
    let mut problems = Vec::new();
    for e in raw {
        let mut problem = |msg: String| problems.push(format!("spec/{}: {msg}", e.file));
        let Some(t) = types.get(&e.type_name) else {
            problem(format!("no type `{}` in the spec", e.type_name));
            continue;
        };
        if t.media.is_none() {
            problem(format!(
                "type `{}` has no media type: it is never a whole body",
                t.name
            ));
            continue;
        }
        let entry = out.entry(t.name.clone()).or_default();
        match e.format {
            ExampleFormat::Json => match serde_json::from_str::<Value>(&e.text) {
                Ok(v) => match v.as_object().map(|o| o.keys().collect::<Vec<_>>()) {
                    Some(keys) if keys == [&t.element] => entry.json = Some(v),
                    _ => problem(format!(
                        "a JSON document with the one key `{}` expected",
                        t.element
                    )),
                },
                Err(err) => problem(format!("not JSON: {err}")),
            },
            ExampleFormat::Xml => match root_element(&e.text) {
                Some(root) if root == t.element => entry.xml = Some(e.text.clone()),
                found => problem(format!(
                    "the root element `{}` expected, found {found:?}",
                    t.element
                )),
            },
        }
    }
    (out, problems)
}

/// The name of an XML document's root element: the first tag after the prolog and comments.
fn root_element(text: &str) -> Option<&str> {
    let mut rest = text;
    loop {
        let start = rest.find('<')?;
        rest = &rest[start + 1..];
        if rest.starts_with('?') || rest.starts_with('!') {
            continue;
        }
        let end = rest.find(|c: char| c.is_whitespace() || c == '>' || c == '/')?;
        return Some(&rest[..end]);
    }
}

#[cfg(test)]
mod tests {
    use super::root_element;

    #[test]
    fn root_element_skips_the_prolog_and_comments() {
        let xml =
            "<?xml version=\"1.0\"?>\n<!-- a comment -->\n<Section href=\"/x\"><a/></Section>";
        assert_eq!(root_element(xml), Some("Section"));
        assert_eq!(root_element("<Root/>"), Some("Root"));
        assert_eq!(root_element("no element"), None);
    }
}
