//! One rule for the window of every list (`offset`, `limit` in the spec), as the reference's
//! controllers read them: a negative offset counts as 0; a negative limit asks for no bound,
//! which a list gives whole, or pages by its own default where the reference does
//! (`Limit::negative_as`: Location children, users and user groups, 25). What is not a whole
//! number is a 400 before the operation runs.

use crate::decode::{FromScalar, Scalar};

/// How many items of a list to skip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Offset(pub u64);

/// How many items of a list to give at most: `None` when no bound was asked (a negative
/// limit): all of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limit(pub Option<u64>);

impl Offset {
    /// The offset for SQL (`OFFSET ?`).
    pub fn sql(self) -> i64 {
        i64::try_from(self.0).unwrap_or(i64::MAX)
    }
}

impl Limit {
    /// The limit for SQL (`LIMIT ?`; SQLite takes no OFFSET without a LIMIT).
    pub fn sql(self) -> i64 {
        self.0
            .map_or(i64::MAX, |n| i64::try_from(n).unwrap_or(i64::MAX))
    }

    /// `self`, or `n` where no bound was asked (the reference pages some lists so).
    pub fn negative_as(self, n: u64) -> Limit {
        Limit(Some(self.0.unwrap_or(n)))
    }

    /// The window `offset`/`self` of items already read.
    pub fn window<T>(self, items: Vec<T>, offset: Offset) -> Vec<T> {
        let skip = usize::try_from(offset.0).unwrap_or(usize::MAX);
        let take = self
            .0
            .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
        items.into_iter().skip(skip).take(take).collect()
    }
}

fn whole(s: &Scalar<'_>) -> Option<i64> {
    match s {
        Scalar::Int(i) => Some(*i),
        Scalar::Str(v) => v.trim().parse().ok(),
        _ => None,
    }
}

impl FromScalar for Offset {
    const EXPECTED: &'static str = "a whole number (a negative one counts as 0)";
    fn from_scalar(s: &Scalar<'_>) -> Option<Self> {
        whole(s).map(|i| Offset(u64::try_from(i).unwrap_or(0)))
    }
}

impl FromScalar for Limit {
    const EXPECTED: &'static str = "a whole number (a negative one for no bound)";
    fn from_scalar(s: &Scalar<'_>) -> Option<Self> {
        whole(s).map(|i| Limit(u64::try_from(i).ok()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_and_limits_follow_one_rule() {
        assert_eq!(Offset::from_scalar(&Scalar::Str("5")), Some(Offset(5)));
        assert_eq!(Offset::from_scalar(&Scalar::Str("-5")), Some(Offset(0)));
        assert_eq!(Offset::from_scalar(&Scalar::Str("x")), None);
        assert_eq!(Limit::from_scalar(&Scalar::Str("-1")), Some(Limit(None)));
        assert_eq!(Limit::from_scalar(&Scalar::Int(0)), Some(Limit(Some(0))));
        assert_eq!(Limit::from_scalar(&Scalar::Str("-2")), Some(Limit(None)));
        assert_eq!(Limit::from_scalar(&Scalar::Str("2x")), None);
        assert_eq!(Limit(None).negative_as(25), Limit(Some(25)));
        assert_eq!(Limit(Some(3)).negative_as(25), Limit(Some(3)));
        assert_eq!(Limit(None).window(vec![1, 2, 3], Offset(1)), vec![2, 3]);
        assert_eq!(Limit(Some(1)).window(vec![1, 2, 3], Offset(1)), vec![2]);
    }
}
