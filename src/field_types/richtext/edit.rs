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

/// The HTML element of an `emphasis`, by its role.
pub(super) fn emphasis_tag(el: &Element) -> &'static str {
    match el.attr("role") {
        Some("strong") => "strong",
        Some("underlined") => "u",
        Some("strikedthrough") if el.attr("revisionflag") == Some("deleted") => "del",
        Some("strikedthrough") => "s",
        _ => "em",
    }
}

/// `data-ezattribute-KEY` attributes from `<ezattribute><ezvalue key="KEY">`.
pub(super) fn ez_attributes(el: &Element, attrs: &mut Vec<(String, String)>) {
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

/// Each attribute of `names` (DocBook name, HTML name) that `el` has, in that order.
pub(super) fn copy_attrs(el: &Element, attrs: &mut Vec<(String, String)>, names: &[(&str, &str)]) {
    for (from, to) in names {
        if let Some(v) = el.attr(from) {
            attrs.push((to.to_string(), v.to_string()));
        }
    }
}

/// A `style` that sets `property` to the attribute `from`, when `el` has it.
pub(super) fn style_attr(
    el: &Element,
    attrs: &mut Vec<(String, String)>,
    from: &str,
    property: &str,
) {
    if let Some(v) = el.attr(from) {
        attrs.push(("style".into(), format!("{property}:{v};")));
    }
}

/// `id` and `class`.
pub(super) fn common_attrs(el: &Element, attrs: &mut Vec<(String, String)>) {
    copy_attrs(el, attrs, &[("xml:id", "id"), ("ezxhtml:class", "class")]);
}

pub(super) fn open(out: &mut String, name: &str, attrs: &[(String, String)]) {
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
            style_attr(el, &mut attrs, "ezxhtml:textalign", "text-align");
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
            let name = emphasis_tag(el);
            if matches!(name, "strong" | "em") {
                copy_attrs(el, &mut attrs, &[("ezxhtml:class", "class")]);
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
            let names = [
                ("xml:id", "id"),
                ("xlink:title", "title"),
                ("ezxhtml:class", "class"),
            ];
            copy_attrs(el, &mut attrs, &names);
            ez_attributes(el, &mut attrs);
            wrap(el, "a", attrs, depth, true, out);
        }
        "itemizedlist" | "orderedlist" => {
            common_attrs(el, &mut attrs);
            style_attr(el, &mut attrs, "mark", "list-style-type");
            ez_attributes(el, &mut attrs);
            let name = if el.local_name() == "itemizedlist" {
                "ul"
            } else {
                "ol"
            };
            wrap(el, name, attrs, depth, literal, out);
        }
        "listitem" => {
            copy_attrs(el, &mut attrs, &[("ezxhtml:class", "class")]);
            ez_attributes(el, &mut attrs);
            wrap(el, "li", attrs, depth, literal, out);
        }
        "programlisting" => {
            common_attrs(el, &mut attrs);
            copy_attrs(el, &mut attrs, &[("language", "data-language")]);
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
            let names = [
                ("colspan", "colspan"),
                ("rowspan", "rowspan"),
                ("scope", "scope"),
            ];
            copy_attrs(el, &mut attrs, &names);
            wrap(el, name, attrs, depth, literal, out);
        }
        name @ ("ezembed" | "ezembedinline") => {
            attrs.push(("data-ezelement".into(), name.into()));
            let names = [("xlink:href", "data-href"), ("view", "data-ezview")];
            copy_attrs(el, &mut attrs, &names);
            common_attrs(el, &mut attrs);
            let tag = if name == "ezembed" { "div" } else { "span" };
            open(out, tag, &attrs);
            out.push_str(&format!("</{tag}>"));
        }
        name @ ("eztemplate" | "eztemplateinline") => {
            attrs.push(("data-ezelement".into(), name.into()));
            copy_attrs(el, &mut attrs, &[("name", "data-ezname")]);
            let tag = if name == "eztemplate" { "div" } else { "span" };
            wrap(el, tag, attrs, depth, literal, out);
        }
        "ezattribute" | "ezconfig" => {}
        _ => children(el, depth, literal, out),
    }
}
