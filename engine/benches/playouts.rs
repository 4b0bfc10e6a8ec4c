//! `cargo bench -p frontier-engine --bench playouts`: the seeded random playouts of
//! `frontier-tests`' playout benches (the same games, the same counters), stepped by the
//! walker alone and with the engine's compiled code.

use divan::Bencher;
use frontier_engine::CompiledGame;
use frontier_interpreter::runner::Recording;
use frontier_interpreter::{Game, Stepper};
use frontier_tests::playouts::{cycle_games, SAMPLES};
use frontier_tests::{load_ruleset, play_random_stepped};

fn main() {
    divan::main();
}

/// The rulesets and player counts of `frontier bench`'s comparisons.
const GAMES: &[&str] = &[
    "go-west 4p",
    "way-out-west 5p",
    "circle-the-wagons 2p",
    "gold-west 4p",
    "grand-junction 7p",
];

/// The ruleset and player count a bench argument names.
fn game(which: &str) -> (Game, usize) {
    let (ruleset, players) = which.split_once(' ').expect("a ruleset and a count");
    let players = players.trim_end_matches('p').parse().expect("a count");
    (load_ruleset(ruleset), players)
}

/// One seeded random playout, as `frontier bench` plays it; its decisions.
fn play(stepper: Stepper, players: usize, seed: u64) -> u64 {
    play_random_stepped(stepper, players, seed, Recording::Counts).decisions
}

#[divan::bench(args = GAMES, sample_count = SAMPLES, sample_size = 1)]
fn walker(bencher: Bencher, which: &str) {
    let (game, players) = game(which);
    cycle_games(bencher, |seed| play(Stepper::walker(&game), players, seed));
}

#[divan::bench(args = GAMES, sample_count = SAMPLES, sample_size = 1)]
fn compiled(bencher: Bencher, which: &str) {
    let (game, players) = game(which);
    let code = CompiledGame::new(&game).expect("it compiles");
    cycle_games(bencher, |seed| {
        play(Stepper::compiled(&game, &code), players, seed)
    });
}
