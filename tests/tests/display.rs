//! The `display:` lines of a ruleset and the `text(...)` built-in (generic: a small
//! ruleset written here, not a shipped game).

use frontier_interpreter::RulesetSource;
use frontier_interpreter::Viewer;
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
        game.render_display(&state, Viewer::Everyone),
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
        game.render_display(&state, Viewer::Everyone),
        "Towns:\n  West Town: owner none\n  East Town: owner p2\n"
    );
}

#[test]
fn a_display_reads_the_seat_it_is_drawn_for_as_viewer() {
    let body = format!("{PLAY}display:\n  - \"{{if viewer == none then \\\"Everyone\\\" else text(\\\"Your gold: \\\", gold[viewer])}}\"\n  - {{ for: {{ t: towns }}, line: \"{{t.id}}{{if viewer != none and owner[t] == viewer then \\\" (yours)\\\" else \\\"\\\"}}\" }}\n");
    let game = load_source(&ruleset(&body)).unwrap_or_else(|e| panic!("{e}"));
    let state = game.start(names(2)).unwrap();
    // East is p2's (PLAY sets it): p2 reads it as theirs, p1 and everyone do not.
    assert_eq!(
        game.render_display(&state, Viewer::Everyone),
        "Everyone\neast\nwest\n"
    );
    assert_eq!(
        game.render_display(&state, Viewer::Seat(0)),
        "Your gold: 3\neast\nwest\n"
    );
    assert_eq!(
        game.render_display(&state, Viewer::Seat(1)),
        "Your gold: 3\neast (yours)\nwest\n"
    );
}

#[test]
fn a_ruleset_without_display_renders_nothing() {
    let game = load_source(&ruleset(PLAY)).unwrap();
    let state = game.start(names(2)).unwrap();
    assert_eq!(game.render_display(&state, Viewer::Everyone), "");
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
    assert_eq!(
        game.render_display(&state, Viewer::Everyone),
        "[p1  ] 3 ab\n"
    );
    assert_eq!(
        game.render_display_styled(
            &state,
            Viewer::Everyone,
            frontier_interpreter::render::Style::Plain
        ),
        "[p1  ] 3 ab\n"
    );
    // An unknown colour name shows no colour; a colour inside a colour ends both.
    assert_eq!(
        game.render_display_styled(
            &state,
            Viewer::Everyone,
            frontier_interpreter::render::Style::Colour
        ),
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
        game.render_display(&game.start(names(2)).unwrap(), Viewer::Everyone),
        "p1: 3\np2: 3\n"
    );
    assert_eq!(
        game.render_display(&game.start(names(3)).unwrap(), Viewer::Everyone),
        "p1: 3\np2: 3\np3: 3\n"
    );
}

/// Two hands dealt from a face-down deck; `log:` lines and the display name the cards.
const HANDS: &str = r#"frontier: 1
name: hands
players: 2
tables:
  cards:
    columns: { rank: int }
    rows: [[kilo, 1], [lima, 2], [mike, 3], [oscar, 4]]
    show: "rank {it.rank}"
zones:
  deck: { of: cards, visibility: count, init: all }
  hand: { of: cards, per: players, visibility: owner }
  shown: { of: cards }
play:
  - shuffle: deck
  - for_each: { p: players }
    do:
      - draw: { from: deck, to: "hand[p]", count: 1 }
      - log: "{p} takes {first(hand[p])}"
  - choose:
      who: "players[0]"
      options:
        - label: "show {c}"
          for: { c: "hand[players[0]]" }
          do:
            - move: { item: c, from: "hand[players[0]]", to: shown }
display:
  - "hands: {map(players, len(hand[it]))}"
  - "yours: {if viewer == none then \"\" else text(hand[viewer])}"
  - "p2 holds {hand[players[1]]}, shown {shown}"
  - "p2's rank: {sum(map(hand[players[1]], it.rank))}"
ranking:
  score: "len(hand[it])"
"#;

fn dealt_hands() -> (frontier_interpreter::Game, frontier_interpreter::State) {
    let game = load_source(&text_source("hands", "ruleset.yaml", HANDS.to_string()))
        .unwrap_or_else(|e| panic!("{e}"));
    // The order the shuffle gives: kilo to p1, lima to p2.
    let mut state = game.start(names(2)).unwrap();
    let order = frontier_interpreter::Choice::Order(vec![0, 1, 2, 3]);
    frontier_interpreter::Stepper::walker(&game)
        .apply(&mut state, order, &mut frontier_interpreter::Journal::off())
        .unwrap();
    (game, state)
}

#[test]
fn a_display_shows_a_seat_only_what_it_may_see() {
    let (game, state) = dealt_hands();
    // p1 sees their own card, not p2's; a line that adds up p2's hidden ranks says that
    // it depends on what p1 cannot see instead of showing a number.
    assert_eq!(
        game.render_display(&state, Viewer::Seat(0)),
        "hands: 1 1\nyours: kilo\np2 holds ?, shown \n(display[3] depends on what p1 cannot see: p2's rank: {sum(map(hand[players[1]], it.rank))})\n"
    );
    assert_eq!(
        game.render_display(&state, Viewer::Seat(1)),
        "hands: 1 1\nyours: lima\np2 holds lima, shown \np2's rank: 2\n"
    );
    // A table of both players sees neither hand; everyone (a replay) sees both.
    assert!(game
        .render_display(&state, Viewer::Table)
        .contains("p2 holds ?,"));
    assert!(game
        .render_display(&state, Viewer::Everyone)
        .contains("p2 holds lima,"));
}

#[test]
fn log_lines_name_to_each_reader_only_what_they_may_know() {
    let game = load_source(&text_source("hands", "ruleset.yaml", HANDS.to_string()))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut state = game.start(names(2)).unwrap();
    let (mut lines, mut secrets) = (Vec::new(), Vec::new());
    let order = frontier_interpreter::Choice::Order(vec![0, 1, 2, 3]);
    frontier_interpreter::Stepper::walker(&game)
        .apply(
            &mut state,
            order,
            &mut frontier_interpreter::Journal::on_noting(&mut lines, &mut secrets),
        )
        .unwrap();
    let read = |viewer: Viewer, state: &frontier_interpreter::State, lines: &[String]| {
        let mut lines = lines.to_vec();
        game.hide_unseen(state, viewer, &mut lines, &secrets);
        lines
    };
    assert_eq!(
        read(Viewer::Everyone, &state, &lines),
        ["chance: shuffled deck", "p1 takes kilo", "p2 takes lima"]
    );
    assert_eq!(
        read(Viewer::Seat(0), &state, &lines),
        ["chance: shuffled deck", "p1 takes kilo", "p2 takes ?"]
    );
    assert_eq!(
        read(Viewer::Seat(1), &state, &lines),
        ["chance: shuffled deck", "p1 takes ?", "p2 takes lima"]
    );
    assert_eq!(
        read(Viewer::Table, &state, &lines),
        ["chance: shuffled deck", "p1 takes ?", "p2 takes ?"]
    );
    // p1 shows their card: the decision's line names it to p2, as it is now face up.
    let (mut lines, mut secrets2) = (Vec::new(), Vec::new());
    frontier_interpreter::Stepper::walker(&game)
        .apply(
            &mut state,
            frontier_interpreter::Choice::Option(0),
            &mut frontier_interpreter::Journal::on_noting(&mut lines, &mut secrets2),
        )
        .unwrap();
    let mut for_p2 = lines.clone();
    game.hide_unseen(&state, Viewer::Seat(1), &mut for_p2, &secrets2);
    assert_eq!(for_p2, ["p1: show kilo"]);
}

#[test]
fn a_display_without_viewer_shows_each_seat_its_own_hidden_zones() {
    // HANDS without the line that reads `viewer`: each seat is shown its own hand.
    let text = HANDS.replace(
        "  - \"yours: {if viewer == none then \\\"\\\" else text(hand[viewer])}\"\n",
        "",
    );
    assert_ne!(text, HANDS);
    let game =
        load_source(&text_source("hands", "ruleset.yaml", text)).unwrap_or_else(|e| panic!("{e}"));
    let mut state = game.start(names(2)).unwrap();
    let order = frontier_interpreter::Choice::Order(vec![0, 1, 2, 3]);
    frontier_interpreter::Stepper::walker(&game)
        .apply(&mut state, order, &mut frontier_interpreter::Journal::off())
        .unwrap();
    assert!(game
        .render_display(&state, Viewer::Seat(0))
        .ends_with("your hand: kilo\n"));
    assert!(game
        .render_display(&state, Viewer::Seat(1))
        .ends_with("your hand: lima\n"));
    assert!(!game
        .render_display(&state, Viewer::Everyone)
        .contains("your hand"));
}

#[test]
fn a_narrated_step_tells_another_players_move_and_every_score_change() {
    let (game, mut state) = dealt_hands();
    let stepper = frontier_interpreter::Stepper::walker(&game);
    // p1 shows kilo (rank 1): p2 reads the move with the card's `show:` text, and p1's
    // score (the cards in hand) going from 1 to 0; p1, who chose it, reads no description.
    let mut for_p2 = Vec::new();
    let mut other = state.clone();
    game.apply_narrated(
        stepper,
        &mut state,
        frontier_interpreter::Choice::Option(0),
        Viewer::Seat(1),
        &mut for_p2,
    )
    .unwrap();
    assert_eq!(
        for_p2,
        ["p1: show kilo — kilo: rank 1", "p1's score: 1 → 0 (-1)"]
    );
    let mut for_p1 = Vec::new();
    game.apply_narrated(
        stepper,
        &mut other,
        frontier_interpreter::Choice::Option(0),
        Viewer::Seat(0),
        &mut for_p1,
    )
    .unwrap();
    assert_eq!(for_p1, ["p1: show kilo", "p1's score: 1 → 0 (-1)"]);
}

#[test]
fn a_score_that_reads_a_hidden_hand_is_told_only_to_who_may_know_it() {
    // The score is the ranks in hand: p2 cannot know p1's, so p2 is told no change of it.
    let text = HANDS.replace(
        "  score: \"len(hand[it])\"",
        "  score: \"sum(map(hand[it], c => c.rank))\"",
    );
    assert_ne!(text, HANDS);
    let game =
        load_source(&text_source("hands", "ruleset.yaml", text)).unwrap_or_else(|e| panic!("{e}"));
    let stepper = frontier_interpreter::Stepper::walker(&game);
    let mut state = game.start(names(2)).unwrap();
    let order = frontier_interpreter::Choice::Order(vec![0, 1, 2, 3]);
    stepper
        .apply(&mut state, order, &mut frontier_interpreter::Journal::off())
        .unwrap();
    let mut other = state.clone();
    let (mut for_p2, mut for_p1) = (Vec::new(), Vec::new());
    let show = frontier_interpreter::Choice::Option(0);
    game.apply_narrated(
        stepper,
        &mut state,
        show.clone(),
        Viewer::Seat(1),
        &mut for_p2,
    )
    .unwrap();
    game.apply_narrated(stepper, &mut other, show, Viewer::Seat(0), &mut for_p1)
        .unwrap();
    assert_eq!(for_p2, ["p1: show kilo — kilo: rank 1"]);
    assert_eq!(for_p1, ["p1: show kilo", "p1's score: 1 → 0 (-1)"]);
}

#[test]
fn a_step_narrated_to_several_readers_tells_each_what_they_may_know() {
    // One step, told at once to p1 (who chose it), p2 and a spectator of the table.
    let (game, mut state) = dealt_hands();
    let stepper = frontier_interpreter::Stepper::walker(&game);
    let (mut for_p1, mut for_p2, mut for_table) = (Vec::new(), Vec::new(), Vec::new());
    game.apply_narrated_to(
        stepper,
        &mut state,
        frontier_interpreter::Choice::Option(0),
        &mut [
            (Viewer::Seat(0), &mut for_p1),
            (Viewer::Seat(1), &mut for_p2),
            (Viewer::Table, &mut for_table),
        ],
    )
    .unwrap();
    assert_eq!(for_p1, ["p1: show kilo", "p1's score: 1 → 0 (-1)"]);
    assert_eq!(
        for_p2,
        ["p1: show kilo — kilo: rank 1", "p1's score: 1 → 0 (-1)"]
    );
    assert_eq!(
        for_table,
        ["p1: show kilo — kilo: rank 1", "p1's score: 1 → 0 (-1)"]
    );
}
