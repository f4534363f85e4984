//! `ezdatetime`: a point in time, stored as the Unix timestamp; `null` when empty. Settings
//! `useSeconds`, `defaultType` (`DEFAULT_EMPTY`, `DEFAULT_CURRENT_DATE`,
//! `DEFAULT_CURRENT_DATE_ADJUSTED`) and `dateInterval` (an ISO 8601 duration or `null`).

use super::dates::{CURRENT_DATE, DEFAULT_EMPTY, Moment, USE_SECONDS, default_type, timestamp_of};
use super::*;

/// `ezdatetime`, a [`MomentType`](super::dates::MomentType).
pub(crate) struct DateTime;

const DEFAULT_TYPES: &[Choice] = &[
    DEFAULT_EMPTY,
    CURRENT_DATE,
    choice("DEFAULT_CURRENT_DATE_ADJUSTED", Raw::Int(2)),
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

impl Moment for DateTime {
    const NAME: &'static str = "datetime";
    const SETTINGS: &'static [Param] = &[
        USE_SECONDS,
        default_type(DEFAULT_TYPES),
        param("dateInterval", Kind::Str, Dflt::Null),
    ];
    /// `Mon 2012-22-10 00:00:00` (PHP `D Y-d-m H:i:s`, day before month as the reference has it).
    const FORMAT: &'static str = "%a %Y-%d-%m %H:%M:%S";

    fn read(input: &HashValue) -> Result<Option<i64>, ValueError> {
        timestamp_of(input, "datetime")
    }

    /// `dateInterval` is an ISO 8601 duration; a non-zero one needs `defaultType`
    /// `DEFAULT_CURRENT_DATE_ADJUSTED`.
    fn checked(out: HashValue) -> Result<HashValue, String> {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::dates::MomentType;

    #[test]
    fn date_interval_setting() {
        let t = MomentType(DateTime);
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
