//! `cargo bench -p frontier-native`: the seeded random playouts of `frontier-tests`'
//! playout benches (the same games, the same counters), played by native code.

use divan::Bencher;
use frontier_interpreter::native::RandomSeats;
use frontier_interpreter::roster::AgentSpec;
use frontier_interpreter::runner::MAX_STEPS;
use frontier_interpreter::GameRng;
use frontier_tests::load_ruleset;
use frontier_tests::playouts::{cycle_games, SAMPLES};

fn main() {
    divan::main();
}

/// The same games played by Go West's native code (`frontier-native`), as `frontier
/// bench` plays them by default.
#[divan::bench(sample_count = SAMPLES, sample_size = 1)]
fn go_west_4p_native(bencher: Bencher) {
    let game = load_ruleset("go-west");
    let native = frontier_native::find(&game).expect("go-west has native code");
    let random = AgentSpec::parse("random").expect("the random agent");
    let names: Vec<String> = (1..=4).map(|p| format!("p{p}")).collect();
    cycle_games(bencher, |seed| {
        let seats = (0..4)
            .map(|seat| {
                random
                    .random_stream(seed, seat)
                    .expect("a random agent's stream")
            })
            .collect();
        let (record, _) = native
            .play(
                &game,
                names.clone(),
                GameRng::new(seed),
                RandomSeats(seats),
                MAX_STEPS,
            )
            .expect("the native code plays every bench game");
        record.decisions
    });
}
