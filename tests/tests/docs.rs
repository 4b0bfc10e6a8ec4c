//! The documentation says what the code does: the table of built-in functions in
//! docs/rulesets.md is the registry's (`builtins::markdown_table`). Run with
//! `UPDATE_DOCS=1` to rewrite the table after changing a built-in.

use frontier_interpreter::builtins;
use frontier_tests::workspace;

const START: &str = "<!-- built-ins: generated from the registry (interpreter/src/builtins); tests/tests/docs.rs checks it, UPDATE_DOCS=1 rewrites it -->\n";
const END: &str = "<!-- end of built-ins -->";

#[test]
fn the_built_ins_table_is_the_registry() {
    let path = workspace().join("docs/rulesets.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let start = text.find(START).expect("docs/rulesets.md marks the start of the built-ins table") + START.len();
    let end = start + text[start..].find(END).expect("docs/rulesets.md marks the end of the built-ins table");
    let table = builtins::markdown_table();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, format!("{}{table}{}", &text[..start], &text[end..])).unwrap();
        return;
    }
    assert!(
        text[start..end] == table,
        "docs/rulesets.md's built-ins table differs from the registry; run `UPDATE_DOCS=1 cargo test -p frontier-tests --test docs`. The registry's table:\n{table}"
    );
}

/// A number as the docs write it: 10,000,000.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The rows of docs/rulesets.md's Limits table, split into cells.
fn limits_table() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(workspace().join("docs/rulesets.md")).unwrap();
    let section = &text[text.find("### Limits").expect("docs/rulesets.md has a Limits section")..];
    let section = &section[..section[4..].find("\n### ").map_or(section.len(), |end| end + 4)];
    section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| What"))
        .map(|l| l.trim_matches('|').split(" | ").map(|c| c.trim().to_string()).collect())
        .collect()
}

#[test]
fn the_limits_table_gives_the_code_s_limits() {
    use frontier_interpreter::model::Limits;
    let rows = limits_table();
    let defaults = Limits::default();
    // Every limit a command may change: its row, its default and its --limit name (with
    // its ceiling, where one applies).
    for info in Limits::LIST {
        let row = rows.iter().find(|r| r[0] == info.what).unwrap_or_else(|| panic!("no row '{}' in the Limits table", info.what));
        assert_eq!(row[1], thousands((info.get)(&defaults)), "the docs' default of {}", info.name);
        let named = if info.ceiling < u32::MAX as u64 { format!("`{}`, at most {}", info.name, thousands(info.ceiling)) } else { format!("`{}`", info.name) };
        assert_eq!(row[2], named, "the docs' --limit of '{}'", info.what);
    }
    // The fixed ones.
    let fixed = [
        ("Decisions and chance outcomes of one game in `simulate` and `bench`", frontier_interpreter::runner::MAX_STEPS),
        ("Numbers in one `range`", frontier_interpreter::builtins::MAX_RANGE as u64 + 1),
        ("Ruleset functions calling one another, nested (one that calls one: 2)", frontier_interpreter::model::MAX_FUNCTION_NESTING as u64),
    ];
    for (what, limit) in fixed {
        let row = rows.iter().find(|r| r[0] == what).unwrap_or_else(|| panic!("no row '{what}'"));
        assert_eq!((row[1].as_str(), row[2].as_str()), (thousands(limit).as_str(), "—"), "docs say {row:?}, the code {limit}");
    }
    // Every row that names a --limit is one the code has.
    for row in &rows {
        if row[2] != "—" {
            let name = row[2].trim_start_matches('`').split('`').next().unwrap_or_default();
            assert!(Limits::LIST.iter().any(|l| l.name == name), "the docs name a limit '{name}' the code does not have");
        }
    }
}

#[test]
fn every_limit_can_be_set_by_name_up_to_its_ceiling() {
    use frontier_interpreter::model::Limits;
    for info in Limits::LIST {
        let mut limits = Limits::default();
        limits.set(info.name, 7).unwrap();
        assert_eq!((info.get)(&limits), 7, "{}", info.name);
        assert_eq!(limits.set(info.name, 0).unwrap_err(), format!("limit {}: at least 1", info.name));
        if info.ceiling < u64::MAX {
            assert_eq!(limits.set(info.name, info.ceiling + 1).unwrap_err(), format!("limit {}: at most {}", info.name, info.ceiling));
        }
        limits.set(info.name, info.ceiling).unwrap();
        assert_eq!((info.get)(&limits), info.ceiling, "{}", info.name);
    }
    assert!(Limits::default().set("steps", 5).unwrap_err().starts_with("unknown limit 'steps': one of nesting, operators, statements, calls"));
}
