//! `xhtml5edit`: a DocBook document converted for the online editor, a simplified rendering
//! of the reference's XSLT.

use super::*;

/// The document converted for the editor.
pub(super) fn to_edit(root: &Element) -> String {
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
