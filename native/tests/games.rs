//! Go West's native code (`frontier-native`) plays the games the walker plays: for
//! seeded games with random agents, the same decisions, chance draws, final state and
//! outcome.

use frontier_interpreter::agent::Agent;
use frontier_interpreter::native::RandomSeats;
use frontier_interpreter::roster::AgentSpec;
use frontier_interpreter::runner::{self, Recording};
use frontier_interpreter::GameRng;

/// Plays `games` seeded games of `name` with `players` both ways and compares them.
fn check(name: &str, players: usize, games: u64) {
    let game = frontier_tests::load_ruleset(name);
    let native = frontier_native::find(&game)
        .unwrap_or_else(|| panic!("{name} has no compiled code that fits it"));
    let names: Vec<String> = (1..=players).map(|p| format!("p{p}")).collect();
    let random = AgentSpec::parse("random").unwrap();
    for seed in 0..games {
        // The native code draws from the streams the roster says the random agents
        // (built by the roster, below) draw from.
        let seats = (0..players)
            .map(|seat| random.random_stream(seed, seat).unwrap())
            .collect();
        let (record, end) = native
            .play(
                &game,
                names.clone(),
                GameRng::new(seed),
                RandomSeats(seats),
                runner::MAX_STEPS,
            )
            .unwrap_or_else(|| {
                panic!("{name}, seed {seed}: the native code gave the game back to the walker")
            });
        let no_clock = || std::time::Duration::ZERO;
        let mut agents: Vec<Box<dyn Agent>> = (0..players)
            .map(|seat| random.agent(seed, seat, no_clock) as Box<dyn Agent>)
            .collect();
        let start = game.start(names.clone()).unwrap();
        let (expected, walked) = runner::run(
            &game,
            start,
            &mut GameRng::new(seed),
            &mut agents,
            Recording::Counts,
            runner::MAX_STEPS,
        )
        .unwrap();
        let at = format!("{name}, {players} players, seed {seed}");
        assert_eq!(record.decisions, expected.decisions, "{at}: decisions");
        assert_eq!(record.chances, expected.chances, "{at}: chance draws");
        assert_eq!(record.outcome, expected.outcome, "{at}: outcome");
        assert_eq!(
            record.outcome.ended_by, expected.outcome.ended_by,
            "{at}: where it ended"
        );
        assert_eq!(
            end.ints(),
            walked.ints(),
            "{at}: numbers of the final state"
        );
        assert_eq!(
            end.zones(),
            walked.zones(),
            "{at}: zones of the final state"
        );
        assert_eq!(end.steps(), walked.steps(), "{at}: steps");
        assert_eq!(
            game.stats(&end).unwrap(),
            game.stats(&walked).unwrap(),
            "{at}: stats"
        );
    }
}

#[test]
fn go_west_plays_as_the_walker() {
    for players in 2..=4 {
        check("go-west", players, 40);
    }
}
