//! A cheap sign that nothing has committed since a moment: SQLite in WAL mode keeps, at the
//! start of its shared-memory file (`<database>-shm`), the WAL-index header, which every
//! commit of any connection of any process rewrites (its change counter, the WAL's last frame
//! and salts; see SQLite's walformat.html), in two copies written one after the other. One
//! small file read tells whether anything committed since an earlier read, where the
//! generation (`events`) costs a statement. PostgreSQL has no such sign.

use std::os::unix::fs::FileExt;
use std::path::PathBuf;

/// The WAL-index header as read: both copies (48 bytes each).
pub type Mark = [u8; 96];

/// Where a SQLite database's marks are read.
#[derive(Debug, Clone)]
pub struct CommitMarks {
    shm: PathBuf,
}

impl CommitMarks {
    /// The marks of the SQLite database file `database` (its `-shm` beside it).
    pub fn of(database: &str) -> Option<CommitMarks> {
        (!database.is_empty()).then(|| CommitMarks {
            shm: PathBuf::from(format!("{database}-shm")),
        })
    }

    /// The header now; none when it cannot be read or a commit is writing it (its copies
    /// differ), or it is not initialised: then nothing can be concluded from it. The file is
    /// opened each time: SQLite removes and makes it anew when all connections close.
    pub fn current(&self) -> Option<Mark> {
        let file = std::fs::File::open(&self.shm).ok()?;
        let mut mark = [0u8; 96];
        file.read_exact_at(&mut mark, 0).ok()?;
        // Byte 12 of a copy is `isInit`.
        (mark[..48] == mark[48..] && mark[12] != 0).then_some(mark)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sea_orm::{ConnectionTrait, Database};

    /// Every commit changes the mark, a read does not; of another connection too.
    #[tokio::test]
    async fn a_commit_changes_the_mark_and_a_read_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let url = format!("sqlite://{}?mode=rwc", path.display());
        let a = Database::connect(&url).await.unwrap();
        let b = Database::connect(&url).await.unwrap();
        a.execute_unprepared("PRAGMA journal_mode=WAL; CREATE TABLE t (x INTEGER)")
            .await
            .unwrap();
        let marks = CommitMarks::of(path.to_str().unwrap()).unwrap();
        let before = marks.current().expect("a mark");
        a.execute_unprepared("SELECT * FROM t").await.unwrap();
        assert_eq!(marks.current(), Some(before));
        b.execute_unprepared("INSERT INTO t VALUES (1)")
            .await
            .unwrap();
        let after = marks.current().expect("a mark");
        assert_ne!(after, before);
        a.execute_unprepared("INSERT INTO t VALUES (2)")
            .await
            .unwrap();
        assert_ne!(marks.current(), Some(after));
    }
}
