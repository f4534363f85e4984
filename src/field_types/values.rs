//! Helpers the field types share to read and write value hashes.

use super::*;

/// A hash from pairs, in order.
pub(crate) fn map<const N: usize>(pairs: [(&str, HashValue); N]) -> HashValue {
    HashValue::Map(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// A value of a hash, `Null` when absent.
pub(crate) fn field<'a>(value: &'a HashValue, key: &str) -> &'a HashValue {
    const NULL: &HashValue = &HashValue::Null;
    value.get(key).unwrap_or(NULL)
}

/// A scalar as PHP's `(string)` prints it: `true` → `"1"`, `false` → `""`, floats with 14
/// significant digits.
pub(crate) fn text_of(value: &HashValue) -> String {
    match value {
        HashValue::String(s) => s.clone(),
        HashValue::Int(i) => i.to_string(),
        HashValue::Float(f) => php_float(f.0),
        HashValue::Bool(true) => "1".to_string(),
        _ => String::new(),
    }
}

/// An optional string of a hash (`null` and non-scalars are `None`).
pub(crate) fn opt_text(value: &HashValue) -> Option<String> {
    match value {
        HashValue::String(_) | HashValue::Int(_) | HashValue::Float(_) | HashValue::Bool(_) => {
            Some(text_of(value))
        }
        _ => None,
    }
}

/// A float printed like PHP's `(string)` cast (`precision` 14): `1.5`, `2`, `0.3`, `1.0E+25`.
pub(crate) fn php_float(f: f64) -> String {
    if !f.is_finite() {
        return if f.is_nan() {
            "NAN".to_string()
        } else if f > 0.0 {
            "INF".to_string()
        } else {
            "-INF".to_string()
        };
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    // %.14G: 14 significant digits, scientific below 1e-4 or from 1e14 on.
    let sci = format!("{:.13e}", f);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..14).contains(&exp) {
        let m = trim_zeros(mantissa);
        let m = if m.contains('.') { m } else { format!("{m}.0") };
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{m}E{sign}{}", exp.abs());
    }
    let decimals = (13 - exp).max(0) as usize;
    trim_zeros(&format!("{:.*}", decimals, f))
}

fn trim_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// A number of a numeric string (`"12"` → Int, `"1.5"` → Float).
pub(crate) fn number_of(s: &str) -> Option<HashValue> {
    let s = s.trim();
    if let Ok(i) = s.parse::<i64>() {
        return Some(HashValue::Int(i));
    }
    s.parse::<f64>()
        .ok()
        .filter(|f| f.is_finite())
        .map(|f| HashValue::Float(Float(f)))
}

/// A content id: an integer or a numeric string.
pub(crate) fn id_of(value: &HashValue) -> Option<i64> {
    match value {
        HashValue::Int(i) => Some(*i),
        HashValue::String(s) => s.trim().parse().ok(),
        HashValue::Float(f) if f.0.fract() == 0.0 => Some(f.0 as i64),
        _ => None,
    }
}

/// The items of a list input; a scalar or hash given where a list is expected (a one-item
/// list decoded from XML) is a list of one; `null` is empty.
pub(crate) fn items(value: &HashValue) -> Vec<HashValue> {
    match value {
        HashValue::Null => Vec::new(),
        HashValue::List(l) => l.clone(),
        other => vec![other.clone()],
    }
}

/// A sort key text: lowercased and cut to 255 characters.
pub(crate) fn sort_text(s: &str) -> SortKey {
    SortKey::Text(s.to_lowercase().chars().take(255).collect())
}

/// A sort key of several parts (keywords, names, ids): joined with `,`, cut to 255
/// characters.
pub(crate) fn sort_joined(parts: &[String]) -> SortKey {
    SortKey::Text(parts.join(",").chars().take(255).collect())
}

/// A sort key number: the integer of a value (a timestamp, a count), none without one.
pub(crate) fn sort_int(value: &HashValue) -> SortKey {
    value.as_i64().map_or(SortKey::None, SortKey::Int)
}

/// `%size% character.` / `%size% characters.`: the reference's singular and plural forms.
pub(crate) fn plural(n: i64, singular: &str, plural: &str) -> String {
    if n == 1 {
        singular.replace("%size%", &n.to_string())
    } else {
        plural.replace("%size%", &n.to_string())
    }
}

/// The reference's `EmailAddressValidator` pattern: a dot-atom or quoted local part, `@`, and
/// a dotted IPv4 address (bare or in brackets) or a domain whose last label has 2+ letters.
pub(crate) fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let local_ok = if local.len() >= 2 && local.starts_with('"') && local.ends_with('"') {
        let inner = &local[1..local.len() - 1];
        !inner.is_empty()
            && !inner
                .chars()
                .any(|c| matches!(c, '"' | '\x0c' | '\n' | '\r' | '\t' | '\x0b' | '\x08'))
    } else {
        !local.is_empty()
            && local.split('.').all(|atom| {
                !atom.is_empty()
                    && atom
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_!#$%&'*+-~/^`|{}".contains(c))
            })
    };
    local_ok
        && (is_ipv4(domain.trim_start_matches('[').trim_end_matches(']')) || is_domain(domain))
        && (domain.starts_with('[') == domain.ends_with(']'))
}

fn is_ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

fn is_domain(s: &str) -> bool {
    let labels: Vec<&str> = s.split('.').collect();
    let Some((last, rest)) = labels.split_last() else {
        return false;
    };
    !rest.is_empty()
        && rest
            .iter()
            .all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        && last.len() >= 2
        && last.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_keys_of_numbers_and_parts() {
        assert_eq!(sort_int(&HashValue::Int(-3)), SortKey::Int(-3));
        assert_eq!(sort_int(&"12".into()), SortKey::Int(12));
        assert_eq!(sort_int(&HashValue::Null), SortKey::None);
        let parts = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            sort_joined(&parts(&["a", "B"])),
            SortKey::Text("a,B".into())
        );
        assert_eq!(sort_joined(&[]), SortKey::Text(String::new()));
        assert_eq!(
            sort_joined(&parts(&[&"x".repeat(200), &"y".repeat(200)])),
            SortKey::Text(format!("{},{}", "x".repeat(200), "y".repeat(54)))
        );
    }
}
