//! A small XML reader for rich text: checks that a document is well-formed and gives its
//! element tree (names as written, attributes, text with entities resolved). Comments and
//! processing instructions are dropped; a DOCTYPE is skipped (its entities are not known).

/// A node of the tree.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Element(Element),
    Text(String),
}

/// An element: its qualified name, attributes in order and children.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Node>,
}

impl Element {
    /// The name without its prefix.
    pub fn local_name(&self) -> &str {
        local(&self.name)
    }

    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The namespace URI of the element, looked up in its own declarations (enough for a
    /// root element).
    pub fn namespace(&self) -> Option<&str> {
        match self.name.split_once(':') {
            Some((prefix, _)) => self.attr(&format!("xmlns:{prefix}")),
            None => self.attr("xmlns"),
        }
    }

    /// All descendant text, as DOM's `textContent`.
    pub fn text_content(&self) -> String {
        let mut out = String::new();
        collect_text(&self.children, &mut out);
        out
    }

    /// Every descendant element, depth first.
    pub fn descendants(&self) -> Vec<&Element> {
        let mut out = Vec::new();
        collect_elements(&self.children, &mut out);
        out
    }
}

impl Node {
    pub fn text_content(&self) -> String {
        match self {
            Node::Text(t) => t.clone(),
            Node::Element(e) => e.text_content(),
        }
    }

    pub fn children(&self) -> &[Node] {
        match self {
            Node::Text(_) => &[],
            Node::Element(e) => &e.children,
        }
    }
}

pub(crate) fn local(name: &str) -> &str {
    name.rsplit_once(':').map_or(name, |(_, l)| l)
}

fn collect_text(nodes: &[Node], out: &mut String) {
    for n in nodes {
        match n {
            Node::Text(t) => out.push_str(t),
            Node::Element(e) => collect_text(&e.children, out),
        }
    }
}

fn collect_elements<'a>(nodes: &'a [Node], out: &mut Vec<&'a Element>) {
    for n in nodes {
        if let Node::Element(e) = n {
            out.push(e);
            collect_elements(&e.children, out);
        }
    }
}

/// Parses a whole document; the error says what is not well-formed and where.
pub(crate) fn parse(input: &str) -> Result<Element, String> {
    let mut p = Parser {
        s: input.as_bytes(),
        src: input,
        pos: 0,
    };
    p.misc(true)?;
    if p.pos >= p.s.len() || p.s[p.pos] != b'<' {
        return Err(p.err("the document has no root element"));
    }
    let root = p.element(0)?;
    p.misc(false)?;
    if p.pos < p.s.len() {
        return Err(p.err("extra content at the end of the document"));
    }
    Ok(root)
}

struct Parser<'a> {
    s: &'a [u8],
    src: &'a str,
    pos: usize,
}

const MAX_DEPTH: usize = 256;

impl Parser<'_> {
    fn err(&self, what: &str) -> String {
        let line = self.src[..self.pos.min(self.src.len())]
            .bytes()
            .filter(|&b| b == b'\n')
            .count()
            + 1;
        format!("{what} (line {line})")
    }

    fn starts(&self, prefix: &str) -> bool {
        self.s[self.pos..].starts_with(prefix.as_bytes())
    }

    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    /// Skips to after `end`, or fails.
    fn skip_past(&mut self, end: &str, what: &str) -> Result<(), String> {
        match find(&self.s[self.pos..], end.as_bytes()) {
            Some(i) => {
                self.pos += i + end.len();
                Ok(())
            }
            None => Err(self.err(&format!("unterminated {what}"))),
        }
    }

    /// Whitespace, comments, processing instructions (and, before the root, the XML
    /// declaration and a DOCTYPE).
    fn misc(&mut self, prolog: bool) -> Result<(), String> {
        let mut first = true;
        loop {
            if !(prolog && first && self.starts("<?xml")) {
                self.skip_ws();
            }
            first = false;
            if self.starts("<?") {
                self.skip_past("?>", "processing instruction")?;
            } else if self.starts("<!--") {
                self.skip_past("-->", "comment")?;
            } else if prolog && self.starts("<!DOCTYPE") {
                self.doctype()?;
            } else {
                return Ok(());
            }
        }
    }

    fn doctype(&mut self) -> Result<(), String> {
        let mut depth = 0usize;
        while self.pos < self.s.len() {
            match self.s[self.pos] {
                b'[' => depth += 1,
                b']' => depth = depth.saturating_sub(1),
                b'>' if depth == 0 => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => {}
            }
            self.pos += 1;
        }
        Err(self.err("unterminated DOCTYPE"))
    }

    fn name(&mut self) -> Result<String, String> {
        let start = self.pos;
        while self.pos < self.s.len() {
            let b = self.s[self.pos];
            let ok =
                b.is_ascii_alphanumeric() || matches!(b, b'_' | b':' | b'-' | b'.') || b >= 0x80;
            if !ok {
                break;
            }
            self.pos += 1;
        }
        let name = &self.src[start..self.pos];
        match name.chars().next() {
            Some(c) if c.is_alphabetic() || c == '_' || c == ':' => Ok(name.to_string()),
            _ => Err(self.err("invalid name")),
        }
    }

    fn element(&mut self, depth: usize) -> Result<Element, String> {
        if depth > MAX_DEPTH {
            return Err(self.err("elements nested too deeply"));
        }
        self.pos += 1; // '<'
        let name = self.name()?;
        let mut el = Element {
            name,
            ..Element::default()
        };
        loop {
            let before = self.pos;
            self.skip_ws();
            if self.starts("/>") {
                self.pos += 2;
                return Ok(el);
            }
            if self.starts(">") {
                self.pos += 1;
                break;
            }
            if self.pos == before {
                return Err(self.err("expected whitespace, '>' or '/>'"));
            }
            let key = self.name()?;
            self.skip_ws();
            if !self.starts("=") {
                return Err(self.err(&format!("attribute '{key}' has no value")));
            }
            self.pos += 1;
            self.skip_ws();
            let quote = match self.s.get(self.pos) {
                Some(q @ (b'"' | b'\'')) => *q,
                _ => return Err(self.err(&format!("attribute '{key}' is not quoted"))),
            };
            self.pos += 1;
            let start = self.pos;
            while self.pos < self.s.len() && self.s[self.pos] != quote {
                if self.s[self.pos] == b'<' {
                    return Err(self.err("'<' in an attribute value"));
                }
                self.pos += 1;
            }
            if self.pos >= self.s.len() {
                return Err(self.err("unterminated attribute value"));
            }
            let raw = &self.src[start..self.pos];
            self.pos += 1;
            if el.attrs.iter().any(|(k, _)| *k == key) {
                return Err(self.err(&format!("attribute '{key}' redefined")));
            }
            let value = self.unescape(raw)?;
            el.attrs.push((key, value));
        }
        // Content.
        let mut text = String::new();
        loop {
            if self.pos >= self.s.len() {
                return Err(self.err(&format!("element '{}' is not closed", el.name)));
            }
            if self.starts("</") {
                flush(&mut text, &mut el.children);
                self.pos += 2;
                let end = self.name()?;
                if end != el.name {
                    return Err(self.err(&format!(
                        "opening and ending tag mismatch: {} and {end}",
                        el.name
                    )));
                }
                self.skip_ws();
                if !self.starts(">") {
                    return Err(self.err("expected '>'"));
                }
                self.pos += 1;
                return Ok(el);
            } else if self.starts("<!--") {
                self.skip_past("-->", "comment")?;
            } else if self.starts("<![CDATA[") {
                self.pos += 9;
                let start = self.pos;
                self.skip_past("]]>", "CDATA section")?;
                text.push_str(&self.src[start..self.pos - 3]);
            } else if self.starts("<?") {
                self.skip_past("?>", "processing instruction")?;
            } else if self.starts("<") {
                flush(&mut text, &mut el.children);
                let child = self.element(depth + 1)?;
                el.children.push(Node::Element(child));
            } else {
                let start = self.pos;
                while self.pos < self.s.len() && self.s[self.pos] != b'<' {
                    self.pos += 1;
                }
                let raw = &self.src[start..self.pos];
                if raw.contains("]]>") {
                    return Err(self.err("']]>' in content"));
                }
                text.push_str(&self.unescape(raw)?);
            }
        }
    }

    fn unescape(&self, raw: &str) -> Result<String, String> {
        if !raw.contains('&') {
            return Ok(raw.to_string());
        }
        let mut out = String::with_capacity(raw.len());
        let mut rest = raw;
        while let Some(i) = rest.find('&') {
            out.push_str(&rest[..i]);
            rest = &rest[i + 1..];
            let Some(end) = rest.find(';') else {
                return Err(self.err("unterminated entity reference"));
            };
            let entity = &rest[..end];
            rest = &rest[end + 1..];
            let c = match entity {
                "lt" => '<',
                "gt" => '>',
                "amp" => '&',
                "quot" => '"',
                "apos" => '\'',
                _ => {
                    let code = if let Some(hex) = entity
                        .strip_prefix("#x")
                        .or_else(|| entity.strip_prefix("#X"))
                    {
                        u32::from_str_radix(hex, 16).ok()
                    } else if let Some(dec) = entity.strip_prefix('#') {
                        dec.parse().ok()
                    } else {
                        return Err(self.err(&format!("entity '{entity}' not defined")));
                    };
                    match code.and_then(char::from_u32) {
                        Some(c) => c,
                        None => {
                            return Err(
                                self.err(&format!("invalid character reference '{entity}'"))
                            );
                        }
                    }
                }
            };
            out.push(c);
        }
        out.push_str(rest);
        Ok(out)
    }
}

fn flush(text: &mut String, children: &mut Vec<Node>) {
    if !text.is_empty() {
        children.push(Node::Text(std::mem::take(text)));
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Escapes text content.
pub(crate) fn escape_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Escapes an attribute value (double quoted).
pub(crate) fn escape_attr(s: &str) -> String {
    escape_text(s).replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_docbook_section() {
        let doc = parse(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- c --><section xmlns=\"http://docbook.org/ns/docbook\" version=\"5.0-variant ezpublish-1.0\"><para>a &amp; <emphasis>b</emphasis><![CDATA[<c>]]></para></section>\n",
        )
        .unwrap();
        assert_eq!(doc.local_name(), "section");
        assert_eq!(doc.namespace(), Some("http://docbook.org/ns/docbook"));
        assert_eq!(doc.text_content(), "a & b<c>");
        assert_eq!(doc.descendants().len(), 2);
    }

    #[test]
    fn rejects_malformed_documents() {
        for bad in [
            "",
            "<a>",
            "<a></b>",
            "<a x=1/>",
            "<a x='1' x='2'/>",
            "<a>&nbsp;</a>",
            "<a/><b/>",
            "text",
            "<a><</a>",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn prefixed_root_namespace() {
        let doc = parse("<d:section xmlns:d=\"urn:x\"/>").unwrap();
        assert_eq!(doc.local_name(), "section");
        assert_eq!(doc.namespace(), Some("urn:x"));
    }
}
