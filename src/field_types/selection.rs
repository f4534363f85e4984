//! `ezselection`: the indexes of the selected options, stored as a list of integers (`[]`
//! when empty). Settings `isMultiple`, `options` ({index: label}) and `multilingualOptions`
//! ({language: {index: label}}).

use super::*;

pub(crate) struct SelectionType;

const SETTINGS: &[Param] = &[
    param("isMultiple", Kind::Bool, Dflt::Bool(false)),
    param("options", Kind::Array, Dflt::EmptyList),
    param("multilingualOptions", Kind::Array, Dflt::EmptyList),
];

/// A PHP array as PHP would print it: a hash whose keys are `0..n` in order is a list.
fn php_array(value: &HashValue) -> HashValue {
    match value {
        HashValue::Map(m) if m.iter().enumerate().all(|(i, (k, _))| *k == i.to_string()) => {
            HashValue::List(m.iter().map(|(_, v)| v.clone()).collect())
        }
        other => other.clone(),
    }
}

/// The label of option `index` in an `options` array.
fn label(options: &HashValue, index: i64) -> Option<String> {
    match options {
        HashValue::List(l) => usize::try_from(index)
            .ok()
            .and_then(|i| l.get(i))
            .and_then(opt_text),
        HashValue::Map(_) => options.get(&index.to_string()).and_then(opt_text),
        _ => None,
    }
}

fn indexes(value: &HashValue) -> Vec<i64> {
    items(value).iter().filter_map(id_of).collect()
}

/// The option arrays of `multilingualOptions`, by language.
fn languages(settings: &HashValue) -> Vec<(String, HashValue)> {
    match field(settings, "multilingualOptions") {
        HashValue::Map(m) => m.clone(),
        HashValue::List(l) => l
            .iter()
            .enumerate()
            .map(|(i, v)| (i.to_string(), v.clone()))
            .collect(),
        _ => Vec::new(),
    }
}

impl FieldType for SelectionType {
    fn schema(&self) -> Schema {
        Schema::named("selection").settings(SETTINGS)
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        let HashValue::Map(mut out) = check_settings(input, SETTINGS)? else {
            return Ok(HashValue::Map(Vec::new()));
        };
        for (key, value) in out.iter_mut() {
            if key == "options" {
                *value = php_array(value);
            } else if key == "multilingualOptions"
                && let HashValue::Map(langs) = value
            {
                for (_, options) in langs.iter_mut() {
                    if !matches!(options, HashValue::List(_) | HashValue::Map(_)) {
                        return Err("Setting 'multilingualOptions' value must be a hash of option hashes by language".to_string());
                    }
                    *options = php_array(options);
                }
            }
        }
        Ok(HashValue::Map(out))
    }

    /// A list of option indexes (integers or numeric strings; one index also bare).
    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        if let HashValue::Map(_) = input {
            return Err(ValueError::new(
                "selection",
                "Value must be a list of option indexes",
            ));
        }
        items(input)
            .iter()
            .map(|i| {
                id_of(i).map(HashValue::Int).ok_or_else(|| {
                    ValueError::new("selection", "Value must be a list of option indexes")
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(HashValue::List)
    }

    fn to_hash(&self, value: &HashValue, _: &ValueContext<'_>) -> HashValue {
        HashValue::List(indexes(value).into_iter().map(HashValue::Int).collect())
    }

    fn empty_value(&self) -> HashValue {
        HashValue::List(Vec::new())
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        indexes(value).is_empty()
    }

    fn validate(&self, value: &HashValue, def: &Definition<'_>) -> Vec<ValueError> {
        let selected = indexes(value);
        let options = field(def.settings, "options");
        let langs = languages(def.settings);
        let mut errors = Vec::new();
        if !field(def.settings, "isMultiple").as_bool().unwrap_or(false) && selected.len() > 1 {
            errors.push(ValueError::new(
                "selection",
                "Field definition does not allow multiple options to be selected.",
            ));
        }
        let missing = |i: &i64| {
            ValueError::new(
                "selection",
                format!("Option with index {i} does not exist in the field definition."),
            )
        };
        for i in &selected {
            if label(options, *i).is_none() && langs.is_empty() {
                errors.push(missing(i));
            }
        }
        if !langs.is_empty() {
            for i in &selected {
                if !langs.iter().any(|(_, o)| label(o, *i).is_some()) {
                    errors.push(missing(i));
                }
            }
        }
        errors
    }

    /// The indexes joined with `-`.
    fn sort_key(&self, value: &HashValue) -> SortKey {
        let parts: Vec<String> = indexes(value).iter().map(|i| i.to_string()).collect();
        SortKey::Text(parts.join("-"))
    }

    /// The labels of the selected options in `language` (else in `options`, else in any
    /// language), joined with a space as the reference does.
    fn name_text_in(&self, value: &HashValue, def: &Definition<'_>, language: &str) -> String {
        let langs = languages(def.settings);
        let options = field(def.settings, "options");
        indexes(value)
            .into_iter()
            .filter_map(|i| {
                langs
                    .iter()
                    .find(|(l, _)| l == language)
                    .and_then(|(_, o)| label(o, i))
                    .or_else(|| label(options, i))
                    .or_else(|| langs.iter().find_map(|(_, o)| label(o, i)))
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::tests::{cx, def};

    #[test]
    fn options_and_labels() {
        let t = SelectionType;
        let settings = t
            .settings(&map([(
                "options",
                map([
                    ("0", "Red".into()),
                    ("1", "Green".into()),
                    ("2", "Blue".into()),
                ]),
            )]))
            .unwrap();
        assert_eq!(
            field(&settings, "options"),
            &HashValue::List(vec!["Red".into(), "Green".into(), "Blue".into()])
        );
        let vals = HashValue::Map(vec![]);
        let d = def(&settings, &vals);
        let v = t
            .from_hash(&HashValue::List(vec![0.into(), "2".into()]), &cx())
            .unwrap();
        assert_eq!(t.name_text_in(&v, &d, "eng-GB"), "Red Blue");
        let msgs: Vec<String> = t.validate(&v, &d).into_iter().map(|e| e.message).collect();
        assert_eq!(
            msgs,
            ["Field definition does not allow multiple options to be selected."]
        );
        let msgs: Vec<String> = t
            .validate(&HashValue::List(vec![5.into()]), &d)
            .into_iter()
            .map(|e| e.message)
            .collect();
        assert_eq!(
            msgs,
            ["Option with index 5 does not exist in the field definition."]
        );
        let ml = t
            .settings(&map([(
                "multilingualOptions",
                map([("pol-PL", HashValue::List(vec!["Czerwony".into()]))]),
            )]))
            .unwrap();
        assert_eq!(
            t.name_text_in(&HashValue::List(vec![0.into()]), &def(&ml, &vals), "pol-PL"),
            "Czerwony"
        );
        assert!(
            t.validate(&HashValue::List(vec![0.into()]), &def(&ml, &vals))
                .is_empty()
        );
    }
}
