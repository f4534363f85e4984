//! `eztext`: a block of text, stored as the string (`null` when blank). Setting `textRows`.

use super::string::{stored_text, text_value};
use super::*;

pub(crate) struct TextType;

const SETTINGS: &[Param] = &[param("textRows", Kind::Int, Dflt::Int(10))];

impl FieldType for TextType {
    fn name(&self) -> &'static str {
        "text"
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        check_settings(input, SETTINGS)
    }

    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        no_validators(input)
    }

    fn from_hash(
        &self,
        input: &HashValue,
        _cx: &ValueContext<'_>,
    ) -> Result<HashValue, ValueError> {
        text_value(input, "text")
    }

    fn to_hash(&self, value: &HashValue, _cx: &ValueContext<'_>) -> HashValue {
        value.clone()
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        stored_text(value).trim().is_empty()
    }

    fn validate(
        &self,
        _value: &HashValue,
        _def: &Definition<'_>,
        _cx: &ValueContext<'_>,
    ) -> Vec<ValueError> {
        Vec::new()
    }

    /// The first line, lowercased, at most 255 characters.
    fn sort_key(&self, value: &HashValue) -> SortKey {
        let text = stored_text(value);
        let first = text.trim().split(['\r', '\n']).next().unwrap_or("");
        sort_text(first)
    }

    fn name_text(&self, value: &HashValue) -> String {
        stored_text(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_by_first_line() {
        assert_eq!(
            TextType.sort_key(&"  Hello\nWorld".into()),
            SortKey::Text("hello".into())
        );
        assert_eq!(
            TextType
                .settings(&map([("textRows", "x".into())]))
                .unwrap_err(),
            "Setting 'textRows' value must be of integer type"
        );
    }
}
