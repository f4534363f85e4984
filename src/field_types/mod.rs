//! The field type system: one registry, one module per field type.
//!
//! A field type knows its identifier, its settings and validators with their defaults, how it
//! reads a value from a REST `fieldValue` hash and writes it back, how it validates a value
//! against a Field definition, its empty value, its sort key, its text for content names and
//! URL aliases, and the relations a value implies. Values are stored as the normalized hash
//! `from_hash` returns (JSON in the database); nothing here touches the database or HTTP.
//!
//! The identifier prefix (`ez` in `ezstring`) is configuration: types are registered by their
//! bare name (`string`) and looked up by prefix + name.

use cairn_runtime::{Float, HashValue};

mod author;
mod binaryfile;
mod boolean;
mod country;
mod date;
mod datetime;
mod email;
pub mod files;
mod float;
mod gmaplocation;
mod image;
mod imageasset;
mod integer;
mod isbn;
mod keyword;
mod matrix;
mod media;
mod objectrelation;
mod objectrelationlist;
mod pattern;
mod richtext;
mod selection;
mod sniff;
mod string;
mod text;
mod time;
mod upload;
mod url;
mod user;
mod xml;

#[cfg(test)]
mod tests;

/// A validation failure of one value, reported in the `ErrorMessage`'s field details.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueError {
    /// The kind of failure, e.g. `text`, `integer`, `required`.
    pub kind: &'static str,
    pub message: String,
}

impl ValueError {
    pub fn new(kind: &'static str, message: impl Into<String>) -> ValueError {
        ValueError {
            kind,
            message: message.into(),
        }
    }
}

/// What a Field definition fixes for the values of its fields.
#[derive(Debug, Clone, Copy)]
pub struct Definition<'a> {
    /// `fieldSettings`, with every default filled in.
    pub settings: &'a HashValue,
    /// `validatorConfiguration`, with every default filled in.
    pub validators: &'a HashValue,
}

/// Where a value is read and written: what a type needs besides the value.
pub struct ValueContext<'a> {
    /// Where uploaded files (base64 `data` of ezimage, ezbinaryfile, ezmedia) are kept.
    pub files: &'a dyn FileStore,
    /// The stored field a value belongs to, when there is one (output of binary types needs
    /// it: `imageId` is `<contentId>-<fieldId>-<versionNo>`).
    pub field: Option<FieldIds>,
    /// The image field of the content item an `ezimageasset` value names, when it loads
    /// (its output variations name that image).
    pub asset: Option<FieldIds>,
}

/// The ids of a stored field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldIds {
    pub content_id: i64,
    pub field_id: i64,
    pub version_no: i64,
}

/// How many leading bytes of a stored file [`Stored::head`] keeps.
pub const HEAD_BYTES: usize = 256 * 1024;

/// A file just stored.
#[derive(Debug, Clone)]
pub struct Stored {
    pub path: String,
    pub size: i64,
    /// The first [`HEAD_BYTES`] bytes.
    pub head: Vec<u8>,
}

/// Keeps uploaded files outside the database, content-addressed.
pub trait FileStore: Send + Sync {
    /// Stores `data` under a path derived from its content and `file_name`; returns the
    /// path (relative, without a leading slash). Storing the same bytes twice is one file.
    /// A file stored for the first time is noted ([`files::note_created`]).
    fn put(&self, data: &[u8], file_name: &str) -> Result<String, String>;
    /// Removes the file at `path` (nothing when there is none).
    fn remove(&self, path: &str);
    /// Stores what `reader` yields, like [`FileStore::put`], without holding it all in memory;
    /// returns the path, the size and the first bytes (for sniffing the type).
    fn put_reader(
        &self,
        reader: &mut dyn std::io::Read,
        file_name: &str,
    ) -> Result<Stored, String> {
        let mut data = Vec::new();
        reader.read_to_end(&mut data).map_err(|e| e.to_string())?;
        let path = self.put(&data, file_name)?;
        let size = data.len() as i64;
        data.truncate(HEAD_BYTES);
        Ok(Stored {
            path,
            size,
            head: data,
        })
    }
    /// The URI a client downloads a stored path from (`/var/storage/<path>`).
    fn uri(&self, path: &str) -> String;
    /// The bytes of a stored path, `None` when the store does not hold it. Binary types use
    /// it to accept `{"inputUri": …}` / `{"id": …}` inputs that name an already stored file.
    fn read(&self, _path: &str) -> Option<Vec<u8>> {
        None
    }
}

/// How values of a type sort.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SortKey {
    None,
    Text(String),
    Int(i64),
}

/// A relation a field value implies (ezobjectrelation: ATTRIBUTE, rich text links: LINK, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelationKind {
    Embed = 2,
    Link = 4,
    Attribute = 8,
    Asset = 16,
}

pub trait FieldType: Send + Sync {
    /// The bare name: `string` for `ezstring`.
    fn name(&self) -> &'static str;

    /// A content type may hold at most one Field definition of this type (`ezuser`).
    fn is_singular(&self) -> bool {
        false
    }

    /// A Field definition of this type cannot be added to a content type that has content.
    fn only_without_content(&self) -> bool {
        false
    }

    /// `fieldSettings` with the defaults filled in; an error names the bad key or value.
    fn settings(&self, input: &HashValue) -> Result<HashValue, String>;

    /// `validatorConfiguration` with the defaults filled in; an error names the bad validator,
    /// key or value.
    fn validators(&self, input: &HashValue) -> Result<HashValue, String>;

    /// Reads a REST `fieldValue` (already decoded from XML or JSON) into the stored value.
    /// An error describes a value that is not of this type's shape.
    // The reference's name; `self` is the type, not the value converted.
    #[allow(clippy::wrong_self_convention)]
    fn from_hash(&self, input: &HashValue, cx: &ValueContext<'_>) -> Result<HashValue, ValueError>;

    /// The REST `fieldValue` of a stored value.
    fn to_hash(&self, value: &HashValue, cx: &ValueContext<'_>) -> HashValue;

    /// The value of a field that was not given.
    fn empty_value(&self) -> HashValue {
        HashValue::Null
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        value.is_null()
    }

    /// Checks a non-empty stored value against the definition (required-ness is checked by
    /// the caller); every failure is reported.
    fn validate(
        &self,
        value: &HashValue,
        def: &Definition<'_>,
        cx: &ValueContext<'_>,
    ) -> Vec<ValueError>;

    /// The key content is sorted by when sorting by this field.
    fn sort_key(&self, value: &HashValue) -> SortKey;

    /// The text a name schema (`<title>`) or URL alias uses.
    fn name_text(&self, value: &HashValue) -> String;

    /// The name text when the definition and the language are known: ezselection resolves
    /// its option labels from the settings; every other type answers `name_text`.
    fn name_text_in(&self, value: &HashValue, _def: &Definition<'_>, _language: &str) -> String {
        self.name_text(value)
    }

    /// The words full-text search finds the value by: the name text unless a type has more
    /// to say (a whole rich text, every author, every cell of a matrix).
    fn search_text(&self, value: &HashValue, def: &Definition<'_>, language: &str) -> String {
        self.name_text_in(value, def, language)
    }

    /// The content ids this value relates to.
    fn relations(&self, _value: &HashValue) -> Vec<(RelationKind, i64)> {
        Vec::new()
    }
}

/// The image variation aliases every image value offers.
pub fn image_aliases() -> &'static [&'static str] {
    image::VARIATIONS
}

/// Every field type, looked up by its full identifier.
pub struct Registry {
    prefix: String,
    types: Vec<Box<dyn FieldType>>,
}

impl Registry {
    /// All field types, identified as `<prefix><name>`.
    pub fn new(prefix: &str) -> Registry {
        Registry {
            prefix: prefix.to_string(),
            types: all(),
        }
    }

    /// The type of a full identifier (`ezstring`).
    pub fn get(&self, identifier: &str) -> Option<&dyn FieldType> {
        let name = identifier.strip_prefix(self.prefix.as_str())?;
        self.types
            .iter()
            .find(|t| t.name() == name)
            .map(|t| t.as_ref())
    }

    /// The full identifier of a bare name (`string` → `ezstring`).
    pub fn identifier(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// Every full identifier.
    pub fn identifiers(&self) -> Vec<String> {
        self.types
            .iter()
            .map(|t| self.identifier(t.name()))
            .collect()
    }
}

/// The registered field types.
fn all() -> Vec<Box<dyn FieldType>> {
    vec![
        Box::new(string::StringType),
        Box::new(text::TextType),
        Box::new(richtext::RichTextType),
        Box::new(integer::IntegerType),
        Box::new(float::FloatType),
        Box::new(boolean::BooleanType),
        Box::new(date::DateType),
        Box::new(datetime::DateTimeType),
        Box::new(time::TimeType),
        Box::new(email::EmailType),
        Box::new(url::UrlType),
        Box::new(image::ImageType),
        Box::new(binaryfile::BinaryFileType),
        Box::new(media::MediaType),
        Box::new(author::AuthorType),
        Box::new(objectrelation::ObjectRelationType),
        Box::new(objectrelationlist::ObjectRelationListType),
        Box::new(selection::SelectionType),
        Box::new(keyword::KeywordType),
        Box::new(country::CountryType),
        Box::new(isbn::IsbnType),
        Box::new(user::UserType),
        Box::new(gmaplocation::GmapLocationType),
        Box::new(imageasset::ImageAssetType),
        Box::new(matrix::MatrixType),
    ]
}

// ---------------------------------------------------------------------------------------
// Settings and validator schemas: each type declares its keys as data.

/// What a setting or validator parameter accepts.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    /// An integer (`null` gives the default).
    Int,
    /// An integer or `null`.
    OptInt,
    /// A boolean (also `0`/`1`, `"true"`/`"false"`).
    Bool,
    /// A boolean or `null`.
    OptBool,
    /// An integer, a float or `null`.
    Number,
    /// A string.
    Str,
    /// A string, an integer or `null` (location ids of the relation types).
    IdOrNull,
    /// A PHP array: a list or a hash.
    Array,
    /// An integer, a boolean or `null` (the password rules of ezuser).
    Flag,
    /// One of named constants: REST names them, the reference stores the raw value; the
    /// stored form is the name when there is one.
    Choice(&'static [Choice]),
}

/// A named constant of a `Kind::Choice`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Choice {
    /// The REST name (`DEFAULT_EMPTY`), empty when REST has none and shows the raw value.
    pub name: &'static str,
    pub raw: Raw,
}

/// The raw value of a named constant.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Raw {
    Int(i64),
    Str(&'static str),
}

/// A default value.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Dflt {
    Null,
    Int(i64),
    Bool(bool),
    Str(&'static str),
    EmptyList,
    /// Not filled in when absent (optional parameters without a reference default).
    Absent,
}

impl Dflt {
    fn value(self) -> Option<HashValue> {
        match self {
            Dflt::Null => Some(HashValue::Null),
            Dflt::Int(i) => Some(HashValue::Int(i)),
            Dflt::Bool(b) => Some(HashValue::Bool(b)),
            Dflt::Str(s) => Some(HashValue::String(s.to_string())),
            Dflt::EmptyList => Some(HashValue::List(Vec::new())),
            Dflt::Absent => None,
        }
    }
}

/// One setting or validator parameter: its key, what it accepts and its default.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Param {
    pub key: &'static str,
    pub kind: Kind,
    pub default: Dflt,
}

pub(crate) const fn param(key: &'static str, kind: Kind, default: Dflt) -> Param {
    Param { key, kind, default }
}

/// A validator: its name and parameters.
pub(crate) type ValidatorSchema = (&'static str, &'static [Param]);

/// Whose key a message is about.
#[derive(Clone, Copy)]
enum Scope {
    Setting,
    Parameter,
}

impl Scope {
    fn name(self, key: &str) -> String {
        match self {
            Scope::Setting => format!("Setting '{key}'"),
            Scope::Parameter => format!("Validator parameter '{key}'"),
        }
    }
}

/// The entries of a hash input; `null`, `""` and `[]` are an empty hash.
pub(crate) fn entries(input: &HashValue) -> Option<Vec<(String, HashValue)>> {
    match input {
        HashValue::Null => Some(Vec::new()),
        HashValue::Map(m) => Some(m.clone()),
        HashValue::List(l) if l.is_empty() => Some(Vec::new()),
        HashValue::String(s) if s.trim().is_empty() => Some(Vec::new()),
        _ => None,
    }
}

/// Checks one value against its kind; returns the value to store.
fn coerce(value: &HashValue, p: &Param, scope: Scope) -> Result<HashValue, String> {
    let who = scope.name(p.key);
    let default = || p.default.value().unwrap_or(HashValue::Null);
    match p.kind {
        Kind::Int => match value {
            HashValue::Null => Ok(default()),
            v => v
                .as_i64()
                .map(HashValue::Int)
                .ok_or_else(|| format!("{who} value must be of integer type")),
        },
        Kind::OptInt => match value {
            HashValue::Null => Ok(HashValue::Null),
            v => v
                .as_i64()
                .map(HashValue::Int)
                .ok_or_else(|| format!("{who} value must be of integer type")),
        },
        Kind::Bool | Kind::OptBool => match value {
            HashValue::Null if matches!(p.kind, Kind::OptBool) => Ok(HashValue::Null),
            HashValue::Null => Ok(default()),
            HashValue::String(s) if s.is_empty() => {
                Err(format!("{who} value must be of boolean type"))
            }
            v => v
                .as_bool()
                .map(HashValue::Bool)
                .ok_or_else(|| format!("{who} value must be of boolean type")),
        },
        Kind::Number => match value {
            HashValue::Null => Ok(HashValue::Null),
            HashValue::Int(_) | HashValue::Float(_) => Ok(value.clone()),
            HashValue::String(s) => match number_of(s) {
                Some(n) => Ok(n),
                None => Err(format!("{who} value must be of numeric type")),
            },
            _ => Err(format!("{who} value must be of numeric type")),
        },
        Kind::Str => match value {
            HashValue::Null => Ok(default()),
            HashValue::String(_) => Ok(value.clone()),
            HashValue::Int(_) | HashValue::Float(_) => Ok(HashValue::String(text_of(value))),
            _ => Err(format!("{who} value must be of string type")),
        },
        Kind::IdOrNull => match value {
            HashValue::Null | HashValue::Int(_) => Ok(value.clone()),
            HashValue::String(s) if s.is_empty() => Ok(HashValue::Null),
            HashValue::String(_) => Ok(value.clone()),
            _ => Err(format!(
                "{who} value must be of either null, string or integer"
            )),
        },
        Kind::Array => match value {
            HashValue::Null => Ok(default()),
            HashValue::List(_) | HashValue::Map(_) => Ok(value.clone()),
            _ => Err(format!("{who} value must be of array type")),
        },
        Kind::Flag => match value {
            HashValue::Null | HashValue::Int(_) | HashValue::Bool(_) => Ok(value.clone()),
            v => v
                .as_i64()
                .map(HashValue::Int)
                .ok_or_else(|| format!("{who} value must be of integer type")),
        },
        Kind::Choice(choices) => {
            if value.is_null() {
                return Ok(default());
            }
            choose(value, choices).ok_or_else(|| format!("{who} is of unknown type"))
        }
    }
}

/// The stored form of a named constant given by name or raw value.
fn choose(value: &HashValue, choices: &[Choice]) -> Option<HashValue> {
    let found = choices.iter().find(|c| {
        (!c.name.is_empty() && value.as_str() == Some(c.name))
            || match c.raw {
                Raw::Int(i) => matches!(value, HashValue::Int(_)) && value.as_i64() == Some(i),
                Raw::Str(s) => value.as_str() == Some(s),
            }
    })?;
    Some(if found.name.is_empty() {
        match found.raw {
            Raw::Int(i) => HashValue::Int(i),
            Raw::Str(s) => HashValue::String(s.to_string()),
        }
    } else {
        HashValue::String(found.name.to_string())
    })
}

/// The raw value of a stored named constant (`"DEFAULT_EMPTY"` → 0).
pub(crate) fn choice_raw(value: Option<&HashValue>, choices: &[Choice]) -> Option<Raw> {
    let value = value?;
    choices
        .iter()
        .find(|c| {
            (!c.name.is_empty() && value.as_str() == Some(c.name))
                || match c.raw {
                    Raw::Int(i) => matches!(value, HashValue::Int(n) if *n == i),
                    Raw::Str(s) => value.as_str() == Some(s),
                }
        })
        .map(|c| c.raw)
}

/// Checks a hash against a schema and fills in the defaults, in schema order; errors are
/// collected and joined.
fn check_params(
    input: &[(String, HashValue)],
    schema: &[Param],
    scope: Scope,
    errors: &mut Vec<String>,
) -> HashValue {
    let mut out = Vec::new();
    for (key, _) in input {
        if !schema.iter().any(|p| p.key == key) {
            errors.push(match scope {
                Scope::Setting => format!("Setting '{key}' is unknown"),
                Scope::Parameter => format!("Validator parameter '{key}' is unknown"),
            });
        }
    }
    for p in schema {
        match input.iter().find(|(k, _)| k == p.key) {
            Some((_, v)) => match coerce(v, p, scope) {
                Ok(v) => out.push((p.key.to_string(), v)),
                Err(e) => errors.push(e),
            },
            None => {
                if let Some(d) = p.default.value() {
                    out.push((p.key.to_string(), d));
                }
            }
        }
    }
    HashValue::Map(out)
}

fn joined(errors: Vec<String>) -> String {
    errors.join("; ")
}

/// `fieldSettings` checked against `schema`, with the defaults filled in.
pub(crate) fn check_settings(input: &HashValue, schema: &[Param]) -> Result<HashValue, String> {
    let Some(input) = entries(input) else {
        return Err("fieldSettings must be a hash".to_string());
    };
    let mut errors = Vec::new();
    let out = check_params(&input, schema, Scope::Setting, &mut errors);
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(joined(errors))
    }
}

/// `validatorConfiguration` checked against the validators of a type, every validator and
/// parameter filled in with its default.
pub(crate) fn check_validators(
    input: &HashValue,
    schema: &[ValidatorSchema],
) -> Result<HashValue, String> {
    let Some(input) = entries(input) else {
        return Err("validatorConfiguration must be a hash".to_string());
    };
    let mut errors = Vec::new();
    for (name, _) in &input {
        if !schema.iter().any(|(n, _)| n == name) {
            errors.push(format!("Validator '{name}' is unknown"));
        }
    }
    let mut out = Vec::new();
    for (name, params) in schema {
        let given = input
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        match entries(&given) {
            Some(given) => {
                let checked = check_params(&given, params, Scope::Parameter, &mut errors);
                out.push((name.to_string(), checked));
            }
            None => errors.push(format!("Validator '{name}' configuration must be a hash")),
        }
    }
    if errors.is_empty() {
        Ok(HashValue::Map(out))
    } else {
        Err(joined(errors))
    }
}

/// An empty hash: the settings or validators of a type that has none (any key is refused).
pub(crate) fn no_settings(input: &HashValue) -> Result<HashValue, String> {
    check_settings(input, &[])
}

pub(crate) fn no_validators(input: &HashValue) -> Result<HashValue, String> {
    check_validators(input, &[])
}

// ---------------------------------------------------------------------------------------
// Value helpers.

/// A hash from pairs, in order.
pub(crate) fn map<const N: usize>(pairs: [(&str, HashValue); N]) -> HashValue {
    HashValue::Map(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// A value of a hash, `Null` when absent.
pub(crate) fn field<'a>(value: &'a HashValue, key: &str) -> &'a HashValue {
    const NULL: &HashValue = &HashValue::Null;
    value.get(key).unwrap_or(NULL)
}

/// A scalar as PHP's `(string)` prints it: `true` → `"1"`, `false` → `""`, floats with 14
/// significant digits.
pub(crate) fn text_of(value: &HashValue) -> String {
    match value {
        HashValue::String(s) => s.clone(),
        HashValue::Int(i) => i.to_string(),
        HashValue::Float(f) => php_float(f.0),
        HashValue::Bool(true) => "1".to_string(),
        _ => String::new(),
    }
}

/// An optional string of a hash (`null` and non-scalars are `None`).
pub(crate) fn opt_text(value: &HashValue) -> Option<String> {
    match value {
        HashValue::String(_) | HashValue::Int(_) | HashValue::Float(_) | HashValue::Bool(_) => {
            Some(text_of(value))
        }
        _ => None,
    }
}

/// A float printed like PHP's `(string)` cast (`precision` 14): `1.5`, `2`, `0.3`, `1.0E+25`.
pub(crate) fn php_float(f: f64) -> String {
    if !f.is_finite() {
        return if f.is_nan() {
            "NAN".to_string()
        } else if f > 0.0 {
            "INF".to_string()
        } else {
            "-INF".to_string()
        };
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    // %.14G: 14 significant digits, scientific below 1e-4 or from 1e14 on.
    let sci = format!("{:.13e}", f);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..14).contains(&exp) {
        let m = trim_zeros(mantissa);
        let m = if m.contains('.') { m } else { format!("{m}.0") };
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{m}E{sign}{}", exp.abs());
    }
    let decimals = (13 - exp).max(0) as usize;
    trim_zeros(&format!("{:.*}", decimals, f))
}

fn trim_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// A number of a numeric string (`"12"` → Int, `"1.5"` → Float).
pub(crate) fn number_of(s: &str) -> Option<HashValue> {
    let s = s.trim();
    if let Ok(i) = s.parse::<i64>() {
        return Some(HashValue::Int(i));
    }
    s.parse::<f64>()
        .ok()
        .filter(|f| f.is_finite())
        .map(|f| HashValue::Float(Float(f)))
}

/// A content id: an integer or a numeric string.
pub(crate) fn id_of(value: &HashValue) -> Option<i64> {
    match value {
        HashValue::Int(i) => Some(*i),
        HashValue::String(s) => s.trim().parse().ok(),
        HashValue::Float(f) if f.0.fract() == 0.0 => Some(f.0 as i64),
        _ => None,
    }
}

/// The items of a list input; a scalar or hash given where a list is expected (a one-item
/// list decoded from XML) is a list of one; `null` is empty.
pub(crate) fn items(value: &HashValue) -> Vec<HashValue> {
    match value {
        HashValue::Null => Vec::new(),
        HashValue::List(l) => l.clone(),
        other => vec![other.clone()],
    }
}

/// A sort key text: lowercased and cut to 255 characters.
pub(crate) fn sort_text(s: &str) -> SortKey {
    SortKey::Text(s.to_lowercase().chars().take(255).collect())
}

/// `%size% character.` / `%size% characters.`: the reference's singular and plural forms.
pub(crate) fn plural(n: i64, singular: &str, plural: &str) -> String {
    if n == 1 {
        singular.replace("%size%", &n.to_string())
    } else {
        plural.replace("%size%", &n.to_string())
    }
}

/// The reference's `EmailAddressValidator` pattern: a dot-atom or quoted local part, `@`, and
/// a dotted IPv4 address (bare or in brackets) or a domain whose last label has 2+ letters.
pub(crate) fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let local_ok = if local.len() >= 2 && local.starts_with('"') && local.ends_with('"') {
        let inner = &local[1..local.len() - 1];
        !inner.is_empty()
            && !inner
                .chars()
                .any(|c| matches!(c, '"' | '\x0c' | '\n' | '\r' | '\t' | '\x0b' | '\x08'))
    } else {
        !local.is_empty()
            && local.split('.').all(|atom| {
                !atom.is_empty()
                    && atom
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_!#$%&'*+-~/^`|{}".contains(c))
            })
    };
    local_ok
        && (is_ipv4(domain.trim_start_matches('[').trim_end_matches(']')) || is_domain(domain))
        && (domain.starts_with('[') == domain.ends_with(']'))
}

fn is_ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

fn is_domain(s: &str) -> bool {
    let labels: Vec<&str> = s.split('.').collect();
    let Some((last, rest)) = labels.split_last() else {
        return false;
    };
    !rest.is_empty()
        && rest
            .iter()
            .all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        && last.len() >= 2
        && last.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
}
