//! The template context: the validated model flattened into what the Rust templates need
//! (Rust types, field kinds, poem paths, response variants), as JSON for tera.

use crate::model::{Access, Api, Endpoint, Field, ParamKind, Place, Ty, TypeBody, pascal, snake};
use serde_json::{Value, json};

pub fn build(api: &Api) -> Value {
    let types: Vec<Value> = api.types.values().map(|t| type_ctx(api, t)).collect();
    let mut endpoints = Vec::new();
    let mut families = Vec::new();
    for fam in &api.families {
        let mut fam_eps = Vec::new();
        for e in &fam.endpoints {
            let ctx = endpoint_ctx(api, e, endpoints.len());
            fam_eps.push(ctx.clone());
            endpoints.push(ctx);
        }
        families.push(json!({
            "name": fam.name,
            "trait_name": format!("{}Api", pascal(&fam.name)),
            "pascal": pascal(&fam.name),
            "doc": fam.doc,
            "endpoints": fam_eps,
        }));
    }
    // One poem route per distinct path, operations in spec order.
    let mut paths: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, e) in endpoints.iter().enumerate() {
        let p = e["poem_path"].as_str().unwrap_or_default().to_string();
        match paths.iter_mut().find(|(q, _)| *q == p) {
            Some((_, ops)) => ops.push(i),
            None => paths.push((p, vec![i])),
        }
    }
    // Paths with fewer parameters first: poem 3's router drops the pattern children of a
    // static node it splits, so every static prefix must be in the tree before a pattern hangs
    // off it (`/user/users` before `/user/users/:userId/roles`).
    paths.sort_by_key(|(p, _)| p.matches(':').count());
    let paths: Vec<Value> = paths
        .into_iter()
        .map(|(p, ops)| {
            let ops: Vec<Value> = ops
                .iter()
                .map(|&i| json!({"index": i, "rust": endpoints[i]["rust"]}))
                .collect();
            json!({"poem_path": p, "ops": ops})
        })
        .collect();
    let media_types: Vec<Value> = api
        .types
        .values()
        .filter_map(|t| {
            t.media.as_ref().map(|m| {
                json!({"name": m, "type": t.name, "element": t.element, "input": t.input, "output": t.output})
            })
        })
        .collect();
    let policy_map: Vec<Value> = api
        .policies
        .iter()
        .map(|(module, functions)| {
            let functions: Vec<Value> = functions
                .iter()
                .map(|(f, limitations)| json!({"name": f, "limitations": limitations}))
                .collect();
            json!({"module": module, "functions": functions})
        })
        .collect();
    json!({
        "title": api.title,
        "vendor": api.vendor,
        "hrefs": hrefs_ctx(api),
        "policy_map": policy_map,
        "types": types,
        "families": families,
        "endpoints": endpoints,
        "paths": paths,
        "media_types": media_types,
    })
}

/// One href per distinct path of the spec, named after the operation a client calls with it:
/// the path's GET operation, else its first.
fn hrefs_ctx(api: &Api) -> Vec<Value> {
    let mut by_path: Vec<&Endpoint> = Vec::new();
    for e in api.families.iter().flat_map(|f| &f.endpoints) {
        match by_path.iter_mut().find(|first| first.path == e.path) {
            Some(first) if e.method == "GET" && first.method != "GET" => *first = e,
            Some(_) => {}
            None => by_path.push(e),
        }
    }
    by_path
        .into_iter()
        .map(|e| {
            let params: Vec<Value> = e
                .path_params
                .iter()
                .enumerate()
                .map(|(i, (n, k))| {
                    let int = *k == ParamKind::Int;
                    json!({
                        "rust": snake(n),
                        "ty": if int { "i64" } else { "&str" },
                        "multi": *k == ParamKind::Path,
                        "read": if int { format!("v[{i}].parse().ok()?") } else { format!("v[{i}]") },
                    })
                })
                .collect();
            let mut fmt = e.path.clone();
            for (n, _) in &e.path_params {
                fmt = fmt.replace(&format!("{{{n}}}"), &format!("{{{}}}", snake(n)));
            }
            let out_ty: Vec<&str> = e
                .path_params
                .iter()
                .map(|(_, k)| if *k == ParamKind::Int { "i64" } else { "&str" })
                .collect();
            let out_ty = match out_ty.len() {
                1 => out_ty[0].to_string(),
                _ => format!("({})", out_ty.join(", ")),
            };
            // What reads a lone parameter: parsed, or the segment itself.
            let single = match e.path_params.first() {
                Some((_, ParamKind::Int)) => "v[0].parse().ok()",
                _ => "Some(v[0])",
            };
            json!({
                "name": snake(&e.id),
                "op": e.id,
                "single": single,
                "template": e.path,
                "fmt": fmt,
                "params": params,
                "out_ty": out_ty,
            })
        })
        .collect()
}

fn type_ctx(api: &Api, t: &crate::model::TypeDef) -> Value {
    let (is_enum, members) = match &t.body {
        TypeBody::OneOf(m) => (true, m.clone()),
        TypeBody::Struct(_) => (false, vec![]),
    };
    let fields: Vec<Value> = t.fields().iter().map(|f| field_ctx(api, f)).collect();
    json!({
        "name": t.name,
        "doc": t.doc,
        "element": t.element,
        "media": t.media.clone().unwrap_or_default(),
        "has_media": t.media.is_some(),
        "href": t.href,
        "is_enum": is_enum,
        "members": members,
        "output": t.output,
        "input": t.input,
        "fields": fields,
        "has_attrs": t.fields().iter().any(|f| f.place == Place::Attribute),
    })
}

fn scalar_rust(ty: &Ty) -> &'static str {
    match ty {
        Ty::Int => "i64",
        Ty::Float => "Float",
        Ty::Bool => "bool",
        Ty::String | Ty::Href => "String",
        Ty::DateTime => "Timestamp",
        Ty::Offset => "Offset",
        Ty::Limit => "Limit",
        _ => "",
    }
}

fn param_rust(kind: ParamKind) -> &'static str {
    match kind {
        ParamKind::Int => "i64",
        ParamKind::String | ParamKind::Path => "String",
    }
}

/// The Rust type of a value (without Option).
fn value_rust(ty: &Ty) -> String {
    match ty {
        Ty::Hash => "HashValue".into(),
        Ty::LangMap => "LangMap".into(),
        Ty::Ref {
            template: Some(t), ..
        } => param_rust(t.kind).into(),
        Ty::Ref { template: None, .. } => "String".into(),
        Ty::Named(n) => n.clone(),
        Ty::List { item, .. } => format!("Vec<{}>", value_rust(item)),
        s => scalar_rust(s).into(),
    }
}

/// What the templates switch on: `scalar`, `hash`, `langmap`, `ref`, `object`, `union`.
fn kind_ctx(api: &Api, ty: &Ty) -> Value {
    match ty {
        Ty::Hash => json!({"kind": "hash"}),
        Ty::LangMap => json!({"kind": "langmap"}),
        Ty::Ref { media, template } => json!({
            "kind": "ref",
            "media": media.clone().unwrap_or_default(),
            "template": template.as_ref().map(|t| t.path.clone()),
            "template_fmt": template.as_ref().map(|t| crate::model::route_shape(&t.path)),
            "param_ty": template.as_ref().map(|t| param_rust(t.kind)),
        }),
        Ty::Named(n) => {
            let union = matches!(api.types[n].body, TypeBody::OneOf(_));
            json!({"kind": if union { "union" } else { "object" }, "target": n})
        }
        Ty::List { .. } => json!({"kind": "list"}),
        s => json!({"kind": "scalar", "scalar": scalar_rust(s), "href": *s == Ty::Href}),
    }
}

fn field_ctx(api: &Api, f: &Field) -> Value {
    let value = value_rust(&f.ty);
    let boxed = if f.boxed {
        format!("Box<{value}>")
    } else {
        value
    };
    let rust_ty = if f.optional || f.nullable {
        format!("Option<{boxed}>")
    } else {
        boxed
    };
    let mut ctx = kind_ctx(api, &f.ty);
    let (item, wrapped_as) = match &f.ty {
        Ty::List { item, wrapped_as } => {
            let mut ic = kind_ctx(api, item);
            ic["rust_ty"] = json!(value_rust(item));
            // A union's items are written as their members' own elements (XML, no element
            // of the field's) and their objects (JSON), as the reference writes a list of
            // value objects.
            ic["bare"] = json!(ic["kind"] == "union");
            ic["inline"] = json!(false);
            (ic, wrapped_as.clone())
        }
        _ => (Value::Null, None),
    };
    let place = match f.place {
        Place::Attribute => "attr",
        Place::Element => "elem",
        Place::Text => "text",
    };
    let obj = ctx.as_object_mut().expect("kind context is an object");
    obj.insert("inline".into(), json!(api.inline_union(f)));
    obj.insert("bare".into(), json!(false));
    obj.insert("wire".into(), json!(f.wire));
    obj.insert("json".into(), json!(f.json));
    obj.insert("json_differs".into(), json!(f.json != f.wire));
    obj.insert("rust".into(), json!(f.rust));
    obj.insert("rust_ty".into(), json!(rust_ty));
    obj.insert("place".into(), json!(place));
    obj.insert("optional".into(), json!(f.optional));
    obj.insert("nullable".into(), json!(f.nullable));
    obj.insert("maybe".into(), json!(f.optional || f.nullable));
    obj.insert("boxed".into(), json!(f.boxed));
    obj.insert("item".into(), item);
    obj.insert(
        "item_element".into(),
        json!(wrapped_as.clone().unwrap_or_else(|| f.wire.clone())),
    );
    obj.insert("wrapped_as".into(), json!(wrapped_as));
    ctx
}

fn status_name(status: u16) -> &'static str {
    match status {
        200 => "Ok",
        201 => "Created",
        202 => "Accepted",
        204 => "NoContent",
        301 => "MovedPermanently",
        302 => "Found",
        303 => "SeeOther",
        307 => "TemporaryRedirect",
        308 => "PermanentRedirect",
        _ => "Other",
    }
}

/// `/content/sections/{sectionId}` → `/content/sections/:sectionId` for poem's router. A
/// number is checked by the endpoint (a regex segment costs a match per request); a path of
/// several numbers needs the regex, which matches across its slashes.
fn poem_path(e: &Endpoint) -> String {
    let mut out = e.path.clone();
    for (name, kind) in &e.path_params {
        let pat = match kind {
            ParamKind::Int | ParamKind::String => format!(":{name}"),
            ParamKind::Path => format!(":{name}<^\\d+(?:/\\d+)*>"),
        };
        out = out.replace(&format!("{{{name}}}"), &pat);
    }
    out
}

fn default_expr(ty: &Ty, d: &str) -> String {
    match ty {
        Ty::String => format!("{d:?}.to_string()"),
        Ty::Float => format!("Float({d}_f64)"),
        Ty::DateTime => format!("Timestamp({d})"),
        Ty::Offset => format!("Offset({d})"),
        Ty::Limit if d == "-1" => "Limit(None)".to_string(),
        Ty::Limit => format!("Limit(Some({d}))"),
        _ => d.to_string(),
    }
}

fn endpoint_ctx(api: &Api, e: &Endpoint, index: usize) -> Value {
    let path_params: Vec<Value> = e
        .path_params
        .iter()
        .map(|(n, k)| json!({"wire": n, "rust": snake(n), "rust_ty": param_rust(*k)}))
        .collect();
    let query: Vec<Value> = e
        .query
        .iter()
        .map(|q| {
            let base = scalar_rust(&q.ty);
            let rust_ty = if q.default.is_none() {
                format!("Option<{base}>")
            } else {
                base.to_string()
            };
            json!({
                "wire": q.wire,
                "rust": q.rust,
                "rust_ty": rust_ty,
                "scalar": base,
                "default_expr": q.default.as_ref().map(|d| default_expr(&q.ty, d)),
                "default_lazy": q.default.is_some() && q.ty == Ty::String,
                "default": q.default,
            })
        })
        .collect();
    let if_match = e.headers.iter().any(|h| h.name == "If-Match");
    let last_event_id = e.headers.iter().any(|h| h.name == "Last-Event-ID");
    let destination = match e.headers.iter().find(|h| h.name == "Destination") {
        None => "none",
        Some(h) if h.required => "required",
        Some(_) => "optional",
    };
    // Bodies chosen by Accept: the union over all responses, in order.
    let mut accept_variants: Vec<String> = Vec::new();
    for r in &e.responses {
        if r.bodies.len() > 1 {
            for b in &r.bodies {
                if !accept_variants.contains(b) {
                    accept_variants.push(b.clone());
                }
            }
        }
    }
    let mut variants = Vec::new();
    for r in &e.responses {
        let bodies: Vec<Option<&String>> = if r.bodies.is_empty() {
            vec![None]
        } else {
            r.bodies.iter().map(Some).collect()
        };
        let multi = bodies.len() > 1;
        for b in bodies {
            let name = match (multi, b) {
                (true, Some(b)) => format!("{}{b}", status_name(r.status)),
                _ => status_name(r.status).to_string(),
            };
            let body_href = b.is_some_and(|b| api.types[b].href);
            let headers: Vec<Value> = r
                .headers
                .iter()
                .map(|h| json!({"name": h, "lower": h.to_ascii_lowercase(), "rust": snake(h)}))
                .collect();
            variants.push(json!({
                "status": r.status,
                "name": name,
                "body": b,
                "etag": r.etag,
                "location": r.location,
                // 201 with a body and no explicit location: Location is the body's href.
                "location_from_body": r.status == 201 && !r.location && body_href,
                "accept_patch": r.accept_patch,
                "headers": headers,
                "doc": r.doc.clone().unwrap_or_default(),
            }));
        }
    }
    let access = match e.access {
        Access::Public => "Public",
        Access::Read => "Read",
        Access::Write => "Write",
    };
    json!({
        "index": index,
        "id": e.id,
        "rust": e.rust,
        "pascal": pascal(&e.id),
        "doc": e.doc,
        "family": e.family,
        "method": e.method,
        "path": e.path,
        "poem_path": poem_path(e),
        "access": access,
        "policies": e.policies.iter().map(|(m, f)| json!({"module": m, "function": f})).collect::<Vec<_>>(),
        "filters": e.filters,
        "csrf": e.csrf,
        "cached": e.cached,
        "shows": e.shows.as_ref().map(|(kind, param)| serde_json::json!({"kind": kind, "param": param})),
        "narrow": e.narrow,
        "edge": e.edge,
        "tags": e.tags.iter().map(|(p, k)| json!({"param": p, "kind": k})).collect::<Vec<_>>(),
        "numeric": e.path_params.iter().filter(|(_, k)| matches!(k, ParamKind::Int)).map(|(n, _)| n).collect::<Vec<_>>(),
        "stream": e.stream,
        "inputs": e.inputs,
        "input": e.inputs.first(),
        "path_params": path_params,
        "query": query,
        "if_match": if_match,
        "last_event_id": last_event_id,
        "destination": destination,
        "accept_variants": accept_variants,
        "variants": variants,
        "errors": e.errors,
    })
}
