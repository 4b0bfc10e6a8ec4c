//! The statements of rulesets, each on a small ruleset written here: `clear`, `draw`, `move … at:`,
//! `repeat: { up_to }` with its `done` option, and options over several `for:` lists.

use frontier_interpreter::runner::Recording;
use frontier_interpreter::{Choice, Game, Journal, State, Status};
use frontier_tests::*;

fn game(text: &str) -> Game {
    let src = text_source("test", "ruleset.yaml", text);
    load_source(&src).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The state written as a position file and read back equals it and continues like it
/// (the same labels after each of the same choices).
fn resumes_identically(game: &Game, state: &State, choices: &[&str]) {
    let text = game.state_to_yaml(state);
    let mut restored = game
        .state_from_yaml(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&restored, state, "{text}");
    let mut original = state.clone();
    for label in choices {
        choose(game, &mut original, label);
        choose(game, &mut restored, label);
        assert_eq!(original, restored);
    }
}

// ---------------------------------------------------------------------------------------
// clear

#[test]
fn clear_empties_one_zone_instance() {
    let game = game(
        r#"
name: clear
players: 2
zones:
  pile: { of: players }
  hand: { of: players, per: players }
play:
  - push: { to: pile, value: "players[0]" }
  - push: { to: pile, value: "players[1]" }
  - push: { to: "hand[players[0]]", value: "players[1]" }
  - push: { to: "hand[players[1]]", value: "players[0]" }
  - clear: pile
  - clear: "hand[players[1]]"
  - clear: "hand[players[1]]"
  - choose: { who: "players[0]", options: [{ label: "end" }] }
ranking: { score: "len(hand[it])" }
"#,
    );
    let state = game.start(names(2)).unwrap();
    assert_eq!(int(&game, &state, "len(pile)"), 0);
    assert_eq!(
        text(&game, &state, "hand[p1]"),
        "p2",
        "the other instances keep their contents"
    );
    assert_eq!(
        int(&game, &state, "len(hand[p2])"),
        0,
        "clearing an empty zone does nothing"
    );
}

// ---------------------------------------------------------------------------------------
// positions in a zone

/// A single zone indexed by a number is its element at that position, as a list is and
/// as an instance of a per-player zone is (`hand[p][0]`): pushed p1, p2, p2, the pile is
/// [p1, p2, p2], so `pile[len(pile) - 3]` is p1 and `pile[len(pile) - 2]` is p2.
#[test]
fn a_single_zone_is_indexed_by_position() {
    let game = game(
        r#"
name: positions
players: 2
zones:
  pile: { of: players }
  hand: { of: players, per: players }
play:
  - push: { to: pile, value: "players[0]" }
  - push: { to: pile, value: "players[1]" }
  - push: { to: pile, value: "players[1]" }
  - push: { to: "hand[players[1]]", value: "players[0]" }
  - choose: { who: "pile[len(pile) - 3]", options: [{ label: "end" }] }
ranking: { score: "len(hand[it])" }
"#,
    );
    let state = game.start(names(2)).unwrap();
    assert_eq!(text(&game, &state, "pile[len(pile) - 3]"), "p1");
    assert_eq!(text(&game, &state, "pile[len(pile) - 2]"), "p2");
    assert_eq!(text(&game, &state, "hand[p2][0]"), "p1");
    assert_eq!(options(&game, &state), ["end"], "p1, pile[0], decides");
    let Status::Decision { player, .. } = game.status(&state) else {
        panic!("a decision")
    };
    assert_eq!(player, 0);
    // Past the end, a runtime error as for a list.
    let past = frontier_interpreter::trace::evaluate(&game, &state, "pile[3]").unwrap_err();
    assert_eq!(past, "pile[3]: position 3 is outside a list of 3");
}

/// A single zone has no keys: a player or a row as its index, or a second position, is a
/// load error that says what its index is.
#[test]
fn a_single_zone_indexed_by_a_key_says_its_index_is_a_position() {
    let ruleset = |expr: &str| {
        format!(
            "name: positions\nplayers: 2\nzones:\n  pile: {{ of: players }}\nplay:\n  - push: {{ to: pile, value: \"players[0]\" }}\n  - choose: {{ who: \"{expr}\", options: [{{ label: \"end\" }}] }}\nranking: {{ score: \"0\" }}\n"
        )
    };
    for (expr, says) in [
        (
            "pile[players[0]]",
            "ruleset.yaml:7:21: play[1].choose.who: zone 'pile' is a single zone: it has no keys, and an index is a position in its list (a number, 0 for the first element) in \"pile[players[0]]\"",
        ),
        (
            "pile[0][0]",
            "ruleset.yaml:7:21: play[1].choose.who: a player cannot be indexed in \"pile[0][0]\"",
        ),
    ] {
        let src = text_source("test", "ruleset.yaml", ruleset(expr));
        let error = load_source(&src).map(|_| ()).unwrap_err().to_string();
        assert!(error.contains(says), "{expr}:\n{error}");
    }
}

// ---------------------------------------------------------------------------------------
// draw

/// Four cards in table order, no shuffle: three drawn to the discard leave c4 in the deck;
/// then p1 draws three with `refill_from: discard`.
const DRAWS: &str = r#"
name: draws
players: 2
tables:
  cards: { rows: [c1, c2, c3, c4] }
zones:
  deck: { of: cards, init: all }
  discard: { of: cards }
  hand: { of: cards, per: players }
play:
  - draw: { from: deck, to: discard, count: 3 }
  - draw: { from: deck, to: "hand[players[0]]", count: 3, refill_from: discard }
  - draw: { from: deck, to: "hand[players[1]]", count: 9223372036854775807 }
  - choose: { who: "players[0]", options: [{ label: "end" }] }
ranking: { score: "len(hand[it])" }
"#;

/// The second draw takes c4 (round 1), finds the deck empty, pours the discard (c1 c2
/// c3) into it and shuffles it: a chance point in the middle of the draw. With the
/// order c3 c1 c2 it goes on with rounds 2 and 3, c3 then c1, and leaves c2; the third
/// draw, of 2⁶³−1, takes c2 and stops.
#[test]
fn a_draw_resumes_after_the_shuffle_of_its_refilled_pile() {
    let game = game(DRAWS);
    let state = game.start(names(2)).unwrap();
    assert!(
        matches!(game.status(&state), Status::Chance(_)),
        "the refill is shuffled"
    );
    assert_eq!(text(&game, &state, "hand[p1]"), "c4");
    assert_eq!(int(&game, &state, "len(deck)"), 3);
    assert_eq!(int(&game, &state, "len(discard)"), 0);
    // Read back from a position, the draw waits for the same shuffle and goes on alike.
    let mut restored = game.state_from_yaml(&game.state_to_yaml(&state)).unwrap();
    assert_eq!(restored, state);
    let mut original = state;
    // Element codes are row numbers: c3 c1 c2.
    for s in [&mut original, &mut restored] {
        game.apply(s, Choice::Order(vec![2, 0, 1]), &mut Journal::off())
            .unwrap();
    }
    assert_eq!(original, restored);
    assert_eq!(text(&game, &original, "hand[p1]"), "c4 c3 c1");
    assert_eq!(text(&game, &original, "hand[p2]"), "c2");
    assert_eq!(int(&game, &original, "len(deck)"), 0);
    assert!(matches!(game.status(&original), Status::Decision { .. }));
}

/// A draw from a zone into itself turns the zone round, one element a round: 10¹⁸ rounds
/// of four cards end where they began (10¹⁸ is a multiple of 4), 7 rounds of two turn
/// them by one, and 10¹⁸ rounds drawing a pile's one card and pouring it back end too
/// (both used to run for ever).
const CYCLES: &str = r#"
name: cycles
players: 2
tables:
  cards: { rows: [c1, c2, c3, c4, c5] }
zones:
  deck: { of: cards }
  other: { of: cards }
  pile: { of: cards }
  hand: { of: cards }
play:
  - for_each: { c: "[@c1, @c2, @c3, @c4]" }
    do: [ { push: { to: deck, value: c } } ]
  - push: { to: other, value: "@c1" }
  - push: { to: other, value: "@c2" }
  - push: { to: pile, value: "@c5" }
  - draw: { from: deck, to: deck, count: 1000000000000000000 }
  - draw: { from: other, to: other, count: 7 }
  - draw: { from: hand, to: pile, count: 1000000000000000000, refill_from: pile }
  - choose: { who: "players[0]", options: [{ label: "end" }] }
ranking: { score: "len(hand)" }
"#;

#[test]
fn a_draw_that_cycles_ends_as_its_rounds_one_by_one_would() {
    let game = game(CYCLES);
    let state = game.start(names(2)).unwrap();
    assert!(matches!(game.status(&state), Status::Decision { .. }));
    assert_eq!(text(&game, &state, "deck"), "c1 c2 c3 c4");
    assert_eq!(text(&game, &state, "other"), "c2 c1");
    assert_eq!(text(&game, &state, "pile"), "c5");
    assert_eq!(int(&game, &state, "len(hand)"), 0);
}

// ---------------------------------------------------------------------------------------
// move … at:

const MOVES: &str = r#"
name: moves
players: 3
zones:
  src: { of: players, init: "players" }
  dst: { of: players }
play:
  - push: { to: dst, value: "players[2]" }
  - move: { from: src, to: dst, at: top }                   # p1 | p3
  - move: { from: src, to: dst, count: 2, at: 1 }           # p1 p2 p3 | p3
  - move: { from: dst, to: dst, at: bottom }                # p2 p3 p3 p1
  - move: { item: "players[2]", from: dst, to: dst, at: 0 } # p3 p2 p3 p1 (its first p3)
  - push: { to: src, value: "players[1]" }
  - move: { from: src, to: dst, at: "len(dst)" }            # p3 p2 p3 p1 p2
  - move: { all: true, from: dst, to: src, at: top }
  - push: { to: dst, value: "players[0]" }
  - move: { count: 2, from: src, to: dst }                  # the default: at the bottom
  - choose: { who: "players[0]", options: [{ label: "end" }] }
ranking: { score: "0" }
"#;

#[test]
fn move_puts_elements_at_the_top_the_bottom_or_a_position() {
    let game = game(MOVES);
    let state = game.start(names(3)).unwrap();
    assert_eq!(text(&game, &state, "dst"), "p1 p3 p2");
    assert_eq!(text(&game, &state, "src"), "p3 p1 p2");
}

#[test]
fn move_to_a_position_past_the_end_is_a_runtime_error() {
    let game = game(&MOVES.replace(r#"at: "len(dst)""#, r#"at: "len(dst) + 1""#));
    let error = game
        .start(names(3))
        .expect_err("position 5 of 4 elements")
        .to_string();
    assert!(error.contains("ruleset.yaml:14:5: play[6]"), "{error}");
    assert!(
        error.contains("position 5 is outside dst (4 elements: a move inserts at 0 to 4)"),
        "{error}"
    );
    // Within one zone the position counts once the elements are out.
    let game = game_from(MOVES.replace("at: bottom }", "at: \"len(dst)\" }"));
    assert!(game
        .start(names(3))
        .expect_err("3 elements once the top is out")
        .to_string()
        .contains("position 4 is outside dst (3 elements"));
}

fn game_from(text: String) -> Game {
    game(&text)
}

// ---------------------------------------------------------------------------------------
// repeat: { up_to }

fn rounds(gold: i64) -> Game {
    game(&format!(
        r#"
name: rounds
players: 2
state:
  gold: {{ per: players, init: {gold} }}
  bonus: {{ init: 0 }}
play:
  - repeat: {{ up_to: 3, as: i, while: "gold[players[0]] > 0", done: "stop buying", at_least: 1 }}
    do:
      - choose:
          who: "players[0]"
          prompt: "buy {{i}} of up to 3"
          options:
            - label: "buy"
              do:
                - add: {{ "gold[players[0]]": -1 }}
            - label: "bonus"
              do:
                - choose:
                    who: "players[0]"
                    options: [{{ label: "a" }}, {{ label: "b", do: [{{ add: {{ bonus: 1 }} }}] }}]
      - if: "i == 2"
        then:
          - choose: {{ who: "players[1]", options: [{{ label: "watch" }}] }}
  - choose: {{ who: "players[0]", prompt: "after", options: [{{ label: "end" }}] }}
ranking: {{ score: "gold[it]" }}
"#
    ))
}

#[test]
fn repeat_up_to_offers_done_from_the_round_after_at_least() {
    let game = rounds(5);
    let mut state = game.start(names(2)).unwrap();
    assert_eq!(game.prompt(&state).unwrap(), "buy 1 of up to 3");
    assert_eq!(
        options(&game, &state),
        ["buy", "bonus"],
        "the first round must be played"
    );
    choose(&game, &mut state, "buy");
    assert_eq!(game.prompt(&state).unwrap(), "buy 2 of up to 3");
    assert_eq!(options(&game, &state), ["buy", "bonus", "stop buying"]);
    choose(&game, &mut state, "bonus");
    assert_eq!(
        options(&game, &state),
        ["a", "b"],
        "a decision inside an option's effects gets no done"
    );
    choose(&game, &mut state, "b");
    assert_eq!(
        options(&game, &state),
        ["watch", "stop buying"],
        "a decision in an if of the round gets it"
    );
    choose(&game, &mut state, "watch");
    assert_eq!(game.prompt(&state).unwrap(), "buy 3 of up to 3");
    choose(&game, &mut state, "stop buying");
    assert_eq!(game.prompt(&state).unwrap(), "after");
    assert_eq!(var(&game, &state, "gold", "p1"), 4);
    assert_eq!(var(&game, &state, "bonus", ""), 1);
}

#[test]
fn done_in_a_branch_ends_the_whole_loop() {
    let game = rounds(5);
    let mut state = game.start(names(2)).unwrap();
    choose(&game, &mut state, "buy");
    choose(&game, &mut state, "buy");
    choose(&game, &mut state, "stop buying");
    assert_eq!(game.prompt(&state).unwrap(), "after");
    assert_eq!(var(&game, &state, "gold", "p1"), 3);
}

#[test]
fn repeat_up_to_stops_after_n_rounds_or_when_its_condition_fails() {
    let game5 = rounds(5);
    let mut state = game5.start(names(2)).unwrap();
    for label in ["buy", "buy", "watch", "buy"] {
        choose(&game5, &mut state, label);
    }
    assert_eq!(game5.prompt(&state).unwrap(), "after", "at most 3 rounds");
    assert_eq!(var(&game5, &state, "gold", "p1"), 2);

    let game1 = rounds(1);
    let mut state = game1.start(names(2)).unwrap();
    choose(&game1, &mut state, "buy");
    assert_eq!(
        game1.prompt(&state).unwrap(),
        "after",
        "no round begins once the while: condition fails"
    );

    let game0 = rounds(0);
    let state = game0.start(names(2)).unwrap();
    assert_eq!(game0.prompt(&state).unwrap(), "after", "nor the first");
}

#[test]
fn a_state_inside_a_repeat_up_to_loop_resumes_identically() {
    let game = rounds(5);
    let mut state = game.start(names(2)).unwrap();
    choose(&game, &mut state, "buy");
    resumes_identically(&game, &state, &["buy", "watch", "stop buying", "end"]);
    choose(&game, &mut state, "buy");
    resumes_identically(&game, &state, &["stop buying", "end"]);
    let text = game.state_to_yaml(&state);
    assert!(text.contains("up_to:"), "{text}");
}

/// Way Out West's three "up to n, then done" loops (buy_cattle, hire_cowboys,
/// move_cowboys) keep a `stop` flag. Written as `repeat: { up_to }` they play the same
/// games: the rewrite is done here on the parsed ruleset, and seeded random games of
/// both must give the same logs and outcomes.
#[test]
fn way_out_wests_stop_flag_loops_are_repeat_up_to_loops() {
    let mut src = source(&workspace().join("rulesets/way-out-west"));
    let mut doc: serde_yaml::Value = serde_yaml::from_str(&src.text).unwrap();
    let mut rewritten = 0;
    for name in ["buy_cattle", "hire_cowboys", "move_cowboys"] {
        let body = doc["procedures"][name]["do"].as_sequence_mut().unwrap();
        // - let: { stop: false }
        // - for_each: { i: "range(1, n)" }
        //   do: [ if: "not stop[ and guard]", then: [ choose (…, done if i > 1: set stop) ] ]
        if body
            .first()
            .and_then(|s| s.get("let"))
            .and_then(|l| l.get("stop"))
            .is_none()
        {
            continue; // already written without the flag
        }
        let for_each = body[1].clone();
        assert_eq!(for_each["for_each"]["i"].as_str(), Some("range(1, n)"));
        let guard = &for_each["do"][0];
        let cond = guard["if"].as_str().unwrap().trim();
        let rest = cond.strip_prefix("not stop").unwrap().trim_start();
        let mut choose = guard["then"][0].clone();
        let options = choose["choose"]["options"].as_sequence_mut().unwrap();
        let done = options.pop().unwrap();
        assert_eq!(done["label"].as_str(), Some("done"));
        assert_eq!(done["if"].as_str(), Some("i > 1"));
        let mut up_to = serde_yaml::Mapping::new();
        up_to.insert("up_to".into(), "n".into());
        up_to.insert("as".into(), "i".into());
        if let Some(guard) = rest.strip_prefix("and ") {
            up_to.insert("while".into(), guard.into());
        }
        up_to.insert("at_least".into(), 1.into());
        let mut repeat = serde_yaml::Mapping::new();
        repeat.insert("repeat".into(), serde_yaml::Value::Mapping(up_to));
        repeat.insert("do".into(), serde_yaml::Value::Sequence(vec![choose]));
        *body = vec![serde_yaml::Value::Mapping(repeat)];
        rewritten += 1;
    }
    if rewritten == 0 {
        return; // the shipped ruleset uses repeat: { up_to } itself: its snapshots pin it
    }
    assert_eq!(rewritten, 3);
    src.text = serde_yaml::to_string(&doc).unwrap();
    let flagged = load_ruleset("way-out-west");
    let looped = load_source(&src).unwrap_or_else(|e| panic!("{e}"));
    for players in 3..=5 {
        for seed in [1, 2, 3, 2024] {
            let a = play_random(&flagged, players, seed, Recording::StepsAndLog);
            let b = play_random(&looped, players, seed, Recording::StepsAndLog);
            assert_eq!(a.log, b.log, "{players}p seed {seed}");
            assert_eq!(a.outcome, b.outcome);
            assert!(
                a.log.iter().any(|l| l.ends_with(": done")),
                "{players}p seed {seed}: some loop ends with done"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// for: over several lists

const PAIRS: &str = r#"
name: pairs
players: 2
state:
  picked: { init: 0 }
play:
  - choose:
      who: "players[0]"
      options:
        - label: "first"
        - label: "{a}-{b}"
          for: { a: "range(1, 2)", b: players }
          if: "a != 2 or b != players[0]"
          do:
            - set: { picked: "a * 10 + (if b == players[0] then 1 else 2)" }
        - label: "seat {p}"
          for: { p: players }
        - label: "{x}..{y}"
          for: { x: "range(1, 3)", y: "range(x, 3)", z: "[0]" }
          do:
            - set: { picked: "100 * x + 10 * y + z" }
  - choose: { who: "players[0]", prompt: "after", options: [{ label: "end" }] }
ranking: { score: "0" }
"#;

#[test]
fn an_option_over_several_lists_is_offered_per_combination_the_first_list_outermost() {
    let game = game(PAIRS);
    let state = game.start(names(2)).unwrap();
    assert_eq!(
        options(&game, &state),
        [
            "first", "1-p1", "1-p2", "2-p2", "seat p1", "seat p2", "1..1", "1..2", "1..3", "2..2",
            "2..3", "3..3"
        ],
        "in order, filtered by if:, and a later list may read the names before it"
    );
    let mut s = state.clone();
    choose(&game, &mut s, "2-p2");
    assert_eq!(
        var(&game, &s, "picked", ""),
        22,
        "both names are bound in do:"
    );
    let mut s = state.clone();
    choose(&game, &mut s, "2..3");
    assert_eq!(var(&game, &s, "picked", ""), 230);
    resumes_identically(&game, &state, &["1-p2", "end"]);
}

#[test]
fn a_decision_with_options_over_several_lists_plays_and_resumes() {
    let game = game(PAIRS);
    let state = game.start(names(2)).unwrap();
    let labels = options(&game, &state);
    for (i, label) in labels.iter().enumerate() {
        let mut s = state.clone();
        let mut log = Vec::new();
        game.apply(&mut s, Choice::Option(i), &mut Journal::on(&mut log))
            .unwrap();
        assert_eq!(log, [format!("p1: {label}")]);
        assert!(matches!(game.status(&s), Status::Decision { .. }));
    }
}

/// What one step logs is bounded (`MAX_LOG_BYTES`, 1 MiB): a ruleset logging large texts
/// in a loop would otherwise fill the memory of whoever keeps the log. Here 2,000 lines of
/// 1,000 bytes: lines 1 to 1,048 fit (1,048,000 bytes), line 1,049 passes 1,048,576 by 424
/// and keeps its first 576 bytes with a note, the rest are left out. The next step logs
/// again.
#[test]
fn one_step_logs_at_most_a_mebibyte() {
    let long = "x".repeat(1_000);
    let text = format!(
        "frontier: 1\nname: loud\nplayers: 2\nstate:\n  n: {{ init: 0 }}\nplay:\n  - while: \"n < 2000\"\n    do:\n      - log: \"{long}\"\n      - add: {{ n: 1 }}\n  - choose:\n      who: \"players[0]\"\n      options:\n        - label: again\n          do:\n            - log: \"{long}\"\nranking:\n  score: \"n\"\n"
    );
    let game =
        load_source(&text_source("loud", "ruleset.yaml", text)).unwrap_or_else(|e| panic!("{e}"));
    let mut log = Vec::new();
    let mut state = game
        .start_logged(names(2), &mut Journal::on(&mut log))
        .unwrap();
    assert_eq!(
        var(&game, &state, "n", ""),
        2_000,
        "the loop ran to its end"
    );
    assert_eq!(log.len(), 1_049);
    assert!(log[..1_048].iter().all(|line| *line == long));
    assert_eq!(
        log[1_048],
        format!(
            "{}… (this step's log stops here: it passed 1048576 bytes)",
            &long[..576]
        )
    );
    let mut next = Vec::new();
    game.apply(&mut state, Choice::Option(0), &mut Journal::on(&mut next))
        .unwrap();
    assert_eq!(next, ["p1: again".to_string(), long]);
}
