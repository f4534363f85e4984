//! `ezkeyword`: a list of keywords, stored as a list of strings (`[]` when empty).

use super::*;

pub(crate) struct KeywordType;

fn keywords(value: &HashValue) -> Vec<String> {
    items(value).iter().filter_map(opt_text).collect()
}

impl FieldType for KeywordType {
    fn schema(&self) -> Schema {
        Schema::named("keyword")
    }

    /// A list of strings, or a comma separated string (trimmed, blanks dropped); duplicates
    /// are dropped.
    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        let words: Vec<String> = match input {
            HashValue::Null => Vec::new(),
            HashValue::List(l) => l
                .iter()
                .map(|w| match w {
                    HashValue::List(_) | HashValue::Map(_) => {
                        Err(ValueError::new("keyword", "Keywords must be strings"))
                    }
                    HashValue::Null => Ok(String::new()),
                    w => Ok(text_of(w)),
                })
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .filter(|w| !w.is_empty())
                .collect(),
            HashValue::Map(_) => {
                return Err(ValueError::new(
                    "keyword",
                    "Value must be a list of keywords",
                ));
            }
            v => text_of(v)
                .split(',')
                .map(|w| w.trim().to_string())
                .filter(|w| !w.is_empty())
                .collect(),
        };
        let mut unique: Vec<String> = Vec::new();
        for w in words {
            if !unique.contains(&w) {
                unique.push(w);
            }
        }
        Ok(HashValue::List(
            unique.into_iter().map(HashValue::String).collect(),
        ))
    }

    fn to_hash(&self, value: &HashValue, _: &ValueContext<'_>) -> HashValue {
        HashValue::List(keywords(value).into_iter().map(HashValue::String).collect())
    }

    fn empty_value(&self) -> HashValue {
        HashValue::List(Vec::new())
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        keywords(value).is_empty()
    }

    /// The keywords joined with `,`.
    fn sort_key(&self, value: &HashValue) -> SortKey {
        sort_joined(&keywords(value))
    }

    fn name_text(&self, value: &HashValue) -> String {
        keywords(value).join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::tests::cx;

    #[test]
    fn comma_strings_and_lists() {
        let list = |w: &[&str]| HashValue::List(w.iter().map(|s| HashValue::from(*s)).collect());
        assert_eq!(
            KeywordType.from_hash(&" foo, bar ,,foo".into(), &cx()),
            Ok(list(&["foo", "bar"]))
        );
        assert_eq!(
            KeywordType.from_hash(&list(&["a", "b", "a"]), &cx()),
            Ok(list(&["a", "b"]))
        );
        assert_eq!(KeywordType.name_text(&list(&["a", "b"])), "a, b");
        assert!(KeywordType.is_empty(&list(&[])));
    }
}
