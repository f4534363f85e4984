//! `ezurl`: a link with an optional text, stored as `{link, text}`; `null` when empty.

use super::*;

pub(crate) struct UrlType;

fn link(value: &HashValue) -> String {
    field(value, "link")
        .as_str()
        .unwrap_or_default()
        .to_string()
}

impl FieldType for UrlType {
    fn schema(&self) -> Schema {
        Schema::named("url")
    }

    /// `{"link": …[, "text": …]}`; a bare string is the link.
    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        let (link, text) = match input {
            HashValue::Null => return Ok(HashValue::Null),
            HashValue::Map(_) => (
                opt_text(field(input, "link")),
                opt_text(field(input, "text")),
            ),
            HashValue::List(_) => {
                return Err(ValueError::new("link", "Value must be a hash with a link"));
            }
            v => (opt_text(v), None),
        };
        let link = link.filter(|l| !l.trim().is_empty());
        let text = text.filter(|t| !t.is_empty());
        if link.is_none() && text.is_none() {
            return Ok(HashValue::Null);
        }
        Ok(map([
            ("link", link.map_or(HashValue::Null, HashValue::String)),
            ("text", text.map_or(HashValue::Null, HashValue::String)),
        ]))
    }

    fn to_hash(&self, value: &HashValue, _: &ValueContext<'_>) -> HashValue {
        match value {
            HashValue::Map(_) => map([
                ("link", field(value, "link").clone()),
                ("text", field(value, "text").clone()),
            ]),
            _ => HashValue::Null,
        }
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        link(value).trim().is_empty() && field(value, "text").is_null()
    }

    /// The reference does not check links; this refuses only what cannot be a URL at all: a
    /// missing link, or whitespace and control characters in it.
    fn validate(&self, value: &HashValue, _def: &Definition<'_>) -> Vec<ValueError> {
        let l = link(value);
        if l.trim().is_empty() || l.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return vec![ValueError::new("link", "The link must be a valid URL.")];
        }
        Vec::new()
    }

    /// The text of the link.
    fn name_text(&self, value: &HashValue) -> String {
        field(value, "text")
            .as_str()
            .unwrap_or_default()
            .to_string()
    }
}
