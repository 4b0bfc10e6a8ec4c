//! Tables with a hex geometry: neighbours, components, on_edge, distance. Expected values
//! are worked out by hand in the comments from the board's neighbour rule
//! (shared/games/gold-west.md): (x, y±1); for even x also (x±1, y) and (x±1, y+1); for odd
//! x also (x±1, y-1) and (x±1, y).

use frontier_interpreter::trace::evaluate;
use frontier_interpreter::Value;
use frontier_tests::*;

/// The value of `expr` against the hexes of tests/cases/hex, as row ids.
fn ids(expr: &str) -> String {
    ids_in("hex", expr)
}

/// The value of `expr` against the ruleset tests/cases/`case`, as row ids.
fn ids_in(case: &str, expr: &str) -> String {
    let game = load_source(&source(&workspace().join("tests/cases").join(case)))
        .expect("the ruleset loads");
    let state = game.initial_state(names(2)).unwrap();
    let value = evaluate(&game, &state, expr).unwrap_or_else(|e| panic!("{e}"));
    fn write(game: &frontier_interpreter::Game, v: &Value) -> String {
        match v {
            Value::List(items) => format!(
                "[{}]",
                items
                    .iter()
                    .map(|i| write(game, i))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
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
        (
            "on_edge(hexes[\"c\"], filter(hexes, h => h.id != \"c\" and not h.water))",
            "no",
        ),
        (
            "on_edge(hexes[\"r4\"], filter(hexes, h => not h.water))",
            "yes",
        ),
        // (-1,0) → (0,0) → (1,1) → (2,1) → (2,2).
        ("distance(hexes[\"w-1\"], hexes[\"r0\"])", "4"),
        ("distance(hexes[\"c\"], hexes[\"c\"])", "0"),
        // The ring without r3 (0,1) and r0 (2,2) falls in two: r1–r2 and r4–r5.
        (
            "components([hexes[\"r1\"], hexes[\"r2\"], hexes[\"r4\"], hexes[\"r5\"]])",
            "[[r1 r2] [r4 r5]]",
        ),
        // Without r3 everything is still one group, listed as reached from the first hex:
        // w-1 → w0; w0 → w1, r4 (r3 left out); w1 → w2; r4 → r5, c; r5 → r0; c → r1, r2.
        (
            "components(filter(hexes, h => h.id != \"r3\"))",
            "[[w-1 w0 w1 r4 w2 r5 c r0 r1 r2]]",
        ),
        (
            "components(filter(hexes, h => h.water))",
            "[[w-1 w0 w1 w2]]",
        ),
        (
            "components(filter(hexes, h => h.water or h.id == \"r1\"))",
            "[[w-1 w0 w1 w2] [r1]]",
        ),
        // The water row (-1,0) (0,0) (1,0) (2,0) zigzags: (-1,0) odd → lower right (0,0);
        // (0,0) even → upper right (1,0)… no straight line holds more than 2 of them:
        // (-1,0)–(0,0) lower right, (0,0)–(1,0) upper right, (1,0)–(2,0) lower right.
        (
            "lines(filter(hexes, h => h.water))",
            "[[w-1 w0] [w1 w2] [w0 w1]]",
        ),
        // The centre's column: r4 (1,1), c (1,2), r1 (1,3) straight down.
        (
            "lines([hexes[\"r4\"], hexes[\"c\"], hexes[\"r1\"]])",
            "[[r4 c r1]]",
        ),
    ];
    for (expr, expected) in cases {
        assert_eq!(ids(expr), expected, "{expr}");
    }
}

#[test]
fn scripts_read_the_same_geometry() {
    let cases = [
        // As neighbours(hexes["c"]) above.
        ("script_neighbours(\"c\")", "[r4 r5 r0 r1 r2 r3]"),
        ("script_distance(\"w-1\", \"r0\")", "4"),
        // Without r3 the centre still touches the other five ring hexes: one group of 6.
        ("land_groups_without(\"r3\")", "[6]"),
        // Without the centre the ring r0..r5 is still a closed ring: one group of 6.
        ("land_groups_without(\"c\")", "[6]"),
        // No gap: all 7 land hexes.
        ("land_groups_without(\"none\")", "[7]"),
        // One line, as the text of its ids.
        ("script_lines([\"r4\", \"c\", \"r1\"])", "[r4 c r1]"),
        ("script_on_edge(\"r2\")", "yes"),
        ("script_on_edge(\"c\")", "no"),
    ];
    for (expr, expected) in cases {
        assert_eq!(ids(expr), expected, "{expr}");
    }
    let game = load_source(&source(&workspace().join("tests/cases/hex"))).unwrap();
    let state = game.initial_state(names(2)).unwrap();
    let err = evaluate(&game, &state, "script_neighbours(\"r9\")").unwrap_err();
    assert!(err.contains("no row 'r9' in hexes"), "{err}");
}

#[test]
fn axial_coordinates() {
    let cases = [
        // Clockwise from above: n (0,-1), ne (1,-1), se (1,0), s (0,1), sw (-1,1), nw (-1,0).
        ("neighbours(@o)", "[n ne se s sw nw]"),
        // ne (1,-1): above (1,-2) absent, upper right (2,-2) far, lower right (2,-1) absent,
        // below (1,0) se, lower left (0,0) o, upper left (0,-1) n.
        ("neighbours(@ne)", "[far se o n]"),
        // (0,0) to (2,-2): q +2, r -2, s 0: 2 steps.
        ("distance(@o, @far)", "2"),
        ("distance(@sw, @far)", "3"),
        // The upper-right diagonal through the centre: sw (-1,1), o, ne (1,-1), far (2,-2).
        ("lines([@sw, @o, @ne, @far])", "[[sw o ne far]]"),
        ("on_edge(@o)", "no"),
        ("on_edge(@n)", "yes"),
    ];
    for (expr, expected) in cases {
        assert_eq!(ids_in("hex-axial", expr), expected, "{expr}");
    }
}

#[test]
fn listed_neighbours() {
    let cases = [
        ("neighbours(@b)", "[a c]"),
        ("neighbours(@d)", "[]"),
        ("distance(@a, @c)", "2"),
        ("components(towns)", "[[a b c] [d]]"),
    ];
    for (expr, expected) in cases {
        assert_eq!(ids_in("hex-listed", expr), expected, "{expr}");
    }
    let game = load_source(&source(&workspace().join("tests/cases/hex-listed"))).unwrap();
    let state = game.initial_state(names(2)).unwrap();
    let err = evaluate(&game, &state, "distance(@a, @d)").unwrap_err();
    assert!(err.contains("distance: no path joins a and d"), "{err}");
}

#[test]
fn index_of_a_table_is_the_row_number() {
    // The optimizer reads `index_of(hexes, h)` as h's row number: the same answers as a
    // search of the list, rows counted from 0 in table order (w-1 first, c 11th).
    let cases = [
        ("index_of(hexes, @w-1)", "0"),
        ("index_of(hexes, @c)", "10"),
        ("index_of(filter(hexes, h => not h.water), @c)", "6"),
        ("index_of(take(hexes, 3), @c)", "-1"),
        ("index_of(take(hexes, 3), @w1)", "2"),
        ("index_of(hexes, first(filter(hexes, h => h.x > 9)))", "-1"),
    ];
    for (expr, expected) in cases {
        assert_eq!(ids(expr), expected, "{expr}");
    }
}

/// tests/cases/grid: `squares` is 7 wide and 6 high, with 8 neighbours; `small` is 3 × 3
/// with 4. Directions count clockwise from up: up, up right, right, down right, down,
/// down left, left, up left (with 4: up, right, down, left).
#[test]
fn square_grids() {
    let cases = [
        // Row by row from the bottom: a1 b1 … g1 a2 …; 42 squares, g6 last.
        ("len(squares)", "42"),
        ("first(squares)", "a1"),
        ("last(squares)", "g6"),
        ("at(squares, 3, 2)", "d3"),
        ("at(squares, 3, 2).x * 10 + at(squares, 3, 2).y", "32"),
        // a1's neighbours clockwise from above: a2, b2, b1 (the others are off the grid).
        ("neighbours(squares[\"a1\"])", "[a2 b2 b1]"),
        ("neighbours(squares[\"b2\"])", "[b3 c3 c2 c1 b1 a1 a2 a3]"),
        ("step(squares[\"a1\"], 0)", "a2"),
        ("step(squares[\"a1\"], 6)", "none"),
        // Up right from d4 (3, 3): e5, f6, then the top edge.
        ("ray(squares[\"d4\"], 1)", "[e5 f6]"),
        ("ray(squares[\"d4\"], 6)", "[c4 b4 a4]"),
        ("ray(squares[\"g6\"], 0)", "[]"),
        ("on_edge(squares[\"a1\"])", "yes"),
        ("on_edge(squares[\"c3\"])", "no"),
        // Two steps with corners: a1 → b2 → c2.
        ("distance(squares[\"a1\"], squares[\"c2\"])", "2"),
        // Fours in a row: 6 rows × 4 + 7 columns × 3 + 2 diagonal directions × 12 = 69.
        ("len(lines(squares, 4))", "69"),
        // The first is the bottom row's first four. Down-right lines start in the left
        // column or the top row, listed by where their first square stands (a2 … a6,
        // then b6 … along the top): the last with four squares starts at d6.
        ("first(lines(squares, 4))", "[a1 b1 c1 d1]"),
        ("last(lines(squares, 4))", "[d6 e5 f4 g3]"),
        // Sides only: b2 touches b3, c2, b1, a2; 3 rows and 3 columns of three.
        ("neighbours(small[\"b2\"])", "[b3 c2 b1 a2]"),
        ("step(small[\"b2\"], 3)", "a2"),
        ("len(lines(small, 3))", "6"),
        ("distance(small[\"a1\"], small[\"c3\"])", "4"),
        ("lines(filter(small, it.y == 0))", "[[a1 b1 c1]]"),
        // Functions of a position and of a square.
        ("mirrored(pos(2, -1))", "(-1,2)"),
        ("nearest(squares[\"f5\"])", "g6"),
        ("nearest(squares[\"g6\"])", "g6"),
    ];
    for (expr, expected) in cases {
        assert_eq!(ids_in("grid", expr), expected, "{expr}");
    }
    let game = load_source(&source(&workspace().join("tests/cases/grid"))).unwrap();
    let state = game.initial_state(names(2)).unwrap();
    for (expr, error) in [
        ("at(squares, 7, 0)", "at: squares has no cell at (7, 0)"),
        (
            "step(small[\"b2\"], 4)",
            "step: direction 4: the cells of small have directions 0 to 3",
        ),
        ("ray(squares[\"a1\"], -1)", "ray: direction -1"),
    ] {
        let message = evaluate(&game, &state, expr).unwrap_err();
        assert!(message.contains(error), "{expr}: {message}");
    }
}

#[test]
fn grid_tables_are_declared_whole() {
    let load = |grid: &str| {
        let text = format!("name: g\nplayers: 1\ntables:\n  t:\n    {grid}\nplay: [end_game]\nranking: {{ score: \"0\" }}\n");
        load_source(&text_source("g.yaml", "g.yaml", text))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    for (grid, error) in [
        (
            "grid: { width: 27, height: 2 }",
            "tables.t.grid.width: expected a whole number from 1 to 26",
        ),
        (
            "grid: { width: 2, height: 0 }",
            "tables.t.grid.height: expected a whole number from 1 to 99",
        ),
        (
            "grid: { width: 2, height: 2, neighbours: 6 }",
            "squares touch by a side (4) or by a side or a corner (8)",
        ),
        (
            "grid: { width: 2, height: 2, size: 3 }",
            "unknown key 'size'",
        ),
        (
            "{ grid: { width: 2, height: 2 }, rows: [a] }",
            "tables.t.rows: a grid table has no rows",
        ),
    ] {
        let message = load(grid);
        assert!(message.contains(error), "{grid}: {message}");
    }
}
