//! `ezobjectrelationlist`: relations to content items, stored as
//! `{destinationContentIds: [ids]}`. Creates ATTRIBUTE relations. Settings `selectionMethod`,
//! `selectionDefaultLocation`, `rootDefaultLocation`, `selectionContentTypes`; validator
//! `RelationListValueValidator` (`selectionLimit`, 0 = no limit).
//!
//! Target existence and content types, target names and `selectionDefaultLocationHref` are
//! for the content service.

use super::relations::{
    ROOT_DEFAULT_LOCATION, SELECTION_CONTENT_TYPES, SELECTION_METHODS, content_href, content_id,
    selection_method,
};
use super::*;

pub(crate) struct ObjectRelationListType;

const SETTINGS: &[Param] = &[
    selection_method(SELECTION_METHODS),
    param("selectionDefaultLocation", Kind::IdOrNull, Dflt::Null),
    ROOT_DEFAULT_LOCATION,
    SELECTION_CONTENT_TYPES,
];

const VALIDATORS: &[ValidatorSchema] = &[(
    "RelationListValueValidator",
    &[param("selectionLimit", Kind::Int, Dflt::Int(0))],
)];

fn targets(value: &HashValue) -> Vec<i64> {
    items(field(value, "destinationContentIds"))
        .iter()
        .filter_map(id_of)
        .collect()
}

impl FieldType for ObjectRelationListType {
    fn schema(&self) -> Schema {
        Schema::named("objectrelationlist")
            .settings(SETTINGS)
            .validators(VALIDATORS)
    }

    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        let out = check_validators(input, VALIDATORS).map_err(|e| {
            e.replace(
                "'selectionLimit' value must be of integer type",
                "'selectionLimit' value must be an integer",
            )
        })?;
        if field(field(&out, "RelationListValueValidator"), "selectionLimit")
            .as_i64()
            .is_some_and(|n| n < 0)
        {
            return Err(
                "Validator parameter 'selectionLimit' value must be equal to/greater than 0"
                    .to_string(),
            );
        }
        Ok(out)
    }

    /// `{"destinationContentIds": [ids]}` (the key is required).
    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        let ids = match input {
            HashValue::Null => Vec::new(),
            HashValue::Map(_) => match input.get("destinationContentIds") {
                Some(list) => items(list)
                    .iter()
                    .filter_map(|i| content_id(i, "destinationContentIds").transpose())
                    .collect::<Result<Vec<_>, _>>()?,
                None => {
                    return Err(ValueError::new(
                        "destinationContentIds",
                        "Value must have the key destinationContentIds",
                    ));
                }
            },
            _ => {
                return Err(ValueError::new(
                    "destinationContentIds",
                    "Value must be a hash with destinationContentIds",
                ));
            }
        };
        Ok(map([(
            "destinationContentIds",
            HashValue::List(ids.into_iter().map(HashValue::Int).collect()),
        )]))
    }

    fn to_hash(&self, value: &HashValue, _: &ValueContext<'_>) -> HashValue {
        let ids = targets(value);
        map([
            (
                "destinationContentIds",
                HashValue::List(ids.iter().map(|i| HashValue::Int(*i)).collect()),
            ),
            (
                "destinationContentHrefs",
                HashValue::List(ids.iter().map(|i| content_href(*i)).collect()),
            ),
        ])
    }

    fn empty_value(&self) -> HashValue {
        map([("destinationContentIds", HashValue::List(Vec::new()))])
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        targets(value).is_empty()
    }

    fn validate(&self, value: &HashValue, def: &Definition<'_>) -> Vec<ValueError> {
        let limit = field(
            field(def.validators, "RelationListValueValidator"),
            "selectionLimit",
        )
        .as_i64()
        .unwrap_or(0);
        if limit > 0 && targets(value).len() as i64 > limit {
            return vec![ValueError::new(
                "destinationContentIds",
                format!("The selected content items number cannot be higher than {limit}."),
            )];
        }
        Vec::new()
    }

    /// The ids joined with `,`.
    fn sort_key(&self, value: &HashValue) -> SortKey {
        let ids: Vec<String> = targets(value).iter().map(|i| i.to_string()).collect();
        sort_joined(&ids)
    }

    fn relations(&self, value: &HashValue) -> Vec<(RelationKind, i64)> {
        let mut seen = Vec::new();
        for id in targets(value) {
            if !seen.contains(&id) {
                seen.push(id);
            }
        }
        seen.into_iter()
            .map(|id| (RelationKind::Attribute, id))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::tests::{cx, def};

    #[test]
    fn selection_limit() {
        let t = ObjectRelationListType;
        let v = t
            .from_hash(
                &map([(
                    "destinationContentIds",
                    HashValue::List(vec![1.into(), "2".into(), 1.into()]),
                )]),
                &cx(),
            )
            .unwrap();
        assert_eq!(
            t.relations(&v),
            [(RelationKind::Attribute, 1), (RelationKind::Attribute, 2)]
        );
        let validators = t
            .validators(&map([(
                "RelationListValueValidator",
                map([("selectionLimit", 2.into())]),
            )]))
            .unwrap();
        let settings = t.settings(&HashValue::Null).unwrap();
        let errs = t.validate(&v, &def(&settings, &validators));
        assert_eq!(
            errs[0].message,
            "The selected content items number cannot be higher than 2."
        );
        assert!(t.from_hash(&map([("x", 1.into())]), &cx()).is_err());
        assert_eq!(
            t.validators(&map([(
                "RelationListValueValidator",
                map([("selectionLimit", (-1).into())])
            )]))
            .unwrap_err(),
            "Validator parameter 'selectionLimit' value must be equal to/greater than 0"
        );
        assert_eq!(
            field(
                &t.settings(&map([("selectionMethod", 3.into())])).unwrap(),
                "selectionMethod"
            ),
            &HashValue::Int(3)
        );
    }
}
