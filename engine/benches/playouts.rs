//! `cargo bench -p frontier-engine --bench playouts`: the seeded random playouts of
//! `frontier-tests`' playout benches (the same games, the same counters), stepped by the
//! walker alone and with the engine's compiled code.

use divan::Bencher;
use frontier_engine::CompiledGame;
use frontier_interpreter::agent::{Agent, RandomAgent};
use frontier_interpreter::{runner, Choice, CompiledCode, Game, GameRng, Journal, Status};
use frontier_tests::playouts::{cycle_games, SAMPLES};
use frontier_tests::{load_ruleset, names};

fn main() {
    divan::main();
}

/// What steps a game.
enum Stepper<'a> {
    Walker,
    Compiled(&'a dyn CompiledCode),
}

/// One seeded random playout, as `frontier bench` plays it; its decisions.
fn play(game: &Game, players: usize, seed: u64, stepper: &Stepper) -> u64 {
    let mut state = game.start(names(players)).expect("start");
    let mut agents: Vec<RandomAgent> = (0..players)
        .map(|p| RandomAgent::new(GameRng::derived(seed, p as u64 + 1)))
        .collect();
    let mut rng = GameRng::new(seed);
    let mut decisions = 0;
    loop {
        let choice = match game.status(&state) {
            Status::Over(_) => return decisions,
            Status::Decision { player, .. } => {
                decisions += 1;
                let view = game.view(&state).expect("a view");
                Choice::Option(agents[player as usize].decide(&view).expect("a choice"))
            }
            Status::Chance(c) => runner::sample_chance(&state, c, &mut rng),
        };
        let journal = &mut Journal::off();
        match stepper {
            Stepper::Walker => game.apply(&mut state, choice, journal),
            Stepper::Compiled(code) => game.apply_with(&mut state, choice, journal, *code),
        }
        .expect("the step applies");
    }
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

#[divan::bench(args = GAMES, sample_count = SAMPLES, sample_size = 1)]
fn walker(bencher: Bencher, which: &str) {
    let (game, players) = game(which);
    cycle_games(bencher, |seed| play(&game, players, seed, &Stepper::Walker));
}

#[divan::bench(args = GAMES, sample_count = SAMPLES, sample_size = 1)]
fn compiled(bencher: Bencher, which: &str) {
    let (game, players) = game(which);
    let code = CompiledGame::new(&game).expect("it compiles");
    cycle_games(bencher, |seed| {
        play(&game, players, seed, &Stepper::Compiled(&code))
    });
}
