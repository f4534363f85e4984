//! The model of the spec's types: representations and inputs, their fields and field types.

use super::ParamKind;

#[derive(Debug, Clone)]
pub struct TypeDef {
    pub name: String,
    pub doc: String,
    pub file: String,
    pub element: String,
    pub media: Option<String>,
    pub href: bool,
    pub body: TypeBody,
    /// Reachable from a response body: gets encoders.
    pub output: bool,
    /// Reachable from a request body: gets a decoder.
    pub input: bool,
}

#[derive(Debug, Clone)]
pub enum TypeBody {
    Struct(Vec<Field>),
    OneOf(Vec<String>),
}

#[derive(Debug, Clone)]
pub struct Field {
    /// Element or attribute name in XML (without `@`).
    pub wire: String,
    /// Property name in JSON: `_name` for attributes, `#text` for text, else `wire` unless
    /// the key names another (`"XmlName|jsonName"`).
    pub json: String,
    pub rust: String,
    pub place: Place,
    pub ty: Ty,
    /// May be absent; omitted from output when `None`.
    pub optional: bool,
    /// Written as an empty element / JSON `null` when `None`.
    pub nullable: bool,
    /// Set when the field's type contains the enclosing type (needs a `Box`).
    pub boxed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Attribute,
    Element,
    /// The element's own text (`#text` in JSON).
    Text,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    Int,
    Float,
    Bool,
    String,
    /// A path under the API prefix, written with the prefix of the response's dialect.
    Href,
    DateTime,
    /// The start of a list's window (`offset`: 0 or more).
    Offset,
    /// The size of a list's window (`limit`: 0 or more, -1 for all).
    Limit,
    /// A free key/value tree (`fieldValue`, `fieldSettings`, ...).
    Hash,
    /// `value` entries keyed by `languageCode`.
    LangMap,
    /// A reference: `media-type` + `href`.
    Ref {
        /// Media type name; `None` writes an empty `media-type`.
        media: Option<String>,
        /// When set, the model holds only this path parameter and the href follows the template.
        template: Option<RefTemplate>,
    },
    Named(String),
    List {
        item: Box<Ty>,
        /// XML wraps the items in the field's element, each item named this; JSON is a plain array.
        wrapped_as: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct RefTemplate {
    pub path: String,
    pub param: String,
    pub kind: ParamKind,
}

impl Ty {
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            Ty::Int
                | Ty::Float
                | Ty::Bool
                | Ty::String
                | Ty::Href
                | Ty::DateTime
                | Ty::Offset
                | Ty::Limit
        )
    }
}

impl TypeDef {
    pub fn fields(&self) -> &[Field] {
        match &self.body {
            TypeBody::Struct(f) => f,
            TypeBody::OneOf(_) => &[],
        }
    }
}
