//! The spec files as written by hand: YAML, one file per resource family.
//!
//! This module only reads; it never judges. [`crate::model`] validates what is read here and
//! names the file and entry of every problem. The format is documented in `spec/README.md`.

use anyhow::{Context, Result};
use indexmap::IndexMap;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// `spec/api.yaml`: what the whole API shares.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawApi {
    pub info: RawInfo,
    /// Path parameters by name: `int`, `string` or `path` (a slash-separated id chain).
    pub params: IndexMap<String, String>,
    /// Error codes every endpoint may answer, besides its own list.
    #[serde(default)]
    pub common_errors: Vec<u16>,
    /// The reference's policy map: module → function → the limitations it takes.
    #[serde(default)]
    pub policies: IndexMap<String, IndexMap<String, Vec<String>>>,
    /// The tags of the shared HTTP cache an answer carries for a path parameter: parameter →
    /// `c`, `s`, `t`, `tg` (the tag prefix) or `path` (a Location path: `l`, `pl`, `p`).
    #[serde(default)]
    pub tags: IndexMap<String, String>,
    #[serde(default)]
    pub types: IndexMap<String, RawType>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawInfo {
    pub title: String,
    pub version: String,
    pub description: String,
    /// The vendor segment used when the server is not configured otherwise.
    pub vendor: String,
}

/// `spec/<family>.yaml`: the types and endpoints of one resource family.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFamily {
    pub doc: String,
    #[serde(default)]
    pub types: IndexMap<String, RawType>,
    #[serde(default)]
    pub endpoints: IndexMap<String, RawEndpoint>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawType {
    pub doc: String,
    /// Root element name when it differs from the type name.
    pub element: Option<String>,
    /// Media type name: the element carries `media-type`.
    pub media: Option<String>,
    /// The element carries its own `href`.
    #[serde(default)]
    pub href: bool,
    /// Element name → type expression, in XML order.
    pub fields: Option<IndexMap<String, String>>,
    /// A union: the value is one of these types, written as that type's element.
    pub one_of: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEndpoint {
    pub doc: String,
    pub method: String,
    pub path: String,
    /// Query parameter → `type`, `type?` or `type = default`.
    #[serde(default)]
    pub query: IndexMap<String, String>,
    /// Request headers handed to the operation: `If-Match`, `Destination`, `Destination?`.
    #[serde(default)]
    pub headers: Vec<String>,
    /// Accepted input media types (request body).
    pub input: Option<OneOrMany>,
    /// `public`, `read` or `write`; by default `read` for GET and HEAD, `write` otherwise.
    pub access: Option<String>,
    /// The Policy (`module/function`) the caller needs, several when the input decides which,
    /// or `none`. Required: an endpoint cannot forget its permission.
    pub policy: Option<OneOrMany>,
    /// The Policy filters what the operation lists: a caller without it gets an empty list,
    /// not a 401.
    #[serde(default)]
    pub filters: bool,
    /// Unsafe methods in a session need `X-CSRF-Token` unless this is false.
    #[serde(default = "yes")]
    pub csrf: bool,
    /// The 200 answer of a GET, or of a POST that only reads (`access: read`: a search), is
    /// kept in the response cache unless this is false (an answer that depends on more than
    /// the request and the caller, such as the session itself).
    #[serde(default = "yes")]
    pub cache: bool,
    /// What a kept answer shows, as the events of changes name it: `content:<param>` (a
    /// content item, by that path parameter) or `location:<param>` (a Location, by the last
    /// id of that path). A change that names something else leaves the answer kept.
    pub shows: Option<String>,
    /// A write whose event names all it changed of what kept answers show (`shows`); any
    /// other change drops every kept answer.
    #[serde(default)]
    pub narrow: bool,
    /// How a shared HTTP cache may keep the answer of a GET: `public` (kept for the TTL,
    /// varying on the user context, as the reference's `CachedValue`), `no-store` (session
    /// and credentials); otherwise private.
    pub edge: Option<String>,
    /// A GET also answered as Server-Sent Events (`Accept: text/event-stream`): a stream of
    /// this type, which has an `id`, each item its JSON document and its `id` the event's.
    pub stream: Option<String>,
    pub responses: IndexMap<u16, Option<RawResponse>>,
    #[serde(default)]
    pub errors: Vec<u16>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    pub fn to_vec(&self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s.clone()],
            OneOrMany::Many(v) => v.clone(),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum RawResponse {
    /// Just the body type.
    Body(String),
    /// Just the body types chosen by Accept.
    Bodies(Vec<String>),
    Full(RawResponseFull),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawResponseFull {
    /// One body type, or several chosen by the type name in `Accept` (the first is the default).
    pub body: Option<OneOrMany>,
    #[serde(default)]
    pub etag: bool,
    #[serde(default)]
    pub location: bool,
    pub accept_patch: Option<String>,
    /// Further response headers the operation sets, e.g. `Set-Cookie`.
    #[serde(default)]
    pub headers: Vec<String>,
    pub doc: Option<String>,
}

/// One example body of `examples/`: `<TypeName>.json` or `<TypeName>.xml`.
pub struct RawExample {
    /// The file's path under the spec directory, for messages (`examples/Section.json`).
    pub file: String,
    pub type_name: String,
    pub format: ExampleFormat,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExampleFormat {
    Json,
    Xml,
}

/// Everything read from a spec directory, families in file-name order.
pub struct RawSpec {
    pub api: RawApi,
    pub families: Vec<(String, RawFamily)>,
    /// The example bodies of `examples/`, in file-name order (none when the folder is absent).
    pub examples: Vec<RawExample>,
    /// Every file read, for `rerun-if-changed`.
    pub files: Vec<PathBuf>,
}

/// Reads `api.yaml` and every other `*.yaml` file of `dir`.
pub fn read_dir(dir: &Path) -> Result<RawSpec> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading spec directory {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let api_path = dir.join("api.yaml");
    let api: RawApi = read_yaml(&api_path)?;
    let mut families = Vec::new();
    for path in &files {
        if *path == api_path {
            continue;
        }
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .context("spec file name is not UTF-8")?
            .to_string();
        families.push((stem, read_yaml(path)?));
    }
    let examples = read_examples(dir, &mut files)?;
    Ok(RawSpec {
        api,
        families,
        examples,
        files,
    })
}

/// Reads `dir/examples/*.json` and `*.xml`, adding each file to `files`; any other file there
/// is an error, so that a misnamed example is not silently left out.
fn read_examples(dir: &Path, files: &mut Vec<PathBuf>) -> Result<Vec<RawExample>> {
    let folder = dir.join("examples");
    if !folder.is_dir() {
        return Ok(Vec::new());
    }
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&folder)
        .with_context(|| format!("reading {}", folder.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let name = path
            .file_name()
            .and_then(|s| s.to_str())
            .context("example file name is not UTF-8")?;
        let (type_name, format) = match name.rsplit_once('.') {
            Some((stem, "json")) => (stem, ExampleFormat::Json),
            Some((stem, "xml")) => (stem, ExampleFormat::Xml),
            _ => anyhow::bail!(
                "{}: examples are named <TypeName>.json or <TypeName>.xml",
                path.display()
            ),
        };
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        out.push(RawExample {
            file: format!("examples/{name}"),
            type_name: type_name.to_string(),
            format,
            text,
        });
        files.push(path);
    }
    Ok(out)
}

fn read_yaml<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_yaml::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}
