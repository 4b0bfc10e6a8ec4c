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
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn the_limits_table_gives_the_code_s_limits() {
    use frontier_interpreter::frontier_grammar::expr::{MAX_NESTING, MAX_OPERATORS};
    use frontier_interpreter::machine::{MAX_FRAMES, MAX_STATEMENTS_BETWEEN_STEPS};
    let text = std::fs::read_to_string(workspace().join("docs/rulesets.md")).unwrap();
    let table = &text[text.find("### Limits").expect("docs/rulesets.md has a Limits section")..];
    let rows = [
        ("Brackets nested in one expression", MAX_NESTING as u64),
        ("Operators in one expression", MAX_OPERATORS as u64),
        ("Statements run between two decisions", MAX_STATEMENTS_BETWEEN_STEPS),
        ("Procedure calls nested", MAX_FRAMES as u64),
        ("Decisions and chance outcomes of one game", frontier_interpreter::runner::MAX_STEPS),
        ("Numbers in one `range`", frontier_interpreter::builtins::MAX_RANGE as u64 + 1),
    ];
    for (what, limit) in rows {
        let line = table.lines().find(|l| l.starts_with(&format!("| {what}"))).unwrap_or_else(|| panic!("no row '{what}'"));
        assert!(line.ends_with(&format!("| {} |", thousands(limit))), "docs say {line}, the code {limit}");
    }
}
