//! Connect four written twice (tests/rulesets/connect-four-natural and
//! connect-four-nested): the same game but for the win test, written the natural way
//! (map/concat/index_of over a range) in one and with nested `if`s in the other. Seeded
//! random games must go the same way in both, decision by decision; hand-written
//! positions (drawn below, the top level first) must end as worked out by hand.

use frontier_interpreter::agent::{Agent, RandomAgent};
use frontier_interpreter::{Choice, Game, GameRng, Journal, Outcome, State, Status, Value};
use frontier_tests::*;

const ENCODINGS: [&str; 2] = ["connect-four-natural", "connect-four-nested"];

fn game(name: &str) -> Game {
    load_source(&source(&workspace().join("tests/rulesets").join(name)))
        .unwrap_or_else(|e| panic!("{name} does not load:\n{e}"))
}

/// What one seeded random game of `game` did: each decision's player, option labels and
/// choice, the game's log, and its outcome.
#[derive(Debug, PartialEq)]
struct Played {
    decisions: Vec<(u8, Vec<String>, usize)>,
    log: Vec<String>,
    outcome: Outcome,
}

/// A game between random agents, seeded as `frontier bench` seeds them.
fn play(game: &Game, seed: u64) -> Played {
    let mut log = Vec::new();
    let mut state = game
        .start_logged(names(2), &mut Journal::on(&mut log))
        .expect("start");
    let mut agents: Vec<RandomAgent> = (0..2)
        .map(|p| RandomAgent::new(GameRng::derived(seed, p + 1)))
        .collect();
    let mut decisions = Vec::new();
    loop {
        match game.status(&state) {
            Status::Over(outcome) => {
                return Played {
                    decisions,
                    log,
                    outcome: outcome.clone(),
                }
            }
            Status::Decision { player, .. } => {
                let labels = game.option_labels(&state).expect("labels render");
                let view = game.view(&state).expect("a decision has a view");
                let i = agents[player as usize].decide(&view).expect("a choice");
                decisions.push((player, labels, i));
                game.apply(&mut state, Choice::Option(i), &mut Journal::on(&mut log))
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            }
            Status::Chance(_) => panic!("connect four has no chance"),
        }
    }
}

#[test]
fn both_encodings_play_the_same_games() {
    let [natural, nested] = ENCODINGS.map(game);
    let (mut wins, mut draws) = ([0; 2], 0);
    for i in 0..300 {
        let seed = frontier_tests::playouts::game_seed(i);
        let (a, b) = (play(&natural, seed), play(&nested, seed));
        assert_eq!(a, b, "seed {seed}: the encodings part");
        match a.outcome.winners().as_slice() {
            [w] => wins[*w] += 1,
            _ => draws += 1,
        }
    }
    // Both players win some of them: each win test is exercised for either colour.
    assert!(wins[0] > 50 && wins[1] > 50, "wins {wins:?}, draws {draws}");
}

/// A position of both encodings drawn as the grid is seen, the top level first: `R` is
/// red's piece, `Y` yellow's, `.` an empty cell; red moves first, so the player to move
/// is red when both have as many pieces, else yellow.
fn position(game: &Game, grid: [&str; 6]) -> State {
    let (mut owner, mut filled, mut moves, mut reds) = (Vec::new(), [0; 7], 0, 0);
    for (row, line) in grid.iter().enumerate() {
        let level = 6 - row;
        for (x, c) in line.split(' ').enumerate() {
            let column = (b'a' + x as u8) as char;
            let piece = match c {
                "R" => "red",
                "Y" => "yellow",
                _ => continue,
            };
            owner.push(format!("{column}-l{level}: {piece}"));
            filled[x] += 1;
            moves += 1;
            reds += (piece == "red") as i64;
        }
    }
    let filled: Vec<String> = filled
        .iter()
        .enumerate()
        .map(|(x, n)| format!("{}: {n}", (b'a' + x as u8) as char))
        .collect();
    let active = if reds * 2 == moves { "red" } else { "yellow" };
    let vars = format!(
        "  owner: {{ {} }}\n  filled: {{ {} }}\n  moves: {moves}\n  active: {active}",
        owner.join(", "),
        filled.join(", ")
    );
    frontier_tests::position(game, "red, yellow", &vars, "  {}")
}

/// Drops a piece in `column` (a to g) in the position `grid`, in both encodings: the
/// scores after it (red's, yellow's) when the game ended, none when it goes on.
fn drop_in(grid: [&str; 6], column: &str) -> Option<[i64; 2]> {
    let ends = ENCODINGS.map(|name| {
        let game = game(name);
        let mut state = position(&game, grid);
        choose(&game, &mut state, &format!("drop {column}"));
        match game.status(&state) {
            Status::Over(outcome) => Some([outcome.scores[0], outcome.scores[1]]),
            _ => None,
        }
    });
    assert_eq!(ends[0], ends[1], "the encodings part");
    ends[0]
}

const RED_WINS: Option<[i64; 2]> = Some([1, 0]);
const YELLOW_WINS: Option<[i64; 2]> = Some([0, 1]);

#[test]
fn a_vertical_four_wins() {
    // Red has a1, a2, a3: a on top of them is a4, four in column a.
    let grid = [
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        "R . . . . . .",
        "R Y . . . . .",
        "R Y Y . . . .",
    ];
    assert_eq!(drop_in(grid, "a"), RED_WINS);
    // b lands on b3: red has only a1 to a3 below-left of it, and nothing in line.
    assert_eq!(drop_in(grid, "b"), None);
}

#[test]
fn a_rising_diagonal_four_wins() {
    // Red has a1, b2, c3; d holds three pieces, so red's d lands on d4: a1 b2 c3 d4.
    let grid = [
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . R Y . . .",
        ". R Y R . . .",
        "R Y Y Y . . R",
    ];
    assert_eq!(drop_in(grid, "d"), RED_WINS);
    // e lands on e1: it joins d2 and c3 on a falling diagonal, three (b4 is empty).
    assert_eq!(drop_in(grid, "e"), None);
}

#[test]
fn a_falling_diagonal_four_wins_for_the_second_player() {
    // Yellow (to move: red has one piece more) has e1, d2, c3; b holds three pieces, so
    // yellow's b lands on b4: b4 c3 d2 e1, falling from left to right.
    let grid = [
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". Y Y . . . .",
        ". R R Y . . .",
        ". R R R Y . .",
    ];
    assert_eq!(drop_in(grid, "b"), YELLOW_WINS);
    // a lands on a1, beside red's b1: nothing.
    assert_eq!(drop_in(grid, "a"), None);
}

#[test]
fn a_horizontal_four_counts_both_ways_from_the_last_piece() {
    // Red has a1, b1 and d1: c fills the gap, two to its left and one to its right.
    let grid = [
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        "Y Y . Y . . .",
        "R R . R . . .",
    ];
    assert_eq!(drop_in(grid, "c"), RED_WINS);
    // e makes a, b, d, e: four of red's on level 1, but not in a row.
    assert_eq!(drop_in(grid, "e"), None);
}

#[test]
fn a_full_grid_without_four_is_a_draw() {
    // 41 pieces, none four in a row (checked line by line when this was written): red
    // has 21, yellow 20 and drops the last one, on a6. It makes no four: its neighbours
    // on the lines through a6 (b6 to the right, a5 below, b5 down the falling diagonal)
    // are all red's.
    let grid = [
        ". R Y R Y Y Y",
        "R R Y Y R R R",
        "R Y R Y R Y Y",
        "R R Y Y R R Y",
        "Y R R R Y Y R",
        "R Y Y Y R Y R",
    ];
    assert_eq!(drop_in(grid, "a"), Some([0, 0]));
    let game = game(ENCODINGS[0]);
    let mut state = position(&game, grid);
    choose(&game, &mut state, "drop a");
    let Status::Over(outcome) = game.status(&state) else {
        panic!("the grid is full: the game is over");
    };
    assert_eq!(
        outcome.ranks,
        vec![1, 1],
        "a draw: both share the first place"
    );
}

#[test]
fn the_win_test_reads_the_grid_around_the_last_piece() {
    // The function itself, in both encodings, on the rising diagonal's grid with red's
    // piece on d4: run(x, y, dx, dy, p) counts p's pieces beyond (x, y), up to 3.
    let grid = [
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . R Y . . .",
        ". R Y R . . .",
        "R Y Y Y . . R",
    ];
    for name in ENCODINGS {
        let game = game(name);
        let state = position(&game, grid);
        let cases = [
            // Down-left of d4 (x 3, level 3): c3, b2, a1 are red's.
            ("run(3, 3, -1, -1, red)", 3),
            // Up-right of d4: off the grid after e5, which is empty.
            ("run(3, 3, 1, 1, red)", 0),
            // Down from d4: d3 is yellow's.
            ("run(3, 3, 0, -1, red)", 0),
            // Left along level 1 from d1 (x 3, level 0): c1, b1 yellow's, a1 red's.
            ("run(3, 0, -1, 0, yellow)", 2),
            // Right of g1: off the grid at once.
            ("run(6, 0, 1, 0, red)", 0),
        ];
        for (expr, expected) in cases {
            assert_eq!(
                eval(&game, &state, expr),
                Value::Int(expected),
                "{name}: {expr}"
            );
        }
        assert_eq!(
            eval(&game, &state, "four_at(3, 3, red)"),
            Value::Bool(true),
            "{name}"
        );
        assert_eq!(
            eval(&game, &state, "four_at(4, 0, red)"),
            Value::Bool(false),
            "{name}"
        );
    }
}
