//! What a database error means, read from its code: PostgreSQL's SQLSTATE (sqlx's
//! `DatabaseError::code`), SQLite's extended result code (carried by [`SqliteError`], which
//! the SQLite layer makes of every rusqlite failure), and the pool's own errors. This is the
//! one place that classifies database errors; nothing reads their message text.

use sea_orm::sqlx;
use sea_orm::{ConnAcquireErr, DbErr, RuntimeErr};
use std::borrow::Cow;

/// What went wrong with the database, as far as the caller can act on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// A unique constraint refused a row: a concurrent writer took the value first.
    UniqueViolation,
    /// The write met a concurrent one and was rolled back (a deadlock, a serialization
    /// failure, a lock that could not be had, a busy SQLite file, or the writes its
    /// transaction was shared with failed): it can be sent again.
    Contention,
    /// The statement ran past its time limit and was stopped.
    TimedOut,
    /// The database cannot be reached: the connection was refused, closed or cut, the server
    /// is shutting down or starting, the file cannot be opened.
    Unreachable,
    /// No connection of the pool could be had for as long as a request waits for one: every
    /// one stayed in use, or none could be opened (sqlx tries again, until then, to connect to
    /// a server that refuses connections, and says only that the time ran out).
    PoolExhausted,
    /// The database's disk is full (or the database reached its size limit).
    DiskFull,
    /// The database takes no writes now (a read-only file, a standby server).
    ReadOnly,
    /// The database's storage failed to read or write.
    Io,
    /// Anything else: a bug, a corrupt database.
    Other,
}

impl Failure {
    /// What `e` means.
    pub fn of(e: &DbErr) -> Failure {
        match e {
            DbErr::ConnectionAcquire(ConnAcquireErr::Timeout) => Failure::PoolExhausted,
            DbErr::ConnectionAcquire(ConnAcquireErr::ConnectionClosed) => Failure::Unreachable,
            DbErr::Conn(r) => match runtime(r) {
                Failure::Other => Failure::Unreachable,
                f => f,
            },
            DbErr::Exec(r) | DbErr::Query(r) => runtime(r),
            _ => Failure::Other,
        }
    }

    /// Whether the database, not the request, is the cause: a dependency that is away
    /// (unreachable, out of connections, out of disk, read-only, failing its I/O).
    pub fn is_unavailable(self) -> bool {
        matches!(
            self,
            Failure::Unreachable
                | Failure::PoolExhausted
                | Failure::DiskFull
                | Failure::ReadOnly
                | Failure::Io
        )
    }
}

fn runtime(r: &RuntimeErr) -> Failure {
    match r {
        RuntimeErr::SqlxError(e) => sqlx_error(e),
        _ => Failure::Other,
    }
}

fn sqlx_error(e: &sqlx::Error) -> Failure {
    match e {
        sqlx::Error::Database(d) => match d.try_downcast_ref::<SqliteError>() {
            Some(s) => sqlite_code(s.code),
            None => d.code().map_or(Failure::Other, |c| sqlstate(&c)),
        },
        sqlx::Error::PoolTimedOut => Failure::PoolExhausted,
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => Failure::Unreachable,
        _ => Failure::Other,
    }
}

/// PostgreSQL's SQLSTATE `code` (Appendix A of its manual).
fn sqlstate(code: &str) -> Failure {
    match code {
        "23505" => Failure::UniqueViolation,
        // serialization_failure, deadlock_detected, lock_not_available
        "40001" | "40P01" | "55P03" => Failure::Contention,
        // query_canceled (statement_timeout)
        "57014" => Failure::TimedOut,
        // admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections
        "57P01" | "57P02" | "57P03" | "53300" => Failure::Unreachable,
        // connection_exception and its subclasses
        c if c.starts_with("08") => Failure::Unreachable,
        "53100" => Failure::DiskFull,
        // read_only_sql_transaction (a standby, or default_transaction_read_only)
        "25006" => Failure::ReadOnly,
        "58030" => Failure::Io,
        _ => Failure::Other,
    }
}

/// SQLite's extended result `code` (<https://sqlite.org/rescode.html>).
fn sqlite_code(code: i32) -> Failure {
    use rusqlite::ffi;
    match code {
        ffi::SQLITE_CONSTRAINT_UNIQUE | ffi::SQLITE_CONSTRAINT_PRIMARYKEY => {
            return Failure::UniqueViolation;
        }
        _ => {}
    }
    match code & 0xff {
        ffi::SQLITE_BUSY | ffi::SQLITE_LOCKED | ffi::SQLITE_ABORT => Failure::Contention,
        ffi::SQLITE_INTERRUPT => Failure::TimedOut,
        ffi::SQLITE_CANTOPEN => Failure::Unreachable,
        ffi::SQLITE_FULL => Failure::DiskFull,
        ffi::SQLITE_READONLY => Failure::ReadOnly,
        ffi::SQLITE_IOERR => Failure::Io,
        _ => Failure::Other,
    }
}

/// A SQLite failure as sqlx carries a database's: its extended result code and its message.
#[derive(Debug)]
pub struct SqliteError {
    code: i32,
    message: String,
}

impl SqliteError {
    /// The failure with extended result `code` and `message`, as sea-orm's error.
    pub fn db_err(code: i32, message: String) -> DbErr {
        let e = sqlx::Error::Database(Box::new(SqliteError { code, message }));
        DbErr::Query(RuntimeErr::SqlxError(std::sync::Arc::new(e)))
    }

    /// Its extended result code.
    pub fn code(&self) -> i32 {
        self.code
    }
}

impl std::fmt::Display for SqliteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (SQLite code {})", self.message, self.code)
    }
}

impl std::error::Error for SqliteError {}

impl sqlx::error::DatabaseError for SqliteError {
    fn message(&self) -> &str {
        &self.message
    }

    fn code(&self) -> Option<Cow<'_, str>> {
        Some(self.code.to_string().into())
    }

    fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
        self
    }

    fn kind(&self) -> sqlx::error::ErrorKind {
        use rusqlite::ffi;
        use sqlx::error::ErrorKind;
        match self.code {
            ffi::SQLITE_CONSTRAINT_UNIQUE | ffi::SQLITE_CONSTRAINT_PRIMARYKEY => {
                ErrorKind::UniqueViolation
            }
            ffi::SQLITE_CONSTRAINT_FOREIGNKEY => ErrorKind::ForeignKeyViolation,
            ffi::SQLITE_CONSTRAINT_NOTNULL => ErrorKind::NotNullViolation,
            ffi::SQLITE_CONSTRAINT_CHECK => ErrorKind::CheckViolation,
            _ => ErrorKind::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::ffi;

    fn pg(code: &'static str) -> Failure {
        sqlstate(code)
    }

    /// Each code means what its documentation says, whatever the message.
    #[test]
    fn codes_classify_failures() {
        let sqlite = |code| Failure::of(&SqliteError::db_err(code, "anything".into()));
        assert_eq!(
            sqlite(ffi::SQLITE_CONSTRAINT_UNIQUE),
            Failure::UniqueViolation
        );
        assert_eq!(
            sqlite(ffi::SQLITE_CONSTRAINT_PRIMARYKEY),
            Failure::UniqueViolation
        );
        assert_eq!(sqlite(ffi::SQLITE_CONSTRAINT_FOREIGNKEY), Failure::Other);
        assert_eq!(sqlite(ffi::SQLITE_FULL), Failure::DiskFull);
        assert_eq!(sqlite(ffi::SQLITE_BUSY_SNAPSHOT), Failure::Contention);
        assert_eq!(sqlite(ffi::SQLITE_ABORT_ROLLBACK), Failure::Contention);
        assert_eq!(sqlite(ffi::SQLITE_INTERRUPT), Failure::TimedOut);
        assert_eq!(sqlite(ffi::SQLITE_IOERR_WRITE), Failure::Io);
        assert_eq!(sqlite(ffi::SQLITE_READONLY), Failure::ReadOnly);
        assert_eq!(sqlite(ffi::SQLITE_CANTOPEN), Failure::Unreachable);
        assert_eq!(sqlite(ffi::SQLITE_CORRUPT), Failure::Other);
        assert_eq!(pg("23505"), Failure::UniqueViolation);
        assert_eq!(pg("40P01"), Failure::Contention);
        assert_eq!(pg("40001"), Failure::Contention);
        assert_eq!(pg("57014"), Failure::TimedOut);
        assert_eq!(pg("57P01"), Failure::Unreachable);
        assert_eq!(pg("08006"), Failure::Unreachable);
        assert_eq!(pg("53100"), Failure::DiskFull);
        assert_eq!(pg("25006"), Failure::ReadOnly);
        assert_eq!(pg("42P01"), Failure::Other);
        let timeout = DbErr::ConnectionAcquire(ConnAcquireErr::Timeout);
        assert_eq!(Failure::of(&timeout), Failure::PoolExhausted);
        let timed_out = DbErr::Query(RuntimeErr::SqlxError(sqlx::Error::PoolTimedOut.into()));
        assert_eq!(Failure::of(&timed_out), Failure::PoolExhausted);
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        let refused = DbErr::Conn(RuntimeErr::SqlxError(sqlx::Error::Io(refused).into()));
        assert_eq!(Failure::of(&refused), Failure::Unreachable);
        // A message that names a condition is not read.
        let text = DbErr::Custom("UNIQUE constraint failed: deadlock detected".into());
        assert_eq!(Failure::of(&text), Failure::Other);
    }
}
