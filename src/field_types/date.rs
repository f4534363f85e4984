//! `ezdate`: a date, stored as the Unix timestamp of its midnight (UTC); `null` when empty.
//! Setting `defaultType` (`DEFAULT_EMPTY`, `DEFAULT_CURRENT_DATE`).

use super::dates::{CURRENT_DATE, DEFAULT_EMPTY, Moment, default_type, timestamp_of};
use super::*;

/// `ezdate`, a [`MomentType`](super::dates::MomentType).
pub(crate) struct Date;

impl Moment for Date {
    const NAME: &'static str = "date";
    const SETTINGS: &'static [Param] = &[default_type(&[DEFAULT_EMPTY, CURRENT_DATE])];
    /// `Monday 22 October 2012` (PHP `l d F Y`).
    const FORMAT: &'static str = "%A %d %B %Y";

    /// A timestamp, moved back to its midnight.
    fn read(input: &HashValue) -> Result<Option<i64>, ValueError> {
        Ok(timestamp_of(input, "date")?.map(|ts| ts.div_euclid(86_400) * 86_400))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::dates::MomentType;
    use crate::field_types::tests::cx;

    #[test]
    fn dates_are_midnights() {
        let v = MomentType(Date)
            .from_hash(&map([("timestamp", 1_350_900_000.into())]), &cx())
            .unwrap();
        assert_eq!(v, HashValue::Int(1_350_864_000));
        assert_eq!(MomentType(Date).name_text(&v), "Monday 22 October 2012");
        assert!(
            MomentType(Date)
                .from_hash(&map([("x", 1.into())]), &cx())
                .is_err()
        );
        assert!(
            MomentType(Date)
                .from_hash(&map([("rfc850", "junk".into())]), &cx())
                .is_err()
        );
    }
}
