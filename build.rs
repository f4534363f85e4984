//! Generates the API from `spec/` and `templates/` into `OUT_DIR` (see `src/api.rs`).
//! `generated/` holds the committed copy of the same output; CI checks that it is current.

use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    println!("cargo:rerun-if-changed=spec");
    println!("cargo:rerun-if-changed=templates");
    match cairn_codegen::generate(&root.join("spec"), &root.join("templates")) {
        Ok(generated) => {
            for input in &generated.inputs {
                println!("cargo:rerun-if-changed={}", input.display());
            }
            if let Err(e) = cairn_codegen::write(&out, &generated.files) {
                panic!("cannot write the generated API: {e:#}");
            }
        }
        Err(e) => {
            // The message names the spec file and entry (or template line) at fault.
            eprintln!("{e:#}");
            panic!("the API cannot be generated from spec/: {e:#}");
        }
    }
}
