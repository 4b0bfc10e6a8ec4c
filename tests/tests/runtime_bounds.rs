//! The bounds a running game is held to, each a reproduction of the hardening issue: the
//! work budget (expressions, built-ins, functions, scripts and their operations counted in
//! one countdown between two decisions), the options one decision lists, the lists and
//! texts expressions build, the `calls` ceiling, `repeat: { up_to }` at its largest and
//! the messages that misnamed what went wrong. tests/README.md maps each reproduction to
//! its test.

use frontier_interpreter::model::{Game, Limits};
use frontier_interpreter::{Choice, Journal, RulesetSource, Value};
use frontier_tests::*;

/// A two-player ruleset with `play` and the given scripts (file `s.rhai`).
fn ruleset(play: &str, script: &str) -> RulesetSource {
    let text = format!(
        "frontier: 1\nname: probe\nplayers: 2\nstate:\n  who: {{ type: player, init: \"players[0]\" }}\n  v: {{ init: 0 }}\nplay:\n{play}\nranking:\n  score: \"v\"\n"
    );
    let mut src = text_source("probe", "ruleset.yaml", text);
    if !script.is_empty() {
        src.scripts.push(("s.rhai".into(), script.into()));
    }
    src
}

fn loaded(src: &RulesetSource) -> Game {
    load_source(src).unwrap_or_else(|e| panic!("does not load:\n{e}"))
}

/// The error that starting the game stops with.
fn start_error(game: &Game) -> String {
    game.start(names(2))
        .expect_err("the game must stop with a runtime error")
        .to_string()
}

fn assert_contains(text: &str, wanted: &str) {
    assert!(
        text.contains(wanted),
        "\n  {text}\ndoes not contain\n  {wanted}"
    );
}

const WORK_SPENT: &str = "steps of work without a decision or a chance point";

/// A script called once per element of a list of 100,001: each call and each of its
/// operations is a step of the one budget, so a script that itself loops stops there
/// (100,001 calls of 199,999 operations ran for hours).
#[test]
fn a_script_called_per_element_counts_its_operations_in_the_work_budget() {
    let src = ruleset(
        r#"  - set: { v: "count_if(range(0, 100000), x => busy(x) > 0)" }"#,
        "fn busy(game, x) { let n = 0; for i in 0..19000 { n += 1; } n }",
    );
    let err = start_error(&loaded(&src));
    assert_contains(&err, "ruleset.yaml:8:5");
    assert_contains(&err, "script s.rhai, function busy");
    assert_contains(&err, WORK_SPENT);
    // The same script called a few times stays far within the budget.
    let few = ruleset(
        r#"  - set: { v: "count_if(range(1, 10), x => busy(x) > 0)" }"#,
        "fn busy(game, x) { let n = 0; for i in 0..19000 { n += 1; } n }",
    );
    let game = loaded(&few);
    let state = game.start(names(2)).unwrap();
    assert_eq!(var(&game, &state, "v", ""), 10);
}

/// A script reading a long zone in a loop: each value the game handle converts is a step.
#[test]
fn a_script_reading_the_game_counts_the_values_converted() {
    let text = "frontier: 1\nname: probe\nplayers: 2\nzones:\n  pile: { of: players, init: \"map(range(1, 10000), x => players[0])\" }\nstate:\n  v: { init: 0 }\nplay:\n  - set: { v: \"reads()\" }\nranking:\n  score: \"v\"\n";
    let mut src = text_source("probe", "ruleset.yaml", text);
    src.scripts.push((
        "s.rhai".into(),
        "fn reads(game) { let n = 0; for i in 0..5000 { n += game.pile.len(); } n }".into(),
    ));
    let err = start_error(&loaded(&src));
    assert_contains(&err, "script s.rhai, function reads");
    assert_contains(&err, WORK_SPENT);
}

/// 32 functions each calling the next twice: 2³¹ calls, stopped by the budget.
#[test]
fn functions_that_each_call_the_next_twice_stop_at_the_work_budget() {
    let mut functions = String::from("functions:\n");
    for i in 0..31 {
        functions.push_str(&format!(
            "  f{i}: {{ params: {{ n: int }}, returns: int, value: \"f{}(n) + f{}(n + 1)\" }}\n",
            i + 1,
            i + 1
        ));
    }
    functions.push_str("  f31: { params: { n: int }, returns: int, value: \"n + v\" }\n");
    let text = format!(
        "frontier: 1\nname: probe\nplayers: 2\nstate:\n  v: {{ init: 0 }}\n{functions}play:\n  - set: {{ v: \"f0(v)\" }}\nranking:\n  score: \"v\"\n"
    );
    let err = start_error(&loaded(&text_source("probe", "ruleset.yaml", text)));
    assert_contains(&err, WORK_SPENT);
}

/// The budget is one for everything between two decisions: many statements each within
/// it add up; after the decision, the count starts again (and a failed evaluation leaves
/// nothing behind for the next one).
#[test]
fn the_work_budget_is_shared_by_a_run_and_starts_again_at_each_decision() {
    // Each `set` reads 60,001 numbers twice (range, then count_if): about 120,000 steps.
    let play = r#"  - repeat: 3
    do:
      - set: { v: "count_if(range(0, 60000), x => x >= v)" }
  - choose: { who: who, options: [ { label: "go" } ] }
  - repeat: 3
    do:
      - set: { v: "count_if(range(0, 60000), x => x >= v)" }
  - choose: { who: who, options: [ { label: "go" } ] }"#;
    let src = ruleset(play, "");
    let limits = |work: u64| {
        let mut limits = Limits::default();
        limits.set("work", work).unwrap();
        limits
    };
    // Within 400,000 steps: three statements before each decision fit.
    let game =
        frontier_interpreter::load_with_params(&src, &resolve, &[], limits(400_000)).unwrap();
    let mut state = game.start(names(2)).unwrap();
    // v: 60,001 numbers are ≥ 0, then none is ≥ 60,001, then 60,001 again.
    assert_eq!(var(&game, &state, "v", ""), 60_001);
    game.apply(&mut state, Choice::Option(0), &mut Journal::off())
        .expect("the second run has its own budget");
    assert_eq!(var(&game, &state, "v", ""), 0);
    // Within 300,000 steps, the third statement of the first run is past it.
    let game =
        frontier_interpreter::load_with_params(&src, &resolve, &[], limits(300_000)).unwrap();
    let err = start_error(&game);
    assert_contains(&err, "more than 300000 steps of work");
    // An expression evaluated outside a run starts its own count, whatever came before.
    let state = frontier_interpreter::load_with_params(&src, &resolve, &[], limits(400_000))
        .unwrap()
        .start(names(2))
        .unwrap();
    let game =
        frontier_interpreter::load_with_params(&src, &resolve, &[], limits(400_000)).unwrap();
    for _ in 0..5 {
        assert_eq!(
            eval(
                &game,
                &state,
                "count_if(range(0, 60000), x => x >= v - 60001)"
            ),
            Value::Int(60_001)
        );
    }
}

/// `sleep` is not offered to scripts: calling it is an error naming the script, at once.
#[test]
fn sleep_is_an_unknown_function_in_scripts() {
    let src = ruleset(
        r#"  - set: { v: "nap()" }"#,
        "fn nap(game) { sleep(1000); 1 }",
    );
    let started = std::time::Instant::now();
    let err = start_error(&loaded(&src));
    assert!(started.elapsed().as_secs() < 5, "the script slept");
    assert_contains(&err, "script s.rhai, function nap");
    assert_contains(&err, "sleep");
}

/// A script returning an array of arrays is an error naming it (it was flattened).
#[test]
fn a_script_returning_an_array_of_arrays_is_an_error() {
    let src = ruleset(
        r#"  - let: { x: "nested()" }
  - set: { v: "len(x)" }"#,
        "fn nested(game) { [[1, 2], [3]] }",
    );
    let err = start_error(&loaded(&src));
    assert_contains(&err, "ruleset.yaml:8:5");
    assert_contains(
        &err,
        "script s.rhai, function nested: returned an array holding an array",
    );
}

/// A `choose` over the product of two lists of 100,000: refused at the 100,001st option,
/// before the product is built (it took 3.2 GB and aborted).
#[test]
fn a_decision_listing_more_options_than_the_limit_is_an_error() {
    let play = r#"  - choose:
      who: who
      options:
        - label: "o{i} {j}"
          for: { i: "range(1, 100000)", j: "range(1, 100000)" }"#;
    let err = start_error(&loaded(&ruleset(play, "")));
    assert_contains(&err, "ruleset.yaml:8:5");
    assert_contains(&err, "more than 100000 options for one decision");
    // One list of 100,000 is listed.
    let play = r#"  - choose:
      who: who
      options:
        - label: "o{i}"
          for: { i: "range(1, 100000)" }"#;
    let game = loaded(&ruleset(play, ""));
    let state = game.start(names(2)).unwrap();
    assert!(matches!(
        game.status(&state),
        frontier_interpreter::Status::Decision {
            options: 100_000,
            ..
        }
    ));
}

/// A `let` list doubled 64 times stops at the most elements a list holds, before the
/// list is made (it aborted on a 2.4 GB allocation); a text doubled likewise.
#[test]
fn lists_and_texts_built_by_expressions_are_bounded() {
    let play = r#"  - let: { l: "range(1, 100000)" }
  - repeat: 64
    do: [ { set: { l: "concat(l, l)" } } ]"#;
    let err = start_error(&loaded(&ruleset(play, "")));
    assert_contains(&err, "ruleset.yaml:10:5");
    assert_contains(
        &err,
        "concat: a list of 1600000 elements; a list holds at most 1000000",
    );
    let play = r#"  - let: { t: "text(range(1, 1000))" }
  - repeat: 64
    do: [ { set: { t: "text(t, t)" } } ]"#;
    let err = start_error(&loaded(&ruleset(play, "")));
    assert_contains(&err, "text: more than 1000000 bytes");
    // Many locals each holding a long list: 800,000 elements in `l` and in each of 11
    // more is 9,600,000; the 12th is past the 10,000,000 the locals hold together.
    let copies: String = (1..=13)
        .map(|i| format!("\n  - let: {{ b{i}: \"l\" }}"))
        .collect();
    let play = format!(
        r#"  - let: {{ l: "range(1, 100000)" }}
  - repeat: 3
    do: [ {{ set: {{ l: "concat(l, l)" }} }} ]{copies}"#
    );
    let err = start_error(&loaded(&ruleset(&play, "")));
    assert_contains(&err, "play[13].let.b12");
    assert_contains(
        &err,
        "the locals would hold more than 10000000 list elements and text bytes together",
    );
}

/// `--limit calls=` has a ceiling; below it, a procedure recursing without end stops at
/// the limit (its frames live on the state's stack, not the thread's).
#[test]
fn the_calls_limit_has_a_ceiling_and_deep_recursion_stays_off_the_stack() {
    let mut limits = Limits::default();
    assert_eq!(
        limits.set("calls", 1_000_000_000).unwrap_err(),
        "limit calls: at most 1000000"
    );
    limits.set("calls", 1_000_000).unwrap();
    limits.set("statements", 100_000_000).unwrap();
    let text = "frontier: 1\nname: rec\nplayers: 2\nstate: { v: 0 }\nprocedures:\n  r: [ { add: { v: 1 } }, { if: \"v > 0\", then: [ { call: r } ] } ]\nplay:\n  - call: r\nranking: { score: \"0\" }\n";
    let src = text_source("rec", "ruleset.yaml", text);
    let game = frontier_interpreter::load_with_params(&src, &resolve, &[], limits).unwrap();
    let err = start_error(&game);
    assert_contains(&err, "calls nested more than 1000000 deep");
}

/// `repeat: { up_to: 65535 }`, the largest count, runs its 65,535 rounds (the round
/// counter wrapped at the last one and the loop never ended).
#[test]
fn repeat_up_to_its_largest_count_ends() {
    let play = r#"  - repeat: { up_to: 65535, at_least: 65535, as: i }
    do:
      - set: { v: "i" }
      - choose: { who: who, options: [ { label: "go" } ] }
  - choose: { who: who, options: [ { label: "end" } ] }"#;
    let game = loaded(&ruleset(play, ""));
    let mut state = game.start(names(2)).unwrap();
    for _ in 0..65_535 {
        assert_eq!(options(&game, &state), ["go"]);
        game.apply(&mut state, Choice::Option(0), &mut Journal::off())
            .unwrap();
    }
    assert_eq!(var(&game, &state, "v", ""), 65_535);
    assert_eq!(options(&game, &state), ["end"], "no 65,536th round");
}

/// `x % -1` is 0 for every x, −2⁶³ included (its quotient overflows, not its remainder).
#[test]
fn the_remainder_of_the_smallest_number_by_minus_one_is_zero() {
    let game = loaded(&ruleset(
        r#"  - choose: { who: who, options: [ { label: "end" } ] }"#,
        "",
    ));
    let state = game.start(names(2)).unwrap();
    assert_eq!(
        eval(&game, &state, "(-9223372036854775807 - 1) % -1"),
        Value::Int(0)
    );
    assert_eq!(eval(&game, &state, "-7 % -1"), Value::Int(0));
    assert_eq!(eval(&game, &state, "-7 % 3"), Value::Int(2));
}

/// A list's elements are no operators: 300 of them load; of different types, the message
/// says so and names both.
#[test]
fn list_elements_are_not_operators_and_mixed_elements_are_named() {
    let ones = vec!["1"; 300].join(", ");
    let game = loaded(&ruleset(
        &format!("  - set: {{ v: \"len([{ones}])\" }}\n  - choose: {{ who: who, options: [ {{ label: \"end\" }} ] }}"),
        "",
    ));
    let state = game.start(names(2)).unwrap();
    assert_eq!(var(&game, &state, "v", ""), 300);
    let err = load_source(&ruleset(r#"  - let: { x: "[1, true]" }"#, ""))
        .expect_err("a list of a number and true/false")
        .to_string();
    assert_contains(
        &err,
        "the list's elements differ in type: a number and true/false",
    );
    assert!(!err.contains("branches"), "{err}");
}
