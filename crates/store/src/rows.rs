//! Rows of SQLite read into Rust types: a type declared with [`from_row!`](crate::from_row)
//! reads each field from the column of its name, straight from SQLite's row (no map of
//! values in between, see `read.rs`).

use std::any::Any;

pub use rusqlite::Result as RowResult;
pub use rusqlite::Row;

/// A type read from one row of SQLite, each field from the column of its name.
pub trait FromRow: Sized + Send + 'static {
    /// `columns` are the statement's column names, by position.
    fn from_row<S: AsRef<str>>(row: &Row<'_>, columns: &[S]) -> RowResult<Self>;
}

/// The value of the column `name` (the last of that name, as sea-orm's rows keep it).
pub fn column<T: rusqlite::types::FromSql, S: AsRef<str>>(
    row: &Row<'_>,
    columns: &[S],
    name: &str,
) -> RowResult<T> {
    let i = (columns.iter().rposition(|c| c.as_ref() == name))
        .ok_or_else(|| rusqlite::Error::InvalidColumnName(name.to_owned()))?;
    row.get(i)
}

/// A model read from the columns named `pre` followed by its fields' names: one of several
/// models in a row of a join (see `sql::columns_as`).
pub fn prefixed<M: FromRow, S: AsRef<str>>(
    row: &Row<'_>,
    columns: &[S],
    pre: &str,
) -> RowResult<M> {
    let names: Vec<&str> = (columns.iter())
        .map(|c| c.as_ref().strip_prefix(pre).unwrap_or_default())
        .collect();
    M::from_row(row, &names)
}

/// Declares a struct (a sea-orm model, or a row of a query) with its [`FromRow`] reading.
#[macro_export]
macro_rules! from_row {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$fmeta:meta])* $fvis:vis $field:ident : $ty:ty),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $($(#[$fmeta])* $fvis $field : $ty),*
        }

        impl $crate::rows::FromRow for $name {
            fn from_row<S: AsRef<str>>(
                row: &$crate::rows::Row<'_>,
                columns: &[S],
            ) -> $crate::rows::RowResult<Self> {
                Ok($name {
                    $($field: $crate::rows::column(row, columns, stringify!($field))?),*
                })
            }
        }
    };
}

/// Reads every row of a statement into a `Vec` of one [`FromRow`] type.
pub(crate) type Decode = fn(&mut rusqlite::Rows<'_>, &[String]) -> RowResult<Box<dyn Any + Send>>;

/// [`Decode`] for `M`.
pub(crate) fn decode_all<M: FromRow>(
    rows: &mut rusqlite::Rows<'_>,
    columns: &[String],
) -> RowResult<Box<dyn Any + Send>> {
    let mut out = Vec::<M>::new();
    while let Some(row) = rows.next()? {
        out.push(M::from_row(row, columns)?);
    }
    Ok(Box::new(out))
}

/// One column of a row read whole, whatever its type (a search's cells, `watch.rs`).
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Null,
    Int(i64),
    Float(f64),
    Text(String),
}

impl Cell {
    pub fn int(&self) -> Option<i64> {
        match self {
            Cell::Int(i) => Some(*i),
            Cell::Float(f) => Some(*f as i64),
            Cell::Text(t) => t.parse().ok(),
            Cell::Null => None,
        }
    }

    pub fn float(&self) -> Option<f64> {
        match self {
            Cell::Int(i) => Some(*i as f64),
            Cell::Float(f) => Some(*f),
            Cell::Text(t) => t.parse().ok(),
            Cell::Null => None,
        }
    }

    pub fn text(&self) -> Option<String> {
        match self {
            Cell::Int(i) => Some(i.to_string()),
            Cell::Float(f) => Some(f.to_string()),
            Cell::Text(t) => Some(t.clone()),
            Cell::Null => None,
        }
    }
}
