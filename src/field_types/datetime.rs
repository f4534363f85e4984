//! `ezdatetime`: a point in time, stored as the Unix timestamp; `null` when empty. Settings
//! `useSeconds`, `defaultType` (`DEFAULT_EMPTY`, `DEFAULT_CURRENT_DATE`,
//! `DEFAULT_CURRENT_DATE_ADJUSTED`) and `dateInterval` (an ISO 8601 duration or `null`).

use super::date::{date_hash, timestamp_of};
use super::*;
use chrono::DateTime;

pub(crate) struct DateTimeType;

const DEFAULT_TYPES: &[Choice] = &[
    Choice {
        name: "DEFAULT_EMPTY",
        raw: Raw::Int(0),
    },
    Choice {
        name: "DEFAULT_CURRENT_DATE",
        raw: Raw::Int(1),
    },
    Choice {
        name: "DEFAULT_CURRENT_DATE_ADJUSTED",
        raw: Raw::Int(2),
    },
];

const SETTINGS: &[Param] = &[
    param("useSeconds", Kind::Bool, Dflt::Bool(false)),
    param(
        "defaultType",
        Kind::Choice(DEFAULT_TYPES),
        Dflt::Str("DEFAULT_EMPTY"),
    ),
    param("dateInterval", Kind::Str, Dflt::Null),
];

/// Whether `s` is an ISO 8601 duration (`P1D`, `PT2H30M`, `P1Y2M3DT4H5M6S`) and whether it
/// is non-zero.
fn duration(s: &str) -> Option<bool> {
    let rest = s.strip_prefix('P')?;
    let (date, time) = rest.split_once('T').unwrap_or((rest, ""));
    let mut nonzero = false;
    for (part, units) in [(date, "YMWD"), (time, "HMS")] {
        let mut digits = String::new();
        for c in part.chars() {
            if c.is_ascii_digit() || c == '-' {
                digits.push(c);
            } else if units.contains(c) && !digits.is_empty() {
                nonzero |= !digits
                    .trim_start_matches('-')
                    .trim_start_matches('0')
                    .is_empty();
                digits.clear();
            } else {
                return None;
            }
        }
        if !digits.is_empty() {
            return None;
        }
    }
    (!rest.is_empty()).then_some(nonzero)
}

impl FieldType for DateTimeType {
    fn name(&self) -> &'static str {
        "datetime"
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        let out = check_settings(input, SETTINGS)?;
        let Some(interval) = field(&out, "dateInterval").as_str() else {
            return Ok(out);
        };
        match duration(interval) {
            None => Err(
                "Setting 'Current date and time adjusted by' value must be an instance of 'DateInterval' class"
                    .to_string(),
            ),
            Some(true)
                if !matches!(
                    choice_raw(out.get("defaultType"), DEFAULT_TYPES),
                    Some(Raw::Int(2))
                ) =>
            {
                Err("Setting 'Current date and time adjusted by' can be used only when setting 'Default value' is set to 'Adjusted current datetime'".to_string())
            }
            Some(_) => Ok(out),
        }
    }

    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        no_validators(input)
    }

    fn from_hash(
        &self,
        input: &HashValue,
        _cx: &ValueContext<'_>,
    ) -> Result<HashValue, ValueError> {
        Ok(timestamp_of(input, "datetime")?.map_or(HashValue::Null, HashValue::Int))
    }

    fn to_hash(&self, value: &HashValue, _cx: &ValueContext<'_>) -> HashValue {
        date_hash(value)
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

    /// `Mon 2012-22-10 00:00:00` (PHP `D Y-d-m H:i:s`, day before month as the reference has it).
    fn name_text(&self, value: &HashValue) -> String {
        value
            .as_i64()
            .and_then(|ts| DateTime::from_timestamp(ts, 0))
            .map(|d| d.format("%a %Y-%d-%m %H:%M:%S").to_string())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_interval_setting() {
        let t = DateTimeType;
        assert!(t.settings(&map([("dateInterval", "P1D".into())])).is_err());
        assert!(
            t.settings(&map([
                ("dateInterval", "P1D".into()),
                ("defaultType", "DEFAULT_CURRENT_DATE_ADJUSTED".into())
            ]))
            .is_ok()
        );
        assert!(t.settings(&map([("dateInterval", "P0D".into())])).is_ok());
        assert!(
            t.settings(&map([("dateInterval", "1 day".into())]))
                .is_err()
        );
        assert_eq!(
            t.settings(&map([("defaultType", 2.into())])).unwrap(),
            map([
                ("useSeconds", false.into()),
                ("defaultType", "DEFAULT_CURRENT_DATE_ADJUSTED".into()),
                ("dateInterval", HashValue::Null)
            ])
        );
        assert_eq!(
            t.name_text(&1_350_864_000.into()),
            "Mon 2012-22-10 00:00:00"
        );
    }
}
