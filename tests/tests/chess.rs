//! Chess's move generation against the published perft counts (the number of move
//! sequences of each length; chessprogramming.org, "Perft Results"): from the initial
//! position and from the standard test positions, written as position files in
//! rulesets/chess/traces/positions/. The normal run counts the shallow depths; `cargo
//! test -- --ignored` counts to depth 5 from the start and to depth 4 or 5 elsewhere.

use frontier_interpreter::perft::perft;
use frontier_interpreter::{Game, State, Stepper};
use frontier_tests::*;

fn chess() -> Game {
    load_ruleset("chess")
}

fn position(game: &Game, name: &str) -> State {
    let path = workspace()
        .join("rulesets/chess/traces/positions")
        .join(format!("{name}.yaml"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    game.state_from_yaml(&text)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Each start (the initial position, or a position file) and its published counts from
/// depth 1.
const PUBLISHED: &[(&str, &[u64])] = &[
    ("start", &[20, 400, 8_902, 197_281, 4_865_609]),
    ("perft-kiwipete", &[48, 2_039, 97_862, 4_085_603]),
    ("perft-position3", &[14, 191, 2_812, 43_238, 674_624]),
    ("perft-position4", &[6, 264, 9_467, 422_333]),
    ("perft-position4-mirrored", &[6, 264, 9_467, 422_333]),
    ("perft-position5", &[44, 1_486, 62_379, 2_103_487]),
    ("perft-position6", &[46, 2_079, 89_890, 3_894_594]),
];

fn check(deepest: usize) {
    let game = chess();
    let stepper = Stepper::walker(&game);
    for (start, counts) in PUBLISHED {
        let state = match *start {
            "start" => game.start(names(2)).unwrap(),
            file => position(&game, file),
        };
        for (depth, expected) in counts.iter().enumerate().take(deepest) {
            let depth = depth as u32 + 1;
            assert_eq!(
                perft(stepper, &state, depth),
                Ok(*expected),
                "{start}, depth {depth}"
            );
        }
    }
}

#[test]
fn perft_matches_the_published_counts_at_shallow_depths() {
    check(2);
}

#[test]
#[ignore = "minutes in a debug build: cargo test --release -- --ignored chess"]
fn perft_matches_the_published_counts_to_depth_five() {
    check(5);
}
