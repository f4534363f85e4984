//! `ezinteger`: an integer (`null` when empty). Validated by `IntegerValueValidator`.

use super::*;

pub(crate) struct IntegerType;

const VALIDATORS: &[ValidatorSchema] = &[(
    "IntegerValueValidator",
    &[
        param("minIntegerValue", Kind::OptInt, Dflt::Null),
        param("maxIntegerValue", Kind::OptInt, Dflt::Null),
    ],
)];

impl FieldType for IntegerType {
    fn name(&self) -> &'static str {
        "integer"
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        no_settings(input)
    }

    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        check_validators(input, VALIDATORS)
    }

    /// An integer, also a numeric string or an integral float.
    fn from_hash(
        &self,
        input: &HashValue,
        _cx: &ValueContext<'_>,
    ) -> Result<HashValue, ValueError> {
        match input {
            HashValue::Null => Ok(HashValue::Null),
            HashValue::String(s) if s.trim().is_empty() => Ok(HashValue::Null),
            HashValue::Bool(_) => Err(ValueError::new("value", "Value must be an integer")),
            v => v
                .as_i64()
                .map(HashValue::Int)
                .ok_or_else(|| ValueError::new("value", "Value must be an integer")),
        }
    }

    fn to_hash(&self, value: &HashValue, _cx: &ValueContext<'_>) -> HashValue {
        value.clone()
    }

    fn validate(
        &self,
        value: &HashValue,
        def: &Definition<'_>,
        _cx: &ValueContext<'_>,
    ) -> Vec<ValueError> {
        let Some(n) = value.as_i64() else {
            return Vec::new();
        };
        let c = field(def.validators, "IntegerValueValidator");
        let mut errors = Vec::new();
        // 0 is no maximum in the reference.
        if let Some(max) = field(c, "maxIntegerValue").as_i64()
            && max != 0
            && n > max
        {
            errors.push(ValueError::new(
                "value",
                format!("The value can not be higher than {max}."),
            ));
        }
        if let Some(min) = field(c, "minIntegerValue").as_i64()
            && n < min
        {
            errors.push(ValueError::new(
                "value",
                format!("The value can not be lower than {min}."),
            ));
        }
        errors
    }

    fn sort_key(&self, value: &HashValue) -> SortKey {
        value.as_i64().map_or(SortKey::None, SortKey::Int)
    }

    fn name_text(&self, value: &HashValue) -> String {
        value.as_i64().map(|n| n.to_string()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::tests::{cx, def};

    #[test]
    fn accepts_numeric_strings_and_checks_ranges() {
        let t = IntegerType;
        let c = cx();
        assert_eq!(t.from_hash(&"12".into(), &c.cx()), Ok(HashValue::Int(12)));
        assert!(t.from_hash(&"1.5".into(), &c.cx()).is_err());
        let validators = t
            .validators(&map([(
                "IntegerValueValidator",
                map([
                    ("minIntegerValue", 1.into()),
                    ("maxIntegerValue", 10.into()),
                ]),
            )]))
            .unwrap();
        let settings = t.settings(&HashValue::Null).unwrap();
        let d = def(&settings, &validators);
        let msgs = |n: i64| -> Vec<String> {
            t.validate(&n.into(), &d, &c.cx())
                .into_iter()
                .map(|e| e.message)
                .collect()
        };
        assert_eq!(msgs(11), ["The value can not be higher than 10."]);
        assert_eq!(msgs(0), ["The value can not be lower than 1."]);
        assert!(msgs(5).is_empty());
    }
}
