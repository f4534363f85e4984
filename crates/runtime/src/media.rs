//! Content negotiation: which format and which representation variant a request asks for,
//! and what a request body's `Content-Type` names.

/// The two wire formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Xml,
    Json,
}

impl Format {
    pub fn suffix(self) -> &'static str {
        match self {
            Format::Xml => "xml",
            Format::Json => "json",
        }
    }
}

/// Vendors accepted as synonyms of the configured one in `Accept` and `Content-Type`
/// (the 3.x and 4.x names of the same API).
const KNOWN_VENDORS: &[&str] = &["ibexa", "ez"];

/// What the `Accept` header asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Negotiation {
    pub format: Format,
    /// The type named in the chosen media range (`ContentInfo` in
    /// `application/vnd.ibexa.api.ContentInfo+json`), which selects representation variants.
    pub type_name: Option<String>,
}

impl Negotiation {
    /// Follows the reference: media ranges by `q`, then order; the first vendor `+json` or
    /// `application/json` gives JSON, anything else (also none, `*/*` or a dangling
    /// `application/vnd.ibexa.api.`) gives XML.
    pub fn from_accept(accept: Option<&str>, vendor: &str) -> Negotiation {
        let xml = Negotiation {
            format: Format::Xml,
            type_name: None,
        };
        let Some(accept) = accept else { return xml };
        // The range with the highest `q` (the first of equals) among those naming a media
        // type decides; ranges without one are passed over.
        let mut best: Option<(f32, &str)> = None;
        for r in accept.split(',') {
            let mut parts = r.split(';');
            let media = parts.next().unwrap_or("").trim();
            if !media.contains('/') {
                continue;
            }
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if best.is_none_or(|(b, _)| q > b) {
                best = Some((q, media));
            }
        }
        let Some((_, media)) = best else { return xml };
        if media.eq_ignore_ascii_case("application/json") {
            return Negotiation {
                format: Format::Json,
                type_name: None,
            };
        }
        match vendor_type(media, vendor) {
            Some((name, format)) => Negotiation {
                format,
                type_name: Some(name.to_string()),
            },
            None => xml,
        }
    }

    /// Whether the Accept named `name` (case-insensitively), for variant selection.
    pub fn names(&self, name: &str) -> bool {
        self.type_name
            .as_deref()
            .is_some_and(|t| t.eq_ignore_ascii_case(name))
    }
}

/// `application/vnd.<vendor>.api.<Name>+<fmt>` → (`Name`, format); `None` when it is not one.
fn vendor_type<'a>(media: &'a str, vendor: &str) -> Option<(&'a str, Format)> {
    let rest = media.strip_prefix("application/vnd.")?;
    let (v, rest) = rest.split_once('.')?;
    if v != vendor && !KNOWN_VENDORS.contains(&v) {
        return None;
    }
    let rest = rest.strip_prefix("api.")?;
    let (name, fmt) = rest.rsplit_once('+')?;
    let format = match fmt {
        "json" => Format::Json,
        "xml" => Format::Xml,
        _ => return None,
    };
    if name.is_empty()
        || !name
            .split('.')
            .all(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphabetic()))
    {
        return None;
    }
    Some((name, format))
}

/// A request body's `Content-Type`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputType {
    /// The type name, `None` for plain `application/json` or `application/xml`.
    pub name: Option<String>,
    pub format: Format,
    /// The `version` parameter (`1.1` for ViewInput), default `1.0`.
    pub version: String,
}

impl InputType {
    /// Reads a `Content-Type`: the type name and format (no `+`: XML) and the `version`
    /// parameter. `None` when it names no media type this API reads.
    pub fn parse(content_type: &str, vendor: &str) -> Option<InputType> {
        let mut parts = content_type.split(';');
        let media = parts.next()?.trim();
        let version = parts
            .filter_map(|p| p.trim().strip_prefix("version="))
            .map(|v| v.trim().trim_matches('"').to_string())
            .next()
            .unwrap_or_else(|| "1.0".to_string());
        if media.eq_ignore_ascii_case("application/json") {
            return Some(InputType {
                name: None,
                format: Format::Json,
                version,
            });
        }
        if media.eq_ignore_ascii_case("application/xml") || media.eq_ignore_ascii_case("text/xml") {
            return Some(InputType {
                name: None,
                format: Format::Xml,
                version,
            });
        }
        if let Some((name, format)) = vendor_type(media, vendor) {
            return Some(InputType {
                name: Some(name.to_string()),
                format,
                version,
            });
        }
        // The reference reads a vendor type without `+format` as XML.
        let rest = media.strip_prefix("application/vnd.")?;
        let (v, rest) = rest.split_once('.')?;
        let name = rest.strip_prefix("api.")?;
        if (v == vendor || KNOWN_VENDORS.contains(&v))
            && !name.is_empty()
            && !name.contains('+')
            && name.bytes().all(|b| b.is_ascii_alphanumeric())
        {
            return Some(InputType {
                name: Some(name.to_string()),
                format: Format::Xml,
                version,
            });
        }
        None
    }
}

/// The vendor-specific media type names of one server: built once from the configured vendor.
#[derive(Debug, Clone)]
pub struct Wire {
    /// `/api/ibexa/v2`, or with a sub-folder `/cms/api/ibexa/v2`.
    pub prefix: String,
    pub vendor: String,
    /// `application/vnd.ibexa.api.`
    media_prefix: String,
}

impl Wire {
    pub fn new(vendor: &str, prefix: &str) -> Wire {
        Wire {
            prefix: prefix.trim_end_matches('/').to_string(),
            vendor: vendor.to_string(),
            media_prefix: format!("application/vnd.{vendor}.api."),
        }
    }

    /// `application/vnd.ibexa.api.Section+json`.
    pub fn media_type(&self, name: &str, format: Format) -> String {
        format!("{}{name}+{}", self.media_prefix, format.suffix())
    }

    pub fn media_prefix(&self) -> &str {
        &self.media_prefix
    }

    /// Strips the API prefix from an href a client sent; `None` when it lies elsewhere.
    pub fn strip_prefix<'a>(&self, href: &'a str) -> Option<&'a str> {
        let path = href.split(['?', '#']).next().unwrap_or(href);
        let path = match path.find("://") {
            // An absolute URL: keep its path.
            Some(i) => &path[i + 3..][path[i + 3..].find('/').unwrap_or(path.len() - i - 3)..],
            None => path,
        };
        let rest = path.strip_prefix(self.prefix.as_str())?;
        if rest.is_empty() {
            Some("/")
        } else if rest.starts_with('/') {
            Some(rest)
        } else {
            None
        }
    }
}

/// A row of the generated media-type table.
#[derive(Debug)]
pub struct MediaTypeInfo {
    /// The media type name (`Section` in `application/vnd.<vendor>.api.Section+xml`).
    pub name: &'static str,
    /// The model type that carries it.
    pub type_name: &'static str,
    /// Its root element.
    pub element: &'static str,
    /// Read from request bodies.
    pub input: bool,
    /// Written in responses.
    pub output: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neg(accept: Option<&str>) -> Negotiation {
        Negotiation::from_accept(accept, "ibexa")
    }

    #[test]
    fn accept_picks_format_and_variant() {
        assert_eq!(neg(None).format, Format::Xml);
        assert_eq!(neg(Some("*/*")).format, Format::Xml);
        assert_eq!(neg(Some("text/html")).format, Format::Xml);
        assert_eq!(neg(Some("application/vnd.ibexa.api.")).format, Format::Xml);
        assert_eq!(neg(Some("application/json")).format, Format::Json);
        let n = neg(Some("application/vnd.ibexa.api.ContentInfo+json"));
        assert_eq!(n.format, Format::Json);
        assert!(n.names("contentinfo"));
        let n = neg(Some("application/vnd.ibexa.api.View+json; version=1.1"));
        assert_eq!(n.format, Format::Json);
        assert!(n.names("View"));
        let n = neg(Some(
            "application/xml;q=0.5, application/vnd.ibexa.api.Section+json",
        ));
        assert_eq!(n.format, Format::Json);
        assert_eq!(
            neg(Some("application/vnd.other.api.Section+json")).format,
            Format::Xml
        );
        assert_eq!(
            neg(Some("application/vnd.ez.api.Section+json")).format,
            Format::Json
        );
    }

    #[test]
    fn content_type_names_input_and_format() {
        let t = InputType::parse(
            "application/vnd.ibexa.api.SectionInput+json; charset=utf-8",
            "ibexa",
        )
        .unwrap();
        assert_eq!(t.name.as_deref(), Some("SectionInput"));
        assert_eq!(t.format, Format::Json);
        let t = InputType::parse(
            "application/vnd.ibexa.api.ViewInput+xml; version=1.1",
            "ibexa",
        )
        .unwrap();
        assert_eq!(t.version, "1.1");
        let t = InputType::parse("application/vnd.ibexa.api.SectionInput", "ibexa").unwrap();
        assert_eq!(t.format, Format::Xml);
        assert!(InputType::parse("text/plain", "ibexa").is_none());
    }

    #[test]
    fn hrefs_lose_the_prefix() {
        let w = Wire::new("ibexa", "/api/ibexa/v2");
        assert_eq!(
            w.strip_prefix("/api/ibexa/v2/content/sections/1"),
            Some("/content/sections/1")
        );
        assert_eq!(
            w.strip_prefix("http://h:8080/api/ibexa/v2/content/types/1"),
            Some("/content/types/1")
        );
        assert_eq!(w.strip_prefix("/api/ibexa/v2"), Some("/"));
        assert_eq!(w.strip_prefix("/other/content"), None);
        assert_eq!(w.strip_prefix("/api/ibexa/v2x/a"), None);
    }
}
