//! The generator: a snapshot of what it emits for a small fixture spec, the validation
//! messages, and the drift check against the committed `generated/`.

use std::path::{Path, PathBuf};

fn here() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn repo() -> PathBuf {
    here().join("../..")
}

/// Compares with `tests/snapshots/`, or rewrites it when `UPDATE_SNAPSHOTS=1`.
#[test]
fn fixture_output_matches_the_snapshot() {
    let out = cairn_codegen::generate(&here().join("tests/fixture"), &repo().join("templates"))
        .expect("the fixture generates");
    let dir = here().join("tests/snapshots");
    if std::env::var("UPDATE_SNAPSHOTS").is_ok() {
        cairn_codegen::write(&dir, &out.files).unwrap();
    }
    let drift = cairn_codegen::drift(&dir, &out.files);
    assert!(
        drift.is_empty(),
        "generator output changed in {drift:?}; review and rerun with UPDATE_SNAPSHOTS=1"
    );
}

fn copy_spec(to: &Path) {
    for e in std::fs::read_dir(repo().join("spec")).unwrap() {
        let e = e.unwrap();
        if e.path().is_dir() {
            continue; // examples/: not needed to validate the spec's YAML
        }
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

fn problems(edit: impl Fn(&Path)) -> String {
    let dir = tempfile::tempdir().unwrap();
    copy_spec(dir.path());
    edit(dir.path());
    match cairn_codegen::load(dir.path()) {
        Ok(_) => panic!("the edited spec should not validate"),
        Err(e) => format!("{e:#}"),
    }
}

fn replace_in(file: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{from:?} not in {}", file.display());
    std::fs::write(file, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn validation_names_the_file_and_entry() {
    let msg = problems(|d| {
        replace_in(
            &d.join("sections.yaml"),
            "sectionId: int",
            "sectionId: integer",
        )
    });
    assert!(
        msg.contains("spec/sections.yaml: types.Section.fields.sectionId: unknown type `integer`"),
        "{msg}"
    );
    let msg = problems(|d| {
        replace_in(
            &d.join("sections.yaml"),
            "path: /content/sections/{sectionId}\n    edge: public",
            "path: /content/sections\n    edge: public",
        )
    });
    assert!(
        msg.contains(
            "spec/sections.yaml: endpoints.loadSection: duplicate route GET /content/sections"
        ),
        "{msg}"
    );
    let msg = problems(|d| {
        replace_in(
            &d.join("sections.yaml"),
            "path: /content/sections/{sectionId}\n    edge: public",
            "path: /content/sections/{sectionId}\n    edge: shared",
        );
        replace_in(&d.join("api.yaml"), "  sectionId: s\n", "  sectionId: x\n");
    });
    assert!(
        msg.contains("spec/sections.yaml: endpoints.loadSection: `edge` is `public` (on a GET) or `no-store`, not `shared`"),
        "{msg}"
    );
    assert!(
        msg.contains("spec/api.yaml: tags.sectionId: unknown tag kind `x`"),
        "{msg}"
    );
    let msg = problems(|d| {
        replace_in(
            &d.join("sections.yaml"),
            "    responses:\n      200: SectionList\n",
            "    responses: {}\n",
        )
    });
    assert!(
        msg.contains(
            "spec/sections.yaml: endpoints.listSections: an endpoint needs at least one response"
        ),
        "{msg}"
    );
    let msg = problems(|d| {
        replace_in(
            &d.join("sections.yaml"),
            "path: /content/sections/{sectionId}",
            "path: /content/sections/{sectionNo}",
        )
    });
    assert!(msg.contains("unknown path parameter `sectionNo`"), "{msg}");
    let msg = problems(|d| {
        replace_in(
            &d.join("sections.yaml"),
            "input: SectionInput",
            "input: SectionOutput",
        )
    });
    assert!(
        msg.contains(
            "spec/sections.yaml: endpoints.createSection: input type `SectionOutput` is unknown"
        ),
        "{msg}"
    );
}

#[test]
fn every_endpoint_names_a_policy_of_the_map() {
    let msg = problems(|d| replace_in(&d.join("sections.yaml"), "    policy: section/edit\n", ""));
    assert!(
        msg.contains("spec/sections.yaml: endpoints.createSection: `policy` is missing"),
        "{msg}"
    );
    let msg = problems(|d| {
        replace_in(
            &d.join("sections.yaml"),
            "policy: section/edit",
            "policy: section/rename",
        )
    });
    assert!(
        msg.contains("policy `section/rename` is not in the policy map of api.yaml"),
        "{msg}"
    );
    let msg = problems(|d| {
        replace_in(
            &d.join("sections.yaml"),
            "policy: section/edit",
            "policy: edit",
        )
    });
    assert!(
        msg.contains("policy `edit` is not `module/function` or `none`"),
        "{msg}"
    );
}

#[test]
fn committed_generated_copy_is_current() {
    let out = cairn_codegen::generate(&repo().join("spec"), &repo().join("templates")).unwrap();
    let drift = cairn_codegen::drift(&repo().join("generated"), &out.files);
    assert!(
        drift.is_empty(),
        "generated/ differs from spec/ in {drift:?}: run `cargo run -p cairn-codegen -- write`"
    );
}

#[test]
fn editing_the_spec_changes_the_output_and_the_drift_check_sees_it() {
    let dir = tempfile::tempdir().unwrap();
    copy_spec(dir.path());
    replace_in(
        &dir.path().join("sections.yaml"),
        "      name: string\n  SectionList:",
        "      name: string\n      description: string?\n  SectionList:",
    );
    let out = cairn_codegen::generate(dir.path(), &repo().join("templates")).unwrap();
    let drift = cairn_codegen::drift(&repo().join("generated"), &out.files);
    for file in ["model.rs", "encode.rs", "openapi.json"] {
        assert!(
            drift.contains(&file.to_string()),
            "{file} should differ: {drift:?}"
        );
    }
    let model = &out.files.iter().find(|(n, _)| n == "model.rs").unwrap().1;
    assert!(model.contains("pub description: Option<String>"));
}
