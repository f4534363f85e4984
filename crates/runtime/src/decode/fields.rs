//! The helpers the generated decoders call, one per kind of field: scalars and attributes,
//! nested objects, lists, key/value trees, language maps and references.

use super::params::param_of;
use super::{Decode, DecodeError, FromScalar, Node, Path, Scalar};
use crate::values::{HashValue, LangMap};

fn scalar_of<T: FromScalar>(
    s: Scalar<'_>,
    name: &str,
    path: &Path<'_>,
) -> Result<Option<T>, DecodeError> {
    if s == Scalar::Null {
        return Ok(None);
    }
    T::from_scalar(&s)
        .map(Some)
        .ok_or_else(|| path.child_error(name, format!("expected {}", T::EXPECTED)))
}

/// The error of a required element that is absent.
pub fn missing(path: &Path<'_>, name: &str) -> DecodeError {
    path.child_error(name, "is required but missing")
}

/// A required scalar child element.
pub fn required<N: Node, T: FromScalar>(
    n: &N,
    name: &str,
    path: &Path<'_>,
) -> Result<T, DecodeError> {
    optional(n, name, path)?.ok_or_else(|| missing(path, name))
}

/// An optional scalar child element (absent or empty: `None`).
pub fn optional<N: Node, T: FromScalar>(
    n: &N,
    name: &str,
    path: &Path<'_>,
) -> Result<Option<T>, DecodeError> {
    match n.child(name) {
        None => Ok(None),
        Some(c) => scalar_of(c.scalar(), name, path),
    }
}

/// A required attribute.
pub fn required_attr<N: Node, T: FromScalar>(
    n: &N,
    name: &str,
    path: &Path<'_>,
) -> Result<T, DecodeError> {
    optional_attr(n, name, path)?
        .ok_or_else(|| path.child_error(name, "required attribute is missing"))
}

pub fn optional_attr<N: Node, T: FromScalar>(
    n: &N,
    name: &str,
    path: &Path<'_>,
) -> Result<Option<T>, DecodeError> {
    match n.attr(name) {
        None => Ok(None),
        Some(s) => scalar_of(s, name, path),
    }
}

/// The element's own text.
pub fn text<N: Node, T: FromScalar>(n: &N, path: &Path<'_>) -> Result<Option<T>, DecodeError> {
    scalar_of(n.scalar(), "#text", path)
}

/// A nested input object.
pub fn nested<N: Node, T: Decode>(
    n: &N,
    name: &str,
    path: &mut Path<'_>,
) -> Result<Option<T>, DecodeError> {
    let Some(c) = n.child(name) else {
        return Ok(None);
    };
    if c.scalar() == Scalar::Null {
        return Ok(None);
    }
    path.push(name);
    let v = T::decode(c, path)?;
    path.pop();
    Ok(Some(v))
}

/// A repeated child element (`[T]`), or the items of a wrapped list (`[T/item]`).
pub fn list<N: Node, T, F>(
    n: &N,
    name: &str,
    wrapped_as: Option<&str>,
    path: &mut Path<'_>,
    mut item: F,
) -> Result<Vec<T>, DecodeError>
where
    F: FnMut(&N, &mut Path<'_>) -> Result<T, DecodeError>,
{
    let nodes = match wrapped_as {
        None => n.children(name),
        Some(w) => match n.child(name) {
            None => Vec::new(),
            Some(c) => c.items(w),
        },
    };
    let mut out = Vec::with_capacity(nodes.len());
    for (i, c) in nodes.into_iter().enumerate() {
        path.push(name);
        path.push(format!("[{}]", i + 1));
        out.push(item(c, path)?);
        path.pop();
        path.pop();
    }
    Ok(out)
}

/// A list item that is an input object.
pub fn item_object<N: Node, T: Decode>(n: &N, path: &mut Path<'_>) -> Result<T, DecodeError> {
    T::decode(n, path)
}

/// A list item that is a scalar.
pub fn item_scalar<N: Node, T: FromScalar>(n: &N, path: &mut Path<'_>) -> Result<T, DecodeError> {
    scalar_of(n.scalar(), "", path)?.ok_or_else(|| path.error("an empty item"))
}

/// A list item that is a reference; its href without the API prefix.
pub fn item_ref<N: Node>(n: &N, path: &mut Path<'_>) -> Result<String, DecodeError> {
    href_of(n, path)
}

/// A key/value tree (absent: `None`).
pub fn hash<N: Node>(n: &N, name: &str) -> Option<HashValue> {
    n.child(name).map(|c| c.to_hash())
}

/// `names` / `descriptions`: `value` entries keyed by `languageCode`.
pub fn lang_map<N: Node>(
    n: &N,
    name: &str,
    path: &mut Path<'_>,
) -> Result<Option<LangMap>, DecodeError> {
    let Some(c) = n.child(name) else {
        return Ok(None);
    };
    let mut map = LangMap::default();
    path.push(name);
    for (i, v) in c.children("value").into_iter().enumerate() {
        path.push(format!("value[{}]", i + 1));
        let lang: String = required_attr(v, "languageCode", path)?;
        let text: String = text(v, path)?.unwrap_or_default();
        map.set(&lang, &text);
        path.pop();
    }
    path.pop();
    Ok(Some(map))
}

fn href_of<N: Node>(n: &N, path: &Path<'_>) -> Result<String, DecodeError> {
    let href: String =
        optional_attr(n, "href", path)?.ok_or_else(|| path.error("a reference needs an href"))?;
    path.wire()
        .strip_prefix(&href)
        .map(str::to_string)
        .ok_or_else(|| path.error(format!("`{href}` is not a resource of this API")))
}

/// A reference; its href without the API prefix. Absent, `null`, or without an href (`{}`,
/// `<Section/>`) are the same, as the reference's input parsers read an optional reference.
pub fn reference<N: Node>(
    n: &N,
    name: &str,
    path: &mut Path<'_>,
) -> Result<Option<String>, DecodeError> {
    let Some(c) = n.child(name) else {
        return Ok(None);
    };
    if optional_attr::<N, String>(c, "href", path)?.is_none() {
        return Ok(None);
    }
    path.push(name);
    let h = href_of(c, path)?;
    path.pop();
    Ok(Some(h))
}

/// A reference whose href must follow `template` (one `{param}`); the parameter's value.
pub fn reference_param<N: Node, T: FromScalar>(
    n: &N,
    name: &str,
    template: &str,
    path: &mut Path<'_>,
) -> Result<Option<T>, DecodeError> {
    let Some(href) = reference(n, name, path)? else {
        return Ok(None);
    };
    param_of(&href, template)
        .and_then(|v| T::from_scalar(&Scalar::Str(v)))
        .map(Some)
        .ok_or_else(|| {
            path.child_error(
                name,
                format!("`{href}` does not name a resource of the form {template}"),
            )
        })
}

/// A list item reference whose href follows `template`.
pub fn item_ref_param<N: Node, T: FromScalar>(
    n: &N,
    template: &str,
    path: &mut Path<'_>,
) -> Result<T, DecodeError> {
    let href = href_of(n, path)?;
    param_of(&href, template)
        .and_then(|v| T::from_scalar(&Scalar::Str(v)))
        .ok_or_else(|| {
            path.error(format!(
                "`{href}` does not name a resource of the form {template}"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::Wire;

    #[test]
    fn json_scalars_are_read_leniently() {
        let wire = Wire::new("ibexa", "/api/ibexa/v2");
        let path = Path::new("X", &wire);
        let v: serde_json::Value =
            serde_json::json!({"a": "10", "b": 10, "c": "true", "d": false, "e": "x"});
        assert_eq!(required::<_, i64>(&v, "a", &path), Ok(10));
        assert_eq!(required::<_, i64>(&v, "b", &path), Ok(10));
        assert_eq!(required::<_, bool>(&v, "c", &path), Ok(true));
        assert_eq!(required::<_, bool>(&v, "d", &path), Ok(false));
        let err = required::<_, i64>(&v, "e", &path).unwrap_err();
        assert_eq!(err.to_string(), "X.e: expected an integer");
        let err = required::<_, i64>(&v, "zz", &path).unwrap_err();
        assert_eq!(err.to_string(), "X.zz: is required but missing");
    }
}
