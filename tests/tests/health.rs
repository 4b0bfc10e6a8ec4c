//! The generic health suite, run on every ruleset under rulesets/ (so on every future
//! game too): games end, seeds are deterministic, states resume identically after a
//! clone or a serialization, and a non-final state always offers an option. Last, the
//! size of a state against the closure build's, for the three games that build ran.

use frontier_interpreter::agent::{Agent, RandomAgent};
use frontier_interpreter::runner::{sample_chance, Recording};
use frontier_interpreter::{Choice, GameRng, Journal, Status};
use frontier_tests::*;

const GAMES_PER_COUNT: u64 = 30;
const STEP_BOUND: u64 = 200_000;

fn player_counts(game: &frontier_interpreter::Game) -> std::ops::RangeInclusive<usize> {
    game.meta.min_players as usize..=game.meta.max_players as usize
}

#[test]
fn every_ruleset_loads() {
    assert!(!ruleset_names().is_empty());
    for name in all_ruleset_names() {
        load_ruleset(&name);
    }
}

#[test]
fn random_games_end_within_the_step_bound_and_always_offer_an_option() {
    for name in all_ruleset_names() {
        let game = load_ruleset(&name);
        for n in player_counts(&game) {
            for seed in 0..GAMES_PER_COUNT {
                let mut state = game.start(names(n)).unwrap();
                let mut rng = GameRng::new(seed);
                let mut agents: Vec<RandomAgent> = (0..n)
                    .map(|p| RandomAgent::new(GameRng::derived(seed, p as u64)))
                    .collect();
                let mut steps = 0u64;
                loop {
                    assert!(
                        steps < STEP_BOUND,
                        "{name} {n}p seed {seed}: no end after {STEP_BOUND} steps"
                    );
                    steps += 1;
                    let choice = match game.status(&state) {
                        Status::Over(outcome) => {
                            assert_eq!(outcome.scores.len(), n);
                            assert!(outcome.ranks.contains(&1), "someone wins");
                            break;
                        }
                        Status::Decision { player, options } => {
                            assert!(
                                options > 0,
                                "{name} {n}p seed {seed}: a decision with no option"
                            );
                            assert!((player as usize) < n);
                            Choice::Option(
                                agents[player as usize]
                                    .decide(&game.view(&state).unwrap())
                                    .unwrap(),
                            )
                        }
                        Status::Chance(c) => sample_chance(&state, c, &mut rng),
                    };
                    game.apply(&mut state, choice, &mut Journal::off())
                        .unwrap_or_else(|e| panic!("{name} {n}p seed {seed}: {e}"));
                }
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_game() {
    for name in all_ruleset_names() {
        let game = load_ruleset(&name);
        for n in player_counts(&game) {
            for seed in [1, 99] {
                let (a, _) = random_game(&game, n, seed, Recording::StepsAndLog);
                let (b, _) = random_game(&game, n, seed, Recording::StepsAndLog);
                assert_eq!(a.steps, b.steps, "{name} {n}p seed {seed}");
                assert_eq!(a.log, b.log);
                assert_eq!(a.outcome, b.outcome);
            }
        }
    }
}

/// Runs a seeded game, and at every 7th step checks that a clone and a state read back
/// from its serialization continue exactly like the original.
#[test]
fn cloned_and_serialized_states_resume_identically() {
    for name in all_ruleset_names() {
        let game = load_ruleset(&name);
        for n in player_counts(&game) {
            let seed = 5 + n as u64;
            let mut state = game.start(names(n)).unwrap();
            let mut rng = GameRng::new(seed);
            let mut agent_rng = GameRng::derived(seed, 77);
            let mut step = 0;
            while !matches!(game.status(&state), Status::Over(_)) {
                if step % 7 == 0 {
                    let text = game.state_to_yaml(&state);
                    let restored = game
                        .state_from_yaml(&text)
                        .unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
                    assert_eq!(
                        restored, state,
                        "{name} {n}p step {step}: the serialized state reads back differently"
                    );
                    // Continue both (and a clone) for a few steps with the same choices.
                    let (mut a, mut b, mut c) = (state.clone(), restored, state.clone());
                    let mut r1 = GameRng::derived(seed, step);
                    for _ in 0..20 {
                        let choice = match game.status(&a) {
                            Status::Over(_) => break,
                            Status::Decision { options, .. } => {
                                Choice::Option(r1.below(options as u64) as usize)
                            }
                            Status::Chance(ch) => sample_chance(&a, ch, &mut r1),
                        };
                        for s in [&mut a, &mut b, &mut c] {
                            game.apply(s, choice.clone(), &mut Journal::off()).unwrap();
                        }
                        assert_eq!(a, b);
                        assert_eq!(a, c);
                    }
                }
                let choice = match game.status(&state) {
                    Status::Decision { options, .. } => {
                        Choice::Option(agent_rng.below(options as u64) as usize)
                    }
                    Status::Chance(ch) => sample_chance(&state, ch, &mut rng),
                    Status::Over(_) => unreachable!(),
                };
                game.apply(&mut state, choice, &mut Journal::off()).unwrap();
                step += 1;
            }
        }
    }
}

/// Bytes per state clone are an aim of the evaluator's design: no larger than in the
/// build that compiled expressions to closures. The bounds are that build's own
/// `frontier bench` figures (the state at the first step; README, Performance).
#[test]
fn a_state_at_the_first_step_is_no_larger_than_in_the_closure_build() {
    for (name, players, closure_build_bytes) in [
        ("go-west", 4, 912),
        ("way-out-west", 5, 1800),
        ("circle-the-wagons", 2, 636),
    ] {
        let game = load_ruleset(name);
        let state = game.start(names(players)).unwrap();
        let bytes = state.heap_bytes();
        assert!(bytes <= closure_build_bytes, "{name}, {players} players: {bytes} bytes per state clone, the closure build's {closure_build_bytes}");
    }
}
