//! `ezobjectrelation`: a relation to one content item, stored as `{destinationContentId}`;
//! `null` when empty. Creates an ATTRIBUTE relation. Settings `selectionMethod`,
//! `selectionRoot`, `rootDefaultLocation`, `selectionContentTypes`.
//!
//! Whether the target exists and is of an allowed content type, its name (for name
//! schemas) and `selectionRootHref` are for the content service: they need the repository.

use super::relations::{
    ROOT_DEFAULT_LOCATION, SELECTION_CONTENT_TYPES, SELECTION_METHODS, content_href, content_id,
    relation_to_target, selection_method, target,
};
use super::*;

pub(crate) struct ObjectRelationType;

const SETTINGS: &[Param] = &[
    selection_method(SELECTION_METHODS.split_at(2).0),
    param("selectionRoot", Kind::IdOrNull, Dflt::Null),
    ROOT_DEFAULT_LOCATION,
    SELECTION_CONTENT_TYPES,
];

impl FieldType for ObjectRelationType {
    fn schema(&self) -> Schema {
        Schema::named("objectrelation").settings(SETTINGS)
    }

    /// `{"destinationContentId": id|null}`; a bare id is accepted too.
    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
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
    fn to_hash(&self, value: &HashValue, _: &ValueContext<'_>) -> HashValue {
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

    /// The id as text.
    fn sort_key(&self, value: &HashValue) -> SortKey {
        target(value).map_or(SortKey::None, |id| SortKey::Text(id.to_string()))
    }

    fn relations(&self, value: &HashValue) -> Vec<(RelationKind, i64)> {
        relation_to_target(value, RelationKind::Attribute)
    }
}
