//! The example bodies of `spec/examples/`: every body of the OpenAPI document has one in each
//! format (a stream of Server-Sent Events: one event), and each example matches its type field
//! by field, read with the readers cairn reads requests with (`serde_json`, [`XmlElement`]): the
//! root element (JSON key), the `media-type` and `href` a representation carries, every required
//! field, the kind of every value, and no field the type does not have. Whether the input
//! examples decode into cairn's models is checked by the server's own decoders
//! (`tests/http/spec_examples.rs`).

use cairn_codegen::model::{Api, Field, Place, Ty, TypeBody, TypeDef};
use cairn_runtime::xml::XmlElement;
use serde_json::Value;
use std::path::PathBuf;

fn spec() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../spec")
}

fn api() -> Api {
    cairn_codegen::load(&spec()).expect("the spec loads")
}

#[test]
fn every_body_of_the_openapi_document_has_a_json_and_an_xml_example() {
    let out = cairn_codegen::generate(&spec(), &spec().join("../templates")).unwrap();
    let text = &out
        .files
        .iter()
        .find(|(n, _)| n == "openapi.json")
        .unwrap()
        .1;
    let doc: Value = serde_json::from_str(text).unwrap();
    let mut bodies = Vec::new();
    media_objects(&doc["paths"], &mut bodies);
    media_objects(&doc["components"]["responses"], &mut bodies);
    assert!(bodies.len() > 300, "only {} bodies found", bodies.len());
    let mut missing = Vec::new();
    for (media, body) in &bodies {
        let r = body["examples"]["cairn"]["$ref"]
            .as_str()
            .unwrap_or_default();
        let name = r.strip_prefix("#/components/examples/").unwrap_or_default();
        let example = &doc["components"]["examples"][name];
        let ok = match media.rsplit_once('+') {
            Some((_, "json")) => example["value"].is_object(),
            Some((_, "xml")) => example["value"].is_string(),
            // A stream shows one event: its item type's JSON example (`Event.json`).
            _ => body["example"]
                .as_str()
                .is_some_and(|e| e.starts_with("id: ") && e.contains("\ndata: {")),
        };
        if !ok {
            missing.push(media.clone());
        }
    }
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "no example in spec/examples/ for these bodies: {missing:?}"
    );
}

/// Every media type object under `v`: the entries of a `content` map named `application/vnd.…`.
fn media_objects<'a>(v: &'a Value, out: &mut Vec<(String, &'a Value)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == "content"
                    && let Value::Object(c) = x
                {
                    for (media, body) in c {
                        if media.starts_with("application/vnd.") || media == "text/event-stream" {
                            out.push((media.clone(), body));
                        }
                    }
                }
                media_objects(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| media_objects(x, out)),
        _ => {}
    }
}

#[test]
fn every_example_matches_its_type_in_json_and_in_xml() {
    let api = api();
    let mut problems = Vec::new();
    let mut read = 0;
    for (name, e) in &api.examples {
        let t = &api.types[name];
        let mut c = Check {
            api: &api,
            problems: Vec::new(),
        };
        if let Some(j) = &e.json {
            c.json_type(t, &j[&t.element], &t.element);
            read += 1;
        }
        if let Some(x) = &e.xml {
            match XmlElement::parse(x) {
                Ok(root) => c.xml_type(t, &root, &root.name),
                Err(err) => c.problems.push(format!("not XML: {err}")),
            }
            read += 1;
        }
        for p in c.problems {
            problems.push(format!("spec/examples/{name}: {p}"));
        }
    }
    assert!(read >= 160, "only {read} examples read");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_wrong_example_is_told_apart() {
    let api = api();
    let t = &api.types["Section"];
    let mut c = Check {
        api: &api,
        problems: Vec::new(),
    };
    let json: Value = serde_json::from_str(
        r#"{"_media-type": "m", "_href": "/s/1", "sectionId": "one", "name": "N", "colour": 1}"#,
    )
    .unwrap();
    c.json_type(t, &json, "Section");
    let xml = XmlElement::parse(
        "<Section media-type=\"m\"><sectionId>1</sectionId><identifier>a</identifier><name/><x/></Section>",
    )
    .unwrap();
    c.xml_type(t, &xml, "Section");
    let all = c.problems.join("\n");
    for expected in [
        "Section.sectionId: an integer expected",
        "Section.identifier: required but missing",
        "Section: unknown field `colour`",
        "Section: `href` required but missing",
        "Section: unknown element `x`",
    ] {
        assert!(all.contains(expected), "{expected:?} not in:\n{all}");
    }
}

/// A walk of one example along its type, collecting every mismatch with its path.
struct Check<'a> {
    api: &'a Api,
    problems: Vec<String>,
}

impl Check<'_> {
    fn problem(&mut self, path: &str, msg: impl std::fmt::Display) {
        self.problems.push(format!("{path}: {msg}"));
    }

    fn json_type(&mut self, t: &TypeDef, v: &Value, path: &str) {
        if let TypeBody::OneOf(members) = &t.body {
            let found = v.as_object().and_then(|o| {
                let (k, inner) = o.iter().next()?;
                let m = members.iter().find(|m| self.api.types[*m].element == *k)?;
                (o.len() == 1).then_some((m, inner))
            });
            match found {
                Some((m, inner)) => {
                    let member = &self.api.types[m];
                    self.json_type(member, inner, &format!("{path}.{}", member.element));
                }
                None => self.problem(path, format!("one of {members:?} expected")),
            }
            return;
        }
        let Some(o) = v.as_object() else {
            return self.problem(path, "an object expected");
        };
        let mut known = Vec::new();
        // Inputs may carry what an answer carries (`_media-type` of a body sent back).
        if t.media.is_some() {
            known.push("_media-type");
            if t.output && !o.contains_key("_media-type") {
                self.problem(path, "`_media-type` required but missing");
            }
        }
        if t.href {
            known.push("_href");
            if t.output && !o.contains_key("_href") {
                self.problem(path, "`_href` required but missing");
            }
        }
        for f in t.fields() {
            known.push(&f.json);
            let fpath = format!("{path}.{}", f.json);
            // A list left out of an input is empty, as the decoders read it.
            let may_lack = f.optional || (t.input && matches!(f.ty, Ty::List { .. }));
            match o.get(&f.json) {
                None if !may_lack => self.problem(&fpath, "required but missing"),
                None => {}
                Some(Value::Null) if f.nullable => {}
                Some(x) if self.api.inline_union(f) => self.inline(f, &fpath, |c, t| {
                    c.json_type(t, x, &fpath);
                }),
                Some(x) => self.json_value(&f.ty, x, &fpath),
            }
        }
        for k in o.keys() {
            if !known.contains(&k.as_str()) {
                self.problem(path, format!("unknown field `{k}`"));
            }
        }
    }

    /// A union written in the field's own element (`Api::inline_union`): the value is one of
    /// its members, whichever `check` finds no problem with.
    fn inline(&mut self, f: &Field, path: &str, check: impl Fn(&mut Self, &TypeDef)) {
        let Ty::Named(n) = &f.ty else { return };
        if let TypeBody::OneOf(members) = &self.api.types[n].body {
            self.any_member(&members.clone(), path, check);
        }
    }

    /// The members of `ty` when it is a union.
    fn members(&self, ty: &Ty) -> Option<Vec<String>> {
        match ty {
            Ty::Named(n) => match &self.api.types[n].body {
                TypeBody::OneOf(members) => Some(members.clone()),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether one of `members` passes `check`; a problem at `path` otherwise.
    fn any_member(&mut self, members: &[String], path: &str, check: impl Fn(&mut Self, &TypeDef)) {
        let fits = members.iter().any(|m| {
            let mut c = Check {
                api: self.api,
                problems: Vec::new(),
            };
            check(&mut c, &self.api.types[m]);
            c.problems.is_empty()
        });
        if !fits {
            self.problem(path, format!("one of {members:?} expected"));
        }
    }

    fn json_value(&mut self, ty: &Ty, v: &Value, path: &str) {
        let ok = match ty {
            Ty::Int | Ty::Offset | Ty::Limit => v.is_i64() || v.is_u64(),
            Ty::Float => v.is_number(),
            Ty::Bool => v.is_boolean(),
            Ty::String | Ty::Href | Ty::DateTime => v.is_string(),
            Ty::Hash => true,
            Ty::LangMap => v["value"].as_array().is_some_and(|a| {
                a.iter()
                    .all(|x| x["_languageCode"].is_string() && x["#text"].is_string())
            }),
            Ty::Ref { .. } => v["_href"].is_string(),
            Ty::Named(n) => {
                let t = &self.api.types[n];
                return self.json_type(t, v, path);
            }
            // In JSON a wrapped list is an array, or (as the decoders also read it) the
            // XML-shaped `{"<item>": [...]}` the reference's clients send.
            Ty::List {
                item,
                wrapped_as: Some(w),
            } if v.get(w).is_some() && v.as_object().is_some_and(|o| o.len() == 1) => {
                let plain = Ty::List {
                    item: item.clone(),
                    wrapped_as: None,
                };
                return self.json_value(&plain, &v[w], &format!("{path}.{w}"));
            }
            Ty::List { item, .. } => match v.as_array() {
                Some(a) => {
                    for (i, x) in a.iter().enumerate() {
                        let ipath = format!("{path}[{}]", i + 1);
                        match self.members(item) {
                            // A one-of item is written bare: whichever member it fits.
                            Some(members) => self.any_member(&members, &ipath, |c, t| {
                                c.json_type(t, x, &ipath);
                            }),
                            None => self.json_value(item, x, &ipath),
                        }
                    }
                    true
                }
                None => false,
            },
        };
        if !ok {
            self.problem(path, format!("{} expected", kind(ty)));
        }
    }

    fn xml_type(&mut self, t: &TypeDef, el: &XmlElement, path: &str) {
        if el.name != t.element {
            return self.problem(path, format!("element `{}` expected", t.element));
        }
        self.xml_inside(t, el, path);
    }

    /// The attributes and children of `el` as the fields of `t` (whatever `el` is named).
    fn xml_inside(&mut self, t: &TypeDef, el: &XmlElement, path: &str) {
        if let TypeBody::OneOf(members) = &t.body {
            let found = match el.children.as_slice() {
                [one] => members
                    .iter()
                    .find(|m| self.api.types[*m].element == one.name)
                    .map(|m| (m, one)),
                _ => None,
            };
            match found {
                Some((m, one)) => {
                    let member = &self.api.types[m];
                    self.xml_type(member, one, &format!("{path}.{}", one.name));
                }
                None => self.problem(path, format!("one element of {members:?} expected")),
            }
            return;
        }
        let mut attrs = Vec::new();
        if t.media.is_some() {
            attrs.push("media-type");
            if t.output && attr(el, "media-type").is_none() {
                self.problem(path, "`media-type` required but missing");
            }
        }
        if t.href {
            attrs.push("href");
            if t.output && attr(el, "href").is_none() {
                self.problem(path, "`href` required but missing");
            }
        }
        let mut elements = Vec::new();
        for f in t.fields() {
            let fpath = format!("{path}.{}", f.wire);
            match f.place {
                Place::Attribute => {
                    attrs.push(&f.wire);
                    match attr(el, &f.wire) {
                        None if !f.optional => self.problem(&fpath, "required but missing"),
                        None => {}
                        Some(v) => self.xml_text(&f.ty, v, &fpath),
                    }
                }
                Place::Text => self.xml_text(&f.ty, &el.text, &fpath),
                Place::Element => match &f.ty {
                    // A list of a union without a wrapper: each item is its member's own
                    // element, right in `el`.
                    Ty::List {
                        item,
                        wrapped_as: None,
                    } if self.members(item).is_some() => {
                        let members = self.members(item).unwrap_or_default();
                        for m in &members {
                            elements.push(&self.api.types[m].element);
                        }
                        let items = (el.children.iter()).filter(|c| {
                            members.iter().any(|m| self.api.types[m].element == c.name)
                        });
                        for (i, c) in items.enumerate() {
                            let ipath = format!("{fpath}[{}]", i + 1);
                            let named: Vec<String> = (members.iter())
                                .filter(|m| self.api.types[*m].element == c.name)
                                .cloned()
                                .collect();
                            self.any_member(&named, &ipath, |k, t| k.xml_type(t, c, &ipath));
                        }
                    }
                    _ => {
                        elements.push(&f.wire);
                        self.xml_field(f, el, &fpath);
                    }
                },
            }
        }
        for (k, _) in &el.attrs {
            if !attrs.contains(&k.as_str()) {
                self.problem(path, format!("unknown attribute `{k}`"));
            }
        }
        for c in &el.children {
            if !elements.contains(&&c.name) {
                self.problem(path, format!("unknown element `{}`", c.name));
            }
        }
    }

    fn xml_field(&mut self, f: &Field, el: &XmlElement, path: &str) {
        let found: Vec<&XmlElement> = el.children.iter().filter(|c| c.name == f.wire).collect();
        match &f.ty {
            Ty::List {
                item,
                wrapped_as: Some(w),
            } => {
                if found.len() > 1 {
                    return self.problem(path, "one element expected");
                }
                for wrapper in found {
                    for (i, c) in wrapper.children.iter().enumerate() {
                        let ipath = format!("{path}.{w}[{}]", i + 1);
                        if c.name != *w {
                            self.problem(&ipath, format!("element `{w}` expected"));
                        } else {
                            self.xml_value(item, c, &ipath);
                        }
                    }
                }
            }
            Ty::List { item, .. } => {
                for (i, c) in found.iter().enumerate() {
                    self.xml_value(item, c, &format!("{path}[{}]", i + 1));
                }
            }
            ty => match found.as_slice() {
                [] if !f.optional && !f.nullable => self.problem(path, "required but missing"),
                [] => {}
                [one] if f.nullable && is_empty(one) => {}
                [one] if self.api.inline_union(f) => self.inline(f, path, |c, t| {
                    c.xml_inside(t, one, path);
                }),
                [one] => self.xml_value(ty, one, path),
                _ => self.problem(path, "one element expected"),
            },
        }
    }

    fn xml_value(&mut self, ty: &Ty, el: &XmlElement, path: &str) {
        match ty {
            Ty::Hash => {}
            Ty::LangMap => {
                if !el
                    .children
                    .iter()
                    .all(|c| c.name == "value" && attr(c, "languageCode").is_some())
                {
                    self.problem(path, "`value` elements with a `languageCode` expected");
                }
            }
            Ty::Ref { .. } => {
                if attr(el, "href").is_none() {
                    self.problem(path, "a reference with an `href` expected");
                }
            }
            Ty::Named(n) => {
                let t = &self.api.types[n];
                self.xml_inside(t, el, path);
            }
            Ty::List { .. } => self.problem(path, "a list inside a list is not in the spec"),
            scalar => {
                if !el.children.is_empty() {
                    self.problem(path, format!("{} expected, found elements", kind(scalar)));
                } else {
                    self.xml_text(scalar, &el.text, path);
                }
            }
        }
    }

    fn xml_text(&mut self, ty: &Ty, text: &str, path: &str) {
        let t = text.trim();
        let ok = match ty {
            Ty::Int | Ty::Offset | Ty::Limit => t.parse::<i64>().is_ok(),
            Ty::Float => t.parse::<f64>().is_ok(),
            Ty::Bool => t == "true" || t == "false",
            _ => true,
        };
        if !ok {
            self.problem(path, format!("{} expected, found {t:?}", kind(ty)));
        }
    }
}

fn attr<'a>(el: &'a XmlElement, name: &str) -> Option<&'a str> {
    el.attrs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

fn is_empty(el: &XmlElement) -> bool {
    el.children.is_empty() && el.attrs.is_empty() && el.text.trim().is_empty()
}

fn kind(ty: &Ty) -> &'static str {
    match ty {
        Ty::Int | Ty::Offset | Ty::Limit => "an integer",
        Ty::Float => "a number",
        Ty::Bool => "a boolean",
        Ty::String | Ty::Href | Ty::DateTime => "a string",
        Ty::LangMap => "texts by language",
        Ty::Ref { .. } => "a reference with an `_href`",
        Ty::List { .. } => "an array",
        Ty::Hash | Ty::Named(_) => "a value",
    }
}

#[test]
fn an_example_of_no_type_or_of_the_wrong_root_does_not_load() {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(spec()).unwrap() {
        let e = e.unwrap();
        if e.path().is_file() {
            std::fs::copy(e.path(), dir.path().join(e.file_name())).unwrap();
        }
    }
    let ex = dir.path().join("examples");
    std::fs::create_dir(&ex).unwrap();
    std::fs::write(ex.join("Nothing.json"), r#"{"Nothing": {}}"#).unwrap();
    std::fs::write(ex.join("Section.xml"), "<Sections/>").unwrap();
    std::fs::write(ex.join("Section.json"), r#"{"Section": 1, "More": 2}"#).unwrap();
    let msg = format!("{:#}", cairn_codegen::load(dir.path()).unwrap_err());
    for expected in [
        "spec/examples/Nothing.json: no type `Nothing` in the spec",
        "spec/examples/Section.xml: the root element `Section` expected, found Some(\"Sections\")",
        "spec/examples/Section.json: a JSON document with the one key `Section` expected",
    ] {
        assert!(msg.contains(expected), "{expected:?} not in:\n{msg}");
    }
    std::fs::write(ex.join("Section.txt"), "").unwrap();
    let msg = format!("{:#}", cairn_codegen::load(dir.path()).unwrap_err());
    assert!(
        msg.contains("examples are named <TypeName>.json or <TypeName>.xml"),
        "{msg}"
    );
}
