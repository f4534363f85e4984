//! `ezisbn`: an ISBN-10 or ISBN-13, stored as the string as given; `null` when blank.
//! Setting `isISBN13`; validated with the reference's checksums.

use super::texts::{is_blank, stored_text};
use super::*;

pub(crate) struct IsbnType;

const SETTINGS: &[Param] = &[param("isISBN13", Kind::Bool, Dflt::Bool(true))];

fn isbn10_ok(n: &str) -> bool {
    let b = n.to_ascii_uppercase().into_bytes();
    if b.len() != 10 {
        return false;
    }
    let mut sum = 0u32;
    for (i, c) in b.iter().enumerate() {
        let d = match c {
            b'0'..=b'9' => (c - b'0') as u32,
            b'X' if i == 9 => 10,
            _ => return false,
        };
        sum += d * (10 - i as u32);
    }
    sum.is_multiple_of(11)
}

/// The reference's ISBN-13 checks, with its messages.
fn isbn13_error(n: &str) -> Option<String> {
    if n.len() != 13 {
        return Some(format!(
            "ISBN-13 must be 13 digit, digit count is: {}",
            n.len()
        ));
    }
    let prefix = n.get(0..3).unwrap_or("");
    if prefix != "978" && prefix != "979" {
        return Some(format!(
            "ISBN-13 value must start with 978 or 979, got: {prefix}"
        ));
    }
    if !n.bytes().all(|b| b.is_ascii_digit()) {
        return Some("All ISBN-13 characters need to be numeric".to_string());
    }
    let digits: Vec<u32> = n.bytes().map(|b| (b - b'0') as u32).collect();
    let sum: u32 = digits
        .iter()
        .enumerate()
        .map(|(i, d)| if i % 2 == 0 { *d } else { d * 3 })
        .sum();
    if !sum.is_multiple_of(10) {
        let partial = sum - digits[12];
        let check = (10 - partial % 10) % 10;
        return Some(format!(
            "Bad checksum, last digit of ISBN-13 should be {check}"
        ));
    }
    None
}

impl FieldType for IsbnType {
    fn schema(&self) -> Schema {
        Schema::named("isbn").settings(SETTINGS)
    }

    /// A string; an integer (digits cast by the XML reader) gets back the leading zeros of an
    /// ISBN-10.
    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        match input {
            HashValue::Null => Ok(HashValue::Null),
            HashValue::Int(i) if *i >= 0 => Ok(HashValue::String(format!("{i:010}"))),
            HashValue::String(s) if s.trim().is_empty() => Ok(HashValue::Null),
            HashValue::String(s) => Ok(HashValue::String(s.clone())),
            _ => Err(ValueError::new("isbn", "Value must be a string")),
        }
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        is_blank(value)
    }

    fn validate(&self, value: &HashValue, def: &Definition<'_>) -> Vec<ValueError> {
        let n: String = stored_text(value)
            .trim()
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-' && *c != '|')
            .collect();
        let isbn13 = field(def.settings, "isISBN13").as_bool().unwrap_or(false);
        let error = if !isbn13 && n.len() != 10 {
            Some("ISBN-10 must be 10 character length".to_string())
        } else if n.len() == 10 {
            (!isbn10_ok(&n)).then(|| "ISBN value must be in a valid ISBN-10 format".to_string())
        } else {
            isbn13_error(&n)
        };
        error
            .map(|m| ValueError::new("isbn", m))
            .into_iter()
            .collect()
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
    use crate::field_types::tests::{cx, def};

    #[test]
    fn checksums() {
        let t = IsbnType;
        let v = HashValue::Map(vec![]);
        let s13 = t.settings(&HashValue::Null).unwrap();
        let s10 = t.settings(&map([("isISBN13", false.into())])).unwrap();
        let msgs = |s: &HashValue, isbn: &str| -> Vec<String> {
            let d = def(s, &v);
            t.validate(&isbn.into(), &d)
                .into_iter()
                .map(|e| e.message)
                .collect()
        };
        let no_error: &[&str] = &[];
        for (settings, isbn, expected) in [
            (&s13, "978-0-306-40615-7", no_error),
            (&s13, "0-306-40615-2", no_error),
            (&s10, "0-8044-2957-X", no_error),
            (
                &s13,
                "978-0-306-40615-8",
                &["Bad checksum, last digit of ISBN-13 should be 7"],
            ),
            (
                &s13,
                "977-0-306-40615-7",
                &["ISBN-13 value must start with 978 or 979, got: 977"],
            ),
            (
                &s10,
                "978-0-306-40615-7",
                &["ISBN-10 must be 10 character length"],
            ),
            (
                &s10,
                "0-306-40615-3",
                &["ISBN value must be in a valid ISBN-10 format"],
            ),
        ] {
            assert_eq!(msgs(settings, isbn), expected, "{isbn}");
        }
        assert_eq!(
            t.from_hash(&306406152.into(), &cx()),
            Ok("0306406152".into())
        );
    }
}
