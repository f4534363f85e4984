//! `ezimageasset`: a reference to an image content item, stored as
//! `{destinationContentId, alternativeText}`; `null` when empty. Creates an ASSET relation.
//!
//! The output carries `variations`, hrefs of the target's image field
//! (`ValueContext::asset`, which the content service looks up), when the target loads. The
//! target's name (for name schemas) is for the content service too.

use super::relations::{content_id, relation_to_target, target};
use super::*;

pub(crate) struct ImageAssetType;

impl FieldType for ImageAssetType {
    fn schema(&self) -> Schema {
        Schema::named("imageasset")
    }

    /// `{"destinationContentId": id, "alternativeText": …}`; a falsy input is empty.
    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        let (id, alt) = match input {
            HashValue::Map(m) if m.is_empty() => return Ok(HashValue::Null),
            HashValue::Map(_) => (
                content_id(field(input, "destinationContentId"), "destinationContentId")?,
                opt_text(field(input, "alternativeText")),
            ),
            HashValue::Null | HashValue::Bool(false) | HashValue::Int(0) => {
                return Ok(HashValue::Null);
            }
            HashValue::String(s) if s.is_empty() || s == "0" => return Ok(HashValue::Null),
            HashValue::List(l) if l.is_empty() => return Ok(HashValue::Null),
            v => (content_id(v, "destinationContentId")?, None),
        };
        Ok(match id {
            Some(id) => map([
                ("destinationContentId", HashValue::Int(id)),
                (
                    "alternativeText",
                    alt.map_or(HashValue::Null, HashValue::String),
                ),
            ]),
            None => HashValue::Null,
        })
    }

    /// As stored, plus `variations` when the target's image is known.
    fn to_hash(&self, value: &HashValue, cx: &ValueContext<'_>) -> HashValue {
        let mut out = vec![
            (
                "destinationContentId".to_string(),
                target(value).map_or(HashValue::Null, HashValue::Int),
            ),
            (
                "alternativeText".to_string(),
                field(value, "alternativeText").clone(),
            ),
        ];
        if let Some(image) = cx.asset.filter(|_| target(value).is_some()) {
            let variations =
                super::image::variations(&super::image::image_id(image), cx.variations);
            out.push(("variations".to_string(), variations));
        }
        HashValue::Map(out)
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        target(value).is_none()
    }

    fn relations(&self, value: &HashValue) -> Vec<(RelationKind, i64)> {
        relation_to_target(value, RelationKind::Asset)
    }

    fn holds_assets(&self) -> bool {
        true
    }

    fn asset(&self, value: &HashValue) -> Option<i64> {
        target(value)
    }
}
