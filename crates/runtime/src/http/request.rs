//! A request as a generated handler reads it ([`Rq`]): path and query parameters, headers,
//! the body decoded as an input type, and the refusal of text no database stores.

use super::{IfMatch, Settings};
use crate::decode::{Decode, FromScalar, Path, Scalar};
use crate::error::HttpError;
use crate::media::{Format, InputType, Negotiation, Wire};
use crate::reply::Reply;
use crate::xml::XmlElement;
use bytes::Bytes;
use poem::Request;
use std::sync::Arc;

/// 400 for text no database stores: a NUL character (U+0000).
pub fn storable<'a>(text: &'a str, what: &str) -> Result<&'a str, HttpError> {
    if text.contains('\0') {
        return Err(nul_in(what));
    }
    Ok(text)
}

fn nul_in(what: &str) -> HttpError {
    HttpError::bad_request(format!(
        "{what} contains a NUL character (U+0000), which cannot be stored"
    ))
}

/// Whether any string (or key) of a JSON value holds a NUL character.
fn json_has_nul(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::String(s) => s.contains('\0'),
        serde_json::Value::Array(a) => a.iter().any(json_has_nul),
        serde_json::Value::Object(o) => o.iter().any(|(k, v)| k.contains('\0') || json_has_nul(v)),
        _ => false,
    }
}

/// A JSON body (`{"<name>": {...}}`) as the input type `T` named `name`, its hrefs read in
/// `wire`'s dialect.
pub fn decode_json<T: Decode>(text: &str, name: &str, wire: &Wire) -> Result<T, HttpError> {
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| HttpError::bad_request(format!("Malformed JSON: {e}")))?;
    if json_has_nul(&value) {
        return Err(nul_in("The request body"));
    }
    // Like the reference, read the first property whatever its name.
    let root = match &value {
        serde_json::Value::Object(o) if !o.is_empty() => o.values().next().unwrap_or(&value),
        _ => {
            return Err(HttpError::bad_request(format!(
                "The body must be a JSON object with one property, {name}"
            )));
        }
    };
    let mut path = Path::new(name, wire);
    Ok(T::decode(root, &mut path)?)
}

/// A request as an operation's generated handler sees it.
pub struct Rq {
    pub http: Request,
    pub body: Bytes,
    pub neg: Negotiation,
    pub settings: Arc<Settings>,
    pub(super) query: Vec<(String, String)>,
}

impl Rq {
    pub fn wire(&self) -> &Wire {
        &self.settings.wire
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.http.header(name)
    }

    /// A path parameter; the route's pattern and its endpoint's check of numbers guarantee its
    /// shape, so a bad one is a 404.
    pub fn path<T: FromScalar>(&self, name: &str) -> Result<T, HttpError> {
        let v = self
            .http
            .raw_path_param(name)
            .ok_or_else(|| HttpError::not_found("No such route"))?;
        if v.contains('\0') {
            return Err(nul_in(&format!("The path parameter '{name}'")));
        }
        T::from_scalar(&Scalar::Str(v)).ok_or_else(|| HttpError::not_found("No such route"))
    }

    /// A query parameter; `None` when absent, 400 when it does not parse.
    pub fn query<T: FromScalar>(&self, name: &str) -> Result<Option<T>, HttpError> {
        match self.query.iter().find(|(k, _)| k == name) {
            None => Ok(None),
            Some((_, v)) if v.contains('\0') => {
                Err(nul_in(&format!("The query parameter '{name}'")))
            }
            Some((_, v)) => T::from_scalar(&Scalar::Str(v)).map(Some).ok_or_else(|| {
                HttpError::bad_request(format!(
                    "Query parameter '{name}' is '{v}', expected {}",
                    T::EXPECTED
                ))
            }),
        }
    }

    /// A header's text, when sent; 400 when it holds what no database stores.
    pub fn header_text(&self, name: &str, what: &str) -> Result<Option<String>, HttpError> {
        self.header(name)
            .map(|v| storable(v.trim(), what).map(str::to_string))
            .transpose()
    }

    pub fn if_match(&self) -> Option<IfMatch> {
        self.header("if-match").map(|v| IfMatch(v.to_string()))
    }

    /// The `Destination` header as a path under the prefix.
    pub fn destination(&self) -> Result<Option<String>, HttpError> {
        match self.header("destination") {
            None => Ok(None),
            Some(d) => self
                .wire()
                .strip_prefix(storable(d, "The Destination header")?.trim())
                .map(|p| Some(p.to_string()))
                .ok_or_else(|| {
                    HttpError::bad_request(format!(
                        "Destination '{d}' is not a resource of this API"
                    ))
                }),
        }
    }

    pub fn required_destination(&self) -> Result<String, HttpError> {
        self.destination()?
            .ok_or_else(|| HttpError::bad_request("The Destination header is required"))
    }

    /// The request body as one of the `accepted` input types: 415 for another media type,
    /// 400 when the body does not parse or does not match the type. The raw body is released
    /// as soon as it is parsed (a large upload is not held twice).
    /// The body as the input type `T`, in the format and of the type its Content-Type names
    /// (one of `accepted`).
    pub fn input<T: Decode>(&mut self, accepted: &[&str]) -> Result<T, HttpError> {
        let body = std::mem::take(&mut self.body);
        let ct = self.header("content-type").unwrap_or("");
        let unsupported = || {
            HttpError::unsupported_media_type(format!(
                "Content-Type '{ct}' is not accepted here; send {}",
                accepted
                    .iter()
                    .map(|a| self.wire().media_type(a, Format::Xml) + " or +json")
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        };
        let input = InputType::parse(ct, &self.wire().vendor).ok_or_else(unsupported)?;
        let name = match &input.name {
            Some(n) => accepted
                .iter()
                .find(|a| a.eq_ignore_ascii_case(n))
                .ok_or_else(unsupported)?,
            None => accepted.first().ok_or_else(unsupported)?,
        };
        let text = std::str::from_utf8(&body)
            .map_err(|_| HttpError::bad_request("The request body is not UTF-8"))?;
        let mut path = Path::new(name, self.wire());
        match input.format {
            Format::Xml => {
                let root = XmlElement::parse(text).map_err(HttpError::bad_request)?;
                if root.any_text(&|t| t.contains('\0')) {
                    return Err(nul_in("The request body"));
                }
                Ok(T::decode(&root, &mut path)?)
            }
            Format::Json => decode_json(text, name, self.wire()),
        }
    }

    pub fn reply(&self, status: u16) -> Reply<'_> {
        Reply::new(self, status)
    }
}

/// `a=1&b=x%20y` → pairs, percent- and `+`-decoded.
pub fn parse_query(q: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(q.as_bytes()).into_owned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_strings_are_decoded() {
        assert_eq!(
            parse_query("a=1&b=x%20y+z&c&d=%2Fp"),
            vec![
                ("a".into(), "1".into()),
                ("b".into(), "x y z".into()),
                ("c".into(), "".into()),
                ("d".into(), "/p".into())
            ]
        );
        assert_eq!(parse_query("e=%"), vec![("e".into(), "%".into())]);
    }
}
