//! An `endpoints:` entry of the spec parsed and checked: method, path, query, headers, access,
//! policies, responses and errors.

use super::endpoints::CUSTOM_METHODS;
use super::names::{is_camel, rust_ident, snake};
use super::parse_type::parse_ty;
use super::{
    Access, Endpoint, ParamKind, QueryParam, RequestHeader, Response, Ty, TypeBody, TypeDef,
};
use crate::spec::{OneOrMany, RawEndpoint, RawResponse};
use indexmap::IndexMap;

const STANDARD_METHODS: &[&str] = &["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
/// Request headers an operation may receive.
const REQUEST_HEADERS: &[&str] = &["If-Match", "Destination", "Last-Event-ID"];
const SCALARS: &[&str] = &[
    "int", "float", "bool", "string", "datetime", "offset", "limit",
];

/// A route's identity, parameter names left out (they do not distinguish two routes):
/// `/content/sections/{sectionId}` → `/content/sections/{}`, also the format string of its
/// hrefs.
pub(crate) fn route_shape(path: &str) -> String {
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

pub(super) fn path_params(path: &str) -> Result<Vec<String>, String> {
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

pub(super) fn parse_endpoint(
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
    let shows = match e.shows.as_deref().map(|s| s.split_once(':')) {
        None => None,
        Some(Some((kind, param)))
            if ["content", "location"].contains(&kind)
                && path_ps.iter().any(|(p, _)| p == param)
                && cached =>
        {
            Some((kind.to_string(), param.to_string()))
        }
        Some(_) => {
            errs.push(
                "`shows` is `content:<path parameter>` or `location:<path parameter>`, on a kept answer"
                    .into(),
            );
            None
        }
    };
    let edge = match (e.edge.as_deref(), method.as_str()) {
        (None, _) => "Private",
        (Some("public"), "GET") => "Public",
        (Some("no-store"), _) => "NoStore",
        (Some(other), _) => {
            errs.push(format!(
                "`edge` is `public` (on a GET) or `no-store`, not `{other}`"
            ));
            "Private"
        }
    };
    if e.narrow && access == Access::Read {
        errs.push("`narrow` is for writes".into());
    }
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
        shows,
        narrow: e.narrow,
        edge,
        tags: Vec::new(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn route_shape_ignores_parameter_names() {
        assert_eq!(route_shape("/a/{x}/b"), route_shape("/a/{y}/b"));
    }
}
