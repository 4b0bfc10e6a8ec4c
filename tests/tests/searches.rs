//! Searches the optimizer rewrites into cheaper ones give the values the rulebook-free
//! definitions give: a filter of a table by a column equal to a key (read through an
//! index of the rows), `x in zone` (searched in place), and counts compared with 0 or 1
//! (searches that stop at the first match), parts of per-element arguments that do not
//! read the element (computed once, when first needed), an option condition
//! specialized for each row of its list, searches and totals over a table's rows
//! unrolled into one copy of their per-element argument per row, and maps over constant
//! lists written out, which a search reads up to its first match. Every expected value is worked out by hand
//! from tests/cases/searches/ruleset.yaml, in the comments.

use frontier_interpreter::trace::evaluate;
use frontier_tests::*;

/// Evaluates each expression at the first decision (after setup; 3 players) and compares
/// its text (booleans read yes/no).
fn check(cases: &[(&str, &str)]) {
    let game =
        load_source(&source(&workspace().join("tests/cases/searches"))).expect("the ruleset loads");
    let state = game.start(names(3)).unwrap();
    for (expr, expected) in cases {
        let value = evaluate(&game, &state, expr).unwrap_or_else(|e| panic!("{expr}: {e}"));
        assert_eq!(game.value_text(&value, state.names()), *expected, "{expr}");
    }
}

#[test]
fn a_filter_by_a_column_equal_to_a_key_keeps_the_rows_in_table_order() {
    check(&[
        // Each town's towns above it: dodge is above abilene, deadwood above dodge.
        (
            "map(towns, t => len(filter(towns, u => u.below == t)))",
            "1 1 0 0",
        ),
        (
            "map(towns, t => len(filter(towns, u => t == u.below)))",
            "1 1 0 0",
        ),
        // pick is none: the towns with nothing below, abilene and tombstone, in order.
        ("filter(towns, u => u.below == pick)", "abilene tombstone"),
        // The markets of dodge that someone owns: only dodge-gold (p2).
        (
            "map(towns, t => len(filter(markets, m => m.town == t and owner[m] != none)))",
            "1 1 1 0",
        ),
        // Markets by town, in table order: cattle before gold.
        (
            "map(towns, t => first(filter(markets, m => m.town == t)))",
            "abilene-cattle dodge-cattle deadwood-cattle tombstone-cattle",
        ),
        (
            "map(towns, t => last(filter(markets, m => m.town == t)))",
            "abilene-gold dodge-gold deadwood-gold tombstone-gold",
        ),
    ]);
}

#[test]
fn every_row_of_a_table_indexed_by_position_is_that_row_and_back() {
    // markets in order: abilene-cattle 0, abilene-gold 1, dodge-cattle 2, dodge-gold 3,
    // deadwood-cattle 4, … tombstone-gold 7; money: p1 10, p2 4, p3 10.
    check(&[
        ("markets[money[p2]]", "deadwood-cattle"),
        ("markets[money[p2] + 3]", "tombstone-gold"),
    ]);
    // And the other way: a row's number among every row of its table; -1 for none.
    check(&[
        ("index_of(markets, markets[money[p2]])", "4"),
        ("index_of(towns, pick)", "-1"),
    ]);
    let game =
        load_source(&source(&workspace().join("tests/cases/searches"))).expect("the ruleset loads");
    let state = game.start(names(3)).unwrap();
    let error = evaluate(&game, &state, "markets[money[p1]]").unwrap_err();
    assert!(
        error.contains("position 10 is outside a list of 8"),
        "{error}"
    );
}

#[test]
fn counts_and_searches_over_an_index_match_their_definitions() {
    check(&[
        // p1 owns abilene-cattle and deadwood-gold; p2 owns dodge-gold.
        ("map(towns, t => count_if(markets, m => m.town == t and owner[m] == p1))", "1 0 1 0"),
        ("map(towns, t => any(markets, m => m.town == t and owner[m] == p2))", "no yes no no"),
        // A key two lambdas out: for each player, the towns where they own a market.
        ("map(players, p => len(filter(towns, t => any(markets, m => m.town == t and owner[m] == p))))", "2 1 0"),
        // Gold markets owned: dodge-gold and deadwood-gold.
        ("count_if(markets, m => m.good == @gold and owner[m] != none)", "2"),
    ]);
}

#[test]
fn parts_of_a_per_element_argument_that_do_not_read_the_element_are_computed_when_needed() {
    check(&[
        // money: p1 10, p2 4, p3 10: the richest are p1 and p3.
        ("filter(players, p => money[p] == max(players, q => money[q]))", "p1 p3"),
        // Nested: for each player, how many have less than the richest minus p's money.
        ("map(players, p => count_if(players, q => money[q] < max(players, r => money[r]) - money[p]))", "0 1 0"),
        // The part divides by money[p2] - 4 = 0, but no player has more than 100, so it
        // is never needed: no error.
        ("any(players, p => money[p] > 100 and max(players, q => money[q] / (money[p2] - 4)) > 0)", "no"),
    ]);
}

#[test]
fn membership_and_counts_against_zero_are_searches() {
    check(&[
        // herd: abilene [p1], dodge [p2, p1], deadwood and tombstone empty.
        ("map(towns, t => p1 in herd[t])", "yes yes no no"),
        ("map(towns, t => p2 in herd[t])", "no yes no no"),
        ("map(towns, t => count(herd[t], p2) > 0)", "no yes no no"),
        ("map(towns, t => count(herd[t], p1) == 0)", "no no yes yes"),
        // money: p1 10, p2 4, p3 10.
        ("count_if(players, money[it] > 5) > 0", "yes"),
        ("count_if(players, money[it] > 10) == 0", "yes"),
        ("count_if(players, money[it] < 5) >= 1", "yes"),
        ("count_if(players, money[it] < 4) != 0", "no"),
        // `in` over a filtered list reads it element by element.
        ("p2 in filter(players, money[it] > 5)", "no"),
        ("p3 in filter(players, money[it] > 5)", "yes"),
    ]);
}

#[test]
fn a_negation_folded_into_its_test_gives_the_same_value() {
    check(&[
        // money: p1 10, p2 4, p3 10; pick is none; herd: abilene [p1].
        ("not (money[p2] < 5)", "no"),
        ("not (money[p1] < 5)", "yes"),
        ("not (money[p2] <= 4)", "no"),
        ("not (money[p2] > 4)", "yes"),
        ("not (money[p2] >= 5)", "yes"),
        ("not (money[p2] == 4)", "no"),
        ("not (money[p2] != 4)", "yes"),
        ("not (pick == none)", "no"),
        ("not (pick != none)", "yes"),
        ("not (p1 == p2)", "yes"),
        ("not (not (money[p1] > 5))", "yes"),
        ("map(towns, t => not (p1 in herd[t]))", "no no yes yes"),
    ]);
}

#[test]
fn option_conditions_and_filters_specialized_per_row_list_the_same_options() {
    let game =
        load_source(&source(&workspace().join("tests/cases/searches"))).expect("the ruleset loads");
    let state = game.start(names(3)).unwrap();
    // open_market(m): a gold market nobody owns, or a cattle market of a town with more
    // than 4 spaces while p2 has less than 5 (p2 has 4). Owned: abilene-cattle (p1),
    // dodge-gold (p2), deadwood-gold (p1). Spaces: abilene 4, dodge 6, deadwood 5,
    // tombstone 3. So: abilene-cattle no (4 spaces), abilene-gold yes, dodge-cattle yes,
    // dodge-gold no (owned), deadwood-cattle yes, deadwood-gold no (owned),
    // tombstone-cattle no (3 spaces), tombstone-gold yes.
    // Then the filtered lists. Markets p1 owns: abilene-cattle and deadwood-gold. Towns
    // with cattle: abilene (4 spaces) and dodge (6); of these only dodge has more than 4.
    assert_eq!(
        game.option_labels(&state).unwrap(),
        [
            "market abilene-gold",
            "market dodge-cattle",
            "market deadwood-cattle",
            "market tombstone-gold",
            "sell abilene-cattle",
            "sell deadwood-gold",
            "herd in dodge"
        ]
    );
}

#[test]
fn searches_and_totals_unrolled_over_a_tables_rows_match_their_definitions() {
    // Towns (spaces, below): abilene (4, none), dodge (6, abilene), deadwood (5, dodge),
    // tombstone (3, none). herd: abilene [p1], dodge [p2, p1], the others empty.
    check(&[
        // p1 has cattle in abilene and dodge, p2 in dodge, p3 nowhere.
        ("map(players, p => herds_of(p))", "2 1 0"),
        // p1: 1 in abilene (4) + 1 in dodge (6) = 10; p2: 1 in dodge = 6; p3: 0.
        ("map(players, p => spaces_of_cattle(p))", "10 6 0"),
        // abilene and tombstone have nothing below; below dodge is abilene (1 cattle),
        // below deadwood is dodge (2).
        ("all_open()", "yes"),
        // Herd sizes 1, 2, 0, 0. For abilene one town has more (dodge), for dodge none,
        // for deadwood and tombstone two each (abilene, dodge): 1 + 0 + 2 + 2.
        ("fewer_cattle_pairs()", "5"),
        // With cattle: abilene (4 spaces) and dodge (6): one has more than 4.
        ("herded_and_large()", "1"),
        // Without cattle: deadwood (5) and tombstone (3), both fewer than 6.
        ("empty_and_small()", "yes"),
        ("map(players, p => empty_with(p))", "no no no"),
        // abilene 4 + dodge 6.
        ("herd_spaces()", "10"),
        // abilene has 4 spaces: the search stops there, before 1 / (4 - 4).
        ("stops_at_abilene()", "yes"),
    ]);
}

#[test]
fn an_unrolled_search_fails_where_the_call_would() {
    let game =
        load_source(&source(&workspace().join("tests/cases/searches"))).expect("the ruleset loads");
    let state = game.start(names(3)).unwrap();
    // abilene has 4 spaces, not 6: its second test divides by p2's money - 4 = 0.
    let error = evaluate(&game, &state, "divides_at_abilene()").unwrap_err();
    assert!(error.contains("division by zero"), "{error}");
    // 1 (abilene) + 9223372036854775807 (dodge): the sum's own message.
    let error = evaluate(&game, &state, "sum_past_max()").unwrap_err();
    assert!(
        error.contains("sum: 1 + 9223372036854775807 is outside the whole numbers"),
        "{error}"
    );
}

#[test]
fn a_search_of_a_map_reads_it_up_to_the_first_match() {
    check(&[
        // herd: abilene [p1], dodge [p2, p1], deadwood and tombstone empty. p1 has cattle
        // in abilene and dodge, not deadwood: 2 in a row; p2 not in abilene: 0.
        ("map(players, p => herd_run(p))", "2 0 0"),
        // p1's money is 10: 10 / 1 matches at once, and 10 / 0 is never computed, in the
        // function (its map written out) as in a query (the map read element by element).
        ("stops_at_ten()", "0"),
        ("index_of(map([1, 0], k => money[p1] / k), 10)", "0"),
        (
            "index_of(concat(map(range(1, 2), k => money[p1] / k), [money[p1] / 0]), 5)",
            "1",
        ),
        // A range is counted, a concat read list after list: p1's 10 is third of 8 to
        // 12, p2's 4 after 1, 2, 3.
        ("index_of(range(8, 12), money[p1])", "2"),
        ("index_of(concat(range(1, 3), [money[p2]]), 4)", "3"),
    ]);
    let game =
        load_source(&source(&workspace().join("tests/cases/searches"))).expect("the ruleset loads");
    let state = game.start(names(3)).unwrap();
    // No 7: every element is computed, and 10 / 0 fails.
    let error = evaluate(
        &game,
        &state,
        "index_of(map([1, 0], k => money[p1] / k), 7)",
    )
    .unwrap_err();
    assert!(error.contains("division by zero"), "{error}");
}

/// What a seeded random game of tests/cases/lists did: its log and the labels of each
/// decision, then its outcome or the error that stopped it.
fn lists_game(game: &frontier_interpreter::Game, seed: u64) -> (Vec<String>, String) {
    use frontier_interpreter::agent::{Agent, RandomAgent};
    use frontier_interpreter::{Choice, GameRng, Journal, Status};
    let mut log = Vec::new();
    let mut state = game
        .start_logged(names(2), &mut Journal::on(&mut log))
        .expect("start");
    let mut agent = RandomAgent::new(GameRng::derived(seed, 1));
    loop {
        match game.status(&state) {
            Status::Over(outcome) => return (log, format!("{:?}", outcome.scores)),
            Status::Decision { .. } => {
                log.push(game.option_labels(&state).expect("labels").join(", "));
                let view = game.view(&state).expect("a view");
                let i = agent.decide(&view).expect("a choice");
                if let Err(e) =
                    game.apply(&mut state, Choice::Option(i), &mut Journal::on(&mut log))
                {
                    return (log, e.to_string());
                }
            }
            Status::Chance(_) => panic!("no chance in lists"),
        }
    }
}

#[test]
fn lists_written_out_play_the_same_games_with_and_without_the_optimizer() {
    use frontier_interpreter::{load_with, Optimizer};
    let src = source(&workspace().join("tests/cases/lists"));
    let [fast, plain] = [Optimizer::On, Optimizer::Off].map(|o| {
        load_with(
            &src,
            &|_| Err("no extends".into()),
            &[],
            Default::default(),
            o,
        )
        .expect("the ruleset loads")
    });
    let mut errors = 0;
    for seed in 0..200 {
        let (a, b) = (lists_game(&fast, seed), lists_game(&plain, seed));
        assert_eq!(a, b, "seed {seed}");
        errors += a.1.contains("division by zero") as u32;
    }
    // Some games probe at level 2 and stop there, the others play to the end.
    assert!((1..150).contains(&errors), "{errors} of 200 games stopped");
}
