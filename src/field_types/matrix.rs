//! `ezmatrix` (fieldtype-matrix): rows of named cells, stored as
//! `{entries: [{column: text}]}` (`{entries: []}` when empty). Settings `minimum_rows` and
//! `columns` ([{identifier, name}]). Its name text is empty, as the reference's; full-text
//! search finds every cell.

use super::*;

pub(crate) struct MatrixType;

const SETTINGS: &[Param] = &[
    param("minimum_rows", Kind::Int, Dflt::Int(1)),
    param("columns", Kind::Array, Dflt::EmptyList),
];

fn rows(value: &HashValue) -> Vec<HashValue> {
    items(field(value, "entries"))
}

fn row_is_empty(row: &HashValue) -> bool {
    match row {
        HashValue::Map(cells) => cells.iter().all(|(_, c)| text_of(c).trim().is_empty()),
        _ => true,
    }
}

impl FieldType for MatrixType {
    fn schema(&self) -> Schema {
        Schema::named("matrix").settings(SETTINGS)
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        let out = check_settings(input, SETTINGS).map_err(|e| {
            e.replace(
                "Setting 'minimum_rows' value must be of integer type",
                "Value must be numeric positive numeric.",
            )
        })?;
        let mut errors = Vec::new();
        if field(&out, "minimum_rows").as_i64().is_some_and(|n| n < 0) {
            errors.push("Value must be numeric positive numeric.".to_string());
        }
        let columns = match field(&out, "columns") {
            HashValue::Map(m) => m.iter().map(|(_, c)| c.clone()).collect(),
            other => items(other),
        };
        let mut seen: Vec<String> = Vec::new();
        for (index, column) in columns.iter().enumerate() {
            let id = opt_text(field(column, "identifier"))
                .unwrap_or_default()
                .trim()
                .to_string();
            if id.is_empty() {
                errors.push(format!("Column (index: {index}) must have identifier."));
            } else if seen.contains(&id) {
                errors.push(format!("Identifier \"{id}\" must be unique."));
            } else {
                seen.push(id);
            }
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors.join("; "))
        }
    }

    /// `{"entries": [{"col": "text", …}, …]}`; cells are cast to text.
    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        let entries = match input {
            HashValue::Null => Vec::new(),
            HashValue::Map(_) => items(field(input, "entries")),
            _ => {
                return Err(ValueError::new(
                    "entries",
                    "Value must be a hash with entries",
                ));
            }
        };
        let mut out = Vec::new();
        for row in entries {
            let HashValue::Map(cells) = row else {
                return Err(ValueError::new(
                    "entries",
                    "Each entry must be a hash of cells",
                ));
            };
            out.push(HashValue::Map(
                cells
                    .into_iter()
                    .map(|(k, v)| (k, HashValue::String(text_of(&v))))
                    .collect(),
            ));
        }
        Ok(map([("entries", HashValue::List(out))]))
    }

    fn to_hash(&self, value: &HashValue, _: &ValueContext<'_>) -> HashValue {
        map([("entries", HashValue::List(rows(value)))])
    }

    fn empty_value(&self) -> HashValue {
        map([("entries", HashValue::List(Vec::new()))])
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        rows(value).is_empty()
    }

    fn validate(&self, value: &HashValue, def: &Definition<'_>) -> Vec<ValueError> {
        let minimum = field(def.settings, "minimum_rows").as_i64().unwrap_or(1);
        let filled = rows(value).iter().filter(|r| !row_is_empty(r)).count() as i64;
        if filled < minimum {
            return vec![ValueError::new(
                "entries",
                format!("Matrix must contain at least {minimum} non-empty rows."),
            )];
        }
        Vec::new()
    }

    fn sort_key(&self, _value: &HashValue) -> SortKey {
        SortKey::Text(String::new())
    }

    /// Every cell.
    fn search_text(&self, value: &HashValue, _def: &Definition<'_>, _language: &str) -> String {
        let mut out = Vec::new();
        for row in rows(value) {
            if let HashValue::Map(cells) = row {
                out.extend(cells.iter().map(|(_, c)| text_of(c)));
            }
        }
        out.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::tests::{cx, def};

    #[test]
    fn minimum_rows_and_columns() {
        let t = MatrixType;
        let settings = t
            .settings(&map([
                ("minimum_rows", 2.into()),
                (
                    "columns",
                    HashValue::List(vec![map([
                        ("identifier", "a".into()),
                        ("name", "A".into()),
                    ])]),
                ),
            ]))
            .unwrap();
        let v = t
            .from_hash(
                &map([(
                    "entries",
                    HashValue::List(vec![map([("a", 1.into())]), map([("a", " ".into())])]),
                )]),
                &cx(),
            )
            .unwrap();
        let vals = HashValue::Map(vec![]);
        let errs = t.validate(&v, &def(&settings, &vals));
        assert_eq!(
            errs[0].message,
            "Matrix must contain at least 2 non-empty rows."
        );
        let dup = t.settings(&map([(
            "columns",
            HashValue::List(vec![
                map([("identifier", "a".into())]),
                map([("identifier", "a".into())]),
                map([]),
            ]),
        )]));
        assert_eq!(
            dup.unwrap_err(),
            "Identifier \"a\" must be unique.; Column (index: 2) must have identifier."
        );
    }
}
