//! Reading request bodies: one [`Node`] interface over the XML element tree and JSON values,
//! and the helpers the generated decoders call. Every error names the path of the element at
//! fault, e.g. `ContentCreate.fields.field[2].fieldValue`.

use crate::media::Wire;
use crate::values::{Float, HashValue, LangMap, Timestamp};
use std::fmt;

/// A scalar as a body holds it: XML gives only text, JSON keeps its types.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar<'a> {
    Null,
    Str(&'a str),
    Int(i64),
    Float(f64),
    Bool(bool),
    /// Not a scalar: an element with children, a JSON object or array.
    Complex,
}

/// An element of a request body, in either format.
pub trait Node: Sized {
    /// JSON reads properties by their JSON names where those differ from XML's.
    const JSON: bool;
    /// XML attribute `name`, JSON property `_name`.
    fn attr(&self, name: &str) -> Option<Scalar<'_>>;
    /// The first child element `name` / JSON property `name`.
    fn child(&self, name: &str) -> Option<&Self>;
    /// Every child element `name` / the items of the JSON array `name` (or the one value).
    fn children(&self, name: &str) -> Vec<&Self>;
    /// The items of a wrapped list: XML children named `item`, JSON array items.
    fn items(&self, item: &str) -> Vec<&Self>;
    /// The element's text / the JSON scalar (or an object's `#text`).
    fn scalar(&self) -> Scalar<'_>;
    /// The element as a key/value tree (XML scalars cast like the reference).
    fn to_hash(&self) -> HashValue;
}

/// Where the decoder is: the path of the current element, and the API prefix for hrefs.
pub struct Path<'a> {
    segments: Vec<String>,
    wire: &'a Wire,
}

impl<'a> Path<'a> {
    pub fn new(root: &str, wire: &'a Wire) -> Path<'a> {
        Path {
            segments: vec![root.to_string()],
            wire,
        }
    }

    pub fn push(&mut self, segment: impl Into<String>) {
        self.segments.push(segment.into());
    }

    pub fn pop(&mut self) {
        self.segments.pop();
    }

    pub fn wire(&self) -> &Wire {
        self.wire
    }

    pub fn error(&self, message: impl Into<String>) -> DecodeError {
        DecodeError {
            path: self.to_string(),
            message: message.into(),
        }
    }

    fn child_error(&self, name: &str, message: impl Into<String>) -> DecodeError {
        DecodeError {
            path: format!("{self}.{name}"),
            message: message.into(),
        }
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.segments.iter().enumerate() {
            if i > 0 && !s.starts_with('[') {
                f.write_str(".")?;
            }
            f.write_str(s)?;
        }
        Ok(())
    }
}

/// A body that does not match its input type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// An input type the generated code can read from either format.
pub trait Decode: Sized {
    fn decode<N: Node>(node: &N, path: &mut Path<'_>) -> Result<Self, DecodeError>;
}

/// A scalar type of the model.
pub trait FromScalar: Sized {
    const EXPECTED: &'static str;
    fn from_scalar(s: &Scalar<'_>) -> Option<Self>;
}

impl FromScalar for String {
    const EXPECTED: &'static str = "a string";
    fn from_scalar(s: &Scalar<'_>) -> Option<Self> {
        match s {
            Scalar::Str(v) => Some(v.to_string()),
            Scalar::Int(i) => Some(i.to_string()),
            Scalar::Float(f) => Some(f.to_string()),
            Scalar::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }
}

impl FromScalar for i64 {
    const EXPECTED: &'static str = "an integer";
    fn from_scalar(s: &Scalar<'_>) -> Option<Self> {
        match s {
            Scalar::Int(i) => Some(*i),
            Scalar::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(*f as i64),
            Scalar::Str(v) => v.trim().parse().ok(),
            _ => None,
        }
    }
}

impl FromScalar for bool {
    const EXPECTED: &'static str = "a boolean (true or false)";
    fn from_scalar(s: &Scalar<'_>) -> Option<Self> {
        match s {
            Scalar::Bool(b) => Some(*b),
            Scalar::Int(0) => Some(false),
            Scalar::Int(1) => Some(true),
            Scalar::Str(v) => match v.trim().to_ascii_lowercase().as_str() {
                "true" | "1" => Some(true),
                "false" | "0" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }
}

impl FromScalar for Float {
    const EXPECTED: &'static str = "a number";
    fn from_scalar(s: &Scalar<'_>) -> Option<Self> {
        match s {
            Scalar::Int(i) => Some(Float(*i as f64)),
            Scalar::Float(f) => Some(Float(*f)),
            Scalar::Str(v) => v.trim().parse().ok().map(Float),
            _ => None,
        }
    }
}

impl FromScalar for Timestamp {
    const EXPECTED: &'static str = "a date and time (ISO 8601)";
    fn from_scalar(s: &Scalar<'_>) -> Option<Self> {
        match s {
            Scalar::Int(i) => Some(Timestamp(*i)),
            Scalar::Str(v) => Timestamp::parse(v),
            _ => None,
        }
    }
}

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

/// The value of the single `{param}` of `template` in `href`. A last parameter may span
/// slashes (a Location path); others may not.
pub fn param_of<'h>(href: &'h str, template: &str) -> Option<&'h str> {
    let start = template.find('{')?;
    let end = template.find('}')?;
    let (before, after) = (&template[..start], &template[end + 1..]);
    let rest = href.strip_prefix(before)?;
    let value = rest.strip_suffix(after)?;
    let value = value.trim_end_matches('/');
    if value.is_empty() || (!after.is_empty() && value.contains('/')) {
        return None;
    }
    Some(value)
}

/// The parameters of `template` (`/content/objects/{contentId}/versions/{versionNo}`) in
/// `path`, in order; `None` when `path` is not one of its paths. Each parameter takes one
/// segment, or where `multi` says so one or more segments of digits (a Location path
/// `1/2/54`). A trailing slash is allowed.
pub fn params_of<'h>(path: &'h str, template: &str, multi: &[bool]) -> Option<Vec<&'h str>> {
    let path = match path.strip_suffix('/') {
        Some(p) if !p.is_empty() => p,
        _ => path,
    };
    // Segment spans of the path (both begin with '/', so the first segment is empty).
    let mut spans = Vec::new();
    let mut start = 0;
    for (i, c) in path.char_indices() {
        if c == '/' {
            spans.push((start, i));
            start = i + 1;
        }
    }
    spans.push((start, path.len()));
    let parts: Vec<&str> = template.split('/').collect();
    let mut out = Vec::with_capacity(multi.len());
    fn walk<'h>(
        path: &'h str,
        spans: &[(usize, usize)],
        parts: &[&str],
        multi: &[bool],
        out: &mut Vec<&'h str>,
    ) -> bool {
        let Some((part, rest)) = parts.split_first() else {
            return spans.is_empty();
        };
        if !(part.starts_with('{') && part.ends_with('}')) {
            return spans.first().is_some_and(|&(a, b)| &path[a..b] == *part)
                && walk(path, &spans[1..], rest, multi, out);
        }
        let many = multi.get(out.len()).copied().unwrap_or(false);
        let most = if many {
            spans.len()
        } else {
            spans.len().min(1)
        };
        for n in 1..=most {
            let taken = &spans[..n];
            let ok = taken.iter().all(|&(a, b)| {
                let s = &path[a..b];
                !s.is_empty() && (!many || s.bytes().all(|c| c.is_ascii_digit()))
            });
            if !ok {
                break;
            }
            out.push(&path[taken[0].0..taken[n - 1].1]);
            if walk(path, &spans[n..], rest, multi, out) {
                return true;
            }
            out.pop();
        }
        false
    }
    walk(path, &spans, &parts, multi, &mut out).then_some(out)
}

impl Node for serde_json::Value {
    const JSON: bool = true;
    fn attr(&self, name: &str) -> Option<Scalar<'_>> {
        self.as_object()?
            .get(&format!("_{name}"))
            .map(|v| v.scalar())
    }

    fn child(&self, name: &str) -> Option<&Self> {
        self.as_object()?.get(name)
    }

    fn children(&self, name: &str) -> Vec<&Self> {
        match self.as_object().and_then(|o| o.get(name)) {
            None | Some(serde_json::Value::Null) => Vec::new(),
            Some(serde_json::Value::Array(a)) => a.iter().collect(),
            Some(v) => vec![v],
        }
    }

    fn items(&self, item: &str) -> Vec<&Self> {
        match self {
            serde_json::Value::Array(a) => a.iter().collect(),
            // Also accept the XML-shaped `{"item": [...]}`.
            serde_json::Value::Object(_) => self.children(item),
            serde_json::Value::Null => Vec::new(),
            v => vec![v],
        }
    }

    fn scalar(&self) -> Scalar<'_> {
        use serde_json::Value;
        match self {
            Value::Null => Scalar::Null,
            Value::Bool(b) => Scalar::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => Scalar::Int(i),
                None => Scalar::Float(n.as_f64().unwrap_or(0.0)),
            },
            Value::String(s) => Scalar::Str(s),
            Value::Object(o) => match o.get("#text") {
                Some(t) => t.scalar(),
                None => Scalar::Complex,
            },
            Value::Array(_) => Scalar::Complex,
        }
    }

    fn to_hash(&self) -> HashValue {
        HashValue::from_json(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_give_their_parameters_back() {
        let t = "/content/objects/{contentId}/versions/{versionNo}";
        assert_eq!(
            params_of("/content/objects/4/versions/2", t, &[false, false]),
            Some(vec!["4", "2"])
        );
        assert_eq!(
            params_of("/content/objects/4/versions/2/", t, &[false, false]),
            Some(vec!["4", "2"])
        );
        assert_eq!(
            params_of("/content/objects/4/versions", t, &[false, false]),
            None
        );
        assert_eq!(
            params_of("/content/objects/4/versions/2/x", t, &[false, false]),
            None
        );
        assert_eq!(
            params_of("/content/objects//versions/2", t, &[false, false]),
            None
        );
        let g = "/user/groups/{groupPath}/subgroups";
        assert_eq!(
            params_of("/user/groups/1/5/12/subgroups", g, &[true]),
            Some(vec!["1/5/12"])
        );
        assert_eq!(params_of("/user/groups/subgroups", g, &[true]), None);
        assert_eq!(params_of("/user/groups/1/x/subgroups", g, &[true]), None);
        let l = "/content/locations/{locationPath}";
        assert_eq!(
            params_of("/content/locations/1/2", l, &[true]),
            Some(vec!["1/2"])
        );
        assert_eq!(
            params_of("/content/locations/1/2/children", l, &[true]),
            None
        );
        assert_eq!(params_of("/", "/", &[]), Some(vec![]));
        assert_eq!(
            params_of("/languages/eng-GB", "/languages/{languageCode}", &[false]),
            Some(vec!["eng-GB"])
        );
    }

    #[test]
    fn params_come_out_of_hrefs() {
        assert_eq!(
            param_of("/content/types/12", "/content/types/{id}"),
            Some("12")
        );
        assert_eq!(
            param_of("/content/locations/1/2/54", "/content/locations/{p}"),
            Some("1/2/54")
        );
        assert_eq!(
            param_of("/content/types/1/x", "/content/types/{id}"),
            Some("1/x")
        );
        assert_eq!(
            param_of("/content/types/1/draft", "/content/types/{id}/draft"),
            Some("1")
        );
        assert_eq!(
            param_of("/content/types/1/2/draft", "/content/types/{id}/draft"),
            None
        );
        assert_eq!(param_of("/content/objects/1", "/content/types/{id}"), None);
    }

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
