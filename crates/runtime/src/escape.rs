//! Finding the bytes a writer must escape in long text (rendered rich text makes strings of
//! kilobytes) eight bytes at a time.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `w` equal to `c`; exact up to the lowest one set (a borrow may
/// mark bytes above a true one, never below).
pub(crate) fn equal(w: u64, c: u8) -> u64 {
    let v = w ^ (ONES * u64::from(c));
    v.wrapping_sub(ONES) & !v & HIGH
}

/// The high bit of each byte of `w` below `n` (at most 128); exact up to the lowest one set.
pub(crate) fn below(w: u64, n: u8) -> u64 {
    w.wrapping_sub(ONES * u64::from(n)) & !w & HIGH
}

/// The index of the first byte of `bytes` from `from` on that `marks` marks (its length if
/// none): `marks` gives the high bit of each such byte of a little-endian word, exact up to
/// the lowest one set, so a word holding one leads straight to it. The last word is padded
/// with spaces, which no writer escapes.
pub(crate) fn next(bytes: &[u8], mut from: usize, marks: impl Fn(u64) -> u64) -> usize {
    while from < bytes.len() {
        let word = match bytes.get(from..from + 8) {
            Some(word) => word.try_into().unwrap_or_default(),
            None => {
                let mut last = [b' '; 8];
                last[..bytes.len() - from].copy_from_slice(&bytes[from..]);
                last
            }
        };
        let mask = marks(u64::from_le_bytes(word));
        if mask != 0 {
            return from + (mask.trailing_zeros() / 8) as usize;
        }
        from += 8;
    }
    bytes.len()
}
