//! HTML (the online editor's `xhtml5edit`, or any well-formed XHTML fragment) converted to
//! DocBook: a simplified rendering of the reference's `xhtml5/edit/docbook.xsl`, through which
//! GraphQL's rich text input in the `html` and `markdown` formats is written. Paragraphs,
//! headings, emphasis, links and anchors, lists, tables, code, quotes, line breaks and embeds
//! are converted; other elements give their text, as the stylesheet's default rule does.

use super::*;

/// The DocBook document of the HTML fragment `html` (wrapped in the editor's `section`, as
/// the reference wraps it); an error when it is not well-formed XML or holds a link with
/// neither `href`, `id` nor `name`.
pub(crate) fn from_html(html: &str) -> Result<String, String> {
    let root = xml::parse(&format!("<section xmlns=\"{EDIT}\">{html}</section>"))?;
    let mut out = format!(
        "{DECLARATION}<section xmlns=\"{DOCBOOK}\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" xmlns:ezxhtml=\"http://ibexa.co/xmlns/dxp/docbook/xhtml\" xmlns:ezcustom=\"http://ibexa.co/xmlns/dxp/docbook/custom\" version=\"5.0-variant ezpublish-1.0\">"
    );
    children(&root.children, &mut out)?;
    out.push_str("</section>\n");
    Ok(out)
}

fn children(nodes: &[Node], out: &mut String) -> Result<(), String> {
    for n in nodes {
        convert(n, out)?;
    }
    Ok(())
}

/// `nodes` with each `br` a new line (the stylesheet's `breakline`).
fn lines(nodes: &[Node], out: &mut String) -> Result<(), String> {
    for n in nodes {
        match n {
            Node::Element(e) if e.local_name() == "br" => out.push('\n'),
            n => convert(n, out)?,
        }
    }
    Ok(())
}

/// Whether `nodes` hold a `br` at any depth.
fn has_break(nodes: &[Node]) -> bool {
    nodes.iter().any(|n| match n {
        Node::Element(e) => e.local_name() == "br" || has_break(&e.children),
        Node::Text(_) => false,
    })
}

fn open(out: &mut String, name: &str, attrs: &[(&str, String)]) {
    out.push('<');
    out.push_str(name);
    for (k, v) in attrs {
        out.push_str(&format!(" {k}=\"{}\"", escape_attr(v)));
    }
    out.push('>');
}

/// The value of `property` in the `style` attribute of `el`.
fn style(el: &Element, property: &str) -> Option<String> {
    el.attr("style")?.split(';').find_map(|decl| {
        let (k, v) = decl.split_once(':')?;
        (k.trim() == property).then(|| v.trim().to_string())
    })
}

/// `xml:id` from `id`, `ezxhtml:class` from `class`.
fn common(el: &Element, attrs: &mut Vec<(&'static str, String)>) {
    if let Some(id) = el.attr("id") {
        attrs.push(("xml:id", id.to_string()));
    }
    if let Some(class) = el.attr("class") {
        attrs.push(("ezxhtml:class", class.to_string()));
    }
}

/// A paragraph of `el`'s content: its lines in a `literallayout` when it breaks lines.
fn paragraph(el: &Element, out: &mut String) -> Result<(), String> {
    let mut attrs = Vec::new();
    common(el, &mut attrs);
    if let Some(align) = style(el, "text-align").filter(|a| !a.is_empty()) {
        attrs.push(("ezxhtml:textalign", align));
    }
    open(out, "para", &attrs);
    if has_break(&el.children) {
        out.push_str("<literallayout class=\"normal\">");
        lines(&el.children, out)?;
        out.push_str("</literallayout>");
    } else {
        children(&el.children, out)?;
    }
    out.push_str("</para>");
    Ok(())
}

/// `el`'s content in the element `name` with `attrs`; its line breaks new lines when `breaks`
/// (inline elements, the stylesheet's `breakline`).
fn wrap(
    el: &Element,
    name: &str,
    attrs: &[(&str, String)],
    breaks: bool,
    out: &mut String,
) -> Result<(), String> {
    open(out, name, attrs);
    if breaks {
        lines(&el.children, out)?;
    } else {
        children(&el.children, out)?;
    }
    out.push_str(&format!("</{name}>"));
    Ok(())
}

/// The rows of the table sections named `section` (`thead`, `tbody`, `tfoot`) of `table`,
/// and, for `tbody`, its own rows.
fn rows<'a>(table: &'a Element, section: &str) -> Vec<&'a Element> {
    let mut out = Vec::new();
    for n in &table.children {
        let Node::Element(e) = n else { continue };
        if e.local_name() == "tr" && section == "tbody" {
            out.push(e);
        } else if e.local_name() == section {
            out.extend(e.children.iter().filter_map(|r| match r {
                Node::Element(r) if r.local_name() == "tr" => Some(r),
                _ => None,
            }));
        }
    }
    out
}

fn table(el: &Element, out: &mut String) -> Result<(), String> {
    let caption = el.children.iter().find_map(|n| match n {
        Node::Element(c) if c.local_name() == "caption" => Some(c.text_content()),
        _ => None,
    });
    let name = if caption.is_some() {
        "table"
    } else {
        "informaltable"
    };
    let mut attrs = Vec::new();
    if let Some(id) = el.attr("id") {
        attrs.push(("xml:id", id.to_string()));
    }
    for (from, to) in [("class", "class"), ("title", "title"), ("border", "border")] {
        if let Some(v) = el.attr(from) {
            attrs.push((to, v.to_string()));
        }
    }
    if let Some(width) = style(el, "width").filter(|w| !w.is_empty()) {
        attrs.push(("width", width));
    }
    open(out, name, &attrs);
    if let Some(caption) = caption {
        out.push_str(&format!("<caption>{}</caption>", escape_text(&caption)));
    }
    for section in ["thead", "tbody", "tfoot"] {
        let rows = rows(el, section);
        if rows.is_empty() && section != "tbody" {
            continue;
        }
        out.push_str(&format!("<{section}>"));
        for row in rows {
            let mut attrs = Vec::new();
            if let Some(class) = row.attr("class") {
                attrs.push(("class", class.to_string()));
            }
            open(out, "tr", &attrs);
            for cell in &row.children {
                let Node::Element(cell) = cell else { continue };
                let kind = cell.local_name();
                if kind != "td" && kind != "th" {
                    continue;
                }
                let mut attrs = Vec::new();
                for a in ["class", "colspan", "rowspan", "abbr", "scope"] {
                    if let Some(v) = cell.attr(a) {
                        attrs.push((a, v.to_string()));
                    }
                }
                if let Some(width) = style(cell, "width").filter(|w| !w.is_empty()) {
                    attrs.push(("ezxhtml:width", width));
                }
                if let Some(valign) = style(cell, "vertical-align").filter(|v| !v.is_empty()) {
                    attrs.push(("valign", valign));
                }
                wrap(cell, kind, &attrs, true, out)?;
            }
            out.push_str("</tr>");
        }
        out.push_str(&format!("</{section}>"));
    }
    out.push_str(&format!("</{name}>"));
    Ok(())
}

fn convert(node: &Node, out: &mut String) -> Result<(), String> {
    let el = match node {
        Node::Text(t) => {
            out.push_str(&escape_text(t));
            return Ok(());
        }
        Node::Element(el) => el,
    };
    let role = |role: &str| vec![("role", role.to_string())];
    match el.local_name() {
        "section" => wrap(el, "section", &[], false, out)?,
        "p" => paragraph(el, out)?,
        "span" if el.attr("data-ezelement") == Some("ezembedinline") => {
            embed(el, "ezembedinline", out)
        }
        "div" if el.attr("data-ezelement") == Some("ezembed") => embed(el, "ezembed", out),
        "span" => lines(&el.children, out)?,
        "pre" => {
            let mut attrs = Vec::new();
            common(el, &mut attrs);
            if let Some(language) = el.attr("data-language") {
                attrs.push(("language", language.to_string()));
            }
            open(out, "programlisting", &attrs);
            // The code's text (a `code` element's too, as Markdown writes it), in CDATA.
            let code = el.text_content().replace("]]>", "]]]]><![CDATA[>");
            out.push_str(&format!("<![CDATA[{code}]]></programlisting>"));
        }
        "blockquote" => wrap(el, "blockquote", &[], false, out)?,
        "em" | "i" => {
            let mut attrs = Vec::new();
            common(el, &mut attrs);
            wrap(el, "emphasis", &attrs, true, out)?;
        }
        "strong" | "b" => {
            let mut attrs = role("strong");
            common(el, &mut attrs);
            wrap(el, "emphasis", &attrs, true, out)?;
        }
        "u" => wrap(el, "emphasis", &role("underlined"), true, out)?,
        "s" => wrap(el, "emphasis", &role("strikedthrough"), true, out)?,
        "del" => {
            let mut attrs = role("strikedthrough");
            attrs.push(("revisionflag", "deleted".into()));
            wrap(el, "emphasis", &attrs, true, out)?;
        }
        "sub" => wrap(el, "subscript", &[], false, out)?,
        "sup" => wrap(el, "superscript", &[], false, out)?,
        "a" => match (el.attr("href"), el.attr("id").or_else(|| el.attr("name"))) {
            (Some(href), _) => {
                let show = if el.attr("target") == Some("_blank") {
                    "new"
                } else {
                    "none"
                };
                let mut attrs = vec![
                    ("xlink:href", href.to_string()),
                    ("xlink:show", show.into()),
                ];
                if let Some(id) = el.attr("id") {
                    attrs.push(("xml:id", id.to_string()));
                }
                if let Some(title) = el.attr("title") {
                    attrs.push(("xlink:title", title.to_string()));
                }
                if let Some(class) = el.attr("class") {
                    attrs.push(("ezxhtml:class", class.to_string()));
                }
                wrap(el, "link", &attrs, true, out)?;
            }
            (None, Some(id)) => open_close(out, "anchor", &[("xml:id", id.to_string())]),
            (None, None) => return Err("a link (a) needs an href, an id or a name".into()),
        },
        h @ ("h1" | "h2" | "h3" | "h4" | "h5" | "h6") => {
            let mut attrs = vec![("ezxhtml:level", h[1..].to_string())];
            common(el, &mut attrs);
            if let Some(align) = style(el, "text-align").filter(|a| !a.is_empty()) {
                attrs.push(("ezxhtml:textalign", align));
            }
            wrap(el, "title", &attrs, true, out)?;
        }
        list @ ("ol" | "ul") => {
            let mut attrs = Vec::new();
            common(el, &mut attrs);
            let name = if list == "ol" {
                "orderedlist"
            } else {
                "itemizedlist"
            };
            open(out, name, &attrs);
            for item in &el.children {
                match item {
                    Node::Element(li) if li.local_name() == "li" => {
                        let mut attrs = Vec::new();
                        if let Some(class) = li.attr("class") {
                            attrs.push(("ezxhtml:class", class.to_string()));
                        }
                        open(out, "listitem", &attrs);
                        let has_para = li.descendants().iter().any(|d| d.local_name() == "p");
                        if has_para {
                            children(&li.children, out)?;
                        } else {
                            paragraph(li, out)?;
                        }
                        out.push_str("</listitem>");
                    }
                    // Text between the items (spaces) is no item.
                    _ => {}
                }
            }
            out.push_str(&format!("</{name}>"));
        }
        "table" => table(el, out)?,
        "br" => out.push('\n'),
        _ => children(&el.children, out)?,
    }
    Ok(())
}

fn open_close(out: &mut String, name: &str, attrs: &[(&str, String)]) {
    open(out, name, attrs);
    out.insert(out.len() - 1, '/');
}

/// An embed (`div` or `span` with `data-ezelement`): its target, view and class.
fn embed(el: &Element, name: &str, out: &mut String) {
    let mut attrs = Vec::new();
    if let Some(href) = el.attr("data-href") {
        attrs.push(("xlink:href", href.to_string()));
    }
    if let Some(view) = el.attr("data-ezview") {
        attrs.push(("view", view.to_string()));
    }
    common(el, &mut attrs);
    open_close(out, name, &attrs);
}
