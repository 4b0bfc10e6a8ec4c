//! What the playout benches share (`tests/benches/playouts.rs`): the
//! games they time, and the loop that times them.

use divan::counter::{CyclesCount, ItemsCount};
use divan::Bencher;
use frontier_interpreter::GameRng;

/// Distinct games a playout bench cycles through.
pub const GAMES: u64 = 64;
/// Games timed per playout bench, one a sample: each of the `GAMES` games four times, so
/// every run times the same games.
pub const SAMPLES: u32 = 4 * GAMES as u32;

/// The seed of game `i`, as `frontier bench` seeds its games.
pub fn game_seed(i: u64) -> u64 {
    GameRng::derived(7, 1_000_003 + i).next_u64()
}

/// Times `play` (one whole game of that seed, giving its decision count) over the
/// `GAMES` games in turn, with the counters every playout bench carries.
pub fn cycle_games(bencher: Bencher, play: impl Fn(u64) -> u64) {
    // Each game's decision count, found before timing by playing it once.
    let games: Vec<(u64, u64)> = (0..GAMES)
        .map(|i| (game_seed(i), play(game_seed(i))))
        .collect();
    let mut next = 0;
    bencher
        .with_inputs(|| {
            let g = games[next % games.len()];
            next += 1;
            g
        })
        .counter(CyclesCount::new(1u64))
        .input_counter(|&(_, decisions)| ItemsCount::new(decisions))
        .bench_local_values(|(seed, _)| play(seed));
}
