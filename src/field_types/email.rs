//! `ezemail`: an email address, stored as the string (`null` when blank). Validated by
//! `EmailAddressValidator` (the reference's regular expression).

use super::texts::{is_blank, stored_text, text_value};
use super::*;

pub(crate) struct EmailType;

const VALIDATORS: &[ValidatorSchema] = &[(
    "EmailAddressValidator",
    &[param("Extent", Kind::Str, Dflt::Absent)],
)];

impl FieldType for EmailType {
    fn schema(&self) -> Schema {
        Schema::named("email").validators(VALIDATORS)
    }

    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        let out = check_validators(input, VALIDATORS)?;
        match field(field(&out, "EmailAddressValidator"), "Extent") {
            HashValue::Null => Ok(out),
            HashValue::String(s) if s == "regex" => Ok(out),
            _ => Err("Validator parameter 'Extent' value must be regex for now".to_string()),
        }
    }

    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        text_value(input, "email")
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        is_blank(value)
    }

    fn validate(&self, value: &HashValue, _def: &Definition<'_>) -> Vec<ValueError> {
        if is_email(&stored_text(value)) {
            Vec::new()
        } else {
            vec![ValueError::new(
                "email",
                "The value must be a valid email address.",
            )]
        }
    }

    /// The address as it is (the reference does not normalize it).
    fn sort_key(&self, value: &HashValue) -> SortKey {
        SortKey::Text(stored_text(value).chars().take(255).collect())
    }

    /// The address, lowercased.
    fn name_text(&self, value: &HashValue) -> String {
        stored_text(value).to_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn email_syntax() {
        for ok in [
            "a@b.cc",
            "first.last+tag@sub.example.org",
            "x@[10.0.0.1]",
            "\"a b\"@ex.com",
        ] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in [
            "",
            "a",
            "a@b",
            "a@b.c",
            "a..b@ex.com",
            "a@-.com x",
            "a b@ex.com",
            "@ex.com",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
    }
}
