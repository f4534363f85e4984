//! `ezstring`: a single line of text, stored as the string (`null` when blank). Validated by
//! `StringLengthValidator`.

use super::texts::{is_blank, stored_text, text_value};
use super::*;

pub(crate) struct StringType;

const VALIDATORS: &[ValidatorSchema] = &[(
    "StringLengthValidator",
    &[
        param("minStringLength", Kind::OptInt, Dflt::Int(0)),
        param("maxStringLength", Kind::OptInt, Dflt::Null),
    ],
)];

/// The checks of `StringLengthValidator` (`null`, `false` and 0 are no limit).
fn check_length(text: &str, constraints: &HashValue) -> Vec<ValueError> {
    let len = text.chars().count() as i64;
    let limit = |key| field(constraints, key).as_i64().filter(|n| *n != 0);
    let mut errors = Vec::new();
    if let Some(max) = limit("maxStringLength")
        && len > max
    {
        errors.push(ValueError::new(
            "text",
            plural(
                max,
                "The string can not exceed %size% character.",
                "The string can not exceed %size% characters.",
            ),
        ));
    }
    if let Some(min) = limit("minStringLength")
        && len < min
    {
        errors.push(ValueError::new(
            "text",
            plural(
                min,
                "The string cannot be shorter than %size% character.",
                "The string cannot be shorter than %size% characters.",
            ),
        ));
    }
    errors
}

impl FieldType for StringType {
    fn schema(&self) -> Schema {
        Schema::named("string").validators(VALIDATORS)
    }

    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        let out = check_validators(input, VALIDATORS)?;
        let c = field(&out, "StringLengthValidator");
        let min = field(c, "minStringLength").as_i64();
        let max = field(c, "maxStringLength").as_i64();
        let mut errors = Vec::new();
        for (key, v) in [("minStringLength", min), ("maxStringLength", max)] {
            if v.is_some_and(|v| v < 0) {
                errors.push(format!(
                    "Validator parameter '{key}' value can't be negative"
                ));
            }
        }
        if errors.is_empty()
            && let (Some(min), Some(max)) = (min, max)
            && min > max
        {
            errors.push(
                "Validator parameter 'maxStringLength' can't be shorter than validator parameter 'minStringLength' value"
                    .to_string(),
            );
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors.join("; "))
        }
    }

    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        text_value(input, "text")
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        is_blank(value)
    }

    fn validate(&self, value: &HashValue, def: &Definition<'_>) -> Vec<ValueError> {
        check_length(
            &stored_text(value),
            field(def.validators, "StringLengthValidator"),
        )
    }

    fn sort_key(&self, value: &HashValue) -> SortKey {
        sort_text(&stored_text(value))
    }

    fn name_text(&self, value: &HashValue) -> String {
        stored_text(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::tests::{cx, def, v};

    #[test]
    fn casts_scalars_and_blanks() {
        let t = StringType;
        assert_eq!(t.from_hash(&HashValue::Int(123), &cx()), Ok(v("123")));
        assert_eq!(t.from_hash(&HashValue::Bool(true), &cx()), Ok(v("1")));
        assert_eq!(t.from_hash(&v("  "), &cx()), Ok(HashValue::Null));
        assert!(t.from_hash(&HashValue::List(vec![]), &cx()).is_err());
    }

    #[test]
    fn length_limits() {
        let t = StringType;
        let validators = t
            .validators(&map([(
                "StringLengthValidator",
                map([("minStringLength", 3.into()), ("maxStringLength", 5.into())]),
            )]))
            .unwrap();
        let settings = t.settings(&HashValue::Null).unwrap();
        let d = def(&settings, &validators);
        let msgs = |s: &str| -> Vec<String> {
            t.validate(&v(s), &d)
                .into_iter()
                .map(|e| e.message)
                .collect()
        };
        assert_eq!(
            msgs("ab"),
            ["The string cannot be shorter than 3 characters."]
        );
        assert_eq!(msgs("abcdef"), ["The string can not exceed 5 characters."]);
        assert!(msgs("abcd").is_empty());
        assert!(msgs("ééééé").is_empty());
    }

    #[test]
    fn bad_validator_configuration() {
        let t = StringType;
        let bad = |h: HashValue| t.validators(&h).unwrap_err();
        assert_eq!(
            bad(map([("Foo", HashValue::Null)])),
            "Validator 'Foo' is unknown"
        );
        assert_eq!(
            bad(map([(
                "StringLengthValidator",
                map([("maxStringLength", "x".into())])
            )])),
            "Validator parameter 'maxStringLength' value must be of integer type"
        );
        assert_eq!(
            bad(map([(
                "StringLengthValidator",
                map([("minStringLength", (-1).into())])
            )])),
            "Validator parameter 'minStringLength' value can't be negative"
        );
        assert!(
            bad(map([(
                "StringLengthValidator",
                map([("minStringLength", 5.into()), ("maxStringLength", 2.into())])
            )]))
            .contains("can't be shorter")
        );
        assert_eq!(
            t.settings(&map([("foo", 1.into())])).unwrap_err(),
            "Setting 'foo' is unknown"
        );
    }
}
