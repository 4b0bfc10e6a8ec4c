//! The `display:` lines of a ruleset and the `text(...)` built-in (generic: a small
//! ruleset written here, not a shipped game).

use frontier_interpreter::RulesetSource;
use frontier_tests::*;

fn ruleset(body: &str) -> RulesetSource {
    let text = format!(
        "name: board\nplayers: [2, 3]\ntables:\n  towns:\n    columns: {{ name: str }}\n    rows:\n      - [east, \"East Town\"]\n      - [west, \"West Town\"]\nstate:\n  gold: {{ per: players, init: 3 }}\n  owner: {{ per: towns, type: player }}\nzones:\n  posse: {{ of: players, per: towns }}\n{body}\nranking:\n  score: \"gold[it]\"\n"
    );
    RulesetSource { origin: "test".into(), file: "board.yaml".into(), text, scripts: Vec::new() }
}

const PLAY: &str = "play:\n  - set: { \"owner[towns[\\\"east\\\"]]\": \"players[1]\" }\n  - push: { to: \"posse[towns[\\\"east\\\"]]\", value: \"players[0]\" }\n  - choose:\n      who: \"players[0]\"\n      options:\n        - label: \"{text(players[0], \\\" has $\\\", gold[players[0]])}\"\n";

#[test]
fn text_joins_written_values_into_one_text() {
    let game = load_source(&ruleset(PLAY)).unwrap_or_else(|e| panic!("{e}"));
    let state = game.start(names(2)).unwrap();
    // A player by name, a text as is, a number in decimal, with nothing in between.
    assert_eq!(game.option_labels(&state).unwrap(), ["p1 has $3"]);
}

#[test]
fn display_lines_render_the_state_in_order() {
    let body = format!(
        "{PLAY}display:\n  - \"Gold: {{map(players, text(it, \\\"=\\\", gold[it]))}}\"\n  - \"{{towns[\\\"east\\\"].name}}: owner {{owner[towns[\\\"east\\\"]]}}, cowboys {{posse[towns[\\\"east\\\"]]}}\"\n  - \"{{towns[\\\"west\\\"].name}}: owner {{owner[towns[\\\"west\\\"]]}}\"\n"
    );
    let game = load_source(&ruleset(&body)).unwrap_or_else(|e| panic!("{e}"));
    let state = game.start(names(2)).unwrap();
    assert_eq!(game.render_display(&state), "Gold: p1=3 p2=3\nEast Town: owner p2, cowboys p1\nWest Town: owner none\n");
}

#[test]
fn a_ruleset_without_display_renders_nothing() {
    let game = load_source(&ruleset(PLAY)).unwrap();
    let state = game.start(names(2)).unwrap();
    assert_eq!(game.render_display(&state), "");
}

#[test]
fn display_errors_are_load_errors_with_their_path() {
    let err = load_source(&ruleset(&format!("{PLAY}display: \"not a list\"\n"))).map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("display: expected a list"), "{err}");
    let err = load_source(&ruleset(&format!("{PLAY}display:\n  - \"{{gold}}\"\n"))).map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("display[0]"), "{err}");
    let err = load_source(&ruleset(&format!("{PLAY}display:\n  - \"{{text()}}\"\n"))).map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("text needs at least one value"), "{err}");
}

#[test]
fn empty_display_lines_are_left_out() {
    // One line per seat up to the most players: the third seat's line is empty with 2 players.
    let seat = |k: usize| format!("  - \"{{if len(players) > {k} then text(players[{k}], \\\": \\\", gold[players[{k}]]) else \\\"\\\"}}\"\n");
    let body = format!("{PLAY}display:\n{}{}{}", seat(0), seat(1), seat(2));
    let game = load_source(&ruleset(&body)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game.render_display(&game.start(names(2)).unwrap()), "p1: 3\np2: 3\n");
    assert_eq!(game.render_display(&game.start(names(3)).unwrap()), "p1: 3\np2: 3\np3: 3\n");
}
