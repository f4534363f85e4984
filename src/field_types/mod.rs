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
mod schema;
mod selection;
mod sniff;
mod string;
mod text;
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub path: String,
    pub size: i64,
    /// The first [`HEAD_BYTES`] bytes.
    pub head: Vec<u8>,
}

/// Keeps uploaded files outside the database, content-addressed (`crate::storage`).
pub trait FileStore: Send + Sync {
    /// Stores what `reader` yields under a path derived from its content and `file_name`,
    /// without holding it all in memory; returns the path (relative, without a leading
    /// slash), the size and the first bytes (for sniffing the type). Storing the same bytes
    /// twice is one file. A file stored for the first time is noted
    /// ([`files::note_created`]).
    fn put_reader(
        &self,
        reader: &mut dyn std::io::Read,
        file_name: &str,
    ) -> Result<Stored, PutError>;
    /// Removes the file at `path` (nothing when there is none).
    fn remove(&self, path: &str);
    /// The URI a client downloads a stored path from (`/var/storage/<path>`).
    fn uri(&self, path: &str) -> String;
    /// The size and first bytes of a stored path, `None` when the store does not hold it;
    /// an error when the store does not answer. Binary types use it to accept
    /// `{"inputUri": …}` / `{"id": …}` inputs that name an already stored file.
    fn stored(&self, path: &str) -> Result<Option<Stored>, String>;
}

/// Why a file was not stored: its input could not be read (bad base64: the client's), or
/// the store failed (the server's: answered 503).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PutError {
    Input(String),
    Store(String),
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
