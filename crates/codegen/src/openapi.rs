//! The OpenAPI 3.1 document of the spec.
//!
//! Representations get two schemas: `<Type>` for the JSON object (attributes as `_name`) with
//! `<Type>Wrapper` for the document `{"<Element>": ...}`, and `<Type>.xml` for the XML element
//! (attributes marked `xml.attribute`). Custom methods (COPY, MOVE, SWAP, PUBLISH) cannot be
//! path-item operations: each is listed under the registered extension
//! `x-oai-additionalOperations`, and the path's `post` operation documents sending them as POST
//! with `X-HTTP-Method-Override`.
//!
//! Longer than 500 lines for one reason: the schema of every kind of spec type is written
//! here, each beside the others it refers to, so the document's shape is read in one place.

use crate::model::{Access, Api, Endpoint, Field, ParamKind, Place, Ty, TypeBody, TypeDef};
use serde_json::{Map, Value, json};

pub fn document(api: &Api) -> Value {
    let vendor = &api.vendor;
    let mut paths = Map::new();
    let mut by_path: Vec<(&str, Vec<&Endpoint>)> = Vec::new();
    for e in api.endpoints() {
        match by_path.iter_mut().find(|(p, _)| *p == e.path) {
            Some((_, v)) => v.push(e),
            None => by_path.push((&e.path, vec![e])),
        }
    }
    for (path, eps) in by_path {
        let mut item = Map::new();
        let params: Vec<Value> = eps[0]
            .path_params
            .iter()
            .map(|(n, k)| {
                json!({"name": n, "in": "path", "required": true, "schema": param_schema(*k)})
            })
            .collect();
        if !params.is_empty() {
            item.insert("parameters".into(), Value::Array(params));
        }
        let custom: Vec<&&Endpoint> = eps.iter().filter(|e| e.is_custom_method()).collect();
        let mut additional = Map::new();
        for e in &eps {
            let op = operation(api, e, vendor, None);
            if e.is_custom_method() {
                additional.insert(e.method.clone(), op);
            } else {
                item.insert(e.method.to_ascii_lowercase(), op);
            }
        }
        if !custom.is_empty() {
            let verbs: Vec<&str> = custom.iter().map(|e| e.method.as_str()).collect();
            match item.get_mut("post") {
                // A real POST: it also takes the override header.
                Some(Value::Object(post)) => {
                    let params = post
                        .entry("parameters")
                        .or_insert_with(|| Value::Array(vec![]));
                    if let Value::Array(a) = params {
                        a.push(override_param(&verbs, false));
                    }
                    let d = post
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string();
                    post.insert(
                        "description".into(),
                        json!(format!(
                            "{d}\n\nWith `X-HTTP-Method-Override: {}` this POST performs that method instead (see `x-oai-additionalOperations`).",
                            verbs.join("|")
                        )),
                    );
                }
                _ if custom.len() == 1 => {
                    item.insert(
                        "post".into(),
                        operation(api, custom[0], vendor, Some(&verbs)),
                    );
                }
                _ => {
                    item.insert(
                        "post".into(),
                        override_operation(api, path, &custom, vendor),
                    );
                }
            }
            item.insert(
                "x-oai-additionalOperations".into(),
                Value::Object(additional),
            );
        }
        paths.insert(path.to_string(), Value::Object(item));
    }

    let mut schemas = Map::new();
    schemas.insert(
        "Ref".into(),
        json!({"type": "object", "description": "A reference to another resource.",
               "properties": {"_media-type": {"type": "string"}, "_href": {"type": "string"}},
               "required": ["_href"]}),
    );
    schemas.insert(
        "Ref.xml".into(),
        json!({"type": "object", "description": "A reference to another resource.",
               "properties": {"media-type": {"type": "string", "xml": {"attribute": true}},
                              "href": {"type": "string", "xml": {"attribute": true}}}}),
    );
    schemas.insert(
        "LangMap".into(),
        json!({"type": "object", "description": "Texts by language code.",
               "properties": {"value": {"type": "array", "items": {"type": "object",
                  "properties": {"_languageCode": {"type": "string"}, "#text": {"type": "string"}}}}}}),
    );
    schemas.insert(
        "LangMap.xml".into(),
        json!({"type": "object", "description": "Texts by language code: `value` elements with a `languageCode` attribute and the text.",
               "properties": {"value": {"type": "array", "items": {"type": "object", "xml": {"name": "value"},
                  "properties": {"languageCode": {"type": "string", "xml": {"attribute": true}}}}}}}),
    );
    schemas.insert(
        "Hash".into(),
        json!({"description": "A free key/value tree (in XML: `<value key=\"k\">` elements; list items have no key)."}),
    );
    for t in api.types.values() {
        schemas.insert(t.name.clone(), json_schema(api, t));
        schemas.insert(format!("{}.xml", t.name), xml_schema(api, t));
        if t.media.is_some() {
            schemas.insert(
                format!("{}Wrapper", t.name),
                json!({"type": "object", "required": [t.element],
                       "properties": {t.element.clone(): {"$ref": format!("#/components/schemas/{}", t.name)}}}),
            );
        }
    }

    let mut codes: Vec<u16> = api
        .endpoints()
        .flat_map(|e| e.errors.iter().copied())
        .chain(api.common_errors.iter().copied())
        .chain([404, 405, 415])
        .collect();
    codes.sort_unstable();
    codes.dedup();
    let mut responses = Map::new();
    for c in codes {
        responses.insert(
            format!("E{c}"),
            json!({"description": reason(c), "content": content(api, "ErrorMessage", vendor)}),
        );
    }

    let tags: Vec<Value> = api
        .families
        .iter()
        .map(|f| json!({"name": f.name, "description": f.doc}))
        .collect();
    json!({
        "openapi": "3.1.0",
        "info": {"title": api.title, "version": api.version, "description": api.description},
        "servers": [{"url": format!("/api/{vendor}/v2")}],
        "tags": tags,
        "paths": paths,
        "components": {"schemas": schemas, "responses": responses, "examples": examples(api)},
        "x-cairn-policy-map": api.policies,
    })
}

fn override_param(verbs: &[&str], required: bool) -> Value {
    json!({
        "name": "X-HTTP-Method-Override",
        "in": "header",
        "required": required,
        "description": "Performs this method instead of POST.",
        "schema": {"type": "string", "enum": verbs},
    })
}

/// The `post` of a path whose custom methods are several: one operation that dispatches on
/// the override header.
fn override_operation(api: &Api, path: &str, custom: &[&&Endpoint], vendor: &str) -> Value {
    let verbs: Vec<&str> = custom.iter().map(|e| e.method.as_str()).collect();
    let mut responses = Map::new();
    let mut description = String::from("Sends one of these methods as POST:\n");
    for e in custom {
        description.push_str(&format!(
            "- `{}` ({}): {}\n",
            e.method,
            e.id,
            first_line(&e.doc)
        ));
        for (code, r) in response_map(api, e, vendor) {
            responses.entry(code).or_insert(r);
        }
    }
    let mut params = vec![override_param(&verbs, true)];
    if custom
        .iter()
        .any(|e| e.headers.iter().any(|h| h.name == "Destination"))
    {
        params.push(header_param("Destination", false));
    }
    let slug: String = path
        .split('/')
        .filter(|s| !s.is_empty() && !s.starts_with('{'))
        .map(|s| {
            let mut c = s.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect();
    json!({
        "operationId": format!("methodOverride{slug}"),
        "summary": format!("{} via POST", verbs.join(", ")),
        "description": description,
        "tags": [custom[0].family],
        "parameters": params,
        "responses": responses,
    })
}

fn header_param(name: &str, required: bool) -> Value {
    let description = match name {
        "If-Match" => "The ETag the resource must still have (412 otherwise).",
        "Destination" => "The href of the target resource.",
        "Last-Event-ID" => "The id of the last event the client has (it resumes after it).",
        _ => "",
    };
    json!({"name": name, "in": "header", "required": required, "description": description,
           "schema": {"type": "string"}})
}

fn operation(api: &Api, e: &Endpoint, vendor: &str, override_verbs: Option<&[&str]>) -> Value {
    let mut params: Vec<Value> = e
        .query
        .iter()
        .map(|q| {
            let mut schema = scalar_schema(&q.ty);
            if let Some(d) = &q.default {
                schema["default"] = match q.ty {
                    Ty::Int | Ty::Offset | Ty::Limit => json!(d.parse::<i64>().unwrap_or_default()),
                    Ty::Bool => json!(d == "true"),
                    _ => json!(d),
                };
            }
            json!({"name": q.wire, "in": "query", "required": false, "schema": schema})
        })
        .collect();
    for h in &e.headers {
        params.push(header_param(&h.name, h.required));
    }
    if let Some(verbs) = override_verbs {
        params.push(override_param(verbs, true));
    }
    let mut op = json!({
        "operationId": e.id,
        "summary": first_line(&e.doc),
        "description": e.doc,
        "tags": [e.family],
        "responses": response_map(api, e, vendor),
        "x-cairn-access": match e.access { Access::Public => "public", Access::Read => "read", Access::Write => "write" },
        "x-cairn-policy": if e.policies.is_empty() { json!("none") } else { json!(e.policies.iter().map(|(m, f)| format!("{m}/{f}")).collect::<Vec<_>>()) },
    });
    if e.method == "GET" {
        // How a shared HTTP cache may keep the answer (the spec's `edge`).
        op["x-cairn-http-cache"] = json!(match e.edge {
            "Public" => "public",
            "NoStore" => "no-store",
            _ => "private",
        });
    }
    if !params.is_empty() {
        op["parameters"] = Value::Array(params);
    }
    if let Some(input) = e.inputs.first() {
        op["requestBody"] = json!({"required": true, "content": content(api, input, vendor)});
    }
    if override_verbs.is_some() {
        op["description"] = json!(format!(
            "{}\n\nSent as POST with `X-HTTP-Method-Override: {}`; also available as the method itself (see `x-oai-additionalOperations`).",
            e.doc, e.method
        ));
    }
    op
}

fn response_map(api: &Api, e: &Endpoint, vendor: &str) -> Map<String, Value> {
    let mut out = Map::new();
    for r in &e.responses {
        let mut resp =
            json!({"description": r.doc.clone().unwrap_or_else(|| reason(r.status).to_string())});
        let mut headers = Map::new();
        if r.etag {
            headers.insert("ETag".into(), json!({"schema": {"type": "string"}}));
        }
        if r.location || r.status == 201 {
            headers.insert("Location".into(), json!({"schema": {"type": "string"}}));
        }
        if let Some(ap) = &r.accept_patch {
            headers.insert(
                "Accept-Patch".into(),
                json!({"schema": {"type": "string"}, "description": format!("application/vnd.{vendor}.api.{ap}+xml or +json")}),
            );
        }
        for h in &r.headers {
            headers.insert(h.clone(), json!({"schema": {"type": "string"}}));
        }
        if !headers.is_empty() {
            resp["headers"] = Value::Object(headers);
        }
        if !r.bodies.is_empty() {
            let mut c = Map::new();
            for b in &r.bodies {
                if let Value::Object(m) = content(api, b, vendor) {
                    c.extend(m);
                }
            }
            if let (Some(t), 200) = (&e.stream, r.status) {
                let mut sse = json!({"schema": {"type": "string", "description": format!(
                    "Server-Sent Events, as they come: each a {t} as its JSON document \
                     (application/vnd.{vendor}.api.{t}+json) in `data`, its id in `id`"
                )}});
                // One event: the stream type's JSON example, as the server writes it.
                if let Some(j) = api.examples.get(t).and_then(|x| x.json.as_ref()) {
                    let id = &j[&api.types[t].element]["id"];
                    sse["example"] = json!(format!("id: {id}\ndata: {j}\n\n"));
                }
                c.insert("text/event-stream".into(), sse);
            }
            resp["content"] = Value::Object(c);
            if r.bodies.len() > 1 {
                resp["description"] = json!(format!(
                    "{} (the representation named in Accept: {})",
                    resp["description"].as_str().unwrap_or_default(),
                    r.bodies.join(" or ")
                ));
            }
        }
        out.insert(r.status.to_string(), resp);
    }
    let mut codes: Vec<u16> = e.errors.clone();
    codes.extend(&api.common_errors);
    if !e.inputs.is_empty() {
        codes.push(415);
    }
    codes.sort_unstable();
    codes.dedup();
    for c in codes {
        out.insert(
            c.to_string(),
            json!({"$ref": format!("#/components/responses/E{c}")}),
        );
    }
    out
}

/// The body of a type in both formats: its schemas and, from `spec/examples/`, its examples.
fn content(api: &Api, type_name: &str, vendor: &str) -> Value {
    let t = &api.types[type_name];
    let media = t.media.clone().unwrap_or_else(|| t.name.clone());
    let mut xml = json!({"schema": {"$ref": format!("#/components/schemas/{}.xml", t.name)}});
    let mut js = json!({"schema": {"$ref": format!("#/components/schemas/{}Wrapper", t.name)}});
    if let Some(e) = api.examples.get(&t.name) {
        if e.xml.is_some() {
            xml["examples"] =
                json!({"cairn": reference_to("examples", &format!("{}.xml", t.name))});
        }
        if e.json.is_some() {
            js["examples"] =
                json!({"cairn": reference_to("examples", &format!("{}.json", t.name))});
        }
    }
    json!({
        format!("application/vnd.{vendor}.api.{media}+xml"): xml,
        format!("application/vnd.{vendor}.api.{media}+json"): js,
    })
}

fn first_line(doc: &str) -> String {
    let line = doc.lines().next().unwrap_or_default();
    match line.find(". ") {
        Some(i) => line[..=i].to_string(),
        None => line.to_string(),
    }
}

fn reason(code: u16) -> &'static str {
    match code {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        301 => "Moved Permanently",
        303 => "See Other",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        409 => "Conflict",
        412 => "Precondition Failed",
        415 => "Unsupported Media Type",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        _ => "Response",
    }
}

fn param_schema(k: ParamKind) -> Value {
    match k {
        ParamKind::Int => json!({"type": "integer"}),
        ParamKind::String => json!({"type": "string"}),
        ParamKind::Path => {
            json!({"type": "string", "pattern": "^[0-9]+(/[0-9]+)*$", "description": "A Location path: ids separated by slashes (e.g. 1/2/54)."})
        }
    }
}

fn scalar_schema(ty: &Ty) -> Value {
    match ty {
        Ty::Int => json!({"type": "integer"}),
        Ty::Float => json!({"type": "number"}),
        Ty::Bool => json!({"type": "boolean"}),
        Ty::DateTime => json!({"type": "string", "format": "date-time"}),
        Ty::Offset => {
            json!({"type": "integer", "description": "Items to skip; a negative offset counts as 0."})
        }
        Ty::Limit => {
            json!({"type": "integer", "description": "At most this many items; a negative limit asks for no bound (all, or the list's own default where its description says so)."})
        }
        _ => json!({"type": "string"}),
    }
}

fn reference(name: &str) -> Value {
    reference_to("schemas", name)
}

fn reference_to(section: &str, name: &str) -> Value {
    json!({"$ref": format!("#/components/{section}/{name}")})
}

/// `components.examples`: each example body once, `<Type>.json` and `<Type>.xml`, referred to
/// by every body of its type.
fn examples(api: &Api) -> Map<String, Value> {
    let mut out = Map::new();
    for (name, e) in &api.examples {
        let summary = format!("{name}, as exchanged with cairn on a clean install");
        if let Some(j) = &e.json {
            out.insert(
                format!("{name}.json"),
                json!({"summary": summary, "value": j}),
            );
        }
        if let Some(x) = &e.xml {
            out.insert(
                format!("{name}.xml"),
                json!({"summary": summary, "value": x}),
            );
        }
    }
    out
}

/// The JSON schema of a value; `xml` picks the XML variants of component schemas.
fn value_schema(api: &Api, ty: &Ty, xml: bool) -> Value {
    let suffix = if xml { ".xml" } else { "" };
    match ty {
        Ty::Hash => reference("Hash"),
        Ty::LangMap => reference(&format!("LangMap{suffix}")),
        Ty::Ref { .. } => reference(&format!("Ref{suffix}")),
        Ty::Named(n) => match &api.types[n].body {
            TypeBody::OneOf(members) if !xml => json!({"oneOf": members.iter().map(|m| {
                let element = &api.types[m].element;
                json!({"type": "object", "properties": {element.clone(): reference(m)}, "required": [element]})
            }).collect::<Vec<_>>()}),
            _ => reference(&format!("{n}{suffix}")),
        },
        Ty::List { item, .. } => {
            // A list writes a one-of item as it is, not wrapped in its element (any member
            // that fits: two members may share a shape).
            let items = match &**item {
                Ty::Named(n) if !xml => match &api.types[n].body {
                    TypeBody::OneOf(members) => {
                        json!({"anyOf": members.iter().map(|m| reference(m)).collect::<Vec<_>>()})
                    }
                    _ => value_schema(api, item, xml),
                },
                _ => value_schema(api, item, xml),
            };
            json!({"type": "array", "items": items})
        }
        s => scalar_schema(s),
    }
}

fn nullable(schema: Value, f: &Field) -> Value {
    if f.nullable {
        json!({"oneOf": [schema, {"type": "null"}]})
    } else {
        schema
    }
}

fn json_schema(api: &Api, t: &TypeDef) -> Value {
    if let TypeBody::OneOf(members) = &t.body {
        return json!({"description": t.doc, "oneOf": members.iter().map(|m| reference(m)).collect::<Vec<_>>()});
    }
    let mut props = Map::new();
    let mut required = Vec::new();
    // cairn writes `_media-type` and `_href` on what it answers; a client's body need not carry them.
    if t.media.is_some() {
        props.insert("_media-type".into(), json!({"type": "string"}));
        if !t.input {
            required.push(json!("_media-type"));
        }
    }
    if t.href {
        props.insert("_href".into(), json!({"type": "string"}));
        if !t.input {
            required.push(json!("_href"));
        }
    }
    for f in t.fields() {
        let schema = match &f.ty {
            Ty::Named(n) if api.inline_union(f) => reference(n),
            // A client may send a wrapped list in the reference's shape, `{"<item>": [...]}`.
            Ty::List {
                item,
                wrapped_as: Some(w),
            } if t.input => {
                let items = json!({"type": "array", "items": value_schema(api, item, false)});
                json!({"anyOf": [items, {"type": "object", "properties": {w.clone(): items}, "required": [w]}]})
            }
            ty => value_schema(api, ty, false),
        };
        props.insert(f.json.clone(), nullable(schema, f));
        // A list a client leaves out is empty.
        let absent_is_empty = t.input && matches!(f.ty, Ty::List { .. });
        if !f.optional && !absent_is_empty {
            required.push(json!(f.json));
        }
    }
    json!({"type": "object", "description": t.doc, "properties": props, "required": required})
}

fn xml_schema(api: &Api, t: &TypeDef) -> Value {
    if let TypeBody::OneOf(members) = &t.body {
        return json!({"description": t.doc, "oneOf": members.iter().map(|m| reference(&format!("{m}.xml"))).collect::<Vec<_>>()});
    }
    let mut props = Map::new();
    if t.media.is_some() {
        props.insert(
            "media-type".into(),
            json!({"type": "string", "xml": {"attribute": true}}),
        );
    }
    if t.href {
        props.insert(
            "href".into(),
            json!({"type": "string", "xml": {"attribute": true}}),
        );
    }
    let mut description = t.doc.clone();
    for f in t.fields() {
        match f.place {
            Place::Attribute => {
                let mut s = value_schema(api, &f.ty, true);
                s["xml"] = json!({"attribute": true});
                props.insert(f.wire.clone(), s);
            }
            Place::Text => {
                description.push_str(" The element's text is the value.");
            }
            Place::Element => {
                let s = match &f.ty {
                    Ty::List {
                        item,
                        wrapped_as: Some(w),
                    } => {
                        let mut i = value_schema(api, item, true);
                        i = json!({"allOf": [i], "xml": {"name": w}});
                        json!({"type": "array", "items": i, "xml": {"wrapped": true, "name": f.wire}})
                    }
                    Ty::List { item, .. } => {
                        json!({"type": "array", "items": {"allOf": [value_schema(api, item, true)], "xml": {"name": f.wire}}})
                    }
                    ty => value_schema(api, ty, true),
                };
                props.insert(f.wire.clone(), nullable(s, f));
            }
        }
    }
    json!({"type": "object", "description": description, "xml": {"name": t.element}, "properties": props})
}
