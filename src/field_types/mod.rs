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

use crate::storage::FileStore;
use cairn_runtime::{Float, HashValue};

mod author;
mod binaryfile;
mod boolean;
pub mod country;
mod date;
mod dates;
mod datetime;
mod email;
pub mod files;
mod gmaplocation;
mod image;
mod imageasset;
mod isbn;
mod keyword;
mod matrix;
mod number;
mod objectrelation;
mod objectrelationlist;
mod pattern;
mod relations;
pub(crate) mod richtext;
mod schema;
mod selection;
pub(crate) mod sniff;
mod string;
mod text;
mod texts;
mod time;
mod upload;
mod url;
mod user;
mod values;
mod xml;

#[cfg(test)]
mod tests;

pub(crate) use schema::*;
pub(crate) use values::*;

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
    /// The image variations offered, `original` included, alphabetically (the `variations`
    /// hrefs of image values).
    pub variations: &'a [String],
    /// The stored field a value belongs to, when there is one (output of binary types needs
    /// it: `imageId` is `<contentId>-<fieldId>-<versionNo>`).
    pub field: Option<FieldIds>,
    /// The image field of the content item an `ezimageasset` value names, when it loads
    /// (its output variations name that image).
    pub asset: Option<FieldIds>,
    /// Where files stored for the first time are noted, when a request reads input (removed
    /// again if it fails).
    pub uploads: Option<&'a files::Uploads>,
}

/// The ids of a stored field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldIds {
    pub content_id: i64,
    pub field_id: i64,
    pub version_no: i64,
}

/// The kind of a [`ValueError`] that is the store's failure, not the value's: the request
/// is answered 503, not 400.
pub const STORE_FAILED: &str = "storage";

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
    /// What the type declares: its bare name and the keys of its settings and validators.
    fn schema(&self) -> Schema;

    /// The bare name: `string` for `ezstring`.
    fn name(&self) -> &'static str {
        self.schema().name
    }

    /// A content type may hold at most one Field definition of this type (`ezuser`).
    fn is_singular(&self) -> bool {
        false
    }

    /// A Field definition of this type cannot be added to a content type that has content.
    fn only_without_content(&self) -> bool {
        false
    }

    /// `fieldSettings` checked against the schema's settings, with the defaults filled in (any
    /// other key is refused); an error names the bad key or value. A type whose settings
    /// depend on each other checks that too.
    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        check_settings(input, self.schema().settings)
    }

    /// `validatorConfiguration` checked against the schema's validators, every parameter
    /// filled in with its default (any other validator is refused); an error names the bad
    /// validator, key or value.
    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        check_validators(input, self.schema().validators)
    }

    /// Reads a REST `fieldValue` (already decoded from XML or JSON) into the stored value.
    /// An error describes a value that is not of this type's shape.
    // The reference's name; `self` is the type, not the value converted.
    #[allow(clippy::wrong_self_convention)]
    fn from_hash(&self, input: &HashValue, cx: &ValueContext<'_>) -> Result<HashValue, ValueError>;

    /// The REST `fieldValue` of a stored value: by default the stored value itself.
    fn to_hash(&self, value: &HashValue, _cx: &ValueContext<'_>) -> HashValue {
        value.clone()
    }

    /// The value of a field that was not given.
    fn empty_value(&self) -> HashValue {
        HashValue::Null
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        value.is_null()
    }

    /// Checks a non-empty stored value against the definition (required-ness is checked by
    /// the caller); every failure is reported. By default any value of the type's shape is
    /// valid.
    fn validate(&self, _value: &HashValue, _def: &Definition<'_>) -> Vec<ValueError> {
        Vec::new()
    }

    /// The key content is sorted by when sorting by this field: by default none (the
    /// reference's types without sort information).
    fn sort_key(&self, _value: &HashValue) -> SortKey {
        SortKey::None
    }

    /// The text a name schema (`<title>`) or URL alias uses: by default none (the types whose
    /// names need the repository, as a relation's target, or the definition, as a selection's
    /// labels: see `name_text_in`).
    fn name_text(&self, _value: &HashValue) -> String {
        String::new()
    }

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

    /// The Locations this value relates to (their content items, which the repository knows,
    /// are the relations' destinations; the reference relates them before [`Self::relations`]'
    /// of the same kind).
    fn location_relations(&self, _value: &HashValue) -> Vec<(RelationKind, i64)> {
        Vec::new()
    }

    /// Whether a value may name an asset (an image item its rendering shows): then reading a
    /// value looks its image up ([`FieldType::asset`]).
    fn holds_assets(&self) -> bool {
        false
    }

    /// The asset this value names.
    fn asset(&self, _value: &HashValue) -> Option<i64> {
        None
    }
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
        self.named(identifier.strip_prefix(self.prefix.as_str())?)
    }

    /// The type of a bare name (`string`).
    pub fn named(&self, name: &str) -> Option<&dyn FieldType> {
        (self.types.iter())
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
        Box::new(richtext::RichTextType::default()),
        Box::new(number::IntegerType::new()),
        Box::new(number::FloatType::new()),
        Box::new(boolean::BooleanType),
        Box::new(dates::MomentType(date::Date)),
        Box::new(dates::MomentType(datetime::DateTime)),
        Box::new(dates::MomentType(time::Time)),
        Box::new(email::EmailType),
        Box::new(url::UrlType),
        Box::new(image::ImageType),
        Box::new(binaryfile::FileType(binaryfile::Binary)),
        Box::new(binaryfile::FileType(binaryfile::Media)),
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
