//! Values between sea-orm and rusqlite: parameters bound (with bound limits written into the
//! statement's text), values of rows read, errors.

use super::*;

pub(super) fn params<'a>(
    (values, written): (&'a [Value], Vec<usize>),
) -> rusqlite::ParamsFromIter<impl Iterator<Item = Param<'a>>> {
    let bound = (values.iter().enumerate()).filter(move |(i, _)| !written.contains(i));
    rusqlite::params_from_iter(bound.map(|(_, v)| Param(v)))
}

/// The statement's text with every bound `LIMIT ?` written into it as the integer it is
/// bound to, and its values with the positions of those written, which are then not bound:
/// SQLite's planner reads a bound limit's value, so a statement whose limit is bound is
/// compiled again every time it runs (`sqlite3Reprepare`), which costs more than running it.
/// (sea-orm ends its statements with `LIMIT ?`, and pages have one.) Offsets stay bound.
pub(super) fn limit_written(s: &Statement) -> (std::borrow::Cow<'_, str>, (&[Value], Vec<usize>)) {
    let values = s.values.as_ref().map_or(&[][..], |v| &v.0[..]);
    limits_written(&s.sql, values)
}

/// `s` with its bound limits written into its text and their values dropped: for statements
/// built once and run many times (`read::Kept`, `read::by_id`), so that no run rewrites them.
pub(crate) fn limits_fixed(s: Statement) -> Statement {
    let (sql, (values, written)) = limit_written(&s);
    if written.is_empty() {
        return s;
    }
    let kept = (values.iter().enumerate())
        .filter(|(i, _)| !written.contains(i))
        .map(|(_, v)| v.clone());
    Statement::from_sql_and_values(s.db_backend, sql.into_owned(), kept)
}

/// [`limit_written`] of a statement's text and values.
pub(super) fn limits_written<'a>(
    text: &'a str,
    values: &'a [Value],
) -> (std::borrow::Cow<'a, str>, (&'a [Value], Vec<usize>)) {
    if !text.contains("LIMIT ?") {
        return (text.into(), (values, Vec::new()));
    }
    let mut sql = String::with_capacity(text.len() + 8);
    let mut written = Vec::new();
    let (mut n, mut quoted, mut from) = (0, false, 0);
    // Whole runs of text between quotes and placeholders are copied at once.
    for (at, c) in text.match_indices(['\'', '?']) {
        if c == "'" {
            quoted = !quoted;
            continue;
        }
        if quoted {
            continue;
        }
        let limit = match values.get(n) {
            Some(Value::BigInt(Some(v))) => Some(*v),
            Some(Value::BigUnsigned(Some(v))) => i64::try_from(*v).ok(),
            Some(Value::Int(Some(v))) => Some(i64::from(*v)),
            Some(Value::Unsigned(Some(v))) => Some(i64::from(*v)),
            _ => None,
        };
        n += 1;
        if let Some(limit) = limit.filter(|_| text[..at].ends_with("LIMIT ")) {
            sql.push_str(&text[from..at]);
            sql.push_str(&limit.to_string());
            written.push(n - 1);
            from = at + 1;
        }
    }
    sql.push_str(&text[from..]);
    (sql.into(), (values, written))
}

/// A value of a row, typed as the entities read it.
pub(super) fn value(v: ValueRef<'_>, boolean: bool) -> Value {
    match v {
        ValueRef::Null => Value::BigInt(None),
        ValueRef::Integer(i) if boolean => Value::Bool(Some(i != 0)),
        ValueRef::Integer(i) => Value::BigInt(Some(i)),
        ValueRef::Real(f) => Value::Double(Some(f)),
        ValueRef::Text(t) => Value::String(Some(String::from_utf8_lossy(t).into_owned())),
        ValueRef::Blob(b) => Value::Bytes(Some(b.to_vec())),
    }
}

/// A sea-query value bound to a statement.
pub(super) struct Param<'a>(&'a Value);

impl ToSql for Param<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        use rusqlite::types::Value as V;
        let int = |i: Option<i64>| i.map_or(V::Null, V::Integer);
        let owned = match self.0 {
            Value::String(Some(s)) => {
                return Ok(ToSqlOutput::Borrowed(ValueRef::Text(s.as_bytes())));
            }
            Value::Bytes(Some(b)) => return Ok(ToSqlOutput::Borrowed(ValueRef::Blob(b))),
            Value::Bool(b) => int(b.map(i64::from)),
            Value::TinyInt(i) => int(i.map(i64::from)),
            Value::SmallInt(i) => int(i.map(i64::from)),
            Value::Int(i) => int(i.map(i64::from)),
            Value::BigInt(i) => int(*i),
            Value::TinyUnsigned(i) => int(i.map(i64::from)),
            Value::SmallUnsigned(i) => int(i.map(i64::from)),
            Value::Unsigned(i) => int(i.map(i64::from)),
            Value::BigUnsigned(i) => int(i.map(|i| i as i64)),
            Value::Float(f) => f.map_or(V::Null, |f| V::Real(f.into())),
            Value::Double(f) => f.map_or(V::Null, V::Real),
            Value::Char(c) => c.map_or(V::Null, |c| V::Text(c.to_string())),
            Value::Json(j) => j.as_ref().map_or(V::Null, |j| V::Text(j.to_string())),
            Value::String(None) | Value::Bytes(None) => V::Null,
            other => {
                return Err(rusqlite::Error::ToSqlConversionFailure(
                    format!("cannot bind {other:?}").into(),
                ));
            }
        };
        Ok(ToSqlOutput::Owned(owned))
    }
}

/// A rusqlite error as sea-orm's: a failure of SQLite keeps its extended result code
/// (`crate::failure` reads it), anything else (a value of the wrong type) its text.
pub(crate) fn err(e: rusqlite::Error) -> DbErr {
    match e {
        rusqlite::Error::SqliteFailure(f, message) => {
            let message = message.unwrap_or_else(|| f.to_string());
            crate::failure::SqliteError::db_err(f.extended_code, message)
        }
        rusqlite::Error::SqlInputError { error, msg, .. } => {
            crate::failure::SqliteError::db_err(error.extended_code, msg)
        }
        other => DbErr::Query(RuntimeErr::Internal(other.to_string())),
    }
}
