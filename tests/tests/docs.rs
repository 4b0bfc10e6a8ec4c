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
