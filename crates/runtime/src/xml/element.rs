//! [`XmlElement`]: a request body read into an element tree, and that tree as a decoder's
//! [`Node`].

use crate::decode::{Node, Scalar};
use crate::values::HashValue;
use quick_xml::events::Event;

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
        // A value tree (`fieldValue`) holds `value` elements only; beside other elements
        // (`<Field><name>…</name><operator>…</operator><value>…</value></Field>`) `value` is
        // one more plain element, as the reference's XML reader takes it.
        if values.len() < self.children.len() || values.is_empty() {
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
