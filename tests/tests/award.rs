//! The `award:`, `match:` and `return:` statements on tests/cases/award: presences 4, 4,
//! 2, 0 and money 1, 2, 3, 4.

use frontier_interpreter::trace::evaluate;
use frontier_interpreter::Value;
use frontier_tests::*;

#[test]
fn prizes_by_place_with_each_tie_rule() {
    let game =
        load_source(&source(&workspace().join("tests/cases/award"))).expect("the ruleset loads");
    let (_, end) = random_game(&game, 4, 1, frontier_interpreter::runner::Recording::Counts);
    let values = |var: &str| -> Vec<Value> {
        (1..=4)
            .map(|p| evaluate(&game, &end, &format!("{var}[p{p}]")).unwrap())
            .collect()
    };
    let ints = |v: &[i64]| v.iter().map(|n| Value::Int(*n)).collect::<Vec<_>>();
    // share: p1 and p2 tied first pool 5 + 3 and take 4 each; p3 third takes 1; p4 may not place.
    assert_eq!(values("shared"), ints(&[4, 4, 1, 0]));
    // each: p1 and p2 take the first prize, 5; p3 is third: 1.
    assert_eq!(values("each"), ints(&[5, 5, 1, 0]));
    // next-key: money breaks the tie, p2 (2) before p1 (1); p3 third; p4 (presence 0, no
    // `only` here) fourth: no prize left.
    assert_eq!(values("broken"), ints(&[3, 5, 1, 0]));
    // match on presences 4, 4, 2, 0: the cases 4 and 2, and else.
    assert_eq!(values("matched"), ints(&[40, 40, 20, -1]));
    // kind is build: the second case.
    assert_eq!(evaluate(&game, &end, "picked").unwrap(), Value::Int(2));
    // The richest, with 4, is p4: richest_with returned it in the middle of its loop.
    assert_eq!(evaluate(&game, &end, "richest").unwrap(), Value::Player(3));
}
