//! The integration tests of the `frontier` binary, built as one executable: each file of
//! this folder is a module here (`autotests = false` in Cargo.toml), so the suite is
//! linked once rather than once per file, and the tests of all files share the test
//! threads. A file added to the folder is named below (or is a `[[test]]` of its own in
//! Cargo.toml, as the browser tests are); `every_file_is_a_module` fails until it is.
//!
//! `cargo test -p frontier --test integration results::` runs one file's tests.

mod arguments;
mod bench;
mod hardening;
mod json;
mod lsp;
mod perft;
mod results;
mod terminal;

/// With `autotests = false` cargo builds no file of tests/ on its own, so a file neither
/// listed above nor a `[[test]]` of Cargo.toml would never run.
#[test]
fn every_file_is_a_module() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = include_str!("main.rs");
    let manifest = include_str!("../Cargo.toml");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(module) = name.strip_suffix(".rs") {
            if module != "main"
                && !main.contains(&format!("\nmod {module};\n"))
                && !manifest.contains(&format!("path = \"tests/{name}\""))
            {
                missing.push(name);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "neither modules of cli/tests/main.rs nor test targets, so never run: {missing:?}"
    );
}
