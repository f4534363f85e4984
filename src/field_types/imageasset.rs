//! `ezimageasset`: a reference to an image content item, stored as
//! `{destinationContentId, alternativeText}`; `null` when empty. Creates an ASSET relation.
//!
//! The output carries `variations`, hrefs of the target's image field
//! (`ValueContext::asset`, which the content service looks up), when the target loads.

use super::objectrelation::content_id;
use super::*;

pub(crate) struct ImageAssetType;

fn target(value: &HashValue) -> Option<i64> {
    id_of(field(value, "destinationContentId"))
}

impl FieldType for ImageAssetType {
    fn name(&self) -> &'static str {
        "imageasset"
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        no_settings(input)
    }

    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        no_validators(input)
    }

    /// `{"destinationContentId": id, "alternativeText": …}`; a falsy input is empty.
    fn from_hash(
        &self,
        input: &HashValue,
        _cx: &ValueContext<'_>,
    ) -> Result<HashValue, ValueError> {
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
            let variations = super::image::variations(&super::image::image_id(image));
            out.push(("variations".to_string(), variations));
        }
        HashValue::Map(out)
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

    fn sort_key(&self, _value: &HashValue) -> SortKey {
        SortKey::None
    }

    /// Empty: the name of the target is resolved by the content service.
    fn name_text(&self, _value: &HashValue) -> String {
        String::new()
    }

    fn relations(&self, value: &HashValue) -> Vec<(RelationKind, i64)> {
        target(value)
            .map(|id| (RelationKind::Asset, id))
            .into_iter()
            .collect()
    }

    fn holds_assets(&self) -> bool {
        true
    }

    fn asset(&self, value: &HashValue) -> Option<i64> {
        target(value)
    }
}
