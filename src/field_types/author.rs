//! `ezauthor`: a list of authors, stored as `[{id, name, email}]` (`[]` when empty). Setting
//! `defaultAuthor` (`DEFAULT_VALUE_EMPTY`, `DEFAULT_CURRENT_USER`).

use super::*;

pub(crate) struct AuthorType;

const DEFAULT_AUTHOR: &[Choice] = &[
    choice("DEFAULT_VALUE_EMPTY", Raw::Int(0)),
    choice("DEFAULT_CURRENT_USER", Raw::Int(1)),
];

const SETTINGS: &[Param] = &[param(
    "defaultAuthor",
    Kind::Choice(DEFAULT_AUTHOR),
    Dflt::Str("DEFAULT_VALUE_EMPTY"),
)];

fn authors(value: &HashValue) -> Vec<HashValue> {
    items(value)
        .into_iter()
        .filter(|a| matches!(a, HashValue::Map(_)))
        .collect()
}

fn name_of(author: &HashValue) -> String {
    opt_text(field(author, "name")).unwrap_or_default()
}

impl FieldType for AuthorType {
    fn schema(&self) -> Schema {
        Schema::named("author").settings(SETTINGS)
    }

    /// A list of `{id, name, email}`; a missing id (or -1) is the previous id + 1.
    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        let mut out = Vec::new();
        let mut last = 0;
        for a in items(input) {
            if !matches!(a, HashValue::Map(_)) {
                return Err(ValueError::new(
                    "authors",
                    "Each author must be a hash with name and email",
                ));
            }
            let id = match id_of(field(&a, "id")) {
                Some(id) if id != -1 => id,
                _ => last + 1,
            };
            last = id;
            out.push(map([
                ("id", HashValue::Int(id)),
                (
                    "name",
                    opt_text(field(&a, "name")).map_or(HashValue::Null, HashValue::String),
                ),
                (
                    "email",
                    opt_text(field(&a, "email")).map_or(HashValue::Null, HashValue::String),
                ),
            ]));
        }
        Ok(HashValue::List(out))
    }

    fn to_hash(&self, value: &HashValue, _: &ValueContext<'_>) -> HashValue {
        HashValue::List(authors(value))
    }

    fn empty_value(&self) -> HashValue {
        HashValue::List(Vec::new())
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        authors(value).is_empty()
    }

    /// Not in the reference (4.x keeps any text): a non-empty email must be an address.
    fn validate(&self, value: &HashValue, _def: &Definition<'_>) -> Vec<ValueError> {
        authors(value)
            .iter()
            .filter_map(|a| opt_text(field(a, "email")))
            .filter(|e| !e.is_empty() && !is_email(e))
            .map(|e| ValueError::new("email", format!("The email address '{e}' is not valid.")))
            .collect()
    }

    /// The lowercased names, sorted, joined with `,`.
    fn sort_key(&self, value: &HashValue) -> SortKey {
        let mut names: Vec<String> = authors(value)
            .iter()
            .map(|a| name_of(a).to_lowercase())
            .collect();
        if names.is_empty() {
            return SortKey::None;
        }
        names.sort();
        sort_joined(&names)
    }

    /// The name of the first author (the reference's `getName`).
    fn name_text(&self, value: &HashValue) -> String {
        authors(value).first().map(name_of).unwrap_or_default()
    }

    /// Every author's name and email.
    fn search_text(&self, value: &HashValue, _def: &Definition<'_>, _language: &str) -> String {
        authors(value)
            .iter()
            .map(|a| {
                format!(
                    "{} {}",
                    name_of(a),
                    opt_text(field(a, "email")).unwrap_or_default()
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::tests::cx;

    #[test]
    fn ids_are_generated() {
        let input = HashValue::List(vec![
            map([("name", "Ann".into()), ("email", "ann@ex.com".into())]),
            map([
                ("id", 7.into()),
                ("name", "Bob".into()),
                ("email", "bob@ex.com".into()),
            ]),
            map([
                ("id", (-1).into()),
                ("name", "Cy".into()),
                ("email", "".into()),
            ]),
        ]);
        let v = AuthorType.from_hash(&input, &cx()).unwrap();
        let ids: Vec<i64> = authors(&v)
            .iter()
            .filter_map(|a| field(a, "id").as_i64())
            .collect();
        assert_eq!(ids, [1, 7, 8]);
        assert_eq!(AuthorType.name_text(&v), "Ann");
        assert_eq!(AuthorType.sort_key(&v), SortKey::Text("ann,bob,cy".into()));
        assert_eq!(
            AuthorType
                .settings(&map([("defaultAuthor", 1.into())]))
                .unwrap(),
            map([("defaultAuthor", "DEFAULT_CURRENT_USER".into())])
        );
    }
}
