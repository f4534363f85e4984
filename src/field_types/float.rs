//! `ezfloat`: a float (`null` when empty). Validated by `FloatValueValidator`.

use super::*;

pub(crate) struct FloatType;

const VALIDATORS: &[ValidatorSchema] = &[(
    "FloatValueValidator",
    &[
        param("minFloatValue", Kind::Number, Dflt::Null),
        param("maxFloatValue", Kind::Number, Dflt::Null),
    ],
)];

impl FieldType for FloatType {
    fn name(&self) -> &'static str {
        "float"
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        no_settings(input)
    }

    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        check_validators(input, VALIDATORS)
    }

    /// A number or a numeric string, stored as a float.
    fn from_hash(
        &self,
        input: &HashValue,
        _cx: &ValueContext<'_>,
    ) -> Result<HashValue, ValueError> {
        match input {
            HashValue::Null => Ok(HashValue::Null),
            HashValue::String(s) if s.trim().is_empty() => Ok(HashValue::Null),
            HashValue::Bool(_) => Err(ValueError::new("value", "Value must be a float")),
            v => v
                .as_f64()
                .filter(|f| f.is_finite())
                .map(|f| HashValue::Float(Float(f)))
                .ok_or_else(|| ValueError::new("value", "Value must be a float")),
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
        let Some(n) = value.as_f64() else {
            return Vec::new();
        };
        let c = field(def.validators, "FloatValueValidator");
        let mut errors = Vec::new();
        let max = field(c, "maxFloatValue");
        if let Some(m) = max.as_f64()
            && n > m
        {
            errors.push(ValueError::new(
                "value",
                format!("The value can not be higher than {}.", text_of(max)),
            ));
        }
        let min = field(c, "minFloatValue");
        if let Some(m) = min.as_f64()
            && n < m
        {
            errors.push(ValueError::new(
                "value",
                format!("The value can not be lower than {}.", text_of(min)),
            ));
        }
        errors
    }

    fn sort_key(&self, _value: &HashValue) -> SortKey {
        SortKey::None
    }

    fn name_text(&self, value: &HashValue) -> String {
        value.as_f64().map(php_float).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::tests::{cx, def};

    #[test]
    fn floats() {
        let t = FloatType;
        let c = cx();
        assert_eq!(
            t.from_hash(&"1.5".into(), &c.cx()),
            Ok(HashValue::Float(Float(1.5)))
        );
        assert_eq!(
            t.from_hash(&2.into(), &c.cx()),
            Ok(HashValue::Float(Float(2.0)))
        );
        assert!(t.from_hash(&"abc".into(), &c.cx()).is_err());
        assert_eq!(t.name_text(&HashValue::Float(Float(2.0))), "2");
        assert_eq!(t.name_text(&HashValue::Float(Float(0.1 + 0.2))), "0.3");
        let validators = t
            .validators(&map([(
                "FloatValueValidator",
                map([("maxFloatValue", "2.5".into())]),
            )]))
            .unwrap();
        let settings = HashValue::Map(vec![]);
        let d = def(&settings, &validators);
        let errs = t.validate(&HashValue::Float(Float(3.0)), &d, &c.cx());
        assert_eq!(errs[0].message, "The value can not be higher than 2.5.");
        assert!(
            t.validators(&map([(
                "FloatValueValidator",
                map([("minFloatValue", "x".into())])
            )]))
            .unwrap_err()
            .contains("must be of numeric type")
        );
    }
}
