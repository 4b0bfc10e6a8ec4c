//! The `display:` lines of a ruleset and the `text(...)` built-in (generic: a small
//! ruleset written here, not a shipped game).

use frontier_interpreter::RulesetSource;
use frontier_tests::*;

fn ruleset(body: &str) -> RulesetSource {
    let text = format!(
        "name: board\nplayers: [2, 3]\ntables:\n  towns:\n    columns: {{ name: str }}\n    rows:\n      - [east, \"East Town\"]\n      - [west, \"West Town\"]\nstate:\n  gold: {{ per: players, init: 3 }}\n  owner: {{ per: towns, type: player }}\nzones:\n  posse: {{ of: players, per: towns }}\n{body}\nranking:\n  score: \"gold[it]\"\n"
    );
    text_source("test", "board.yaml", text)
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
    assert_eq!(
        game.render_display(&state, None),
        "Gold: p1=3 p2=3\nEast Town: owner p2, cowboys p1\nWest Town: owner none\n"
    );
}

#[test]
fn a_display_entry_with_for_is_one_line_per_element() {
    let body = format!("{PLAY}display:\n  - \"Towns:\"\n  - {{ for: {{ t: \"reverse(towns)\" }}, line: \"  {{t.name}}: owner {{owner[t]}}\" }}\n  - {{ for: {{ t: \"filter(towns, it.id == \\\"north\\\")\" }}, line: \"never\" }}\n");
    let game = load_source(&ruleset(&body)).unwrap_or_else(|e| panic!("{e}"));
    let state = game.start(names(2)).unwrap();
    // One line per town, in the list's order; an empty list shows no line.
    assert_eq!(
        game.render_display(&state, None),
        "Towns:\n  West Town: owner none\n  East Town: owner p2\n"
    );
}

#[test]
fn a_display_reads_the_seat_it_is_drawn_for_as_viewer() {
    let body = format!("{PLAY}display:\n  - \"{{if viewer == none then \\\"Everyone\\\" else text(\\\"Your gold: \\\", gold[viewer])}}\"\n  - {{ for: {{ t: towns }}, line: \"{{t.id}}{{if viewer != none and owner[t] == viewer then \\\" (yours)\\\" else \\\"\\\"}}\" }}\n");
    let game = load_source(&ruleset(&body)).unwrap_or_else(|e| panic!("{e}"));
    let state = game.start(names(2)).unwrap();
    // East is p2's (PLAY sets it): p2 reads it as theirs, p1 and everyone do not.
    assert_eq!(game.render_display(&state, None), "Everyone\neast\nwest\n");
    assert_eq!(
        game.render_display(&state, Some(0)),
        "Your gold: 3\neast\nwest\n"
    );
    assert_eq!(
        game.render_display(&state, Some(1)),
        "Your gold: 3\neast (yours)\nwest\n"
    );
}

#[test]
fn a_ruleset_without_display_renders_nothing() {
    let game = load_source(&ruleset(PLAY)).unwrap();
    let state = game.start(names(2)).unwrap();
    assert_eq!(game.render_display(&state, None), "");
}

#[test]
fn display_errors_are_load_errors_with_their_path() {
    let err = load_source(&ruleset(&format!("{PLAY}display: \"not a list\"\n")))
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(err.contains("display: expected a list"), "{err}");
    let err = load_source(&ruleset(&format!("{PLAY}display:\n  - \"{{gold}}\"\n")))
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(err.contains("display[0]"), "{err}");
    let err = load_source(&ruleset(&format!("{PLAY}display:\n  - \"{{text()}}\"\n")))
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(err.contains("text needs at least one value"), "{err}");
}

#[test]
fn colour_marks_display_text_for_a_terminal_only() {
    // colour(v, name): the display shows it in colour on a terminal (ANSI foreground), plain
    // otherwise; pad counts the visible characters only; labels never carry colours.
    let play = "play:\n  - choose:\n      who: \"players[0]\"\n      options:\n        - label: \"take {colour(gold[players[0]], \\\"red\\\")}\"\n";
    let body = format!(
        "{play}display:\n  - \"[{{pad(colour(players[0], \\\"green\\\"), 4)}}] {{colour(gold[players[1]], \\\"no-such-colour\\\")}} {{colour(text(colour(\\\"a\\\", \\\"blue\\\"), \\\"b\\\"), \\\"red\\\")}}\"\n"
    );
    let game = load_source(&ruleset(&body)).unwrap_or_else(|e| panic!("{e}"));
    let state = game.start(names(2)).unwrap();
    assert_eq!(game.render_display(&state, None), "[p1  ] 3 ab\n");
    assert_eq!(
        game.render_display_styled(&state, None, frontier_interpreter::render::Style::Plain),
        "[p1  ] 3 ab\n"
    );
    // An unknown colour name shows no colour; a colour inside a colour ends both.
    assert_eq!(
        game.render_display_styled(&state, None, frontier_interpreter::render::Style::Colour),
        "[\x1b[32mp1\x1b[0m  ] 3 \x1b[31m\x1b[34ma\x1b[0mb\n"
    );
    assert_eq!(game.option_labels(&state).unwrap(), ["take 3"]);
}

#[test]
fn colour_takes_a_value_and_a_colour_name() {
    let err = load_source(&ruleset(&format!(
        "{PLAY}display:\n  - \"{{colour(1)}}\"\n  - \"{{colour(1, 2)}}\"\n"
    )))
    .map(|_| ())
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("display[0]") && err.contains("colour"),
        "{err}"
    );
    assert!(err.contains("display[1]"), "{err}");
}

#[test]
fn empty_display_lines_are_left_out() {
    // One line per seat up to the most players: the third seat's line is empty with 2 players.
    let seat = |k: usize| {
        format!("  - \"{{if len(players) > {k} then text(players[{k}], \\\": \\\", gold[players[{k}]]) else \\\"\\\"}}\"\n")
    };
    let body = format!("{PLAY}display:\n{}{}{}", seat(0), seat(1), seat(2));
    let game = load_source(&ruleset(&body)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        game.render_display(&game.start(names(2)).unwrap(), None),
        "p1: 3\np2: 3\n"
    );
    assert_eq!(
        game.render_display(&game.start(names(3)).unwrap(), None),
        "p1: 3\np2: 3\np3: 3\n"
    );
}
