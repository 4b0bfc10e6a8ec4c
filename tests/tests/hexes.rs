//! Tables with a hex geometry: neighbours, components, on_edge, distance. Expected values
//! are worked out by hand in the comments from the board's neighbour rule
//! (shared/games/gold-west.md): (x, y±1); for even x also (x±1, y) and (x±1, y+1); for odd
//! x also (x±1, y-1) and (x±1, y).

use frontier_interpreter::trace::evaluate;
use frontier_interpreter::Value;
use frontier_tests::*;

/// The value of `expr` against the hexes of tests/cases/hex, as row ids.
fn ids(expr: &str) -> String {
    let game = load_source(&source(&workspace().join("tests/cases/hex"))).expect("the ruleset loads");
    let state = game.initial_state(names(2)).unwrap();
    let value = evaluate(&game, &state, expr).unwrap_or_else(|e| panic!("{e}"));
    fn write(game: &frontier_interpreter::Game, v: &Value) -> String {
        match v {
            Value::List(items) => format!("[{}]", items.iter().map(|i| write(game, i)).collect::<Vec<_>>().join(" ")),
            other => game.value_text(other, &[]),
        }
    }
    write(&game, &value)
}

#[test]
fn hex_geometry() {
    let cases = [
        // The centre (1,2), odd column: above (1,1), right (2,1) (2,2), below (1,3), left
        // (0,2) (0,1): its whole ring, clockwise from above.
        ("neighbours(hexes[\"c\"])", "[r4 r5 r0 r1 r2 r3]"),
        // r4 (1,1): above (1,0), right (2,0) (2,1), below (1,2), left (0,1) (0,0).
        ("neighbours(hexes[\"r4\"])", "[w1 w2 r5 c r3 w0]"),
        // r2 (0,2), even column: above (0,1), right (1,2) (1,3); below and left are off the map.
        ("neighbours(hexes[\"r2\"])", "[r3 c r1]"),
        ("on_edge(hexes[\"r2\"])", "yes"),
        ("on_edge(hexes[\"c\"])", "no"),
        // Among the ring alone the centre has all 6 neighbours; among the land, r4 has r5,
        // c and r3 only.
        ("on_edge(hexes[\"c\"], filter(hexes, h => h.id != \"c\" and not h.water))", "no"),
        ("on_edge(hexes[\"r4\"], filter(hexes, h => not h.water))", "yes"),
        // (-1,0) → (0,0) → (1,1) → (2,1) → (2,2).
        ("distance(hexes[\"w-1\"], hexes[\"r0\"])", "4"),
        ("distance(hexes[\"c\"], hexes[\"c\"])", "0"),
        // The ring without r3 (0,1) and r0 (2,2) falls in two: r1–r2 and r4–r5.
        ("components([hexes[\"r1\"], hexes[\"r2\"], hexes[\"r4\"], hexes[\"r5\"]])", "[[r1 r2] [r4 r5]]"),
        // Without r3 everything is still one group, listed as reached from the first hex:
        // w-1 → w0; w0 → w1, r4 (r3 left out); w1 → w2; r4 → r5, c; r5 → r0; c → r1, r2.
        ("components(filter(hexes, h => h.id != \"r3\"))", "[[w-1 w0 w1 r4 w2 r5 c r0 r1 r2]]"),
        ("components(filter(hexes, h => h.water))", "[[w-1 w0 w1 w2]]"),
        ("components(filter(hexes, h => h.water or h.id == \"r1\"))", "[[w-1 w0 w1 w2] [r1]]"),
        // The water row (-1,0) (0,0) (1,0) (2,0) zigzags: (-1,0) odd → lower right (0,0);
        // (0,0) even → upper right (1,0)… no straight line holds more than 2 of them:
        // (-1,0)–(0,0) lower right, (0,0)–(1,0) upper right, (1,0)–(2,0) lower right.
        ("lines(filter(hexes, h => h.water))", "[[w-1 w0] [w1 w2] [w0 w1]]"),
        // The centre's column: r4 (1,1), c (1,2), r1 (1,3) straight down.
        ("lines([hexes[\"r4\"], hexes[\"c\"], hexes[\"r1\"]])", "[[r4 c r1]]"),
    ];
    for (expr, expected) in cases {
        assert_eq!(ids(expr), expected, "{expr}");
    }
}
