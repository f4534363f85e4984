//! A cheap sign that nothing has committed since a moment: SQLite in WAL mode keeps, at the
//! start of its shared-memory file (`<database>-shm`), the WAL-index header, which every
//! commit of any connection of any process rewrites (its change counter, the WAL's last frame
//! and salts; see SQLite's walformat.html), in two copies written one after the other. One
//! small file read tells whether anything committed since an earlier read, where the
//! generation (`events`) costs a statement. PostgreSQL has no such sign.

use std::os::unix::fs::FileExt;

/// The WAL-index header as read: both copies (48 bytes each).
pub type Mark = [u8; 96];

/// Where a SQLite database's marks are read: its `-shm` file, held open, and a connection of
/// its own that keeps it from being removed (SQLite removes the file when the last
/// connection closes, and a new one would not be the one held).
#[derive(Debug)]
pub struct CommitMarks {
    shm: std::fs::File,
    _keeper: std::sync::Mutex<rusqlite::Connection>,
}

impl CommitMarks {
    /// The marks of the SQLite database file `database` (its `-shm` beside it), once a
    /// connection in WAL mode has made it.
    pub fn open(database: &str) -> Option<CommitMarks> {
        if database.is_empty() || database.starts_with(':') {
            return None;
        }
        let keeper = rusqlite::Connection::open(database).ok()?;
        keeper.pragma_update(None, "journal_mode", "WAL").ok()?;
        let shm = std::fs::File::open(format!("{database}-shm")).ok()?;
        Some(CommitMarks {
            shm,
            _keeper: std::sync::Mutex::new(keeper),
        })
    }

    /// The header now; none when it cannot be read or a commit is writing it (its copies
    /// differ), or it is not initialised: then nothing can be concluded from it.
    pub fn current(&self) -> Option<Mark> {
        let mut mark = [0u8; 96];
        self.shm.read_exact_at(&mut mark, 0).ok()?;
        // Byte 12 of a copy is `isInit`.
        (mark[..48] == mark[48..] && mark[12] != 0).then_some(mark)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every commit changes the mark, a read does not; of another connection too.
    #[test]
    fn a_commit_changes_the_mark_and_a_read_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let a = rusqlite::Connection::open(&path).unwrap();
        let b = rusqlite::Connection::open(&path).unwrap();
        a.pragma_update(None, "journal_mode", "WAL").unwrap();
        a.execute_batch("CREATE TABLE t (x INTEGER)").unwrap();
        let marks = CommitMarks::open(path.to_str().unwrap()).unwrap();
        let before = marks.current().expect("a mark");
        a.execute_batch("SELECT * FROM t").unwrap();
        assert_eq!(marks.current(), Some(before));
        b.execute_batch("INSERT INTO t VALUES (1)").unwrap();
        let after = marks.current().expect("a mark");
        assert_ne!(after, before);
        a.execute_batch("INSERT INTO t VALUES (2)").unwrap();
        assert_ne!(marks.current(), Some(after));
    }
}
