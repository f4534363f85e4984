//! What the relation types (`ezobjectrelation`, `ezobjectrelationlist`, `ezimageasset`)
//! share: reading a destination content id, the target a value names, the href of a target,
//! and the settings of how a target is chosen.

use super::*;
use crate::api::hrefs;

/// The `selectionMethod`s of `ezobjectrelationlist`: 0 and 1 have REST names; 2 to 6 are
/// legacy methods REST shows as integers. `ezobjectrelation` has the first two.
pub(crate) const SELECTION_METHODS: &[Choice] = &[
    choice("SELECTION_BROWSE", Raw::Int(0)),
    choice("SELECTION_DROPDOWN", Raw::Int(1)),
    choice("", Raw::Int(2)),
    choice("", Raw::Int(3)),
    choice("", Raw::Int(4)),
    choice("", Raw::Int(5)),
    choice("", Raw::Int(6)),
];

/// The setting `selectionMethod` (by default `SELECTION_BROWSE`) with the type's `methods`.
pub(crate) const fn selection_method(methods: &'static [Choice]) -> Param {
    param(
        "selectionMethod",
        Kind::Choice(methods),
        Dflt::Str("SELECTION_BROWSE"),
    )
}

/// The setting `rootDefaultLocation` (by default `false`).
pub(crate) const ROOT_DEFAULT_LOCATION: Param =
    param("rootDefaultLocation", Kind::OptBool, Dflt::Bool(false));
/// The setting `selectionContentTypes`: the identifiers of the content types a target may be
/// of (by default any).
pub(crate) const SELECTION_CONTENT_TYPES: Param =
    param("selectionContentTypes", Kind::Array, Dflt::EmptyList);

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

/// The content item a stored `{destinationContentId}` names.
pub(crate) fn target(value: &HashValue) -> Option<i64> {
    id_of(field(value, "destinationContentId"))
}

/// The relation of `kind` to the target of a stored `{destinationContentId}`, if any.
pub(crate) fn relation_to_target(
    value: &HashValue,
    kind: RelationKind,
) -> Vec<(RelationKind, i64)> {
    target(value).map(|id| (kind, id)).into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_and_content_ids() {
        assert_eq!(content_id(&"12".into(), "k"), Ok(Some(12)));
        assert_eq!(content_id(&" ".into(), "k"), Ok(None));
        assert_eq!(content_id(&HashValue::Null, "k"), Ok(None));
        assert_eq!(
            content_id(&"x".into(), "k").unwrap_err(),
            ValueError::new("k", "The destination content id must be an integer")
        );
        let value = map([("destinationContentId", "7".into())]);
        assert_eq!(target(&value), Some(7));
        assert_eq!(
            relation_to_target(&value, RelationKind::Asset),
            [(RelationKind::Asset, 7)]
        );
        assert!(relation_to_target(&HashValue::Null, RelationKind::Attribute).is_empty());
    }

    #[test]
    fn one_relation_has_the_first_two_selection_methods() {
        let single = [selection_method(SELECTION_METHODS.split_at(2).0)];
        let list = [selection_method(SELECTION_METHODS)];
        let method =
            |schema: &[Param], m: HashValue| check_settings(&map([("selectionMethod", m)]), schema);
        assert_eq!(
            method(&single, 1.into()),
            Ok(map([("selectionMethod", "SELECTION_DROPDOWN".into())]))
        );
        assert!(method(&single, 2.into()).is_err());
        assert_eq!(
            method(&list, 6.into()),
            Ok(map([("selectionMethod", 6.into())]))
        );
        assert_eq!(
            check_settings(&HashValue::Null, &list),
            Ok(map([("selectionMethod", "SELECTION_BROWSE".into())]))
        );
    }
}
