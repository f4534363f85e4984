//! The image variations a site offers: the reference's defaults (ibexa/core 4.6
//! `default_settings.yml`, `image_variations`) merged with those of a `--image-variations` YAML
//! file in the reference's shape (each variation a `reference` and `filters`, plus an output
//! `format` and `quality`). A variation is resolved once, at startup, to the whole chain of
//! filters from the original: unknown filters, references and keys are refused then, named.

use super::geometry::Filter;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Changes whenever rendering changes its output (an encoder, a filter's rounding): every kept
/// variation is then rendered anew under a new key.
const RENDER_VERSION: u32 = 1;

/// The encodings a variation may be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Jpeg,
    Png,
    Webp,
    Gif,
}

impl Format {
    fn parse(s: &str) -> Option<Format> {
        Some(match s.to_ascii_lowercase().as_str() {
            "jpeg" | "jpg" => Format::Jpeg,
            "png" => Format::Png,
            "webp" => Format::Webp,
            "gif" => Format::Gif,
            _ => return None,
        })
    }

    /// The format of a MIME type read from a file.
    pub fn of_mime(mime: &str) -> Option<Format> {
        Format::parse(mime.strip_prefix("image/")?)
    }

    pub fn mime(self) -> &'static str {
        match self {
            Format::Jpeg => "image/jpeg",
            Format::Png => "image/png",
            Format::Webp => "image/webp",
            Format::Gif => "image/gif",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Jpeg => "jpg",
            Format::Png => "png",
            Format::Webp => "webp",
            Format::Gif => "gif",
        }
    }
}

/// A variation resolved from the original: every filter of its references, then its own.
#[derive(Debug, Clone, PartialEq)]
pub struct Variation {
    pub name: String,
    pub filters: Vec<Filter>,
    /// The output format; `None`: the original's.
    pub format: Option<Format>,
    /// JPEG quality (1-100).
    pub quality: u8,
    /// Hex digest of the definition (filters, format, quality, renderer): part of the key a
    /// rendered file is kept under, so that a changed definition renders anew.
    pub digest: String,
}

/// The default JPEG quality (the reference leaves it to its image library's default).
const DEFAULT_QUALITY: u8 = 85;

/// The reference's default variations, in its own YAML shape.
const DEFAULTS: &str = "
reference:
    reference: ~
    filters:
        - { name: auto_rotate }
        - { name: geometry/scaledownonly, params: [600, 600] }
small:
    reference: reference
    filters:
        - { name: geometry/scaledownonly, params: [100, 100] }
tiny:
    reference: reference
    filters:
        - { name: geometry/scaledownonly, params: [30, 30] }
medium:
    reference: reference
    filters:
        - { name: geometry/scaledownonly, params: [200, 200] }
large:
    reference: reference
    filters:
        - { name: geometry/scaledownonly, params: [300, 300] }
";

/// The variations a site offers, by name; `original` is always there and is the original.
#[derive(Debug, Clone)]
pub struct Variations {
    by_name: BTreeMap<String, Variation>,
    /// Every name, `original` included, in alphabetical order (as REST lists them).
    names: Vec<String>,
}

/// A variation as written in YAML, before its references are resolved.
struct Written {
    reference: Option<String>,
    filters: Vec<Filter>,
    format: Option<Format>,
    quality: Option<u8>,
}

impl Variations {
    /// The reference's defaults.
    pub fn defaults() -> Variations {
        Variations::with(None).expect("the default variations are valid")
    }

    /// The defaults merged with the variations of the YAML file at `path` (a variation of
    /// the file replaces the default of its name).
    pub fn from_file(path: &std::path::Path) -> anyhow::Result<Variations> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("--image-variations {}: {e}", path.display()))?;
        Variations::with(Some(&text))
            .map_err(|e| anyhow::anyhow!("--image-variations {}: {e}", path.display()))
    }

    /// The defaults merged with the variations of the YAML `text`.
    pub fn with(text: Option<&str>) -> Result<Variations, String> {
        let mut written = read_yaml(DEFAULTS)?;
        if let Some(text) = text {
            written.extend(read_yaml(text)?);
        }
        if written.contains_key("original") {
            return Err("'original' is the original image and cannot be redefined".into());
        }
        let mut by_name = BTreeMap::new();
        for name in written.keys() {
            let v = resolve(name, &written, &mut Vec::new())?;
            by_name.insert(name.clone(), v);
        }
        let mut names: Vec<String> = by_name.keys().cloned().collect();
        names.push("original".into());
        names.sort();
        Ok(Variations { by_name, names })
    }

    /// The variation `name`; `None` for `original` and unknown names.
    pub fn get(&self, name: &str) -> Option<&Variation> {
        self.by_name.get(name)
    }

    /// Every name, `original` included, alphabetically.
    pub fn names(&self) -> &[String] {
        &self.names
    }
}

/// The variation `name` with the filters of its references before its own.
fn resolve(
    name: &str,
    written: &BTreeMap<String, Written>,
    seen: &mut Vec<String>,
) -> Result<Variation, String> {
    if seen.iter().any(|s| s == name) {
        return Err(format!(
            "variations reference each other in a circle: {} -> {name}",
            seen.join(" -> ")
        ));
    }
    let w = written.get(name).ok_or_else(|| {
        format!(
            "variation '{}' references an unknown variation '{name}'",
            seen.last().map_or("", |s| s.as_str())
        )
    })?;
    seen.push(name.to_string());
    let mut filters = match w.reference.as_deref() {
        None | Some("original") => Vec::new(),
        Some(r) => resolve(r, written, seen)?.filters,
    };
    seen.pop();
    filters.extend(w.filters.iter().cloned());
    let quality = w.quality.unwrap_or(DEFAULT_QUALITY);
    let definition = format!("v{RENDER_VERSION};{filters:?};{:?};{quality}", w.format);
    let digest: String = Sha256::digest(definition.as_bytes())
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok(Variation {
        name: name.to_string(),
        filters,
        format: w.format,
        quality,
        digest,
    })
}

/// The variations of a YAML text: a map of variations, or one under `image_variations` (at
/// the root, or under `ibexa.system.<scope>` as in a site's configuration).
fn read_yaml(text: &str) -> Result<BTreeMap<String, Written>, String> {
    let root: serde_yaml::Value =
        serde_yaml::from_str(text).map_err(|e| format!("not valid YAML: {e}"))?;
    let scoped = ["ibexa", "ezplatform", "ezpublish"]
        .iter()
        .find_map(|k| root.get(k))
        .and_then(|r| r.get("system"))
        .and_then(|s| s.as_mapping())
        .and_then(|scopes| scopes.values().find_map(|s| s.get("image_variations")));
    let map = scoped
        .or_else(|| root.get("image_variations"))
        .unwrap_or(&root);
    let map = match map {
        serde_yaml::Value::Null => return Ok(BTreeMap::new()),
        serde_yaml::Value::Mapping(m) => m,
        _ => return Err("give a map of variations (name: {reference, filters})".into()),
    };
    let mut out = BTreeMap::new();
    for (name, v) in map {
        let name = name
            .as_str()
            .ok_or_else(|| format!("a variation name is not a string: {name:?}"))?;
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(format!(
                "variation '{name}': a name is made of letters, digits, '_' and '-'"
            ));
        }
        out.insert(
            name.to_string(),
            written(v).map_err(|e| format!("variation '{name}': {e}"))?,
        );
    }
    Ok(out)
}

fn written(v: &serde_yaml::Value) -> Result<Written, String> {
    let Some(m) = v.as_mapping() else {
        return Err("give a map with reference and filters".into());
    };
    let mut w = Written {
        reference: None,
        filters: Vec::new(),
        format: None,
        quality: None,
    };
    let mut unknown_filters = Vec::new();
    for (k, v) in m {
        match k.as_str().unwrap_or_default() {
            "reference" => {
                w.reference = match v {
                    serde_yaml::Value::Null => None,
                    serde_yaml::Value::String(s) if s.is_empty() => None,
                    serde_yaml::Value::String(s) => Some(s.clone()),
                    _ => return Err("reference: give a variation's name, or ~".into()),
                }
            }
            "filters" => {
                for (name, params) in filter_entries(v)? {
                    match Filter::parse(&name, &params) {
                        Ok(Some(f)) => w.filters.push(f),
                        Ok(None) => unknown_filters.push(name),
                        Err(e) => return Err(format!("filter '{name}': {e}")),
                    }
                }
            }
            "format" => {
                let s = v.as_str().unwrap_or_default();
                w.format =
                    Some(Format::parse(s).ok_or_else(|| {
                        format!("format '{s}' is not one of jpeg, png, webp, gif")
                    })?);
            }
            "quality" => {
                w.quality = Some(
                    v.as_u64()
                        .filter(|q| (1..=100).contains(q))
                        .map(|q| q as u8)
                        .ok_or("quality: give a number from 1 to 100")?,
                )
            }
            other => {
                return Err(format!(
                    "unknown key '{other}' (known: reference, filters, format, quality)"
                ));
            }
        }
    }
    if !unknown_filters.is_empty() {
        return Err(format!(
            "unknown filters: {} (known: {})",
            unknown_filters.join(", "),
            Filter::NAMES.join(", ")
        ));
    }
    Ok(w)
}

/// The `(name, params)` of `filters`, written as a map (`geometry/scale: [100, 100]`) or as
/// a list (`- { name: geometry/scale, params: [100, 100] }`).
fn filter_entries(v: &serde_yaml::Value) -> Result<Vec<(String, Vec<serde_yaml::Value>)>, String> {
    let params = |p: Option<&serde_yaml::Value>| match p {
        None | Some(serde_yaml::Value::Null) => Vec::new(),
        Some(serde_yaml::Value::Sequence(s)) => s.clone(),
        Some(one) => vec![one.clone()],
    };
    match v {
        serde_yaml::Value::Null => Ok(Vec::new()),
        serde_yaml::Value::Mapping(m) => m
            .iter()
            .map(|(k, p)| {
                let name = k
                    .as_str()
                    .ok_or_else(|| "a filter name is not a string".to_string())?;
                Ok((name.to_string(), params(Some(p))))
            })
            .collect(),
        serde_yaml::Value::Sequence(list) => list
            .iter()
            .map(|f| {
                let name = f
                    .get("name")
                    .and_then(|n| n.as_str())
                    .ok_or_else(|| "filters: each item needs a name".to_string())?;
                Ok((name.to_string(), params(f.get("params"))))
            })
            .collect(),
        _ => Err("filters: give a map or a list of filters".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::images::geometry::Filter::*;

    #[test]
    fn the_defaults_are_the_references() {
        let v = Variations::defaults();
        assert_eq!(
            v.names(),
            ["large", "medium", "original", "reference", "small", "tiny"]
        );
        let small = v.get("small").unwrap();
        assert_eq!(
            small.filters,
            [AutoRotate, ScaleDownOnly(600, 600), ScaleDownOnly(100, 100)]
        );
        assert_eq!(small.format, None);
        assert!(v.get("original").is_none());
        assert_ne!(small.digest, v.get("tiny").unwrap().digest);
    }

    #[test]
    fn a_file_adds_and_replaces_variations() {
        let yaml = "
ibexa:
    system:
        default:
            image_variations:
                small:
                    reference: ~
                    filters:
                        geometry/scaleexact: [50, 40]
                thumb:
                    reference: small
                    filters:
                        - { name: geometry/crop, params: [20, 20, 5, 5] }
                        - { name: strip }
                    format: webp
                    quality: 70
";
        let v = Variations::with(Some(yaml)).unwrap();
        assert_eq!(v.get("small").unwrap().filters, [ScaleExact(50, 40)]);
        let thumb = v.get("thumb").unwrap();
        assert_eq!(
            thumb.filters,
            [ScaleExact(50, 40), Crop(20, 20, 5, 5), Strip]
        );
        assert_eq!((thumb.format, thumb.quality), (Some(Format::Webp), 70));
        assert!(v.names().contains(&"thumb".to_string()));
        // The defaults stay; a changed definition is another digest.
        let default_small = Variations::defaults().get("small").unwrap().digest.clone();
        assert_ne!(v.get("small").unwrap().digest, default_small);
    }

    #[test]
    fn mistakes_are_refused_and_named() {
        let refused = |yaml: &str| Variations::with(Some(yaml)).unwrap_err();
        let e = refused("x: {filters: {geometry/scale: [1, 1], sepia: [], blur: 3}}");
        assert!(e.contains("unknown filters: sepia, blur"), "{e}");
        assert!(refused("x: {reference: nope}").contains("unknown variation 'nope'"));
        assert!(refused("a: {reference: b}\nb: {reference: a}").contains("circle"));
        assert!(refused("x: {format: bmp}").contains("'bmp'"));
        assert!(refused("x: {quality: 0}").contains("quality"));
        assert!(refused("x: {post_processors: {}}").contains("'post_processors'"));
        assert!(refused("x: {filters: {geometry/scale: [1]}}").contains("geometry/scale"));
        assert!(refused("original: {}").contains("original"));
        assert!(refused("[1, 2]").contains("map"));
        assert!(refused("x: {filters: {geometry/scale: [1,1]}}\n'a b': {}").contains("'a b'"));
    }
}
