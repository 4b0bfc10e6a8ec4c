//! `--json` of `list`, `validate`, `check` and `describe` (docs/json.md): snapshots of each
//! document, and the exit codes of the text forms.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn frontier_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_frontier")).current_dir(dir).args(args).output().expect("frontier runs")
}

/// Standard output as JSON, checked to be one document.
fn document(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&o.stdout)))
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
    let o = frontier_in(&workspace(), &["validate", "tests/cases/broken/stats.yaml", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let doc = document(&o);
    assert_eq!(doc["valid"], false);
    assert!(doc["diagnostics"].as_array().unwrap().iter().all(|d| d["line"].is_u64() && d["column"].is_u64()));
    insta::assert_snapshot!("validate-broken-stats", String::from_utf8_lossy(&o.stdout));
    let o = frontier_in(&workspace(), &["validate", "no-such-ruleset", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(document(&o)["error"].as_str().unwrap().contains("unknown ruleset"));
}

#[test]
fn check_json_reports_every_trace() {
    let dir = std::env::temp_dir().join(format!("frontier-json-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let good = std::fs::read_to_string(workspace().join("rulesets/go-west/traces/setup.trace")).unwrap();
    std::fs::write(dir.join("good.trace"), &good).unwrap();
    std::fs::write(dir.join("bad.trace"), good.replace("assert tokens[red] == 30 and", "assert tokens[red] == 31 and")).unwrap();
    let o = frontier_in(&dir, &["check", "bad.trace", "good.trace", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    let doc = document(&o);
    assert_eq!((doc["checked"].as_u64(), doc["failed"].as_u64()), (Some(2), Some(1)));
    assert_eq!(doc["traces"][0]["line"], 9);
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
        insta::assert_snapshot!(format!("describe-{name}"), String::from_utf8_lossy(&o.stdout));
    }
}
