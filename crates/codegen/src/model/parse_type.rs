//! Field keys and type expressions of the spec's `fields:` entries, parsed and checked.

use super::names::{is_pascal, is_wire_name, rust_ident, snake};
use super::parse_endpoint::path_params;
use super::{Field, ParamKind, Place, RefTemplate, Ty};
use crate::spec::RawType;
use indexmap::IndexMap;

/// Parses `"@name"`, `"#text"` or `name` with a type expression:
/// `T`, `T?` (optional), `T | null` (nullable), `[T]`, `[T/item]`, `ref Media [/path/{param}]`.
pub(super) fn parse_field(
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

pub(super) fn parse_ty(
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
