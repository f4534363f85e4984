//! `ezdate`: a date, stored as the Unix timestamp of its midnight (UTC); `null` when empty.
//! Setting `defaultType` (`DEFAULT_EMPTY`, `DEFAULT_CURRENT_DATE`).

use super::*;
use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, NaiveTime, Utc};

pub(crate) struct DateType;

const DEFAULT_TYPES: &[Choice] = &[
    Choice {
        name: "DEFAULT_EMPTY",
        raw: Raw::Int(0),
    },
    Choice {
        name: "DEFAULT_CURRENT_DATE",
        raw: Raw::Int(1),
    },
];

const SETTINGS: &[Param] = &[param(
    "defaultType",
    Kind::Choice(DEFAULT_TYPES),
    Dflt::Str("DEFAULT_EMPTY"),
)];

fn utc(ts: i64) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(ts, 0)
}

/// `Monday, 22-Oct-12 00:00:00 UTC` (PHP's `DateTime::RFC850`, in UTC).
pub(crate) fn rfc850(ts: i64) -> HashValue {
    utc(ts).map_or(HashValue::Null, |d| {
        HashValue::String(d.format("%A, %d-%b-%y %H:%M:%S UTC").to_string())
    })
}

/// The `{timestamp, rfc850}` output of the date types.
pub(crate) fn date_hash(value: &HashValue) -> HashValue {
    match value.as_i64() {
        Some(ts) => map([("timestamp", HashValue::Int(ts)), ("rfc850", rfc850(ts))]),
        None => HashValue::Null,
    }
}

/// Reads a date text the way PHP's `DateTime` constructor does for the common forms: RFC 850,
/// RFC 2822, ISO 8601 (with or without time and offset), `Y-m-d H:i[:s]`, `@<timestamp>`,
/// `now`, `today`, `tomorrow`, `yesterday`, `midnight` and `+N unit` offsets from now
/// (seconds to weeks). Times without an offset are UTC.
pub(crate) fn parse_date_text(text: &str, now: i64) -> Option<i64> {
    let s = text.trim();
    if let Some(ts) = s.strip_prefix('@') {
        return ts.trim().parse().ok();
    }
    let lower = s.to_ascii_lowercase();
    let day = now.div_euclid(86_400) * 86_400;
    match lower.as_str() {
        "now" => return Some(now),
        "today" | "midnight" => return Some(day),
        "tomorrow" => return Some(day + 86_400),
        "yesterday" => return Some(day - 86_400),
        _ => {}
    }
    if let Some(offset) = relative(&lower) {
        return Some(now + offset);
    }
    if let Some(ts) = cairn_runtime::Timestamp::parse(s) {
        return Some(ts.0);
    }
    if let Ok(d) = DateTime::parse_from_rfc2822(s) {
        return Some(d.timestamp());
    }
    // RFC 850 and other forms ending with a zone name: read the rest as UTC.
    let (body, zone_ok) = match s.rsplit_once(' ') {
        Some((b, z)) if matches!(z.to_ascii_uppercase().as_str(), "UTC" | "GMT" | "Z") => (b, true),
        _ => (s, false),
    };
    for fmt in [
        "%A, %d-%b-%y %H:%M:%S",
        "%a, %d-%b-%y %H:%M:%S",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%d %H:%M",
    ] {
        if let Ok(d) = NaiveDateTime::parse_from_str(body, fmt) {
            return Some(d.and_utc().timestamp());
        }
    }
    if !zone_ok && let Ok(d) = NaiveDate::parse_from_str(s, "%d-%m-%Y") {
        return Some(d.and_time(NaiveTime::MIN).and_utc().timestamp());
    }
    None
}

/// `+3 days`, `-1 week`, `+2 hours`...
fn relative(s: &str) -> Option<i64> {
    let (sign, rest) = match s.as_bytes().first()? {
        b'+' => (1, &s[1..]),
        b'-' => (-1, &s[1..]),
        _ => return None,
    };
    let (n, unit) = rest.trim().split_once(' ')?;
    let n: i64 = n.parse().ok()?;
    let unit = unit.trim().trim_end_matches('s');
    let d = match unit {
        "sec" | "second" => Duration::seconds(n),
        "min" | "minute" => Duration::minutes(n),
        "hour" => Duration::hours(n),
        "day" => Duration::days(n),
        "week" => Duration::weeks(n),
        _ => return None,
    };
    Some(sign * d.num_seconds())
}

/// A timestamp from a date input hash: `rfc850`, then `timestring`, then `timestamp`; a bare
/// integer is a timestamp and a bare string a time string.
pub(crate) fn timestamp_of(
    input: &HashValue,
    kind: &'static str,
) -> Result<Option<i64>, ValueError> {
    let now = Utc::now().timestamp();
    let bad = |what: &str| ValueError::new(kind, format!("Invalid date: '{what}'"));
    let from_text = |t: &str| parse_date_text(t, now).ok_or_else(|| bad(t));
    match input {
        HashValue::Null => Ok(None),
        HashValue::Int(ts) => Ok(Some(*ts)),
        HashValue::String(s) if s.trim().is_empty() => Ok(None),
        HashValue::String(s) => from_text(s).map(Some),
        HashValue::Map(_) => {
            if let Some(t) = opt_text(field(input, "rfc850")).filter(|t| !t.is_empty()) {
                return from_text(&t).map(Some);
            }
            if let HashValue::String(t) = field(input, "timestring") {
                return from_text(t).map(Some);
            }
            match field(input, "timestamp") {
                HashValue::Null if input.get("timestamp").is_none() => Err(ValueError::new(
                    kind,
                    "Value must have one of the keys rfc850, timestring or timestamp",
                )),
                HashValue::Null => Ok(None),
                v => v
                    .as_i64()
                    .map(Some)
                    .ok_or_else(|| ValueError::new(kind, "The timestamp must be an integer")),
            }
        }
        _ => Err(ValueError::new(
            kind,
            "Value must be a hash with a timestamp",
        )),
    }
}

impl FieldType for DateType {
    fn name(&self) -> &'static str {
        "date"
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        check_settings(input, SETTINGS)
    }

    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        no_validators(input)
    }

    fn from_hash(
        &self,
        input: &HashValue,
        _cx: &ValueContext<'_>,
    ) -> Result<HashValue, ValueError> {
        Ok(timestamp_of(input, "date")?.map_or(HashValue::Null, |ts| {
            HashValue::Int(ts.div_euclid(86_400) * 86_400)
        }))
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

    /// `Monday 22 October 2012` (PHP `l d F Y`).
    fn name_text(&self, value: &HashValue) -> String {
        value
            .as_i64()
            .and_then(utc)
            .map(|d| d.format("%A %d %B %Y").to_string())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_date_texts() {
        let now = 1_350_900_000;
        assert_eq!(
            parse_date_text("Monday, 22-Oct-12 00:00:00 UTC", now),
            Some(1_350_864_000)
        );
        assert_eq!(parse_date_text("2012-10-22", now), Some(1_350_864_000));
        assert_eq!(
            parse_date_text("2012-10-22T10:00:00+02:00", now),
            Some(1_350_892_800)
        );
        assert_eq!(
            parse_date_text("Mon, 22 Oct 2012 00:00:00 +0000", now),
            Some(1_350_864_000)
        );
        assert_eq!(parse_date_text("@42", now), Some(42));
        assert_eq!(parse_date_text("now", now), Some(now));
        assert_eq!(parse_date_text("today", now), Some(1_350_864_000));
        assert_eq!(parse_date_text("+1 day", now), Some(now + 86_400));
        assert_eq!(parse_date_text("nonsense", now), None);
    }

    #[test]
    fn dates_are_midnights() {
        let c = crate::field_types::tests::cx();
        let v = DateType
            .from_hash(&map([("timestamp", 1_350_900_000.into())]), &c.cx())
            .unwrap();
        assert_eq!(v, HashValue::Int(1_350_864_000));
        assert_eq!(DateType.name_text(&v), "Monday 22 October 2012");
        assert!(
            DateType
                .from_hash(&map([("x", 1.into())]), &c.cx())
                .is_err()
        );
        assert!(
            DateType
                .from_hash(&map([("rfc850", "junk".into())]), &c.cx())
                .is_err()
        );
    }
}
