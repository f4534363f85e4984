//! The validated API model: every name resolved, every rule of `spec/README.md` checked.
//!
//! [`Api::from_raw`] is the only way in; an error names the spec file and the entry at fault.

use crate::spec::{OneOrMany, RawEndpoint, RawResponse, RawSpec, RawType};
use anyhow::{Result, bail};
use indexmap::{IndexMap, IndexSet};
use std::collections::HashSet;

/// Methods the reference defines beyond the standard ones; clients may also send them as
/// `POST` with `X-HTTP-Method-Override`.
pub const CUSTOM_METHODS: &[&str] = &["COPY", "MOVE", "SWAP", "PUBLISH"];
const STANDARD_METHODS: &[&str] = &["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
/// Request headers an operation may receive.
const REQUEST_HEADERS: &[&str] = &["If-Match", "Destination", "Last-Event-ID"];
const SCALARS: &[&str] = &[
    "int", "float", "bool", "string", "datetime", "offset", "limit",
];

#[derive(Debug, Clone)]
pub struct Api {
    pub title: String,
    pub version: String,
    pub description: String,
    pub vendor: String,
    pub params: IndexMap<String, ParamKind>,
    pub common_errors: Vec<u16>,
    /// The policy map: module → function → limitation identifiers.
    pub policies: IndexMap<String, IndexMap<String, Vec<String>>>,
    pub types: IndexMap<String, TypeDef>,
    pub families: Vec<Family>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    Int,
    String,
    /// A slash-separated chain of ids (`1/2/54`).
    Path,
}

#[derive(Debug, Clone)]
pub struct Family {
    /// File stem, e.g. `content_types`.
    pub name: String,
    pub doc: String,
    pub endpoints: Vec<Endpoint>,
}

#[derive(Debug, Clone)]
pub struct TypeDef {
    pub name: String,
    pub doc: String,
    pub file: String,
    pub element: String,
    pub media: Option<String>,
    pub href: bool,
    pub body: TypeBody,
    /// Reachable from a response body: gets encoders.
    pub output: bool,
    /// Reachable from a request body: gets a decoder.
    pub input: bool,
}

#[derive(Debug, Clone)]
pub enum TypeBody {
    Struct(Vec<Field>),
    OneOf(Vec<String>),
}

#[derive(Debug, Clone)]
pub struct Field {
    /// Element or attribute name in XML (without `@`).
    pub wire: String,
    /// Property name in JSON: `_name` for attributes, `#text` for text, else `wire` unless
    /// the key names another (`"XmlName|jsonName"`).
    pub json: String,
    pub rust: String,
    pub place: Place,
    pub ty: Ty,
    /// May be absent; omitted from output when `None`.
    pub optional: bool,
    /// Written as an empty element / JSON `null` when `None`.
    pub nullable: bool,
    /// Set when the field's type contains the enclosing type (needs a `Box`).
    pub boxed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Attribute,
    Element,
    /// The element's own text (`#text` in JSON).
    Text,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    Int,
    Float,
    Bool,
    String,
    /// A path under the API prefix, written with the prefix of the response's dialect.
    Href,
    DateTime,
    /// The start of a list's window (`offset`: 0 or more).
    Offset,
    /// The size of a list's window (`limit`: 0 or more, -1 for all).
    Limit,
    /// A free key/value tree (`fieldValue`, `fieldSettings`, ...).
    Hash,
    /// `value` entries keyed by `languageCode`.
    LangMap,
    /// A reference: `media-type` + `href`.
    Ref {
        /// Media type name; `None` writes an empty `media-type`.
        media: Option<String>,
        /// When set, the model holds only this path parameter and the href follows the template.
        template: Option<RefTemplate>,
    },
    Named(String),
    List {
        item: Box<Ty>,
        /// XML wraps the items in the field's element, each item named this; JSON is a plain array.
        wrapped_as: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct RefTemplate {
    pub path: String,
    pub param: String,
    pub kind: ParamKind,
}

impl Ty {
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            Ty::Int
                | Ty::Float
                | Ty::Bool
                | Ty::String
                | Ty::Href
                | Ty::DateTime
                | Ty::Offset
                | Ty::Limit
        )
    }
}

#[derive(Debug, Clone)]
pub struct Endpoint {
    pub id: String,
    pub rust: String,
    pub doc: String,
    pub family: String,
    pub method: String,
    pub path: String,
    pub path_params: Vec<(String, ParamKind)>,
    pub query: Vec<QueryParam>,
    pub headers: Vec<RequestHeader>,
    pub inputs: Vec<String>,
    pub access: Access,
    /// The Policies (`module`, `function`) of which the caller needs one; empty for none.
    pub policies: Vec<(String, String)>,
    /// The Policy filters the list the operation returns (no 401 without it).
    pub filters: bool,
    pub csrf: bool,
    /// A GET whose 200 response the response cache keeps.
    pub cached: bool,
    /// The type streamed as Server-Sent Events, when the GET also answers
    /// `text/event-stream`.
    pub stream: Option<String>,
    pub responses: Vec<Response>,
    pub errors: Vec<u16>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone, also without credentials (login, logout).
    Public,
    /// Reads: the anonymous user may.
    Read,
    /// Changes: an authenticated user with permission.
    Write,
}

#[derive(Debug, Clone)]
pub struct QueryParam {
    pub wire: String,
    pub rust: String,
    pub ty: Ty,
    pub default: Option<String>,
    pub optional: bool,
}

#[derive(Debug, Clone)]
pub struct RequestHeader {
    pub name: String,
    pub rust: String,
    pub required: bool,
}

#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub bodies: Vec<String>,
    pub etag: bool,
    pub location: bool,
    pub accept_patch: Option<String>,
    pub headers: Vec<String>,
    pub doc: Option<String>,
}

impl Endpoint {
    pub fn is_custom_method(&self) -> bool {
        CUSTOM_METHODS.contains(&self.method.as_str())
    }
}

impl TypeDef {
    pub fn fields(&self) -> &[Field] {
        match &self.body {
            TypeBody::Struct(f) => f,
            TypeBody::OneOf(_) => &[],
        }
    }
}

/// Collects every problem before failing, so one run shows them all.
struct Problems(Vec<String>);

impl Problems {
    fn push(&mut self, file: &str, entry: &str, msg: impl std::fmt::Display) {
        self.0.push(format!("spec/{file}.yaml: {entry}: {msg}"));
    }
}

impl Api {
    pub fn from_raw(raw: &RawSpec) -> Result<Api> {
        let mut p = Problems(Vec::new());
        let mut params = IndexMap::new();
        for (name, kind) in &raw.api.params {
            let kind = match kind.as_str() {
                "int" => ParamKind::Int,
                "string" => ParamKind::String,
                "path" => ParamKind::Path,
                other => {
                    p.push(
                        "api",
                        &format!("params.{name}"),
                        format!("unknown kind `{other}` (int, string or path)"),
                    );
                    continue;
                }
            };
            params.insert(name.clone(), kind);
        }

        // Types: collect names first so fields can refer to types of any file.
        let mut raw_types: IndexMap<String, (&str, &RawType)> = IndexMap::new();
        let all_files = std::iter::once(("api", &raw.api.types))
            .chain(raw.families.iter().map(|(n, f)| (n.as_str(), &f.types)));
        for (file, types) in all_files {
            for (name, t) in types {
                if let Some((other, _)) = raw_types.get(name) {
                    p.push(
                        file,
                        &format!("types.{name}"),
                        format!("type defined twice (also in spec/{other}.yaml)"),
                    );
                    continue;
                }
                if !is_pascal(name) {
                    p.push(
                        file,
                        &format!("types.{name}"),
                        "type names are PascalCase identifiers",
                    );
                }
                raw_types.insert(name.clone(), (file, t));
            }
        }

        let mut types = IndexMap::new();
        for (name, (file, t)) in &raw_types {
            let entry = format!("types.{name}");
            let body = match (&t.fields, &t.one_of) {
                (Some(fields), None) => {
                    let mut out: Vec<Field> = Vec::new();
                    let mut seen = HashSet::new();
                    for (key, expr) in fields {
                        let fentry = format!("{entry}.fields.{key}");
                        match parse_field(key, expr, &raw_types, &params) {
                            Ok(f) => {
                                if !seen.insert(f.rust.clone()) {
                                    p.push(
                                        file,
                                        &fentry,
                                        format!("two fields map to the Rust name `{}`", f.rust),
                                    );
                                }
                                out.push(f);
                            }
                            Err(e) => p.push(file, &fentry, e),
                        }
                    }
                    if out.iter().filter(|f| f.place == Place::Text).count() > 1 {
                        p.push(file, &entry, "at most one `#text` field");
                    }
                    TypeBody::Struct(out)
                }
                (None, Some(members)) => {
                    for m in members {
                        match raw_types.get(m) {
                            None => {
                                p.push(file, &entry, format!("one_of names unknown type `{m}`"))
                            }
                            Some((_, mt)) if mt.one_of.is_some() => p.push(
                                file,
                                &entry,
                                format!("one_of member `{m}` is itself a one_of"),
                            ),
                            _ => {}
                        }
                    }
                    if t.media.is_some() || t.href || t.element.is_some() {
                        p.push(
                            file,
                            &entry,
                            "a one_of type has no element, media or href of its own",
                        );
                    }
                    TypeBody::OneOf(members.clone())
                }
                _ => {
                    p.push(file, &entry, "give exactly one of `fields` or `one_of`");
                    TypeBody::Struct(Vec::new())
                }
            };
            if let Some(m) = &t.media
                && !is_pascal(m)
            {
                p.push(
                    file,
                    &entry,
                    format!("media `{m}` must be a PascalCase type name"),
                );
            }
            types.insert(
                name.clone(),
                TypeDef {
                    name: name.clone(),
                    doc: t.doc.trim().to_string(),
                    file: file.to_string(),
                    element: t.element.clone().unwrap_or_else(|| name.clone()),
                    media: t.media.clone(),
                    href: t.href,
                    body,
                    output: false,
                    input: false,
                },
            );
        }

        let mut families = Vec::new();
        let mut ids: IndexMap<String, String> = IndexMap::new();
        let mut routes: IndexMap<(String, String), String> = IndexMap::new();
        for (file, fam) in &raw.families {
            if !is_snake(file) {
                p.push(file, "file name", "family files are named in snake_case");
            }
            let mut endpoints = Vec::new();
            for (id, e) in &fam.endpoints {
                let entry = format!("endpoints.{id}");
                if let Some(other) = ids.insert(id.clone(), file.clone()) {
                    p.push(
                        file,
                        &entry,
                        format!("operation id used twice (also in spec/{other}.yaml)"),
                    );
                }
                match parse_endpoint(id, e, file, &types, &params, &raw.api.policies) {
                    Ok(ep) => {
                        let key = (ep.method.clone(), route_shape(&ep.path));
                        if let Some(other) = routes.insert(key, id.clone()) {
                            p.push(
                                file,
                                &entry,
                                format!(
                                    "duplicate route {} {} (also `{other}`)",
                                    ep.method, ep.path
                                ),
                            );
                        }
                        endpoints.push(ep);
                    }
                    Err(errs) => {
                        for e in errs {
                            p.push(file, &entry, e);
                        }
                    }
                }
            }
            families.push(Family {
                name: file.clone(),
                doc: fam.doc.trim().to_string(),
                endpoints,
            });
        }

        let mut api = Api {
            title: raw.api.info.title.clone(),
            version: raw.api.info.version.clone(),
            description: raw.api.info.description.trim().to_string(),
            vendor: raw.api.info.vendor.clone(),
            params,
            common_errors: raw.api.common_errors.clone(),
            policies: raw.api.policies.clone(),
            types,
            families,
        };
        if api.types.get("ErrorMessage").is_none() {
            p.push(
                "api",
                "types",
                "the ErrorMessage type is required (error bodies)",
            );
        }
        if !p.0.is_empty() {
            bail!("the spec has {} problem(s):\n{}", p.0.len(), p.0.join("\n"));
        }
        api.mark_directions();
        api.mark_boxes();
        Ok(api)
    }

    pub fn endpoints(&self) -> impl Iterator<Item = &Endpoint> {
        self.families.iter().flat_map(|f| f.endpoints.iter())
    }

    /// Marks types reachable from response bodies (and streams) as output and from request bodies as input.
    fn mark_directions(&mut self) {
        let mut outputs: Vec<String> = vec!["ErrorMessage".into()];
        let mut inputs: Vec<String> = Vec::new();
        for e in self.endpoints() {
            inputs.extend(e.inputs.iter().cloned());
            outputs.extend(e.stream.iter().cloned());
            for r in &e.responses {
                outputs.extend(r.bodies.iter().cloned());
            }
        }
        for name in self.reachable(outputs) {
            self.types[&name].output = true;
        }
        for name in self.reachable(inputs) {
            self.types[&name].input = true;
        }
    }

    fn reachable(&self, roots: Vec<String>) -> IndexSet<String> {
        let mut seen = IndexSet::new();
        let mut stack = roots;
        while let Some(name) = stack.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            stack.extend(self.direct_deps(&name));
        }
        seen
    }

    fn direct_deps(&self, name: &str) -> Vec<String> {
        match &self.types[name].body {
            TypeBody::OneOf(m) => m.clone(),
            TypeBody::Struct(fields) => fields
                .iter()
                .filter_map(|f| named_in(&f.ty).map(str::to_string))
                .collect(),
        }
    }

    /// Boxes every field whose type leads back to the enclosing type.
    fn mark_boxes(&mut self) {
        let names: Vec<String> = self.types.keys().cloned().collect();
        for name in names {
            let TypeBody::Struct(fields) = &self.types[&name].body else {
                continue;
            };
            let boxed: Vec<bool> = fields
                .iter()
                .map(|f| {
                    named_in(&f.ty).is_some_and(|t| {
                        !matches!(f.ty, Ty::List { .. })
                            && self.reachable(vec![t.to_string()]).contains(&name)
                    })
                })
                .collect();
            if let TypeBody::Struct(fields) = &mut self.types[&name].body {
                for (f, b) in fields.iter_mut().zip(boxed) {
                    f.boxed = b;
                }
            }
        }
    }
}

fn named_in(ty: &Ty) -> Option<&str> {
    match ty {
        Ty::Named(n) => Some(n),
        Ty::List { item, .. } => named_in(item),
        _ => None,
    }
}

/// A route's identity: parameter names do not distinguish two routes.
fn route_shape(path: &str) -> String {
    let mut out = String::new();
    let mut in_param = false;
    for c in path.chars() {
        match c {
            '{' => {
                in_param = true;
                out.push('{');
            }
            '}' => {
                in_param = false;
                out.push('}');
            }
            _ if in_param => {}
            _ => out.push(c),
        }
    }
    out
}

/// Parses `"@name"`, `"#text"` or `name` with a type expression:
/// `T`, `T?` (optional), `T | null` (nullable), `[T]`, `[T/item]`, `ref Media [/path/{param}]`.
fn parse_field(
    key: &str,
    expr: &str,
    types: &IndexMap<String, (&str, &RawType)>,
    params: &IndexMap<String, ParamKind>,
) -> Result<Field, String> {
    let (key, json_name) = match key.split_once('|') {
        Some((x, j)) => (x, Some(j)),
        None => (key, None),
    };
    if let Some(j) = json_name
        && (key.starts_with('@') || key == "#text" || !is_wire_name(j))
    {
        return Err(format!(
            "`{j}`: only elements take a JSON name of their own"
        ));
    }
    let (place, wire) = if let Some(a) = key.strip_prefix('@') {
        (Place::Attribute, a)
    } else if key == "#text" {
        (Place::Text, "#text")
    } else {
        (Place::Element, key)
    };
    if place != Place::Text && !is_wire_name(wire) {
        return Err(format!("`{wire}` is not a valid element or attribute name"));
    }
    let mut e = expr.trim();
    let mut nullable = false;
    if let Some(rest) = e.strip_suffix("| null") {
        nullable = true;
        e = rest.trim();
    }
    let mut optional = false;
    if let Some(rest) = e.strip_suffix('?') {
        optional = true;
        e = rest.trim();
    }
    let ty = parse_ty(e, types, params)?;
    if place != Place::Element && !ty.is_scalar() {
        return Err(format!(
            "attributes and #text take a scalar type, not `{e}`"
        ));
    }
    if ty == Ty::Href && (place != Place::Attribute || optional || nullable) {
        return Err("`href` is for required attributes".into());
    }
    if matches!(ty, Ty::List { .. }) && (optional || nullable) {
        return Err("a list is never optional: an empty list is written as nothing".into());
    }
    let rust = if place == Place::Text {
        "text".to_string()
    } else {
        rust_ident(&snake(wire))
    };
    let json = match place {
        Place::Attribute => format!("_{wire}"),
        Place::Text => "#text".to_string(),
        Place::Element => json_name.unwrap_or(wire).to_string(),
    };
    Ok(Field {
        wire: wire.to_string(),
        json,
        rust,
        place,
        ty,
        optional,
        nullable,
        boxed: false,
    })
}

fn parse_ty(
    e: &str,
    types: &IndexMap<String, (&str, &RawType)>,
    params: &IndexMap<String, ParamKind>,
) -> Result<Ty, String> {
    if let Some(inner) = e.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
        let (item, wrapped_as) = match inner.split_once('/') {
            Some((t, w)) if !t.trim_start().starts_with("ref") => {
                (t.trim(), Some(w.trim().to_string()))
            }
            _ => (inner.trim(), None),
        };
        if let Some(w) = &wrapped_as
            && !is_wire_name(w)
        {
            return Err(format!("`{w}` is not a valid item element name"));
        }
        let item = parse_ty(item, types, params)?;
        if matches!(item, Ty::List { .. }) {
            return Err("lists of lists are not representable; name an item type".into());
        }
        return Ok(Ty::List {
            item: Box::new(item),
            wrapped_as,
        });
    }
    if e == "ref" || e.starts_with("ref ") {
        let mut parts = e.split_whitespace().skip(1);
        let media = match parts.next() {
            None | Some("-") => None,
            Some(m) if is_pascal(m) => Some(m.to_string()),
            Some(m) => return Err(format!("`{m}` is not a media type name (or `-` for none)")),
        };
        let template = match parts.next() {
            None => None,
            Some(path) => {
                let ps = path_params(path)?;
                let [param] = ps.as_slice() else {
                    return Err(format!(
                        "a ref template names exactly one parameter, `{path}` has {}",
                        ps.len()
                    ));
                };
                let kind = *params.get(param).ok_or_else(|| {
                    format!("unknown path parameter `{param}` (add it to api.yaml params)")
                })?;
                Some(RefTemplate {
                    path: path.to_string(),
                    param: param.clone(),
                    kind,
                })
            }
        };
        if parts.next().is_some() {
            return Err(format!(
                "cannot read `{e}`: ref [Media|-] [/path/{{param}}]"
            ));
        }
        return Ok(Ty::Ref { media, template });
    }
    Ok(match e {
        "int" => Ty::Int,
        "float" => Ty::Float,
        "bool" => Ty::Bool,
        "string" => Ty::String,
        "href" => Ty::Href,
        "datetime" => Ty::DateTime,
        "offset" => Ty::Offset,
        "limit" => Ty::Limit,
        "hash" => Ty::Hash,
        "langmap" => Ty::LangMap,
        name if types.contains_key(name) => Ty::Named(name.to_string()),
        other => return Err(format!("unknown type `{other}`")),
    })
}

fn path_params(path: &str) -> Result<Vec<String>, String> {
    if !path.starts_with('/') {
        return Err(format!("path `{path}` must start with `/`"));
    }
    let mut out = Vec::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        let end = rest[start..]
            .find('}')
            .ok_or_else(|| format!("unclosed `{{` in `{path}`"))?;
        out.push(rest[start + 1..start + end].to_string());
        rest = &rest[start + end + 1..];
    }
    Ok(out)
}

fn parse_endpoint(
    id: &str,
    e: &RawEndpoint,
    family: &str,
    types: &IndexMap<String, TypeDef>,
    params: &IndexMap<String, ParamKind>,
    policy_map: &IndexMap<String, IndexMap<String, Vec<String>>>,
) -> Result<Endpoint, Vec<String>> {
    let mut errs = Vec::new();
    if !is_camel(id) {
        errs.push("operation ids are camelCase".to_string());
    }
    let method = e.method.to_ascii_uppercase();
    if !STANDARD_METHODS.contains(&method.as_str()) && !CUSTOM_METHODS.contains(&method.as_str()) {
        errs.push(format!("unknown method `{}`", e.method));
    }
    let mut path_ps = Vec::new();
    match path_params(&e.path) {
        Ok(ps) => {
            for name in ps {
                match params.get(&name) {
                    Some(k) => path_ps.push((name, *k)),
                    None => errs.push(format!(
                        "unknown path parameter `{name}` (add it to api.yaml params)"
                    )),
                }
            }
        }
        Err(m) => errs.push(m),
    }
    if e.path.len() > 1 && e.path.ends_with('/') {
        errs.push("paths do not end with `/`".into());
    }
    let mut query = Vec::new();
    for (name, spec) in &e.query {
        let (ty_s, default) = match spec.split_once('=') {
            Some((t, d)) => (t.trim(), Some(d.trim().to_string())),
            None => (spec.trim(), None),
        };
        let (ty_s, optional) = match ty_s.strip_suffix('?') {
            Some(t) => (t, true),
            None => (ty_s, default.is_some()),
        };
        if !SCALARS.contains(&ty_s) {
            errs.push(format!("query `{name}`: type `{ty_s}` is not a scalar"));
            continue;
        }
        let ty = parse_ty(ty_s, &IndexMap::new(), params).unwrap_or(Ty::String);
        if let Some(d) = &default
            && !default_fits(&ty, d)
        {
            errs.push(format!("query `{name}`: default `{d}` is not a {ty_s}"));
        }
        query.push(QueryParam {
            wire: name.clone(),
            rust: rust_ident(&snake(name)),
            ty,
            default,
            optional,
        });
    }
    let mut headers = Vec::new();
    for h in &e.headers {
        let (name, required) = match h.strip_suffix('?') {
            Some(n) => (n, false),
            None => (h.as_str(), h != "If-Match"),
        };
        if !REQUEST_HEADERS.contains(&name) {
            errs.push(format!(
                "request header `{name}` is not one of {REQUEST_HEADERS:?} (If-None-Match is handled for every GET)"
            ));
        }
        headers.push(RequestHeader {
            name: name.to_string(),
            rust: snake(name),
            required,
        });
    }
    let inputs = e.input.as_ref().map(|i| i.to_vec()).unwrap_or_default();
    for i in &inputs {
        match types.get(i) {
            None => errs.push(format!("input type `{i}` is unknown")),
            Some(t) if matches!(t.body, TypeBody::OneOf(_)) => {
                errs.push(format!("input type `{i}` is a one_of"))
            }
            _ => {}
        }
    }
    if inputs.len() > 1 {
        errs.push("one input type per endpoint".into());
    }
    let access = match e.access.as_deref() {
        None if method == "GET" || method == "HEAD" => Access::Read,
        None => Access::Write,
        Some("public") => Access::Public,
        Some("read") => Access::Read,
        Some("write") => Access::Write,
        Some(other) => {
            errs.push(format!("access `{other}` is not public, read or write"));
            Access::Read
        }
    };
    // GETs, and POSTs that only read (searches), are answered from the response cache.
    let cacheable = method == "GET" || (method == "POST" && access == Access::Read);
    if !e.cache && !cacheable {
        errs.push(
            "`cache: false` is for GETs and reading POSTs (only their answers are kept)".into(),
        );
    }
    let cached = e.cache && cacheable;
    if let Some(t) = &e.stream {
        if method != "GET" {
            errs.push("`stream` is for GETs".into());
        }
        match types.get(t) {
            None => errs.push(format!("stream type `{t}` is unknown")),
            Some(ty) if !matches!(&ty.body, TypeBody::Struct(fs) if fs.iter().any(|f| f.rust == "id")) => {
                errs.push(format!("stream type `{t}` has no `id` for the events' ids"))
            }
            _ => {}
        }
    }
    let policies = parse_policies(e.policy.as_ref(), policy_map, &mut errs);
    let mut responses = Vec::new();
    if e.responses.is_empty() {
        errs.push("an endpoint needs at least one response".into());
    }
    for (status, r) in &e.responses {
        if !(200..400).contains(status) {
            errs.push(format!(
                "response {status}: only 2xx and 3xx are responses; list errors under `errors`"
            ));
        }
        let resp = match r {
            None => Response {
                status: *status,
                bodies: vec![],
                etag: false,
                location: false,
                accept_patch: None,
                headers: vec![],
                doc: None,
            },
            Some(RawResponse::Body(b)) => Response {
                status: *status,
                bodies: vec![b.clone()],
                etag: false,
                location: false,
                accept_patch: None,
                headers: vec![],
                doc: None,
            },
            Some(RawResponse::Bodies(b)) => Response {
                status: *status,
                bodies: b.clone(),
                etag: false,
                location: false,
                accept_patch: None,
                headers: vec![],
                doc: None,
            },
            Some(RawResponse::Full(f)) => Response {
                status: *status,
                bodies: f.body.as_ref().map(|b| b.to_vec()).unwrap_or_default(),
                etag: f.etag,
                location: f.location,
                accept_patch: f.accept_patch.clone(),
                headers: f.headers.clone(),
                doc: f.doc.clone(),
            },
        };
        for b in &resp.bodies {
            match types.get(b) {
                None => errs.push(format!("response {status}: body type `{b}` is unknown")),
                Some(t) if t.media.is_none() => errs.push(format!(
                    "response {status}: body type `{b}` has no media type"
                )),
                Some(t) if *status == 201 && !t.href && !resp.location => errs.push(format!(
                    "response 201: `{b}` has no href for the Location header; add `location: true`"
                )),
                _ => {}
            }
        }
        if matches!(status, 301 | 303 | 307 | 308) && !resp.location {
            errs.push(format!(
                "response {status}: a redirect needs `location: true`"
            ));
        }
        if *status == 204 && !resp.bodies.is_empty() {
            errs.push("response 204 has no body".into());
        }
        if let Some(ap) = &resp.accept_patch
            && !types.contains_key(ap)
        {
            errs.push(format!(
                "response {status}: accept_patch type `{ap}` is unknown"
            ));
        }
        for h in &resp.headers {
            if !h
                .split('-')
                .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric()))
            {
                errs.push(format!("response {status}: `{h}` is not a header name"));
            }
        }
        responses.push(resp);
    }
    for code in &e.errors {
        if !(400..600).contains(code) {
            errs.push(format!("error {code} is not a 4xx or 5xx status"));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    Ok(Endpoint {
        id: id.to_string(),
        rust: rust_ident(&snake(id)),
        doc: e.doc.trim().to_string(),
        family: family.to_string(),
        method,
        path: e.path.clone(),
        path_params: path_ps,
        query,
        headers,
        inputs,
        access,
        policies,
        filters: e.filters,
        csrf: e.csrf,
        cached,
        stream: e.stream.clone(),
        responses,
        errors: e.errors.clone(),
    })
}

/// The `policy` of an endpoint: `none`, or `module/function` entries of the policy map.
fn parse_policies(
    raw: Option<&OneOrMany>,
    map: &IndexMap<String, IndexMap<String, Vec<String>>>,
    errs: &mut Vec<String>,
) -> Vec<(String, String)> {
    let Some(raw) = raw else {
        errs.push(
            "`policy` is missing: name the Policy the caller needs (`module/function`), or `none`"
                .into(),
        );
        return vec![];
    };
    let entries = raw.to_vec();
    if entries == ["none"] {
        return vec![];
    }
    let mut out = Vec::new();
    for entry in entries {
        let Some((module, function)) = entry.split_once('/') else {
            errs.push(format!(
                "policy `{entry}` is not `module/function` or `none`"
            ));
            continue;
        };
        if !map.get(module).is_some_and(|fs| fs.contains_key(function)) {
            errs.push(format!(
                "policy `{entry}` is not in the policy map of api.yaml"
            ));
            continue;
        }
        out.push((module.to_string(), function.to_string()));
    }
    out
}

fn default_fits(ty: &Ty, d: &str) -> bool {
    match ty {
        Ty::Int => d.parse::<i64>().is_ok(),
        Ty::Float => d.parse::<f64>().is_ok(),
        Ty::Bool => d == "true" || d == "false",
        Ty::Offset => d.parse::<u64>().is_ok(),
        Ty::Limit => d == "-1" || d.parse::<u64>().is_ok(),
        _ => true,
    }
}

fn is_pascal(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && s.chars().all(|c| c.is_ascii_alphanumeric())
}

fn is_camel(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && s.chars().all(|c| c.is_ascii_alphanumeric())
}

fn is_snake(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

fn is_wire_name(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
}

/// `sectionId` → `section_id`, `ContentTypeInfoList` → `content_type_info_list`, `IDC` → `idc`.
pub fn snake(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == '-' || c == '.' || c == ' ' {
            out.push('_');
            continue;
        }
        if c.is_ascii_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                out.push('_');
            }
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// `list_sections` → `ListSections`.
pub fn pascal(s: &str) -> String {
    snake(s)
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn rust_ident(s: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn",
        "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
        "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use",
        "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final",
        "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
    ];
    if KEYWORDS.contains(&s) {
        format!("r#{s}")
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_follows_words_and_acronyms() {
        assert_eq!(snake("sectionId"), "section_id");
        assert_eq!(snake("ContentTypeInfoList"), "content_type_info_list");
        assert_eq!(snake("IDC"), "idc");
        assert_eq!(snake("Alpha2"), "alpha2");
        assert_eq!(snake("If-Match"), "if_match");
        assert_eq!(snake("HTTPServer"), "http_server");
        assert_eq!(pascal("listSections"), "ListSections");
    }

    #[test]
    fn route_shape_ignores_parameter_names() {
        assert_eq!(route_shape("/a/{x}/b"), route_shape("/a/{y}/b"));
    }
}
