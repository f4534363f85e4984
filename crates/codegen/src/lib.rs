//! cairn's code generator: reads `spec/` and writes the typed API, its XML and JSON codecs, the
//! media-type and route tables and the OpenAPI document.
//!
//! The generator is a library so that the server's `build.rs` runs it into `OUT_DIR` and the
//! `cairn-codegen` binary writes the same output into the committed `generated/` copy. It
//! never writes anywhere else.

pub mod context;
pub mod model;
pub mod openapi;
pub mod render;
pub mod spec;

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// Reads and validates the spec in `dir`.
pub fn load(dir: &Path) -> Result<model::Api> {
    let raw = spec::read_dir(dir)?;
    model::Api::from_raw(&raw)
}

/// The generated files, by name, and every input file read to make them.
pub struct Output {
    pub files: Vec<(String, String)>,
    pub inputs: Vec<PathBuf>,
}

/// Generates everything from `spec_dir` with the templates of `templates_dir`.
pub fn generate(spec_dir: &Path, templates_dir: &Path) -> Result<Output> {
    let raw = spec::read_dir(spec_dir)?;
    let api = model::Api::from_raw(&raw)?;
    let ctx = context::build(&api);
    let mut files = render::rust_files(templates_dir, &ctx)?;
    let doc = openapi::document(&api);
    files.push((
        "openapi.json".to_string(),
        serde_json::to_string_pretty(&doc)? + "\n",
    ));
    let mut inputs = raw.files;
    for name in render::RUST_FILES {
        inputs.push(templates_dir.join(format!("{name}.rs.tera")));
    }
    Ok(Output { files, inputs })
}

/// Writes `files` into `dir`, leaving files whose content did not change untouched.
pub fn write(dir: &Path, files: &[(String, String)]) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    for (name, text) in files {
        let path = dir.join(name);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        }
    }
    Ok(())
}

/// The files of `dir` that differ from `files` (missing, changed) or are not generated.
pub fn drift(dir: &Path, files: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (name, text) in files {
        if std::fs::read_to_string(dir.join(name)).ok().as_deref() != Some(text.as_str()) {
            out.push(name.clone());
        }
    }
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if !files.iter().any(|(n, _)| *n == name) && name != "README.md" {
                out.push(name);
            }
        }
    }
    out.sort();
    out
}
