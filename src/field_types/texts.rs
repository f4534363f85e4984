//! What the text types (`ezstring`, `eztext`, `ezemail`, `ezisbn`) share: each stores its
//! text as the string and is empty when it is blank; all but `ezisbn` read a scalar input as
//! PHP's `(string)` casts it.

use super::*;

/// A text value: scalars are cast like PHP's `(string)`; blank text is the empty value.
pub(crate) fn text_value(input: &HashValue, kind: &'static str) -> Result<HashValue, ValueError> {
    match input {
        HashValue::Null => Ok(HashValue::Null),
        HashValue::List(_) | HashValue::Map(_) => {
            Err(ValueError::new(kind, "Value must be a string"))
        }
        v => {
            let text = text_of(v);
            Ok(if text.trim().is_empty() {
                HashValue::Null
            } else {
                HashValue::String(text)
            })
        }
    }
}

/// The string of a stored text value.
pub(crate) fn stored_text(value: &HashValue) -> String {
    value.as_str().unwrap_or_default().to_string()
}

/// Whether a stored text value is empty: no text, or only white space.
pub(crate) fn is_blank(value: &HashValue) -> bool {
    stored_text(value).trim().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_cast_and_blank_is_empty() {
        assert_eq!(text_value(&HashValue::Int(7), "k"), Ok("7".into()));
        assert_eq!(
            text_value(&HashValue::Bool(false), "k"),
            Ok(HashValue::Null)
        );
        assert_eq!(text_value(&" \n".into(), "k"), Ok(HashValue::Null));
        assert_eq!(
            text_value(&map([]), "email"),
            Err(ValueError::new("email", "Value must be a string"))
        );
        assert_eq!(stored_text(&" a ".into()), " a ");
        assert_eq!(stored_text(&HashValue::Null), "");
        assert!(is_blank(&HashValue::Null) && is_blank(&"  ".into()));
        assert!(!is_blank(&"a".into()));
    }
}
