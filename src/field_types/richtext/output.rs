//! `html5`: a DocBook document rendered as the reference's output stylesheet
//! (`docbook/xhtml5/output/core.xsl`) renders it, its internal links made URLs first as the
//! reference's `Link` converter makes them. Embeds and custom tags, which the reference
//! renders with the site's templates, keep the editing rendering's placeholders.

use super::edit::{common_attrs, copy_attrs, emphasis_tag, ez_attributes, open, style_attr};
use super::*;

/// The output's namespace.
const OUTPUT: &str = "http://ibexa.co/namespaces/ezpublish5/xhtml5";

/// What an internal link names: a content item (`ezcontent://`) or a Location
/// (`ezlocation://`), by id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Target {
    Content(i64),
    Location(i64),
}

impl Target {
    /// The target of `href` and its fragment (`#…`, maybe empty), for an internal link.
    fn of(href: &str) -> Option<(Target, &str)> {
        let (content, rest) = if let Some(r) = href.strip_prefix("ezcontent://") {
            (true, r)
        } else {
            (false, href.strip_prefix("ezlocation://")?)
        };
        let (id, fragment) = rest.split_at(rest.find('#').unwrap_or(rest.len()));
        let id = id.trim().parse().ok()?;
        Some((
            if content {
                Target::Content(id)
            } else {
                Target::Location(id)
            },
            fragment,
        ))
    }
}

/// A document parsed once for reading: the targets of its links, then its rendering with
/// their URLs. A document that is not well-formed reads as the empty one.
pub(crate) struct Document(Element);

impl Document {
    pub(crate) fn parse(xml: &str) -> Document {
        Document(xml::parse(xml).unwrap_or_default())
    }

    /// The targets of its internal links, each once.
    pub(crate) fn link_targets(&self) -> Vec<Target> {
        let mut out: Vec<Target> = (self.0.descendants().into_iter())
            .filter(|e| e.local_name() == "link")
            .filter_map(|e| Target::of(e.attr("xlink:href")?))
            .map(|(t, _)| t)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The document rendered; `url` gives the URL of a link's target, `None` when it is gone
    /// or the reader may not read it: such a link becomes `#`, which the stylesheet renders as
    /// its text alone.
    pub(crate) fn to_output(&self, url: &dyn Fn(Target) -> Option<String>) -> String {
        let root = &self.0;
        let mut r = Render {
            url,
            out: format!("{DECLARATION}<section xmlns=\"{OUTPUT}\""),
        };
        if root.children.is_empty() {
            r.out.push_str("/>\n");
            return r.out;
        }
        r.out.push('>');
        r.children(root, 1, false);
        r.out.push_str("</section>\n");
        r.out
    }
}

struct Render<'a> {
    url: &'a dyn Fn(Target) -> Option<String>,
    out: String,
}

impl Render<'_> {
    fn children(&mut self, el: &Element, depth: usize, literal: bool) {
        for c in &el.children {
            self.node(c, depth, literal);
        }
    }

    fn wrap(
        &mut self,
        el: &Element,
        name: &str,
        attrs: &[(String, String)],
        depth: usize,
        literal: bool,
    ) {
        open(&mut self.out, name, attrs);
        self.children(el, depth, literal);
        self.out.push_str(&format!("</{name}>"));
    }

    /// What a link holds: its own text with its line breaks as `<br/>`.
    fn link_text(&mut self, el: &Element, depth: usize, literal: bool) {
        for c in &el.children {
            match c {
                Node::Text(t) => self.text(t, true),
                c => self.node(c, depth, literal),
            }
        }
    }

    /// Text, with its line breaks as `<br/>` where `literal` (the stylesheet's `breakLine`).
    fn text(&mut self, t: &str, literal: bool) {
        let escaped = escape_text(t);
        self.out.push_str(&if literal {
            escaped.replace('\n', "<br/>")
        } else {
            escaped
        });
    }

    fn node(&mut self, node: &Node, depth: usize, literal: bool) {
        let el = match node {
            Node::Text(t) => return self.text(t, literal),
            Node::Element(el) => el,
        };
        let mut attrs = Vec::new();
        let a = &mut attrs;
        match local(&el.name) {
            "section" => self.wrap(el, "section", a, depth + 1, literal),
            "para" => {
                common_attrs(el, a);
                style_attr(el, a, "ezxhtml:textalign", "text-align");
                ez_attributes(el, a);
                self.wrap(el, "p", a, depth, literal);
            }
            "title" => {
                copy_attrs(el, a, &[("ezxhtml:class", "class"), ("xml:id", "id")]);
                style_attr(el, a, "ezxhtml:textalign", "text-align");
                ez_attributes(el, a);
                let level = (el
                    .attr("ezxhtml:level")
                    .and_then(|l| l.parse::<usize>().ok()))
                .unwrap_or(depth)
                .clamp(1, 6);
                self.wrap(el, &format!("h{level}"), a, depth, literal);
            }
            "literallayout" => self.children(el, depth, true),
            "emphasis" => {
                let name = emphasis_tag(el);
                if matches!(name, "strong" | "em") {
                    copy_attrs(el, a, &[("ezxhtml:class", "class")]);
                }
                ez_attributes(el, a);
                self.wrap(el, name, a, depth, literal);
            }
            name @ ("subscript" | "superscript") => {
                ez_attributes(el, a);
                let tag = if name == "subscript" { "sub" } else { "sup" };
                self.wrap(el, tag, a, depth, literal);
            }
            "anchor" => {
                a.push(("id".into(), el.attr("xml:id").unwrap_or_default().into()));
                open(&mut self.out, "a", a);
                self.out.pop();
                self.out.push_str("/>");
            }
            "link" if el.attr("xlink:href").is_some() => {
                let href = el.attr("xlink:href").unwrap_or_default();
                let href = match Target::of(href) {
                    Some((target, fragment)) => match (self.url)(target) {
                        Some(url) => format!("{url}{fragment}"),
                        None => "#".into(),
                    },
                    None => href.to_string(),
                };
                if href == "#" {
                    return self.link_text(el, depth, literal);
                }
                a.push(("href".into(), href));
                if el.attr("xlink:show") == Some("new") {
                    a.push(("target".into(), "_blank".into()));
                }
                copy_attrs(el, a, &[("xml:id", "id")]);
                for (from, to) in [("xlink:title", "title"), ("xlink:siteaccess", "siteaccess")] {
                    if let Some(v) = el.attr(from).filter(|v| !v.trim().is_empty()) {
                        a.push((to.into(), v.into()));
                    }
                }
                copy_attrs(el, a, &[("ezxhtml:class", "class")]);
                ez_attributes(el, a);
                open(&mut self.out, "a", a);
                self.link_text(el, depth, literal);
                self.out.push_str("</a>");
            }
            "orderedlist" => {
                common_attrs(el, a);
                let style = match el.attr("numeration") {
                    Some("arabic") => Some("decimal"),
                    Some("arabicleadingzero") => Some("decimal-leading-zero"),
                    Some("lowerroman") => Some("lower-roman"),
                    Some("upperroman") => Some("upper-roman"),
                    Some("loweralpha") => Some("lower-latin"),
                    Some("upperalpha") => Some("upper-latin"),
                    _ => None,
                };
                if let Some(s) = style {
                    a.push(("style".into(), format!("list-style-type:{s};")));
                }
                ez_attributes(el, a);
                self.wrap(el, "ol", a, depth, literal);
            }
            "itemizedlist" => {
                common_attrs(el, a);
                style_attr(el, a, "mark", "list-style-type");
                ez_attributes(el, a);
                self.wrap(el, "ul", a, depth, literal);
            }
            // A list item holds what its paragraphs hold.
            "listitem" => {
                copy_attrs(el, a, &[("ezxhtml:class", "class")]);
                ez_attributes(el, a);
                open(&mut self.out, "li", a);
                for c in &el.children {
                    if let Node::Element(p) = c
                        && p.local_name() == "para"
                    {
                        self.children(p, depth, literal);
                    }
                }
                self.out.push_str("</li>");
            }
            "blockquote" => {
                ez_attributes(el, a);
                self.wrap(el, "blockquote", a, depth, literal);
            }
            "programlisting" => {
                common_attrs(el, a);
                copy_attrs(el, a, &[("language", "data-language")]);
                ez_attributes(el, a);
                open(&mut self.out, "pre", a);
                for c in &el.children {
                    if let Node::Text(t) = c {
                        self.out.push_str(&escape_text(t));
                    }
                }
                self.out.push_str("</pre>");
            }
            "informaltable" | "table" => self.table(el, depth),
            "tr" => {
                copy_attrs(el, a, &[("class", "class")]);
                ez_attributes(el, a);
                self.wrap(el, "tr", a, depth, literal);
            }
            name @ ("td" | "th") => {
                copy_attrs(
                    el,
                    a,
                    &[
                        ("class", "class"),
                        ("colspan", "colspan"),
                        ("rowspan", "rowspan"),
                    ],
                );
                if name == "th" {
                    copy_attrs(el, a, &[("abbr", "abbr"), ("scope", "scope")]);
                }
                let style = width(el.attr("ezxhtml:width"))
                    + &(el.attr("valign").map(|v| format!("vertical-align:{v};")))
                        .unwrap_or_default();
                if !style.is_empty() {
                    a.push(("style".into(), style));
                }
                ez_attributes(el, a);
                // Line breaks in a cell's own text are kept; the blanks between its blocks
                // are not text (the reference reads documents without blank nodes).
                open(&mut self.out, name, a);
                for c in &el.children {
                    match c {
                        Node::Text(t) if t.trim().is_empty() => {}
                        Node::Text(t) => self.text(t, true),
                        c => self.node(c, depth, literal),
                    }
                }
                self.out.push_str(&format!("</{name}>"));
            }
            name @ ("ezembed" | "ezembedinline") => {
                a.push(("data-ezelement".into(), name.into()));
                let names = [("xlink:href", "data-href"), ("view", "data-ezview")];
                copy_attrs(el, a, &names);
                common_attrs(el, a);
                let tag = if name == "ezembed" { "div" } else { "span" };
                open(&mut self.out, tag, a);
                self.out.push_str(&format!("</{tag}>"));
            }
            name @ ("eztemplate" | "eztemplateinline") => {
                a.push(("data-ezelement".into(), name.into()));
                copy_attrs(el, a, &[("name", "data-ezname")]);
                let tag = if name == "eztemplate" { "div" } else { "span" };
                self.wrap(el, tag, a, depth, literal);
            }
            "ezattribute" | "ezconfig" | "caption" | "thead" | "tbody" | "tfoot" => {}
            _ => self.children(el, depth, literal),
        }
    }

    /// A table as the stylesheet writes it: its caption, then the rows of its head, body
    /// (rows directly in it too) and foot.
    fn table(&mut self, el: &Element, depth: usize) {
        let mut a = Vec::new();
        copy_attrs(
            el,
            &mut a,
            &[
                ("xml:id", "id"),
                ("class", "class"),
                ("border", "border"),
                ("title", "title"),
            ],
        );
        let border = (el
            .attr("style")
            .and_then(|s| style_value(s, "border-width")))
        .map(|w| format!("border-width:{w};"))
        .unwrap_or_default();
        let style = width(el.attr("width")) + &border;
        if !style.is_empty() {
            a.push(("style".into(), style));
        }
        ez_attributes(el, &mut a);
        open(&mut self.out, "table", &a);
        let parts = |name: &str| -> Vec<&Element> {
            (el.children.iter())
                .filter_map(|c| match c {
                    Node::Element(e) if e.local_name() == name => Some(e),
                    _ => None,
                })
                .collect()
        };
        if el.local_name() == "table"
            && let Some(caption) = parts("caption").first()
            && !caption.text_content().is_empty()
        {
            self.out.push_str("<caption>");
            self.out.push_str(&escape_text(&caption.text_content()));
            self.out.push_str("</caption>");
        }
        let rows = |parents: Vec<&Element>| -> Vec<Node> {
            (parents.iter().flat_map(|p| &p.children))
                .filter(|c| matches!(c, Node::Element(e) if e.local_name() == "tr"))
                .cloned()
                .collect()
        };
        let head = rows(parts("thead"));
        let mut body = rows(vec![el]);
        body.extend(rows(parts("tbody")));
        let foot = rows(parts("tfoot"));
        for (tag, rows, always) in [
            ("thead", head, false),
            ("tbody", body, true),
            ("tfoot", foot, false),
        ] {
            if rows.is_empty() && !always {
                continue;
            }
            self.out.push_str(&format!("<{tag}>"));
            for r in &rows {
                self.node(r, depth, false);
            }
            self.out.push_str(&format!("</{tag}>"));
        }
        self.out.push_str("</table>");
    }
}

/// `width:…;` for a width attribute: as given when in percent, else in pixels.
fn width(w: Option<&str>) -> String {
    match w.filter(|w| !w.is_empty()) {
        Some(w) if w.ends_with('%') => format!("width:{w};"),
        Some(w) => format!("width:{w}px;"),
        None => String::new(),
    }
}

/// The value of `property` in an inline style, spaces removed.
fn style_value(style: &str, property: &str) -> Option<String> {
    let after = &style[style.find(property)? + property.len()..];
    let value = after.split_once(':')?.1.split(';').next()?;
    let value: String = value.chars().filter(|c| *c != ' ').collect();
    (!value.is_empty()).then_some(value)
}
