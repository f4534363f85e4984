//! The batch import timed (issue 14): `cairn import FILE` of N folders under Location 2 (the
//! bodies bulk-content sends, one per line) on a fresh SQLite database, with no server. The
//! rate is the items over the wall time of the command (opening and creating the database
//! included); only writing the file is left out.

use crate::bulk::folder;
use crate::scenarios::PREFIX;
use crate::server::Cairn;
use anyhow::{Context, Result, bail};
use serde::Serialize;
use std::io::Write;
use std::process::Stdio;
use std::time::Instant;

/// What a run measured.
#[derive(Debug, Serialize)]
pub struct Outcome {
    pub items: usize,
    pub seconds: f64,
    pub items_per_s: f64,
    /// The command's own last line (`Imported N items in … s (… items/s).`).
    pub said: String,
}

/// The JSON Lines of `items` folders under Location 2, as `cairn import` reads them.
pub fn lines(items: usize, mut out: impl Write) -> Result<()> {
    let parent = format!("{PREFIX}/content/locations/1/2");
    for n in 1..=items {
        writeln!(out, "{}", folder(&parent, &format!("Imported {n}")))?;
    }
    Ok(())
}

/// Writes the file of `items` folders, then times `cairn import` of it into a fresh SQLite
/// database (batches of the command's default size); fails unless it imported them all.
pub async fn run(cairn: &Cairn, items: usize) -> Result<Outcome> {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("items.jsonl");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&file)?);
    lines(items, &mut out)?;
    out.into_inner()
        .context("writing the import file")?
        .sync_all()?;
    let mut command = cairn.command();
    command
        .current_dir(dir.path())
        .arg("import")
        .arg(&file)
        .arg("--database-url")
        .arg(format!(
            "sqlite://{}",
            dir.path().join("bench.db").display()
        ))
        .arg("--storage-dir")
        .arg(dir.path().join("storage"))
        .arg("--log")
        .arg("warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    eprintln!("import: {items} folders with cairn import");
    let t = Instant::now();
    let output = tokio::task::spawn_blocking(move || command.output())
        .await?
        .context("running cairn import")?;
    let seconds = t.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let said = (stderr.lines().rev())
        .flat_map(|l| l.rsplit('\r'))
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or_default()
        .to_string();
    if !output.status.success() {
        bail!("cairn import failed ({}): {said}", output.status);
    }
    match imported(&said) {
        Some(n) if n == items => {}
        n => bail!("cairn import imported {n:?} items, not {items}: {said}"),
    }
    eprintln!("import: {said}");
    Ok(Outcome {
        items,
        seconds,
        items_per_s: items as f64 / seconds,
        said,
    })
}

/// The number of items of the line `Imported N items in …`.
fn imported(said: &str) -> Option<usize> {
    said.strip_prefix("Imported ")?
        .split_once(' ')?
        .0
        .parse()
        .ok()
}

/// The Markdown table.
pub fn markdown(outcome: &Outcome) -> String {
    format!(
        "## cairn import\n\n{} folders under Location 2 from a JSON Lines file, a fresh SQLite \
         database, batches of 100 (its default), no server; the wall time of the command.\n\n\
         | items | seconds | items/s | cairn import said |\n| ---: | ---: | ---: | --- |\n\
         | {} | {:.2} | {:.0} | {} |\n",
        outcome.items, outcome.items, outcome.seconds, outcome.items_per_s, outcome.said
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_a_folder_under_location_2() {
        let mut out = Vec::new();
        lines(3, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<_> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        let body: serde_json::Value = serde_json::from_str(lines[2]).unwrap();
        let create = &body["ContentCreate"];
        assert_eq!(
            create["ContentType"]["_href"],
            "/api/ibexa/v2/content/types/1"
        );
        assert_eq!(
            create["LocationCreate"]["ParentLocation"]["_href"],
            "/api/ibexa/v2/content/locations/1/2"
        );
        assert_eq!(create["fields"]["field"][0]["fieldValue"], "Imported 3");
    }

    #[test]
    fn the_count_comes_from_the_last_line() {
        assert_eq!(
            imported("Imported 10000 items in 1.2 s (8333 items/s)."),
            Some(10_000)
        );
        assert_eq!(imported("imported 100 items (5 items/s)"), None);
        assert_eq!(imported("Error: line 4: bad"), None);
    }
}
