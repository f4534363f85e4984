//! The CPUs of the bench's own threads: the peer rows run each server on one core and the
//! bench (the load generator) on the others, then give the bench its CPUs back. Set with
//! `taskset -a -p` (every thread of the process), read from `/proc/self/task/*/status`.

use anyhow::{Context, Result, bail};
use std::collections::BTreeSet;
use std::process::{Command, Stdio};

/// The CPUs this process may run on (its main thread's list).
pub fn allowed() -> Result<Vec<usize>> {
    let status =
        std::fs::read_to_string("/proc/self/status").context("reading /proc/self/status")?;
    parse(listed(&status)?)
}

/// The distinct CPU lists of this process's threads.
pub fn threads() -> Result<BTreeSet<String>> {
    let mut lists = BTreeSet::new();
    for task in std::fs::read_dir("/proc/self/task").context("reading /proc/self/task")? {
        // A thread may end between the listing and the read.
        if let Ok(status) = std::fs::read_to_string(task?.path().join("status")) {
            lists.insert(listed(&status)?.to_string());
        }
    }
    Ok(lists)
}

/// The `Cpus_allowed_list` of a `status` file.
fn listed(status: &str) -> Result<&str> {
    (status.lines())
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .map(str::trim)
        .context("no Cpus_allowed_list in a status file")
}

/// The CPUs of a list such as `0-2,5`.
pub fn parse(list: &str) -> Result<Vec<usize>> {
    let mut cpus = Vec::new();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let number = |n: &str| {
            n.parse::<usize>()
                .with_context(|| format!("CPU list '{list}'"))
        };
        match part.split_once('-') {
            Some((from, to)) => cpus.extend(number(from)?..=number(to)?),
            None => cpus.push(number(part)?),
        }
    }
    cpus.sort_unstable();
    cpus.dedup();
    Ok(cpus)
}

/// The list of `cpus` (sorted) as `taskset -c` takes it: `0-2,5`.
pub fn format(cpus: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < cpus.len() {
        let mut j = i;
        while j + 1 < cpus.len() && cpus[j + 1] == cpus[j] + 1 {
            j += 1;
        }
        parts.push(match j > i {
            true => format!("{}-{}", cpus[i], cpus[j]),
            false => cpus[i].to_string(),
        });
        i = j + 1;
    }
    parts.join(",")
}

/// Every thread of this process on some CPUs until [`Pinned::restore`] (or the drop, on an
/// error) puts them back on the CPUs they had.
pub struct Pinned {
    before: String,
    restored: bool,
}

impl Pinned {
    /// Pins every thread of this process (threads started later inherit it) to `cpus`.
    pub fn new(cpus: &[usize]) -> Result<Pinned> {
        let before = format(&allowed()?);
        set(&format(cpus))?;
        Ok(Pinned {
            before,
            restored: false,
        })
    }

    /// Puts every thread back on the CPUs of before, and checks that they are.
    pub fn restore(mut self) -> Result<String> {
        self.restored = true;
        set(&self.before)?;
        let lists = threads()?;
        if lists
            .iter()
            .any(|l| parse(l).ok() != parse(&self.before).ok())
        {
            bail!(
                "the bench's threads are on CPUs {lists:?} after restoring {}",
                self.before
            );
        }
        Ok(self.before.clone())
    }
}

impl Drop for Pinned {
    fn drop(&mut self) {
        if !self.restored
            && let Err(e) = set(&self.before)
        {
            eprintln!("warning: the bench's threads stay pinned: {e:#}");
        }
    }
}

/// `taskset -a -p -c list <this process>`.
fn set(list: &str) -> Result<()> {
    let status = Command::new("taskset")
        .args(["-a", "-p", "-c", list, &std::process::id().to_string()])
        .stdout(Stdio::null())
        .status()
        .context("running taskset")?;
    if !status.success() {
        bail!("taskset -a -p -c {list} failed: {status}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_read_and_write() {
        assert_eq!(parse("0-2,5").unwrap(), [0, 1, 2, 5]);
        assert_eq!(parse("3").unwrap(), [3]);
        assert_eq!(parse("1,0,1").unwrap(), [0, 1]);
        assert!(parse("a").is_err());
        assert_eq!(format(&[0, 1, 2, 5, 7, 8]), "0-2,5,7-8");
        assert_eq!(format(&[1]), "1");
        assert_eq!(format(&[]), "");
    }

    #[test]
    fn a_status_file_gives_its_list() {
        let status = "Name:\tx\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\nMems_allowed:\t1\n";
        assert_eq!(listed(status).unwrap(), "0-1");
        assert!(!threads().unwrap().is_empty());
    }
}
