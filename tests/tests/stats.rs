//! `stats:` (docs/rulesets.md): expressions of the final state and counters, read at the
//! end of a game for results, and shown nowhere in play.

use frontier_interpreter::agent::{Agent, RandomAgent};
use frontier_interpreter::rng::GameRng;
use frontier_interpreter::runner::{self, Recording};
use frontier_interpreter::{Game, State, Value};
use frontier_tests::*;

fn finished(game: &Game, players: usize, seed: u64) -> State {
    let state = game.start(names(players)).unwrap();
    let mut agents: Vec<Box<dyn Agent>> = (0..players)
        .map(|p| Box::new(RandomAgent::new(GameRng::derived(seed, p as u64 + 1))) as Box<dyn Agent>)
        .collect();
    runner::run(
        game,
        state,
        &mut GameRng::new(seed),
        &mut agents,
        Recording::Counts,
        runner::MAX_STEPS,
    )
    .unwrap()
    .1
}

#[test]
fn go_west_says_how_its_games_ended() {
    let game = load_ruleset("go-west");
    let mut wagons = 0;
    for seed in 0..12 {
        let end = finished(&game, 3, seed);
        let stats = game.stats(&end).unwrap();
        assert_eq!(
            stats.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
            ["ended_by_wagons", "reached_target_vp"]
        );
        let (Value::Bool(by_wagons), Value::Bool(target)) = (&stats[0].1, &stats[1].1) else {
            panic!("{stats:?}")
        };
        // Every game ends one of the two ways.
        assert!(*by_wagons || *target, "seed {seed}: neither");
        wagons += usize::from(*by_wagons);
    }
    assert!(wagons > 0);
}

#[test]
fn a_counter_counts_for_results_only() {
    let game = load_ruleset("way-out-west");
    let end = finished(&game, 3, 2024);
    let stats = game.stats(&end).unwrap();
    assert_eq!(stats[0].0, "showdowns");
    let Value::Int(showdowns) = stats[0].1 else {
        panic!("{stats:?}")
    };
    assert!(
        showdowns > 0,
        "a random game of Way Out West without a showdown"
    );
    // Not in the state shown, nor among the state in the description (which lists it
    // with the statistics); kept in positions.
    assert!(!game.render_state(&end, None).contains("showdowns"));
    let described = game.describe();
    let state = described
        .split("\nstate:\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .expect("a state section");
    assert!(!state.contains("showdowns"), "{state}");
    assert!(described.contains("\nstatistics (read at the end of each game, for results: simulate, balance):\n  showdowns (a counter) — showdowns fought"), "{described}");
    let position = game.state_to_yaml(&end);
    assert!(
        position.contains(&format!("showdowns: {showdowns}")),
        "{position}"
    );
    let back = game.state_from_yaml(&position).unwrap();
    assert_eq!(game.stats(&back).unwrap()[0].1, Value::Int(showdowns));
}
