//! Saved states read back only when their continuation fits the compiled game: corrupt
//! frames, blocks, statements and locals are refused with a message, never a panic.

use frontier_tests::*;

/// A saved Go West state in the middle of a game, with its continuation.
fn saved() -> (frontier_interpreter::Game, String) {
    let game = load_ruleset("go-west");
    let state = random_state(&game, 3, 7, 20);
    let text = game.state_to_yaml(&state);
    assert!(text.contains("continuation:"), "{text}");
    (game, text)
}

/// The saved text with the first line starting with `key` (after blanks) replaced.
fn with_line(text: &str, key: &str, replacement: &str) -> String {
    let mut done = false;
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            if !done && l.trim_start().starts_with(key) {
                done = true;
                let indent = &l[..l.len() - l.trim_start().len()];
                format!("{indent}{replacement}")
            } else {
                l.to_string()
            }
        })
        .collect();
    assert!(done, "no line {key} in\n{text}");
    lines.join("\n")
}

#[test]
fn a_saved_state_reads_back() {
    let (game, text) = saved();
    let state = game.state_from_yaml(&text).unwrap();
    assert_eq!(game.state_to_yaml(&state), text);
}

#[test]
fn corrupt_continuations_are_refused() {
    let (game, text) = saved();
    // Only the first two locals kept: the deeper frames' procedures need more.
    let (head, rest) = text.split_once("  locals:\n").unwrap();
    let tail = &rest[rest.find("  pending:").unwrap()..];
    let short_locals = format!("{head}  locals:\n  - 2\n  - null\n{tail}");
    let cases = [
        (with_line(&text, "- block:", "- block: 99999"), "continuation: block 99999 does not exist in this ruleset"),
        (with_line(&text, "pc:", "pc: 99999"), "statements, not a statement 99999"),
        (with_line(&text, "base:", "base: 999"), "continuation: a frame's locals start at 999"),
        (with_line(&text, "pc:", "pc: -1"), "continuation: a frame's 'pc' is a whole number from 0, not -1"),
        (with_line(&text, "pc:", "pcx: 1"), "continuation: frame lacks 'pc'"),
        (short_locals, "needs locals up to"),
        (with_line(&text, "pending:", "pending: maybe"), "continuation.pending: expected suspended or over"),
    ];
    for (corrupt, expected) in cases {
        let err = game.state_from_yaml(&corrupt).expect_err(expected);
        assert!(err.contains(expected), "wanted '{expected}', got '{err}'");
    }
}
