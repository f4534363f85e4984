//! [`Api::from_raw`]: the raw spec checked into the model, every problem collected first.

use super::names::{is_pascal, is_snake};
use super::parse_endpoint::{parse_endpoint, route_shape};
use super::parse_type::parse_field;
use super::{Api, Family, Field, ParamKind, Place, TypeBody, TypeDef};
use crate::spec::{RawSpec, RawType};
use anyhow::{Result, bail};
use indexmap::IndexMap;
use std::collections::HashSet;

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

        for (name, kind) in &raw.api.tags {
            if !params.contains_key(name) {
                p.push(
                    "api",
                    &format!("tags.{name}"),
                    "not a path parameter of `params`",
                );
            }
            if !["c", "s", "t", "tg", "path"].contains(&kind.as_str()) {
                p.push(
                    "api",
                    &format!("tags.{name}"),
                    format!("unknown tag kind `{kind}` (c, s, t, tg or path)"),
                );
            }
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
                    let elements: HashSet<&str> = (fields.keys())
                        .filter(|k| !k.starts_with('@'))
                        .map(|k| k.split('|').next().unwrap_or(k))
                        .collect();
                    for (key, expr) in fields {
                        let fentry = format!("{entry}.fields.{key}");
                        match parse_field(key, expr, &raw_types, &params) {
                            Ok(mut f) => {
                                // An attribute beside an element of its name (the reference's
                                // `JWT` carries its token twice): `<name>_attribute` in Rust.
                                if f.place == Place::Attribute && elements.contains(f.wire.as_str())
                                {
                                    f.rust =
                                        format!("{}_attribute", f.rust.trim_start_matches("r#"));
                                }
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
                    Ok(mut ep) => {
                        ep.tags = (ep.path_params.iter())
                            .filter_map(|(p, _)| Some((p.clone(), raw.api.tags.get(p)?.clone())))
                            .collect();
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

        let (examples, wrong) = super::examples::collect(&raw.examples, &types);
        p.0.extend(wrong);
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
            examples,
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
}
