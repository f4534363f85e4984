//! What the date and time types (`ezdate`, `ezdatetime`, `eztime`) share: one type generic
//! over its kind (each stores an integer, sorts by it and is named by it formatted), reading
//! a date text or a `{rfc850|timestring|timestamp}` input the way PHP does, the
//! `{timestamp, rfc850}` output, and the settings `defaultType` and `useSeconds`.

use super::*;
use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, NaiveTime, Utc};

/// `ezdate`, `ezdatetime` or `eztime`, by its kind `K`: the value is an integer (a timestamp,
/// or seconds since midnight for a time), `null` when empty.
pub(crate) struct MomentType<K>(pub(crate) K);

/// What a date or time type does differently.
pub(crate) trait Moment: Send + Sync + 'static {
    const NAME: &'static str;
    const SETTINGS: &'static [Param];
    /// How the name text shows the stored integer (chrono's `format`, in UTC).
    const FORMAT: &'static str;
    /// The integer an input stores, `None` when it is empty.
    fn read(input: &HashValue) -> Result<Option<i64>, ValueError>;
    /// The output of a stored value: by default `{timestamp, rfc850}`.
    fn output(value: &HashValue) -> HashValue {
        date_hash(value)
    }
    /// Checks of the settings beyond each key's kind: by default none.
    fn checked(settings: HashValue) -> Result<HashValue, String> {
        Ok(settings)
    }
}

impl<K: Moment> FieldType for MomentType<K> {
    fn schema(&self) -> Schema {
        Schema::named(K::NAME).settings(K::SETTINGS)
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        K::checked(check_settings(input, K::SETTINGS)?)
    }

    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        Ok(K::read(input)?.map_or(HashValue::Null, HashValue::Int))
    }

    fn to_hash(&self, value: &HashValue, _: &ValueContext<'_>) -> HashValue {
        K::output(value)
    }

    fn sort_key(&self, value: &HashValue) -> SortKey {
        sort_int(value)
    }

    fn name_text(&self, value: &HashValue) -> String {
        formatted(value, K::FORMAT)
    }
}

/// The choice of `defaultType` every date and time type has: no default value.
pub(crate) const DEFAULT_EMPTY: Choice = choice("DEFAULT_EMPTY", Raw::Int(0));

/// The choice of `defaultType` of `ezdate` and `ezdatetime`: today's date.
pub(crate) const CURRENT_DATE: Choice = choice("DEFAULT_CURRENT_DATE", Raw::Int(1));

/// The setting `defaultType` (by default `DEFAULT_EMPTY`) with the type's `choices`.
pub(crate) const fn default_type(choices: &'static [Choice]) -> Param {
    param(
        "defaultType",
        Kind::Choice(choices),
        Dflt::Str("DEFAULT_EMPTY"),
    )
}

/// The setting `useSeconds` (by default `false`).
pub(crate) const USE_SECONDS: Param = param("useSeconds", Kind::Bool, Dflt::Bool(false));

/// A stored timestamp (seconds since the epoch, or since midnight for a time) formatted with
/// chrono's `format` in UTC; empty when there is none.
fn formatted(value: &HashValue, format: &str) -> String {
    value
        .as_i64()
        .and_then(utc)
        .map(|d| d.format(format).to_string())
        .unwrap_or_default()
}

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
fn date_hash(value: &HashValue) -> HashValue {
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
    fn timestamps_are_formatted_in_utc() {
        assert_eq!(
            formatted(&1_350_864_000.into(), "%Y-%m-%d %H:%M"),
            "2012-10-22 00:00"
        );
        assert_eq!(formatted(&HashValue::Null, "%Y"), "");
        assert_eq!(
            date_hash(&86_400.into()),
            map([
                ("timestamp", 86_400.into()),
                ("rfc850", "Friday, 02-Jan-70 00:00:00 UTC".into())
            ])
        );
        assert_eq!(date_hash(&HashValue::Null), HashValue::Null);
    }
}
