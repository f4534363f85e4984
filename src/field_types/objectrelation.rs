//! `ezobjectrelation`: a relation to one content item, stored as `{destinationContentId}`;
//! `null` when empty. Creates an ATTRIBUTE relation. Settings `selectionMethod`,
//! `selectionRoot`, `rootDefaultLocation`, `selectionContentTypes`.
//!
//! Whether the target exists and is of an allowed content type, its name (for name
//! schemas) and `selectionRootHref` are for the content service: they need the repository.

use super::*;
use crate::api::hrefs;

pub(crate) struct ObjectRelationType;

pub(crate) const SELECTION_METHODS: &[Choice] = &[
    Choice {
        name: "SELECTION_BROWSE",
        raw: Raw::Int(0),
    },
    Choice {
        name: "SELECTION_DROPDOWN",
        raw: Raw::Int(1),
    },
];

const SETTINGS: &[Param] = &[
    param(
        "selectionMethod",
        Kind::Choice(SELECTION_METHODS),
        Dflt::Str("SELECTION_BROWSE"),
    ),
    param("selectionRoot", Kind::IdOrNull, Dflt::Null),
    param("rootDefaultLocation", Kind::OptBool, Dflt::Bool(false)),
    param("selectionContentTypes", Kind::Array, Dflt::EmptyList),
];

/// A content id input: an id, a numeric string, or `null`.
pub(crate) fn content_id(v: &HashValue, kind: &'static str) -> Result<Option<i64>, ValueError> {
    match v {
        HashValue::Null => Ok(None),
        HashValue::String(s) if s.trim().is_empty() => Ok(None),
        v => id_of(v)
            .map(Some)
            .ok_or_else(|| ValueError::new(kind, "The destination content id must be an integer")),
    }
}

/// The href of a content item.
pub(crate) fn content_href(id: i64) -> HashValue {
    HashValue::Href(hrefs::load_content(id))
}

fn target(value: &HashValue) -> Option<i64> {
    id_of(field(value, "destinationContentId"))
}

impl FieldType for ObjectRelationType {
    fn name(&self) -> &'static str {
        "objectrelation"
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        check_settings(input, SETTINGS)
    }

    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        no_validators(input)
    }

    /// `{"destinationContentId": id|null}`; a bare id is accepted too.
    fn from_hash(
        &self,
        input: &HashValue,
        _cx: &ValueContext<'_>,
    ) -> Result<HashValue, ValueError> {
        let id = match input {
            HashValue::Map(_) => {
                content_id(field(input, "destinationContentId"), "destinationContentId")?
            }
            HashValue::List(_) => {
                return Err(ValueError::new(
                    "destinationContentId",
                    "Value must be a hash with destinationContentId",
                ));
            }
            v => content_id(v, "destinationContentId")?,
        };
        Ok(id.map_or(HashValue::Null, |id| {
            map([("destinationContentId", HashValue::Int(id))])
        }))
    }

    /// `{destinationContentId, destinationContentHref}`, or `{destinationContentId: null}`.
    fn to_hash(&self, value: &HashValue, _cx: &ValueContext<'_>) -> HashValue {
        match target(value) {
            Some(id) => map([
                ("destinationContentId", HashValue::Int(id)),
                ("destinationContentHref", content_href(id)),
            ]),
            None => map([("destinationContentId", HashValue::Null)]),
        }
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        target(value).is_none()
    }

    fn validate(
        &self,
        _value: &HashValue,
        _def: &Definition<'_>,
        _cx: &ValueContext<'_>,
    ) -> Vec<ValueError> {
        Vec::new()
    }

    /// The id as text.
    fn sort_key(&self, value: &HashValue) -> SortKey {
        target(value).map_or(SortKey::None, |id| SortKey::Text(id.to_string()))
    }

    /// Empty: the name of the target is resolved by the content service.
    fn name_text(&self, _value: &HashValue) -> String {
        String::new()
    }

    fn relations(&self, value: &HashValue) -> Vec<(RelationKind, i64)> {
        target(value)
            .map(|id| (RelationKind::Attribute, id))
            .into_iter()
            .collect()
    }
}
