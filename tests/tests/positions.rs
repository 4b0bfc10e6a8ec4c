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
        (
            with_line(&text, "- block:", "- block: 99999"),
            "continuation: block 99999 does not exist in this ruleset",
        ),
        (
            with_line(&text, "pc:", "pc: 99999"),
            "statements, not a statement 99999",
        ),
        (
            with_line(&text, "base:", "base: 999"),
            "continuation: a frame's locals start at 999",
        ),
        (
            with_line(&text, "pc:", "pc: -1"),
            "continuation: a frame's 'pc' is a whole number from 0, not -1",
        ),
        (
            with_line(&text, "pc:", "pcx: 1"),
            "continuation: frame lacks 'pc'",
        ),
        (short_locals, "needs locals up to"),
        (
            with_line(&text, "pending:", "pending: maybe"),
            "continuation.pending: expected suspended or over",
        ),
    ];
    for (corrupt, expected) in cases {
        let err = game.state_from_yaml(&corrupt).expect_err(expected);
        assert!(err.contains(expected), "wanted '{expected}', got '{err}'");
    }
}

/// A saved Go West state whose continuation has a `for_each` and a `repeat` frame (the
/// first of the seeded states that has both).
fn saved_in_loops() -> (frontier_interpreter::Game, String) {
    let game = load_ruleset("go-west");
    for seed in 0..200 {
        let text = game.state_to_yaml(&random_state(&game, 3, seed, 20 + seed % 20));
        if text.contains("for_each:") && text.contains("repeat:") {
            return (game, text);
        }
    }
    panic!("no seeded Go West state stands in a for_each and a repeat loop");
}

/// Fields of the continuation that were read without a range check (issue 15): a negative
/// step count, a loop's next element past its list, a local past the procedure's, rounds
/// left below zero, empty locals, a block number past 2³².
#[test]
fn continuation_fields_are_range_checked() {
    let (game, text) = saved_in_loops();
    let (head, rest) = text.split_once("  locals:\n").unwrap();
    let tail = &rest[rest.find("  pending:").unwrap()..];
    let no_locals = format!("{head}  locals: []\n{tail}");
    let cases = [
        (
            with_line(&text, "steps:", "steps: -1"),
            "steps: a whole number of steps from 0",
        ),
        (
            with_line(&text, "next:", "next: 99999"),
            "a for_each frame's 'next' is 99999, outside 1..=",
        ),
        (
            with_line(&text, "next:", "next: 0"),
            "a for_each frame's 'next' is 0",
        ),
        (
            with_line(&text, "slot:", "slot: 99999"),
            "continuation: local 99999 does not exist",
        ),
        (
            with_line(&text, "slot:", "slot: 999"),
            "a for_each frame's local 999 is not one of its procedure's",
        ),
        (
            with_line(&text, "left:", "left: -5"),
            "a repeat frame has -5 rounds left",
        ),
        (
            with_line(&text, "- block:", "- block: 4294967300"),
            "block 4294967300 does not exist",
        ),
        (no_locals, "needs locals up to"),
    ];
    for (corrupt, expected) in cases {
        let err = game.state_from_yaml(&corrupt).expect_err(expected);
        assert!(err.contains(expected), "wanted '{expected}', got '{err}'");
    }
}

/// Frames must nest as the machine pushes them (fuzzing case 760,688 of the mutated
/// positions: a call's frame whose locals started inside its caller's freed them on
/// return, and the caller then read past the end of the locals). A call's locals start
/// past its caller's; a block's frame shares the locals of the procedure below it.
#[test]
fn frames_must_nest_as_the_machine_pushes_them() {
    let (game, text) = saved_in_loops();
    let lines: Vec<&str> = text.lines().collect();
    // The first call frame whose locals start past 0: its `base:` line, then `kind: call`.
    let at = (0..lines.len() - 1)
        .find(|&i| {
            lines[i].trim_start().starts_with("base: ")
                && lines[i].trim() != "base: 0"
                && lines[i + 1].trim() == "kind: call"
        })
        .expect("a call frame with locals past 0");
    let with = |i: usize, line: &str| {
        let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        let indent = &lines[i][..lines[i].len() - lines[i].trim_start().len()];
        l[i] = format!("{indent}{line}");
        l.join("\n")
    };
    let err = game
        .state_from_yaml(&with(at, "base: 0"))
        .expect_err("a call inside its caller's locals");
    assert!(
        err.contains("a call's locals start at 0, inside those of procedure"),
        "{err}"
    );
    // The first block frame (not a call) with another base than the frame below it.
    let block = (0..lines.len() - 1)
        .find(|&i| {
            lines[i].trim_start().starts_with("base: ") && lines[i + 1].trim() == "kind: block"
        })
        .expect("a block frame");
    let base: u32 = lines[block]
        .trim()
        .trim_start_matches("base: ")
        .parse()
        .unwrap();
    let err = game
        .state_from_yaml(&with(block, &format!("base: {}", base + 1)))
        .expect_err("a block frame with its own locals");
    assert!(
        err.contains("is not a block of the procedure below it"),
        "{err}"
    );
    let first = lines.iter().position(|l| l.trim() == "kind: call").unwrap();
    let err = game
        .state_from_yaml(&with(first, "kind: block"))
        .expect_err("a first frame that is no call");
    assert!(
        err.contains("the first frame is not a procedure's call"),
        "{err}"
    );
}

/// tests/cases/conserve: 5 coins each, in hand or in the bank.
fn conserving() -> frontier_interpreter::Game {
    load_source(&source(&workspace().join("tests/cases/conserve"))).expect("the ruleset loads")
}

#[test]
fn a_position_must_keep_the_conserved_totals() {
    let game = conserving();
    // 3 in hand + 2 in the bank = 5: fine.
    let ok = "players: [p1, p2]\ninitial: rest\nvars:\n  hand: { p1: 3 }\n  bank: { p1: 2 }\n";
    assert!(game.state_from_yaml(ok).is_ok());
    // 3 + 0 = 3: two coins are nowhere.
    let lost = "players: [p1, p2]\ninitial: rest\nvars:\n  hand: { p1: 3 }\n";
    assert_eq!(
        game.state_from_yaml(lost).unwrap_err(),
        "conserve.coins does not hold for p1: hand[it] + bank[it] == 5"
    );
}

#[test]
fn debug_builds_check_the_conserved_totals_after_every_step() {
    let game = conserving();
    let mut s = game.start(names(2)).unwrap();
    choose(&game, &mut s, "pay");
    let leak = game
        .option_labels(&s)
        .unwrap()
        .iter()
        .position(|l| l == "leak")
        .unwrap();
    let err = game.apply(
        &mut s,
        frontier_interpreter::Choice::Option(leak),
        &mut frontier_interpreter::Journal::off(),
    );
    if cfg!(debug_assertions) {
        // p1: 4 - 1 = 3 in hand, 1 in the bank: 4 of 5.
        let err = err.unwrap_err().to_string();
        assert!(
            err.contains(
                "after this step, conserve.coins does not hold for p1: hand[it] + bank[it] == 5"
            ),
            "{err}"
        );
    } else {
        assert!(err.is_ok(), "release builds trust the totals");
    }
}

/// A hand-written position states what it leaves at the initial values: each variable it
/// does not write is named under `initial:`, or `initial: rest` is said; otherwise it is
/// refused with the list of what it does not write.
#[test]
fn a_hand_written_position_states_what_it_omits() {
    let game = load_ruleset("pig");
    let players = "players: [ann, bob]\n";
    let check = |body: &str| game.state_from_yaml(&format!("{players}{body}"));
    // Pig's state: score, turn_total, active, moves.
    let all = "vars:\n  score: { ann: 10, bob: 0 }\n  turn_total: 0\n  active: ann\n  moves: 4\n";
    assert!(check(all).is_ok());
    let some = "vars:\n  score: { ann: 10 }\n";
    let err = check(some).unwrap_err();
    assert_eq!(
        err,
        "the position does not write vars.turn_total, vars.active, vars.moves: write them, or name them under 'initial:' to start them at the ruleset's initial values (initial: [turn_total, active, moves]), or write 'initial: rest' for everything it does not write"
    );
    assert!(check(&format!("initial: [turn_total, active, moves]\n{some}")).is_ok());
    assert!(check(&format!("initial: rest\n{some}")).is_ok());
    // Names under `initial:` are the ruleset's, and not written too.
    let err = check(&format!(
        "initial: [turn_total, active, moves, luck]\n{some}"
    ))
    .unwrap_err();
    assert_eq!(
        err,
        "initial: 'luck' is not a variable, zone or board of the ruleset"
    );
    let err = check(&format!(
        "initial: [score, turn_total, active, moves]\n{some}"
    ))
    .unwrap_err();
    assert_eq!(
        err,
        "initial: 'score' is written by the position, so it does not start at its initial value"
    );
    let err = check(&format!("initial: yes\n{some}")).unwrap_err();
    assert_eq!(
        err,
        "initial: a list of names of variables, zones and boards, or 'rest'"
    );
}

/// `~` is none, which only a player or a row can be: for a whole number it read as -1 and
/// for true/false as true. A complete position (every variable at its initial value but
/// those written) is refused at the entry that writes it.
#[test]
fn none_is_refused_where_a_number_or_true_false_is_wanted() {
    let game = load_ruleset("go-west");
    let position = |vars: &str| {
        game.state_from_yaml(&format!(
            "players: [red, green, blue]\ninitial: rest\nvars:\n{vars}"
        ))
    };
    assert_eq!(
        position("  vp: { red: ~ }\n").unwrap_err(),
        "vars.vp.red: ~ is none, which only a player or a row can be: write a whole number"
    );
    assert_eq!(
        position("  pawn: { green: ~ }\n").unwrap_err(),
        "vars.pawn.green: ~ is none, which only a player or a row can be: write true or false"
    );
    let state = position("  vp: { red: 3 }\n").unwrap();
    assert_eq!(int(&game, &state, "vp[red]"), 3);
}

/// Seats are told apart by their names: a position seating one name twice is refused
/// (`play --from` played 23 decisions before an error).
#[test]
fn a_position_seating_one_name_twice_is_refused() {
    let game = load_ruleset("go-west");
    let err = game
        .state_from_yaml("players: [red, red, blue]\ninitial: rest\n")
        .unwrap_err();
    assert_eq!(
        err,
        "players: 'red' is listed twice (each seat has a name of its own)"
    );
}

/// A saved state (with its continuation) holds each row of a dealt table (a deck: each
/// row once in the initial zones) at most once, as a hand-written position does: a card
/// held twice, in one zone or in two, is refused.
#[test]
fn a_saved_state_holding_a_dealt_card_twice_is_refused() {
    let (game, text) = saved();
    let lines: Vec<&str> = text.lines().collect();
    let deck = lines.iter().position(|l| *l == "  deck:").unwrap();
    let card = lines[deck + 1];
    assert!(card.starts_with("  - gw-"), "{card}");
    let id = card.trim_start_matches("  - ");
    let twice_in_deck = [&lines[..=deck + 1], &[card], &lines[deck + 2..]].concat();
    assert_eq!(
        game.state_from_yaml(&twice_in_deck.join("\n")).unwrap_err(),
        format!("zones: {id} is twice in deck (each row of 'cards' is in one zone at a time)")
    );
    // `discard: []`, or `discard:` with its cards below it: the card goes first.
    let discard = lines
        .iter()
        .position(|l| l.starts_with("  discard:"))
        .unwrap();
    let in_discard = [
        &lines[..discard],
        &["  discard:", card],
        &lines[discard + 1..],
    ]
    .concat();
    assert_eq!(
        game.state_from_yaml(&in_discard.join("\n")).unwrap_err(),
        format!("zones: {id} is both in deck and in discard (each row of 'cards' is in one zone at a time)")
    );
}

/// Where the rules `push` rows of a table, a second one may be made: a saved state may
/// then hold a row twice.
#[test]
fn a_saved_state_may_hold_a_row_twice_where_the_rules_push_rows() {
    let text = r#"
name: pushing
players: 2
tables: { cards: { columns: { v: int }, rows: [[a, 1], [b, 2]] } }
zones:
  deck: { of: cards, init: all }
  extra: { of: cards }
state: { who: { type: player, init: "players[0]" } }
play:
  - push: { to: extra, value: "@a" }
  - choose: { who: who, options: [ { label: go } ] }
ranking: { score: "0" }
"#;
    let game = load_source(&text_source("case", "pushing.yaml", text)).unwrap();
    let state = game.start(names(2)).unwrap();
    let saved = game.state_to_yaml(&state);
    assert!(saved.contains("  extra:\n  - a\n"), "{saved}");
    let read = game.state_from_yaml(&saved).unwrap();
    assert_eq!(game.state_to_yaml(&read), saved);
}

/// A position is read as a ruleset is: its nesting and size bounded before the YAML
/// reader starts (`players: ` is 9 characters, so the 129th `[` stands at column 138).
#[test]
fn a_position_is_read_within_the_yaml_bounds() {
    let game = load_ruleset("go-west");
    let deep = format!("players: {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(
        game.state_from_yaml(&deep).unwrap_err(),
        "line 1:138: mappings and lists nested more than 128 deep: the YAML reader goes no deeper"
    );
}
