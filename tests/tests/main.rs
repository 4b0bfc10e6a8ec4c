//! The integration tests of `frontier-tests`, built as one executable: each file of this
//! folder is a module here (`autotests = false` in Cargo.toml), so the suite is linked
//! once rather than once per file, and the tests of all files share the test threads. A
//! file added to the folder is named below; `every_file_is_a_module` fails until it is.
//!
//! `cargo test -p frontier-tests --test integration fuzz::` runs one file's tests.

mod agents;
mod award;
mod chess;
mod circle_the_wagons;
mod connect_four;
mod coverage;
mod display;
mod docs;
mod episodes;
mod functions;
mod fuzz;
mod go_west;
mod gold_west;
mod grand_junction;
mod health;
mod hexes;
mod keys;
mod knowledge;
mod positions;
mod runtime_bounds;
mod runtime_errors;
mod schema;
mod searches;
mod snapshots;
mod statements;
mod stats;
mod traces;
mod views;
mod way_out_west;
mod yaml_syntax;

/// With `autotests = false` cargo builds no file of tests/ on its own, so a file missing
/// from the list above would never run.
#[test]
fn every_file_is_a_module() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = include_str!("main.rs");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(module) = name.strip_suffix(".rs") {
            if module != "main" && !main.contains(&format!("\nmod {module};\n")) {
                missing.push(name);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not modules of tests/tests/main.rs, so never run: {missing:?}"
    );
}
