//! Functions of a ruleset (`functions:`): called from statements, from other functions,
//! from the ranking and from trace-style queries. Expected values are worked out by hand
//! in the comments, from tests/cases/functions/ruleset.yaml.

use frontier_interpreter::trace::evaluate;
use frontier_interpreter::Value;
use frontier_tests::*;

fn game() -> frontier_interpreter::Game {
    load_source(&source(&workspace().join("tests/cases/functions"))).expect("the ruleset loads")
}

#[test]
fn functions_compute_from_their_arguments() {
    let game = game();
    // Before play: setup put p1's cowboy in Abilene, built 3 lots of Dodge, took 4 from p2.
    let mut state = game.initial_state(names(3)).unwrap();
    let cases = [
        // Dodge: 6 spaces, none built yet in the initial state.
        ("free_spaces(towns[\"dodge\"])", Value::Int(6)),
        // 5 corrals, nobody in Abilene yet.
        ("free_corrals(towns[\"abilene\"])", Value::Int(5)),
        // min(4 - 0, 5 - 0) = 4.
        ("room(towns[\"abilene\"])", Value::Int(4)),
        // Everybody has 10: nobody is richer than p1.
        ("richer(p1)", Value::Int(0)),
    ];
    for (expr, expected) in &cases {
        assert_eq!(evaluate(&game, &state, expr).unwrap(), *expected, "{expr}");
    }
    state.ints_mut()[game.var("money").unwrap().1.base + 1] = 6;
    // p2 has 6, p1 and p3 have 10: two players are richer than p2, who is the poorest.
    assert_eq!(
        evaluate(&game, &state, "richer(p2)").unwrap(),
        Value::Int(2)
    );
    assert_eq!(
        evaluate(&game, &state, "poorest()").unwrap(),
        Value::Player(1)
    );
}

#[test]
fn statements_and_the_ranking_call_functions() {
    let game = game();
    let (record, end) = random_game(&game, 3, 1, frontier_interpreter::runner::Recording::Counts);
    // Setup: p1 in Abilene's herd, Dodge built 3 of 6, p2 pays 4 (10 → 6).
    // Play: p1 gains room(Dodge) = min(6 - 3, 5 - 0) = 3 → 13.
    assert_eq!(evaluate(&game, &end, "money[p1]").unwrap(), Value::Int(13));
    // Scores are money + richer: p1 13 + 0, p2 6 + 2, p3 10 + 1.
    assert_eq!(record.outcome.scores, vec![13, 8, 11]);
}

#[test]
fn lambdas_name_their_element_and_reach_outer_ones() {
    let game = game();
    let mut state = game.initial_state(names(3)).unwrap();
    state.ints_mut()[game.var("money").unwrap().1.base + 1] = 6;
    // money: p1 10, p2 6, p3 10.
    let list = |items: &[Value]| Value::list(items.to_vec());
    let (p1, p2, p3) = (Value::Player(0), Value::Player(1), Value::Player(2));
    let cases = [
        (
            "map(players, p => money[p])",
            list(&[Value::Int(10), Value::Int(6), Value::Int(10)]),
        ),
        // The players nobody is richer than: the inner lambda reads the outer one's p.
        (
            "filter(players, p => count_if(players, q => money[q] > money[p]) == 0)",
            list(&[p1.clone(), p3.clone()]),
        ),
        (
            "any(players, p => all(players, q => money[q] <= money[p]))",
            Value::Bool(true),
        ),
        // `it` is the innermost element, the name the element of its own lambda.
        (
            "filter(players, p => any(players, money[it] < money[p]))",
            list(&[p1.clone(), p3.clone()]),
        ),
        ("max(players, p => money[p])", Value::Int(10)),
        ("min(towns, t => t.spaces)", Value::Int(4)),
        // Ties go to the first: p1 before p3.
        ("argmax(players, p => money[p])", p1.clone()),
        ("argmin(players, p => money[p])", p2.clone()),
        (
            "argmax(filter(players, p => money[p] > 100), p => money[p])",
            Value::None,
        ),
        ("sum(players, p => money[p])", Value::Int(26)),
        ("sort_by(players, p => money[p])", list(&[p2, p1, p3])),
    ];
    for (expr, expected) in &cases {
        assert_eq!(evaluate(&game, &state, expr).unwrap(), *expected, "{expr}");
    }
}

#[test]
fn seats_skip_the_players_a_condition_excludes() {
    let game = game();
    let mut state = game.initial_state(names(3)).unwrap();
    state.ints_mut()[game.var("money").unwrap().1.base + 1] = 0;
    // money: p1 10, p2 0 (out of the game, say), p3 10.
    let (p1, p2, p3) = (Value::Player(0), Value::Player(1), Value::Player(2));
    let list = |items: &[Value]| Value::list(items.to_vec());
    let cases = [
        ("next_player(p1)", p2.clone()),
        ("next_player(p1, q => money[q] > 0)", p3.clone()),
        ("next_player(p3, q => money[q] > 0)", p1.clone()),
        // p1 is the only one left with more than 10: after p1 comes p1.
        (
            "next_player(p1, q => money[q] >= 10 and q != p3)",
            p1.clone(),
        ),
        ("next_player(p1, q => money[q] > 100)", Value::None),
        (
            "seats_from(p2)",
            list(&[p2.clone(), p3.clone(), p1.clone()]),
        ),
        ("seats_from(p2, q => money[q] > 0)", list(&[p3, p1])),
    ];
    for (expr, expected) in &cases {
        assert_eq!(evaluate(&game, &state, expr).unwrap(), *expected, "{expr}");
    }
}

#[test]
fn a_table_of_pairs_lists_every_ordered_pair_of_different_rows() {
    let game = game();
    let state = game.initial_state(names(2)).unwrap();
    let text = |expr: &str| game.value_text(&evaluate(&game, &state, expr).unwrap(), state.names());
    // 3 towns: 3 × 2 ordered pairs, in the towns' order.
    assert_eq!(
        text("routes"),
        "abilene--dodge abilene--deadwood dodge--abilene dodge--deadwood deadwood--abilene deadwood--dodge"
    );
    assert_eq!(text("routes[\"deadwood--dodge\"].from"), "deadwood");
    assert_eq!(text("routes[\"deadwood--dodge\"].to"), "dodge");
    assert_eq!(
        text("filter(routes, r => r.to == towns[\"abilene\"])"),
        "dodge--abilene deadwood--abilene"
    );
}

#[test]
fn a_product_table_lists_every_combination_the_first_table_outermost() {
    let game = game();
    let state = game.initial_state(names(2)).unwrap();
    let text = |expr: &str| game.value_text(&evaluate(&game, &state, expr).unwrap(), state.names());
    assert_eq!(
        text("markets"),
        "abilene-cattle abilene-gold dodge-cattle dodge-gold deadwood-cattle deadwood-gold"
    );
    assert_eq!(text("@dodge-gold.town"), "dodge");
    assert_eq!(text("@dodge-gold.good"), "gold");
    assert_eq!(
        text("filter(markets, m => m.good == @cattle and m.town.spaces > 4)"),
        "dodge-cattle deadwood-cattle"
    );
}

/// A variant's `functions:` entry replaces the base's function of that name and keeps the
/// others (before, it replaced the whole section: Go West lost `can_carry_out` and the
/// rest, and the variant did not load). Go West with `wagon_moves_left` rewritten to count
/// double: at the start 20 wagons in New England, 5 moves each, 100 moves, doubled 200.
#[test]
fn a_variant_replaces_one_function_and_keeps_the_others() {
    let text = "extends: go-west\nname: double-moves\nfunctions:\n  wagon_moves_left:\n    returns: int\n    value: \"2 * sum(regions, wagons[it] * (len(regions) - 1 - index_of(regions, it)))\"\n";
    let src = text_source("double-moves", "double-moves.yaml", text);
    let game = load_source(&src).unwrap_or_else(|e| panic!("{e}"));
    let state = game.start(names(4)).unwrap();
    assert_eq!(int(&game, &state, "wagon_moves_left()"), 200);
    // The base's other functions are still there: p1 has no token on a track yet.
    assert_eq!(int(&game, &state, "on_tracks(p1)"), 0);
}

/// `take` and `drop` cut a list built for them (by `sort_by`, `range`) in place and copy
/// a constant one, which stays whole for its next reader. Values by hand: sorted, [3, 1,
/// 2] is [1, 2, 3].
#[test]
fn take_and_drop_keep_or_skip_the_first_elements_of_any_list() {
    let game = game();
    let state = game.initial_state(names(2)).unwrap();
    let ints = |v: &[i64]| Value::list(v.iter().map(|&i| Value::Int(i)).collect());
    let cases = [
        ("take([3, 1, 2], 2)", ints(&[3, 1])),
        ("drop([3, 1, 2], 2)", ints(&[2])),
        ("take(sort_by([3, 1, 2], it), 2)", ints(&[1, 2])),
        ("drop(sort_by([3, 1, 2], it), 1)", ints(&[2, 3])),
        ("take(range(1, 5), 9)", ints(&[1, 2, 3, 4, 5])),
        ("drop(range(1, 5), 9)", ints(&[])),
        ("take(range(1, 5), -1)", ints(&[])),
        // The constant list is read whole after a take of it.
        (
            "len(take([3, 1, 2], 1)) + len([3, 1, 2])",
            Value::Int(1 + 3),
        ),
    ];
    for (expr, expected) in &cases {
        assert_eq!(evaluate(&game, &state, expr).unwrap(), *expected, "{expr}");
    }
}

#[test]
fn lets_name_a_value_for_their_body() {
    let game = game();
    let mut state = game.initial_state(names(3)).unwrap();
    state.ints_mut()[game.var("money").unwrap().1.base + 1] = 6;
    // money: p1 10, p2 6, p3 10.
    let list = |items: &[Value]| Value::list(items.to_vec());
    let (p1, p3) = (Value::Player(0), Value::Player(2));
    let int = Value::Int;
    let cases = [
        ("let n = 2 in n * n", int(4)),
        // Two players have more than p2's 6.
        (
            "let m = money[p2] in count_if(players, money[it] > m)",
            int(2),
        ),
        // Inside a per-element argument, `it` is still the element.
        (
            "filter(players, let m = money[it] in m > 6)",
            list(&[p1, p3]),
        ),
        // A lambda's name is read through a let: richer(p) + money[p] is 0 + 10, 2 + 6,
        // 0 + 10.
        (
            "map(players, p => let r = richer(p) in r + money[p])",
            list(&[int(10), int(8), int(10)]),
        ),
        // The inner x hides the outer one: (1 + 1) * 10.
        ("let x = 1 in let x = x + 1 in x * 10", int(20)),
        // A function whose body holds a let, given the caller's element: p1 and p3 (10)
        // have one player poorer than them, p2 (6) none.
        (
            "map(players, fewer_than(it))",
            list(&[int(1), int(0), int(1)]),
        ),
        // The first player with more than 6: p1; with more than 10: none.
        ("find(players, money[it] > 6)", Value::Player(0)),
        ("find(players, p => money[p] > 10)", Value::None),
        // The first with less than p1's money (a let and a lambda inside find): p2.
        (
            "let m = money[p1] in find(players, money[it] < m)",
            Value::Player(1),
        ),
        // Lets nest in a value and in the operands around them.
        ("(let a = 3 in a + 1) * (let b = 2 in b)", int(8)),
    ];
    for (expr, expected) in &cases {
        assert_eq!(evaluate(&game, &state, expr).unwrap(), *expected, "{expr}");
    }
    for (expr, error) in [
        ("let it = 1 in it", "'it' cannot be the name of a let"),
        (
            "let x = 1 in x and true",
            "expected true/false, found a number",
        ),
        ("let x = 1 in y", "unknown name 'y'"),
        (
            "find([1, 2], it > 1)",
            "find gives none when no element holds",
        ),
    ] {
        let message = evaluate(&game, &state, expr).unwrap_err();
        assert!(message.contains(error), "{expr}: {message}");
    }
}
