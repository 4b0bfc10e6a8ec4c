//! The search agents (`mcts`, `ismcts`): seeded and deterministic, legal in every shipped
//! ruleset, blind to what their player cannot see, and (benchmarks, ignored here) stronger
//! than random play.

use frontier_interpreter::agent::{Agent, RandomAgent};
use frontier_interpreter::rng::GameRng;
use frontier_interpreter::roster::AgentSpec;
use frontier_interpreter::runner::{self, Recording};
use frontier_interpreter::search::{Kind, SearchAgent, SearchConfig};
use frontier_interpreter::{Game, State, Status};
use frontier_tests::*;

fn search(kind: Kind, iterations: u32, seed: u64) -> SearchAgent {
    SearchAgent::new(
        kind,
        SearchConfig {
            iterations,
            ..SearchConfig::default()
        },
        seed,
    )
}

/// Plays one game with these agents; the winners' seats and the decisions taken.
fn play(game: &Game, agents: Vec<Box<dyn Agent>>, seed: u64) -> (Vec<usize>, Vec<runner::Step>) {
    let mut agents = agents;
    let state = game.start(names(agents.len())).expect("start");
    let mut rng = GameRng::new(seed);
    let (record, _) = runner::run(
        game,
        state,
        &mut rng,
        &mut agents,
        Recording::Steps,
        runner::MAX_STEPS,
    )
    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    (record.outcome.winners(), record.steps)
}

/// States at decisions of a seeded random game, every `every` decisions.
fn decision_states(game: &Game, players: usize, seed: u64, every: u64, count: usize) -> Vec<State> {
    (1..=count as u64)
        .map(|k| random_state(game, players, seed, k * every))
        .filter(|s| matches!(game.status(s), Status::Decision { options, .. } if options > 1))
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_game() {
    for (name, players, kind) in [
        ("circle-the-wagons", 2, Kind::Mcts),
        ("go-west", 3, Kind::Ismcts),
    ] {
        let game = load_ruleset(name);
        let agents = |seed: u64| -> Vec<Box<dyn Agent>> {
            let mut v: Vec<Box<dyn Agent>> = vec![Box::new(search(kind, 12, seed))];
            for p in 1..players {
                v.push(Box::new(RandomAgent::new(GameRng::derived(
                    seed,
                    p as u64 + 1,
                ))));
            }
            v
        };
        let (w1, s1) = play(&game, agents(7), 3);
        let (w2, s2) = play(&game, agents(7), 3);
        assert_eq!(
            (w1, &s1),
            (w2, &s2),
            "{name}: two runs with the same seeds differ"
        );
    }
}

#[test]
fn search_agents_play_every_shipped_ruleset_legally() {
    // The runner rejects an option index out of range; a full game each, few iterations.
    for name in ruleset_names() {
        let game = load_ruleset(&name);
        let n = game.meta.min_players as usize;
        for kind in [Kind::Mcts, Kind::Ismcts] {
            let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(search(kind, 4, 1))];
            for p in 1..n {
                agents.push(Box::new(RandomAgent::new(GameRng::derived(
                    5,
                    p as u64 + 1,
                ))));
            }
            play(&game, agents, 5);
        }
    }
}

#[test]
fn decisions_do_not_depend_on_hidden_contents() {
    // Go West: hands are seen by their owners only, the deck by nobody. A state that
    // differs only in what the deciding player cannot see (the other hands and the deck,
    // dealt anew) gives the same search, option by option, for the agent's seed.
    let game = load_ruleset("go-west");
    let states = decision_states(&game, 3, 11, 7, 4);
    assert!(states.len() >= 2, "too few decision states");
    for (k, s) in states.iter().enumerate() {
        let Status::Decision { player, .. } = game.status(s) else {
            unreachable!()
        };
        let other = game
            .determinize(s, player, &mut GameRng::new(100 + k as u64))
            .unwrap();
        assert_ne!(
            other.zones(),
            s.zones(),
            "the redeal changed nothing: no hidden contents to test with"
        );
        assert_eq!(
            game.render_state(&other, Some(player)),
            game.render_state(s, Some(player)),
            "the player can tell them apart"
        );
        // The samples the agents search are the same state whichever was real.
        let sample = |state: &State| {
            game.view(state)
                .unwrap()
                .sample_state(&mut GameRng::new(3))
                .unwrap()
        };
        assert_eq!(
            sample(s),
            sample(&other),
            "a sample depends on where the hidden elements really are"
        );
        for kind in [Kind::Mcts, Kind::Ismcts] {
            let agent = search(kind, 40, 9);
            let a = agent.visits(&game.view(s).unwrap()).unwrap();
            let b = agent.visits(&game.view(&other).unwrap()).unwrap();
            assert_eq!(
                a, b,
                "{kind:?} at decision {k}: the search read hidden contents"
            );
            assert_eq!(
                agent.clone().decide(&game.view(s).unwrap()),
                agent.clone().decide(&game.view(&other).unwrap())
            );
        }
    }
}

#[test]
fn root_parallel_trees_do_not_depend_on_the_thread_count() {
    // Four trees on one thread and on three give the same visits: each tree's search
    // depends on the seed and its number only, and the sums are taken in tree order.
    let game = load_ruleset("go-west");
    let states = decision_states(&game, 3, 5, 9, 3);
    assert!(!states.is_empty());
    let config = SearchConfig::parse("iterations=60,trees=4").unwrap();
    for kind in [Kind::Mcts, Kind::Ismcts] {
        let agent = SearchAgent::new(kind, config.clone(), 21);
        let on = |threads: usize| -> Vec<Vec<u32>> {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                states
                    .iter()
                    .map(|s| agent.visits(&game.view(s).unwrap()).unwrap())
                    .collect()
            })
        };
        let one = on(1);
        assert_eq!(
            one,
            on(3),
            "{kind:?}: the visits depend on the thread count"
        );
        for v in &one {
            assert_eq!(
                v.iter().sum::<u32>(),
                60,
                "{kind:?}: the trees share the iterations"
            );
        }
        // A single tree is the search as it always was; more trees search differently.
        let single = SearchAgent::new(kind, SearchConfig::parse("iterations=60").unwrap(), 21);
        let single_visits: Vec<Vec<u32>> = states
            .iter()
            .map(|s| single.visits(&game.view(s).unwrap()).unwrap())
            .collect();
        assert_ne!(single_visits, one);
    }
}

/// A clock that moves on by a millisecond each time it is read, so that a time budget's
/// search stops at a known iteration whatever the machine's speed.
fn ticking_clock() -> std::time::Duration {
    static READS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    std::time::Duration::from_millis(READS.fetch_add(1, std::sync::atomic::Ordering::SeqCst))
}

#[test]
fn a_time_budget_stops_the_search_when_the_clock_says() {
    let game = load_ruleset("circle-the-wagons");
    let states = decision_states(&game, 2, 3, 2, 2);
    assert!(!states.is_empty());
    let spec = AgentSpec::parse("mcts:ms=30").unwrap();
    assert!(!spec.reproducible());
    let config = SearchConfig::parse("ms=30").unwrap();
    let agent = SearchAgent::new(Kind::Mcts, config.clone(), 4).with_clock(ticking_clock);
    for s in &states {
        // The deadline is read once, then the clock once per iteration: 29 iterations
        // start before it reads 30 ms later.
        let visits = agent.visits(&game.view(s).unwrap()).unwrap();
        assert_eq!(visits.iter().sum::<u32>(), 29);
    }
    // Without a clock, a time budget is refused rather than run for ever.
    let blind = SearchAgent::new(Kind::Mcts, config, 4);
    assert!(blind
        .visits(&game.view(&states[0]).unwrap())
        .unwrap_err()
        .contains("clock"));
}

#[test]
fn views_sample_only_what_the_player_cannot_see() {
    let game = load_ruleset("go-west");
    let s = random_state(&game, 3, 4, 10);
    let Status::Decision { player, .. } = game.status(&s) else {
        panic!("not at a decision")
    };
    let view = game.view(&s).unwrap();
    let mut rng = GameRng::new(1);
    let samples: Vec<State> = (0..5)
        .map(|_| view.sample_state(&mut rng).unwrap())
        .collect();
    for sample in &samples {
        assert_eq!(
            game.render_state(sample, Some(player)),
            game.render_state(&s, Some(player))
        );
        assert_eq!(sample.ints(), s.ints());
    }
    assert!(
        samples.iter().any(|x| x.zones() != samples[0].zones()),
        "five samples all alike"
    );
}

#[test]
fn agent_specs_build_agents() {
    let spec = AgentSpec::parse("mcts:iterations=8,c=0.5").unwrap();
    assert_eq!(spec.kind.name, "mcts");
    let game = load_ruleset("circle-the-wagons");
    let agents: Vec<Box<dyn Agent>> = vec![
        spec.agent(1, 0, no_clock),
        AgentSpec::parse("random").unwrap().agent(1, 1, no_clock),
    ];
    play(&game, agents, 1);
}

/// For agents without a time budget, which never read it.
fn no_clock() -> std::time::Duration {
    std::time::Duration::ZERO
}

/// Wins of a search agent against random ones, its seat rotating; `games` seeded games.
fn wins_against_random(name: &str, players: usize, spec: &str, games: u64) -> (f64, u64) {
    let game = load_ruleset(name);
    let spec = AgentSpec::parse(spec).unwrap();
    let random = AgentSpec::parse("random").unwrap();
    let mut wins = 0.0;
    for g in 0..games {
        let seed = 1000 + g;
        let seat = (g as usize) % players;
        let agents: Vec<Box<dyn Agent>> = (0..players)
            .map(|p| if p == seat { spec.agent(seed, p, no_clock) } else { random.agent(seed, p, no_clock) } as Box<dyn Agent>)
            .collect();
        let (winners, _) = play(&game, agents, seed);
        if winners.contains(&seat) {
            wins += 1.0 / winners.len() as f64;
        }
    }
    (wins, games)
}

#[test]
fn a_small_search_beats_random_at_circle_the_wagons() {
    let (wins, games) = wins_against_random("circle-the-wagons", 2, "mcts:iterations=25", 6);
    assert!(wins > games as f64 / 2.0, "mcts won {wins} of {games}");
}

/// The strength benchmark of the README: `cargo test --release -p frontier-tests --test
/// integration agents:: -- --ignored --nocapture` (GAMES and ITERATIONS in the environment
/// change it).
#[test]
#[ignore]
fn strength_benchmark() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let games = env("GAMES", 100);
    let iterations = env("ITERATIONS", 200);
    for (name, players, kind) in [
        ("circle-the-wagons", 2, "mcts"),
        ("go-west", 4, "mcts"),
        ("go-west", 4, "ismcts"),
    ] {
        let spec = format!("{kind}:iterations={iterations}");
        let started = std::time::Instant::now();
        let (wins, n) = wins_against_random(name, players, &spec, games);
        println!(
            "{name} {players}p: {spec} vs {} random: {wins} wins of {n} ({:.0}%), {:.0}s",
            players - 1,
            100.0 * wins / n as f64,
            started.elapsed().as_secs_f64()
        );
    }
}

/// ISMCTS against MCTS on one sampled state, head to head in 2-player Go West, seats
/// alternating: `cargo test --release -p frontier-tests --test integration
/// agents::ismcts_against_mcts -- --ignored --nocapture` (GAMES and ITERATIONS in the
/// environment).
#[test]
#[ignore]
fn ismcts_against_mcts() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let games = env("GAMES", 20);
    let iterations = env("ITERATIONS", 200);
    let game = load_ruleset("go-west");
    let ismcts = AgentSpec::parse(&format!("ismcts:iterations={iterations}")).unwrap();
    let mcts = AgentSpec::parse(&format!("mcts:iterations={iterations}")).unwrap();
    let started = std::time::Instant::now();
    let mut wins = 0.0;
    for g in 0..games {
        let seed = 2000 + g;
        let seat = (g % 2) as usize;
        let agents: Vec<Box<dyn Agent>> = (0..2).map(|p| if p == seat { ismcts.agent(seed, p, no_clock) } else { mcts.agent(seed, p, no_clock) } as Box<dyn Agent>).collect();
        let (winners, _) = play(&game, agents, seed);
        if winners.contains(&seat) {
            wins += 1.0 / winners.len() as f64;
        }
    }
    println!(
        "go-west 2p: ismcts:iterations={iterations} vs mcts:iterations={iterations}: {wins} wins of {games} ({:.0}%), {:.0}s",
        100.0 * wins / games as f64,
        started.elapsed().as_secs_f64()
    );
}
