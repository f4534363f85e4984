//! `eztime`: a time of day, stored as seconds since midnight; `null` when empty. Settings
//! `useSeconds`, `defaultType` (`DEFAULT_EMPTY`, `DEFAULT_CURRENT_TIME`).

use super::*;
use chrono::DateTime;

pub(crate) struct TimeType;

const DEFAULT_TYPES: &[Choice] = &[
    Choice {
        name: "DEFAULT_EMPTY",
        raw: Raw::Int(0),
    },
    Choice {
        name: "DEFAULT_CURRENT_TIME",
        raw: Raw::Int(1),
    },
];

const SETTINGS: &[Param] = &[
    param("useSeconds", Kind::Bool, Dflt::Bool(false)),
    param(
        "defaultType",
        Kind::Choice(DEFAULT_TYPES),
        Dflt::Str("DEFAULT_EMPTY"),
    ),
];

/// `HH:MM[:SS]` as seconds.
fn clock(s: &str) -> Option<i64> {
    let parts: Vec<&str> = s.trim().split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let n: Vec<i64> = parts
        .iter()
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let (h, m, s) = (n[0], n[1], n.get(2).copied().unwrap_or(0));
    ((0..24).contains(&h) && (0..60).contains(&m) && (0..60).contains(&s))
        .then_some(h * 3600 + m * 60 + s)
}

impl FieldType for TimeType {
    fn name(&self) -> &'static str {
        "time"
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        check_settings(input, SETTINGS)
    }

    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        no_validators(input)
    }

    /// Seconds since midnight (an integer, a numeric string or `HH:MM[:SS]`).
    fn from_hash(
        &self,
        input: &HashValue,
        _cx: &ValueContext<'_>,
    ) -> Result<HashValue, ValueError> {
        let bad = || ValueError::new("time", "Value must be the number of seconds since midnight");
        match input {
            HashValue::Null => Ok(HashValue::Null),
            HashValue::String(s) if s.trim().is_empty() => Ok(HashValue::Null),
            HashValue::String(s) => s
                .trim()
                .parse()
                .ok()
                .or_else(|| clock(s))
                .map(HashValue::Int)
                .ok_or_else(bad),
            HashValue::Int(i) => Ok(HashValue::Int(*i)),
            _ => Err(bad()),
        }
    }

    fn to_hash(&self, value: &HashValue, _cx: &ValueContext<'_>) -> HashValue {
        value.clone()
    }

    fn validate(
        &self,
        _value: &HashValue,
        _def: &Definition<'_>,
        _cx: &ValueContext<'_>,
    ) -> Vec<ValueError> {
        Vec::new()
    }

    fn sort_key(&self, value: &HashValue) -> SortKey {
        value.as_i64().map_or(SortKey::None, SortKey::Int)
    }

    /// `1:00:00 am` (PHP `g:i:s a`).
    fn name_text(&self, value: &HashValue) -> String {
        value
            .as_i64()
            .and_then(|s| DateTime::from_timestamp(s, 0))
            .map(|d| d.format("%-I:%M:%S %P").to_string())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        let c = crate::field_types::tests::cx();
        assert_eq!(
            TimeType.from_hash(&"01:30".into(), &c.cx()),
            Ok(HashValue::Int(5400))
        );
        assert_eq!(
            TimeType.from_hash(&"3600".into(), &c.cx()),
            Ok(HashValue::Int(3600))
        );
        assert!(TimeType.from_hash(&"25:00".into(), &c.cx()).is_err());
        assert_eq!(TimeType.name_text(&3600.into()), "1:00:00 am");
        assert_eq!(TimeType.name_text(&0.into()), "12:00:00 am");
    }
}
