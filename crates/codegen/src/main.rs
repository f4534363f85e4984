//! The generator's command line, run from the repository:
//! - `cairn-codegen check`: validates `spec/`;
//! - `cairn-codegen write`: regenerates the committed copy in `generated/`;
//! - `cairn-codegen diff`: fails when `generated/` differs from a fresh generation.

use anyhow::{Result, bail};
use std::path::PathBuf;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let spec = root.join("spec");
    let templates = root.join("templates");
    let generated = root.join("generated");
    match args.first().map(String::as_str) {
        Some("check") => {
            let dir = args.get(1).map(PathBuf::from).unwrap_or(spec);
            let api = cairn_codegen::load(&dir)?;
            let endpoints = api.endpoints().count();
            println!("spec ok: {} types, {endpoints} endpoints", api.types.len());
        }
        Some("write") => {
            let out = cairn_codegen::generate(&spec, &templates)?;
            cairn_codegen::write(&generated, &out.files)?;
            println!("wrote {} files to generated/", out.files.len());
        }
        Some("diff") => {
            let out = cairn_codegen::generate(&spec, &templates)?;
            let drift = cairn_codegen::drift(&generated, &out.files);
            if !drift.is_empty() {
                bail!(
                    "generated/ differs from spec/ and templates/ in: {}\nrun `cargo run -p cairn-codegen -- write` and commit the result",
                    drift.join(", ")
                );
            }
            println!("generated/ is current");
        }
        _ => bail!("usage: cairn-codegen check [SPEC_DIR] | write | diff"),
    }
    Ok(())
}
