//! `eztext`: a block of text, stored as the string (`null` when blank). Setting `textRows`.

use super::texts::{is_blank, stored_text, text_value};
use super::*;

pub(crate) struct TextType;

const SETTINGS: &[Param] = &[param("textRows", Kind::Int, Dflt::Int(10))];

impl FieldType for TextType {
    fn schema(&self) -> Schema {
        Schema::named("text").settings(SETTINGS)
    }

    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        text_value(input, "text")
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        is_blank(value)
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
