//! `ezcountry`: countries, stored as a list of ISO 3166 alpha-2 codes; `null` when empty.
//! Setting `isMultiple`.

use super::*;
use crate::countries_data::COUNTRIES;

pub(crate) struct CountryType;

const SETTINGS: &[Param] = &[param("isMultiple", Kind::Bool, Dflt::Bool(false))];

/// The country of a name, alpha-2 or alpha-3 code (exact, then ignoring case).
fn find(id: &str) -> Option<&'static (&'static str, &'static str, &'static str, i64)> {
    COUNTRIES
        .iter()
        .find(|(n, a2, a3, _)| *n == id || *a2 == id || *a3 == id)
        .or_else(|| {
            COUNTRIES.iter().find(|(n, a2, a3, _)| {
                n.eq_ignore_ascii_case(id)
                    || a2.eq_ignore_ascii_case(id)
                    || a3.eq_ignore_ascii_case(id)
            })
        })
}

fn codes(value: &HashValue) -> Vec<String> {
    items(value).iter().filter_map(opt_text).collect()
}

/// The names of the countries of a stored value (its `Name`s, as the reference's value shows
/// them).
pub fn names(value: &HashValue) -> Vec<&'static str> {
    codes(value)
        .iter()
        .filter_map(|c| find(c).map(|c| c.0))
        .collect()
}

impl FieldType for CountryType {
    fn schema(&self) -> Schema {
        Schema::named("country").settings(SETTINGS)
    }

    /// A list of country names, alpha-2 or alpha-3 codes (a single one also bare).
    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        if let HashValue::Map(_) = input {
            return Err(ValueError::new(
                "countries",
                "Value must be a list of countries",
            ));
        }
        let mut out: Vec<HashValue> = Vec::new();
        for id in items(input) {
            let text = opt_text(&id).unwrap_or_default();
            let Some((_, alpha2, _, _)) = find(text.trim()) else {
                return Err(ValueError::new(
                    "countries",
                    format!(
                        "Argument '$value' is invalid: '{text}' is not a valid country identifier"
                    ),
                ));
            };
            let code = HashValue::from(*alpha2);
            if !out.contains(&code) {
                out.push(code);
            }
        }
        Ok(if out.is_empty() {
            HashValue::Null
        } else {
            HashValue::List(out)
        })
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        codes(value).is_empty()
    }

    fn validate(&self, value: &HashValue, def: &Definition<'_>) -> Vec<ValueError> {
        let codes = codes(value);
        let mut errors = Vec::new();
        if !field(def.settings, "isMultiple").as_bool().unwrap_or(false) && codes.len() > 1 {
            errors.push(ValueError::new(
                "countries",
                "Field definition does not allow multiple countries to be selected.",
            ));
        }
        for code in codes {
            if !COUNTRIES.iter().any(|c| c.1 == code) {
                errors.push(ValueError::new(
                    "countries",
                    format!(
                        "Country with Alpha2 code '{code}' is not defined in FieldType settings."
                    ),
                ));
            }
        }
        errors
    }

    /// The lowercased names, sorted, joined with `,`.
    fn sort_key(&self, value: &HashValue) -> SortKey {
        let mut names: Vec<String> = names(value).iter().map(|n| n.to_lowercase()).collect();
        names.sort();
        sort_joined(&names)
    }

    /// The names joined with `, `.
    fn name_text(&self, value: &HashValue) -> String {
        names(value).join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::tests::{cx, def};

    #[test]
    fn countries() {
        let t = CountryType;
        let input = HashValue::List(vec!["Norway".into(), "POL".into(), "no".into()]);
        let v = t.from_hash(&input, &cx()).unwrap();
        assert_eq!(v, HashValue::List(vec!["NO".into(), "PL".into()]));
        assert_eq!(t.name_text(&v), "Norway, Poland");
        assert_eq!(t.sort_key(&v), SortKey::Text("norway,poland".into()));
        let err = t
            .from_hash(&HashValue::List(vec!["Atlantis".into()]), &cx())
            .unwrap_err();
        assert!(
            err.message
                .contains("'Atlantis' is not a valid country identifier")
        );
        let s = t.settings(&HashValue::Null).unwrap();
        let vals = HashValue::Map(vec![]);
        let errs = t.validate(&v, &def(&s, &vals));
        assert_eq!(
            errs[0].message,
            "Field definition does not allow multiple countries to be selected."
        );
    }
}
