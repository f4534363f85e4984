//! A cheap sign that nothing has committed since a moment: SQLite in WAL mode keeps, at the
//! start of its shared-memory file (`<database>-shm`), the WAL-index header, which every
//! commit of any connection of any process rewrites (its change counter, the WAL's last frame
//! and salts; see SQLite's walformat.html), in two copies written one after the other. One
//! look at it tells whether anything committed since an earlier one, where reading the
//! generation (`events`) costs a statement. PostgreSQL has no such sign.
//!
//! The header is read from a read-only shared mapping of that file, as SQLite's own readers
//! do: a request reads it without a system call.

use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicU32, Ordering, fence};

/// The WAL-index header as read: both copies (48 bytes each).
pub type Mark = [u8; 96];

/// Words in a mark: two copies of twelve 32-bit words.
const WORDS: usize = 24;

/// Where a SQLite database's marks are read: its `-shm` file, mapped, and a connection of its
/// own that keeps the file as it is (SQLite removes the file when the last connection closes,
/// and truncates it when a connection opens it alone; the keeper's shared lock on it prevents
/// both).
#[derive(Debug)]
pub struct CommitMarks {
    header: &'static [AtomicU32; WORDS],
    keeper: std::sync::Mutex<Option<rusqlite::Connection>>,
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
        // A read opens the WAL-index, and the keeper holds it open from then on.
        keeper
            .query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))
            .ok()?;
        let shm = std::fs::File::open(format!("{database}-shm")).ok()?;
        if shm.metadata().ok()?.len() < (WORDS * 4) as u64 {
            return None;
        }
        Some(CommitMarks {
            header: map_header(&shm)?,
            keeper: std::sync::Mutex::new(Some(keeper)),
        })
    }

    /// Closes the keeper, as the pool closes: the last connection to close may then remove
    /// the file. The mapping stays readable (the file is removed, never shortened).
    pub fn release(&self) {
        if let Ok(mut keeper) = self.keeper.lock() {
            drop(keeper.take());
        }
    }

    /// The header now; none when a commit is writing it (its copies differ) or it is not
    /// initialised: then nothing can be concluded from it.
    pub fn current(&self) -> Option<Mark> {
        // SQLite writes the second copy, then the first; it reads the first, then the second,
        // with a barrier between: a header read while it changes has copies that differ.
        let mut mark = [0u8; 96];
        for (i, word) in self.header.iter().enumerate() {
            if i == WORDS / 2 {
                fence(Ordering::Acquire);
            }
            mark[i * 4..i * 4 + 4].copy_from_slice(&word.load(Ordering::Relaxed).to_ne_bytes());
        }
        // Byte 12 of a copy is `isInit`.
        (mark[..48] == mark[48..] && mark[12] != 0).then_some(mark)
    }
}

/// Maps the first bytes of `shm` read-only and shared, for the life of the process's marks.
#[allow(unsafe_code)]
fn map_header(shm: &std::fs::File) -> Option<&'static [AtomicU32; WORDS]> {
    // SAFETY: a read-only shared mapping of a file at least `WORDS * 4` bytes long (checked by
    // the caller, and SQLite never shortens it while the keeper holds it open), page-aligned,
    // so aligned for `AtomicU32`; other processes write it, which atomics read soundly. It
    // is unmapped only when the marks are dropped, after their last read.
    unsafe {
        let ptr = libc::mmap(
            std::ptr::null_mut(),
            WORDS * 4,
            libc::PROT_READ,
            libc::MAP_SHARED,
            shm.as_raw_fd(),
            0,
        );
        (ptr != libc::MAP_FAILED).then(|| &*(ptr as *const [AtomicU32; WORDS]))
    }
}

impl Drop for CommitMarks {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        // SAFETY: the mapping made by `map_header`, not used after this.
        unsafe {
            libc::munmap(self.header.as_ptr() as *mut libc::c_void, WORDS * 4);
        }
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
