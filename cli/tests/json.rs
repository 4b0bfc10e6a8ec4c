//! `--json` of `list`, `validate`, `check`, `describe`, `bench` and `perft` (docs/json.md): snapshots of each
//! document, the exit codes of the text forms, and docs/json.md's shapes against the
//! documents' keys (`bench`'s too, whose measured numbers no snapshot can hold).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "support/json_keys.rs"]
mod json_keys;
use json_keys::keys_of;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn frontier_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_frontier"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("frontier runs")
}

/// Standard output as JSON, checked to be one document.
fn document(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&o.stdout)))
}

#[test]
fn list_json() {
    let o = frontier_in(&workspace(), &["list", "--json"]);
    assert!(o.status.success());
    let doc = document(&o);
    assert_eq!(doc["frontier_list"], 1);
    insta::assert_snapshot!("list", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn validate_json_of_a_valid_and_a_broken_ruleset() {
    let o = frontier_in(&workspace(), &["validate", "go-west", "--json"]);
    assert!(o.status.success());
    insta::assert_snapshot!("validate-go-west", String::from_utf8_lossy(&o.stdout));
    // Broken: the document lists every diagnostic, and the exit code is 1 as in text.
    let o = frontier_in(
        &workspace(),
        &["validate", "tests/cases/broken/stats.yaml", "--json"],
    );
    assert_eq!(o.status.code(), Some(1));
    let doc = document(&o);
    assert_eq!(doc["valid"], false);
    assert!(doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .all(|d| d["line"].is_u64() && d["column"].is_u64()));
    insta::assert_snapshot!("validate-broken-stats", String::from_utf8_lossy(&o.stdout));
    let o = frontier_in(&workspace(), &["validate", "no-such-ruleset", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(document(&o)["error"]
        .as_str()
        .unwrap()
        .contains("unknown ruleset"));
}

#[test]
fn check_json_reports_every_trace() {
    let dir = std::env::temp_dir().join(format!("frontier-json-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let good =
        std::fs::read_to_string(workspace().join("rulesets/go-west/traces/setup.trace")).unwrap();
    std::fs::write(dir.join("good.trace"), &good).unwrap();
    std::fs::write(
        dir.join("bad.trace"),
        good.replace(
            "assert tokens[red] == 30 and",
            "assert tokens[red] == 31 and",
        ),
    )
    .unwrap();
    let o = frontier_in(&dir, &["check", "bad.trace", "good.trace", "--json"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let doc = document(&o);
    assert_eq!(
        (doc["checked"].as_u64(), doc["failed"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(doc["traces"][0]["line"], 11);
    insta::assert_snapshot!("check", String::from_utf8_lossy(&o.stdout));
    let o = frontier_in(&dir, &["check", "good.trace", "--json", "--coverage"]);
    assert!(o.status.success());
    assert!(document(&o)["coverage"][0]["ruleset"] == "go-west");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn describe_json() {
    for name in ["go-west", "way-out-west"] {
        let o = frontier_in(&workspace(), &["describe", name, "--json"]);
        assert!(o.status.success());
        let doc = document(&o);
        assert_eq!(doc["frontier_describe"], 1);
        assert_eq!(doc["name"], name);
        insta::assert_snapshot!(
            format!("describe-{name}"),
            String::from_utf8_lossy(&o.stdout)
        );
    }
}

/// The keys a shape in docs/json.md names: a quoted word after `{`, `,` or a `(note)` (a
/// quoted word after `:` or `|` is a value, as in `"kind": "value" | "counter"`).
fn shape_keys(shape: &str) -> std::collections::BTreeSet<String> {
    let mut keys = std::collections::BTreeSet::new();
    let mut before = ' ';
    let mut rest = shape;
    while let Some(start) = rest.find('"') {
        if let Some(c) = rest[..start].chars().rev().find(|c| !c.is_whitespace()) {
            before = c;
        }
        let after = &rest[start + 1..];
        let Some(end) = after.find('"') else { break };
        if matches!(before, '{' | ',' | ')') {
            keys.insert(after[..end].to_string());
        }
        before = '"';
        rest = &after[end + 1..];
    }
    keys
}

/// docs/json.md's shapes and the documents agree: each key a shape names appears in the
/// documents of that command (over runs that reach every alternative: a valid and a
/// broken ruleset, a passing and a failing trace with coverage, every ruleset described),
/// and each key of those documents is named.
#[test]
fn the_shapes_of_docs_json_md_have_the_documents_keys() {
    let docs = std::fs::read_to_string(workspace().join("docs/json.md")).unwrap();
    let shapes: Vec<&str> = docs
        .split("```text\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap_or_default())
        .collect();
    assert_eq!(
        shapes.len(),
        6,
        "docs/json.md shows list, validate, check, describe, bench and perft"
    );
    let dir = std::env::temp_dir().join(format!("frontier-json-shapes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let good =
        std::fs::read_to_string(workspace().join("rulesets/go-west/traces/setup.trace")).unwrap();
    std::fs::write(
        dir.join("bad.trace"),
        good.replace(
            "assert tokens[red] == 30 and",
            "assert tokens[red] == 31 and",
        ),
    )
    .unwrap();
    let root = workspace();
    let broken = root.join("tests/cases/broken/stats.yaml");
    let mut describes: Vec<Vec<String>> = Vec::new();
    for line in String::from_utf8(frontier_in(&root, &["list"]).stdout)
        .unwrap()
        .lines()
    {
        let name = line.split('\t').next().unwrap().to_string();
        describes.push(vec!["describe".into(), name, "--json".into()]);
    }
    let bench = "bench go-west --players 2 --seconds 0.1 --search mcts:iterations=10 --json";
    let perft = "perft tests/cases/outcome --depth 2 --divide --json";
    let runs: [(&str, Vec<Vec<String>>, &Path); 6] = [
        ("list", vec![vec!["list".into(), "--json".into()]], &root),
        (
            "validate",
            vec![
                vec!["validate".into(), "go-west".into(), "--json".into()],
                vec![
                    "validate".into(),
                    broken.display().to_string(),
                    "--json".into(),
                ],
                vec!["validate".into(), "no-such-ruleset".into(), "--json".into()],
            ],
            &root,
        ),
        // A shipped trace, whose ruleset folder has the RULES.md that coverage reads clauses from.
        (
            "check",
            vec![vec![
                "check".into(),
                "rulesets/go-west/traces/setup.trace".into(),
                dir.join("bad.trace").display().to_string(),
                "--json".into(),
                "--coverage".into(),
            ]],
            &root,
        ),
        ("describe", describes, &root),
        (
            "bench",
            vec![bench.split(' ').map(String::from).collect()],
            &root,
        ),
        (
            "perft",
            vec![perft.split(' ').map(String::from).collect()],
            &root,
        ),
    ];
    for ((what, commands, at), shape) in runs.iter().zip(&shapes) {
        let mut given = std::collections::BTreeSet::new();
        for args in commands {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            keys_of(&document(&frontier_in(at, &args)), &mut given);
        }
        let named = shape_keys(shape);
        let missing: Vec<&String> = named.difference(&given).collect();
        assert!(
            missing.is_empty(),
            "{what}: docs/json.md names {missing:?}, which no document has"
        );
        let unnamed: Vec<&String> = given.difference(&named).collect();
        assert!(
            unnamed.is_empty(),
            "{what}: the documents have {unnamed:?}, which docs/json.md does not name"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
