//! Settings and validator schemas: each field type declares its keys as data, checked
//! and filled in with defaults here.

use super::*;

/// What a setting or validator parameter accepts.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    /// An integer (`null` gives the default).
    Int,
    /// An integer or `null`.
    OptInt,
    /// A boolean (also `0`/`1`, `"true"`/`"false"`).
    Bool,
    /// A boolean or `null`.
    OptBool,
    /// An integer, a float or `null`.
    Number,
    /// A string.
    Str,
    /// A string, an integer or `null` (location ids of the relation types).
    IdOrNull,
    /// A PHP array: a list or a hash.
    Array,
    /// An integer, a boolean or `null` (the password rules of ezuser).
    Flag,
    /// One of named constants: REST names them, the reference stores the raw value; the
    /// stored form is the name when there is one.
    Choice(&'static [Choice]),
}

/// A named constant of a `Kind::Choice`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Choice {
    /// The REST name (`DEFAULT_EMPTY`), empty when REST has none and shows the raw value.
    pub name: &'static str,
    pub raw: Raw,
}

/// A named constant: its REST name (empty when REST shows the raw value) and raw value.
pub(crate) const fn choice(name: &'static str, raw: Raw) -> Choice {
    Choice { name, raw }
}

/// The raw value of a named constant.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Raw {
    Int(i64),
    Str(&'static str),
}

/// A default value.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Dflt {
    Null,
    Int(i64),
    Bool(bool),
    Str(&'static str),
    EmptyList,
    /// Not filled in when absent (optional parameters without a reference default).
    Absent,
}

impl Dflt {
    fn value(self) -> Option<HashValue> {
        match self {
            Dflt::Null => Some(HashValue::Null),
            Dflt::Int(i) => Some(HashValue::Int(i)),
            Dflt::Bool(b) => Some(HashValue::Bool(b)),
            Dflt::Str(s) => Some(HashValue::String(s.to_string())),
            Dflt::EmptyList => Some(HashValue::List(Vec::new())),
            Dflt::Absent => None,
        }
    }
}

/// One setting or validator parameter: its key, what it accepts and its default.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Param {
    pub key: &'static str,
    pub kind: Kind,
    pub default: Dflt,
}

pub(crate) const fn param(key: &'static str, kind: Kind, default: Dflt) -> Param {
    Param { key, kind, default }
}

/// A validator: its name and parameters.
pub(crate) type ValidatorSchema = (&'static str, &'static [Param]);

/// What a field type declares as data: its bare name and the keys of its settings and
/// validators (see [`FieldType::settings`], [`FieldType::validators`]).
#[derive(Debug, Clone, Copy)]
pub struct Schema {
    pub name: &'static str,
    pub(crate) settings: &'static [Param],
    pub(crate) validators: &'static [ValidatorSchema],
}

impl Schema {
    /// A type named `name` (`string`) with neither settings nor validators.
    pub(crate) const fn named(name: &'static str) -> Schema {
        Schema {
            name,
            settings: &[],
            validators: &[],
        }
    }

    /// The same with the settings `settings`.
    pub(crate) const fn settings(self, settings: &'static [Param]) -> Schema {
        Schema { settings, ..self }
    }

    /// The same with the validators `validators`.
    pub(crate) const fn validators(self, validators: &'static [ValidatorSchema]) -> Schema {
        Schema { validators, ..self }
    }
}

/// Whose key a message is about.
#[derive(Clone, Copy)]
enum Scope {
    Setting,
    Parameter,
}

impl Scope {
    fn name(self, key: &str) -> String {
        match self {
            Scope::Setting => format!("Setting '{key}'"),
            Scope::Parameter => format!("Validator parameter '{key}'"),
        }
    }
}

/// The entries of a hash input; `null`, `""` and `[]` are an empty hash.
pub(crate) fn entries(input: &HashValue) -> Option<Vec<(String, HashValue)>> {
    match input {
        HashValue::Null => Some(Vec::new()),
        HashValue::Map(m) => Some(m.clone()),
        HashValue::List(l) if l.is_empty() => Some(Vec::new()),
        HashValue::String(s) if s.trim().is_empty() => Some(Vec::new()),
        _ => None,
    }
}

/// Checks one value against its kind; returns the value to store.
fn coerce(value: &HashValue, p: &Param, scope: Scope) -> Result<HashValue, String> {
    let who = scope.name(p.key);
    let default = || p.default.value().unwrap_or(HashValue::Null);
    let integer = |v: &HashValue| {
        v.as_i64()
            .map(HashValue::Int)
            .ok_or_else(|| format!("{who} value must be of integer type"))
    };
    match p.kind {
        Kind::Int | Kind::OptInt => match value {
            HashValue::Null if matches!(p.kind, Kind::OptInt) => Ok(HashValue::Null),
            HashValue::Null => Ok(default()),
            v => integer(v),
        },
        Kind::Bool | Kind::OptBool => match value {
            HashValue::Null if matches!(p.kind, Kind::OptBool) => Ok(HashValue::Null),
            HashValue::Null => Ok(default()),
            HashValue::String(s) if s.is_empty() => {
                Err(format!("{who} value must be of boolean type"))
            }
            v => v
                .as_bool()
                .map(HashValue::Bool)
                .ok_or_else(|| format!("{who} value must be of boolean type")),
        },
        Kind::Number => match value {
            HashValue::Null => Ok(HashValue::Null),
            HashValue::Int(_) | HashValue::Float(_) => Ok(value.clone()),
            HashValue::String(s) => match number_of(s) {
                Some(n) => Ok(n),
                None => Err(format!("{who} value must be of numeric type")),
            },
            _ => Err(format!("{who} value must be of numeric type")),
        },
        Kind::Str => match value {
            HashValue::Null => Ok(default()),
            HashValue::String(_) => Ok(value.clone()),
            HashValue::Int(_) | HashValue::Float(_) => Ok(HashValue::String(text_of(value))),
            _ => Err(format!("{who} value must be of string type")),
        },
        Kind::IdOrNull => match value {
            HashValue::Null | HashValue::Int(_) => Ok(value.clone()),
            HashValue::String(s) if s.is_empty() => Ok(HashValue::Null),
            HashValue::String(_) => Ok(value.clone()),
            _ => Err(format!(
                "{who} value must be of either null, string or integer"
            )),
        },
        Kind::Array => match value {
            HashValue::Null => Ok(default()),
            HashValue::List(_) | HashValue::Map(_) => Ok(value.clone()),
            _ => Err(format!("{who} value must be of array type")),
        },
        Kind::Flag => match value {
            HashValue::Null | HashValue::Int(_) | HashValue::Bool(_) => Ok(value.clone()),
            v => integer(v),
        },
        Kind::Choice(choices) => {
            if value.is_null() {
                return Ok(default());
            }
            choose(value, choices).ok_or_else(|| format!("{who} is of unknown type"))
        }
    }
}

/// The stored form of a named constant given by name or raw value.
fn choose(value: &HashValue, choices: &[Choice]) -> Option<HashValue> {
    let found = choices.iter().find(|c| {
        (!c.name.is_empty() && value.as_str() == Some(c.name))
            || match c.raw {
                Raw::Int(i) => matches!(value, HashValue::Int(_)) && value.as_i64() == Some(i),
                Raw::Str(s) => value.as_str() == Some(s),
            }
    })?;
    Some(if found.name.is_empty() {
        match found.raw {
            Raw::Int(i) => HashValue::Int(i),
            Raw::Str(s) => HashValue::String(s.to_string()),
        }
    } else {
        HashValue::String(found.name.to_string())
    })
}

/// The raw value of a stored named constant (`"DEFAULT_EMPTY"` → 0).
pub(crate) fn choice_raw(value: Option<&HashValue>, choices: &[Choice]) -> Option<Raw> {
    let value = value?;
    choices
        .iter()
        .find(|c| {
            (!c.name.is_empty() && value.as_str() == Some(c.name))
                || match c.raw {
                    Raw::Int(i) => matches!(value, HashValue::Int(n) if *n == i),
                    Raw::Str(s) => value.as_str() == Some(s),
                }
        })
        .map(|c| c.raw)
}

/// Checks a hash against a schema and fills in the defaults, in schema order; errors are
/// collected and joined.
fn check_params(
    input: &[(String, HashValue)],
    schema: &[Param],
    scope: Scope,
    errors: &mut Vec<String>,
) -> HashValue {
    let mut out = Vec::new();
    for (key, _) in input {
        if !schema.iter().any(|p| p.key == key) {
            errors.push(match scope {
                Scope::Setting => format!("Setting '{key}' is unknown"),
                Scope::Parameter => format!("Validator parameter '{key}' is unknown"),
            });
        }
    }
    for p in schema {
        match input.iter().find(|(k, _)| k == p.key) {
            Some((_, v)) => match coerce(v, p, scope) {
                Ok(v) => out.push((p.key.to_string(), v)),
                Err(e) => errors.push(e),
            },
            None => {
                if let Some(d) = p.default.value() {
                    out.push((p.key.to_string(), d));
                }
            }
        }
    }
    HashValue::Map(out)
}

fn joined(errors: Vec<String>) -> String {
    errors.join("; ")
}

/// `fieldSettings` checked against `schema`, with the defaults filled in.
pub(crate) fn check_settings(input: &HashValue, schema: &[Param]) -> Result<HashValue, String> {
    let Some(input) = entries(input) else {
        return Err("fieldSettings must be a hash".to_string());
    };
    let mut errors = Vec::new();
    let out = check_params(&input, schema, Scope::Setting, &mut errors);
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(joined(errors))
    }
}

/// `validatorConfiguration` checked against the validators of a type, every validator and
/// parameter filled in with its default.
pub(crate) fn check_validators(
    input: &HashValue,
    schema: &[ValidatorSchema],
) -> Result<HashValue, String> {
    let Some(input) = entries(input) else {
        return Err("validatorConfiguration must be a hash".to_string());
    };
    let mut errors = Vec::new();
    for (name, _) in &input {
        if !schema.iter().any(|(n, _)| n == name) {
            errors.push(format!("Validator '{name}' is unknown"));
        }
    }
    let mut out = Vec::new();
    for (name, params) in schema {
        let given = input
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        match entries(&given) {
            Some(given) => {
                let checked = check_params(&given, params, Scope::Parameter, &mut errors);
                out.push((name.to_string(), checked));
            }
            None => errors.push(format!("Validator '{name}' configuration must be a hash")),
        }
    }
    if errors.is_empty() {
        Ok(HashValue::Map(out))
    } else {
        Err(joined(errors))
    }
}
