//! `eztime`: a time of day, stored as seconds since midnight; `null` when empty. Settings
//! `useSeconds`, `defaultType` (`DEFAULT_EMPTY`, `DEFAULT_CURRENT_TIME`).

use super::dates::{DEFAULT_EMPTY, Moment, USE_SECONDS, default_type};
use super::*;

/// `eztime`, a [`MomentType`](super::dates::MomentType).
pub(crate) struct Time;

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

impl Moment for Time {
    const NAME: &'static str = "time";
    const SETTINGS: &'static [Param] = &[
        USE_SECONDS,
        default_type(&[DEFAULT_EMPTY, choice("DEFAULT_CURRENT_TIME", Raw::Int(1))]),
    ];
    /// `1:00:00 am` (PHP `g:i:s a`).
    const FORMAT: &'static str = "%-I:%M:%S %P";

    /// Seconds since midnight (an integer, a numeric string or `HH:MM[:SS]`).
    fn read(input: &HashValue) -> Result<Option<i64>, ValueError> {
        let bad = || ValueError::new("time", "Value must be the number of seconds since midnight");
        match input {
            HashValue::Null => Ok(None),
            HashValue::String(s) if s.trim().is_empty() => Ok(None),
            HashValue::String(s) => s
                .trim()
                .parse()
                .ok()
                .or_else(|| clock(s))
                .map(Some)
                .ok_or_else(bad),
            HashValue::Int(i) => Ok(Some(*i)),
            _ => Err(bad()),
        }
    }

    /// The seconds as stored.
    fn output(value: &HashValue) -> HashValue {
        value.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::dates::MomentType;
    use crate::field_types::tests::cx;

    #[test]
    fn times() {
        assert_eq!(
            MomentType(Time).from_hash(&"01:30".into(), &cx()),
            Ok(HashValue::Int(5400))
        );
        assert_eq!(
            MomentType(Time).from_hash(&"3600".into(), &cx()),
            Ok(HashValue::Int(3600))
        );
        assert!(MomentType(Time).from_hash(&"25:00".into(), &cx()).is_err());
        assert_eq!(MomentType(Time).name_text(&3600.into()), "1:00:00 am");
        assert_eq!(MomentType(Time).name_text(&0.into()), "12:00:00 am");
    }
}
