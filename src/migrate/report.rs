//! What a migration did, per kind: rows read, rows written, rows skipped and why; the source
//! tables it does not carry and why; accounts whose password hash cairn cannot verify; files
//! the database names that the storage directory lacks. Progress while it runs goes to
//! standard error (rows per second, estimated time left).

use std::collections::BTreeMap;
use std::fmt;
use std::time::Instant;

/// The counts of one kind (`content items`, `Locations`, …).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Counts {
    pub read: u64,
    pub written: u64,
    /// Why → how many, with the first row it happened to.
    pub skipped: BTreeMap<String, (u64, String)>,
}

/// The report of one migration.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// Kind → counts, in the order kinds were first named.
    pub kinds: Vec<(&'static str, Counts)>,
    /// Source tables not carried, with why.
    pub ignored: Vec<(String, String)>,
    /// Logins whose password hash cairn cannot verify (kept; they set a new password).
    pub unverifiable: Vec<(String, String)>,
    /// Files named by the database that the storage directory lacks.
    pub missing_files: Vec<String>,
    /// Nothing was written (`--dry-run`).
    pub dry_run: bool,
}

impl Report {
    pub fn kind(&mut self, kind: &'static str) -> &mut Counts {
        let i = match self.kinds.iter().position(|(k, _)| *k == kind) {
            Some(i) => i,
            None => {
                self.kinds.push((kind, Counts::default()));
                self.kinds.len() - 1
            }
        };
        &mut self.kinds[i].1
    }

    pub fn read(&mut self, kind: &'static str, n: usize) {
        self.kind(kind).read += n as u64;
    }

    pub fn written(&mut self, kind: &'static str, n: usize) {
        self.kind(kind).written += n as u64;
    }

    /// One row of `kind` not carried: `why`, and the row (`table (key=…)`).
    pub fn skip(&mut self, kind: &'static str, why: impl Into<String>, row: impl Into<String>) {
        let e = self
            .kind(kind)
            .skipped
            .entry(why.into())
            .or_insert((0, row.into()));
        e.0 += 1;
    }

    /// The counts of `kind` (zero when never named).
    pub fn counts(&self, kind: &str) -> Counts {
        (self.kinds.iter().find(|(k, _)| *k == kind))
            .map(|(_, c)| c.clone())
            .unwrap_or_default()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = if self.dry_run {
            "would write"
        } else {
            "written"
        };
        writeln!(
            f,
            "{:<28} {:>9} {:>12} {:>9}",
            "kind", "read", verb, "skipped"
        )?;
        for (kind, c) in &self.kinds {
            let skipped: u64 = c.skipped.values().map(|s| s.0).sum();
            writeln!(f, "{kind:<28} {:>9} {:>12} {skipped:>9}", c.read, c.written)?;
            for (why, (n, first)) in &c.skipped {
                writeln!(f, "    skipped {n}: {why} (first: {first})")?;
            }
        }
        for (table, why) in &self.ignored {
            writeln!(f, "not carried: {table}: {why}")?;
        }
        for (login, why) in &self.unverifiable {
            writeln!(
                f,
                "password not verifiable: {login} ({why}); the account is kept, its user needs a new password"
            )?;
        }
        for path in &self.missing_files {
            writeln!(f, "missing file: {path}")?;
        }
        if self.dry_run {
            writeln!(f, "dry run: nothing was written")?;
        }
        Ok(())
    }
}

/// Progress on standard error: rows done of the rows to do, rows per second and the time left.
pub struct Progress {
    total: u64,
    done: u64,
    started: Instant,
    last: Instant,
    quiet: bool,
}

impl Progress {
    pub fn new(total: u64, quiet: bool) -> Progress {
        let now = Instant::now();
        Progress {
            total,
            done: 0,
            started: now,
            last: now,
            quiet,
        }
    }

    /// `n` more rows done; shows the state at most twice a second.
    pub fn advance(&mut self, n: usize) {
        self.done += n as u64;
        if self.quiet || self.last.elapsed().as_millis() < 500 {
            return;
        }
        self.last = Instant::now();
        eprintln!("{}", self.line());
    }

    /// `12000/40000 rows, 5321 rows/s, about 5 s left`.
    pub fn line(&self) -> String {
        let secs = self.started.elapsed().as_secs_f64().max(0.001);
        let rate = self.done as f64 / secs;
        let left = if rate > 0.0 {
            (self.total.saturating_sub(self.done)) as f64 / rate
        } else {
            0.0
        };
        format!(
            "{}/{} rows, {:.0} rows/s, about {:.0} s left",
            self.done, self.total, rate, left
        )
    }

    pub fn quiet(&self) -> bool {
        self.quiet
    }
}
