//! `frontier bench`: random playouts on one thread for a fixed time, what a clone of a
//! state costs (measured on states of those playouts), and with `--search` a search
//! agent's iterations per second.

use std::hint::black_box;
use std::time::{Duration, Instant};

use clap::Args;
use frontier_interpreter::agent::Bot;
use frontier_interpreter::runner::{self, sample_chance, Recording};
use frontier_interpreter::search::{Kind, SearchAgent, SearchConfig};
use frontier_interpreter::{Choice, Game, GameRng, Journal, Optimizer, State, Status, Stepper};

use frontier_interpreter::roster::AgentSpec;
use frontier_study::games::game_seed;
use frontier_study::{Games, Settings};

#[derive(Args)]
pub struct BenchArgs {
    /// The game: an embedded ruleset name (see `frontier list`) or a path to a ruleset file or folder.
    #[arg(value_name = "RULESET")]
    pub ruleset: String,
    /// Number of players (default: the ruleset's minimum).
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// How long to run, in seconds (more than 0, at most 3600).
    #[arg(long, default_value_t = 5.0, value_parser = seconds)]
    pub seconds: f64,
    /// Also measure a search agent's iterations per second, on one thread with one tree:
    /// mcts or ismcts, with options as --agents takes them (mcts:iterations=200; not ms=
    /// or trees=). It searches four decisions of a random playout in turn (the first and
    /// three later ones), each at least once, for another --seconds in all. Off by default.
    #[arg(long, value_name = "AGENT", value_parser = search_agent)]
    pub search: Option<Search>,
    /// Print one JSON document with every number instead of the text (docs/json.md).
    #[arg(long)]
    pub json: bool,
}

/// A duration of a bench: more than 0 and at most an hour (a usage error otherwise).
fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err("a number of seconds, more than 0 and at most 3600".into()),
    }
}

/// The search agent `--search` names.
#[derive(Clone)]
pub struct Search {
    /// As written.
    text: String,
    kind: Kind,
    config: SearchConfig,
}

/// `--search`'s parser: a search agent of the roster whose searches run a known number of
/// iterations on one thread (a usage error otherwise).
fn search_agent(text: &str) -> Result<Search, String> {
    let spec = AgentSpec::parse(text)
        .map_err(|e| format!("{e}; give mcts[:options] or ismcts[:options]"))?;
    let kind = match spec.kind.name {
        "mcts" => Kind::Mcts,
        "ismcts" => Kind::Ismcts,
        other => {
            return Err(format!(
                "{other} does not search; give mcts[:options] or ismcts[:options]"
            ))
        }
    };
    let config = spec.search().cloned().unwrap_or_default();
    if config.time_ms.is_some() {
        return Err("ms= is a time budget, and bench keeps the time itself; give iterations=N, the size of one search".into());
    }
    if config.trees != 1 {
        return Err(format!(
            "trees={}: bench searches on one thread, with one tree",
            config.trees
        ));
    }
    Ok(Search {
        text: spec.text,
        kind,
        config,
    })
}

/// The random playouts that states are sampled from: the first ones timed (the same
/// seeds), played again by the walker.
const SAMPLED_GAMES: u64 = 4;
/// The states kept of each of them: at decisions spread evenly over the game.
const STATES_PER_GAME: u64 = 16;
/// How many clones are timed, at most.
const CLONES: u64 = 250_000;

pub fn run(args: BenchArgs, settings: &Settings) -> Result<(), String> {
    let game = crate::source::load_ruleset(&args.ruleset, settings)?;
    let n = crate::player_count(&game, args.players)?;
    let budget = Duration::from_secs_f64(args.seconds);
    let random = vec![AgentSpec::parse("random")?; n];
    let playouts = Games::new(
        &game,
        &random,
        Recording::Counts,
        settings,
        crate::bots::clock,
    );
    let started = Instant::now();
    let (mut games, mut decisions, mut steps) = (0u64, 0u64, 0u64);
    while started.elapsed() < budget {
        let (r, _) = playouts.play(game_seed(7, games))?;
        games += 1;
        decisions += r.decisions;
        steps += r.decisions + r.chances;
    }
    let secs = started.elapsed().as_secs_f64();
    let state = game
        .start(crate::seat_names(n))
        .map_err(|e| e.to_string())?;
    let samples = sample_states(&game, &random)?;
    let clones = time_clones(&samples.states, budget / 5);
    let search = match &args.search {
        Some(search) => Some(time_search(
            playouts.back_end.stepper(&game),
            search,
            &samples.positions,
            budget,
        )?),
        None => None,
    };
    let back_end = &playouts.back_end;
    let per_s = |count: u64| count as f64 / secs;
    if args.json {
        let round = |x: f64| (x * 10.0).round() / 10.0;
        let round_ms = |x: f64| (x * 1000.0).round() / 1000.0;
        let document = serde_json::json!({
            "frontier_bench": 1,
            "ruleset": game.meta.name,
            "players": n,
            "seconds": round_ms(secs),
            "optimizer": if game.optimizer == Optimizer::Off { "off" } else { "on" },
            "back_end": match &back_end.compiled {
                Some(_) => "compiled",
                None => "walker",
            },
            "games": games,
            "games_per_s": round(per_s(games)),
            "decisions_per_s": round(per_s(decisions)),
            "steps_per_s": round(per_s(steps)),
            "decisions_per_game": round(decisions as f64 / games.max(1) as f64),
            "start_state_bytes": state.heap_bytes(),
            "clone_bytes": round(clones.bytes),
            "clone_ns": round(clones.ns()),
            "clone_states": samples.states.len(),
            "clones": clones.count,
            "search": search.as_ref().map(|s| serde_json::json!({
                "agent": s.agent,
                "iterations": s.iterations,
                "searches": s.searches,
                "positions": s.positions,
                "seconds": round_ms(s.seconds),
                "iterations_per_s": round(s.per_s()),
            })),
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&document).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    let unoptimized = if game.optimizer == Optimizer::Off {
        ", optimizer off"
    } else {
        ""
    };
    let back_end = back_end.describe();
    println!(
        "{} with {n} players, random playouts on one thread for {secs:.1} s{unoptimized}",
        game.meta.name
    );
    println!("back end:     {back_end}");
    println!("games/s:      {:.0}", per_s(games));
    println!("decisions/s:  {:.0}", per_s(decisions));
    println!(
        "steps/s:      {:.0} (decisions and chance outcomes)",
        per_s(steps)
    );
    println!(
        "decisions per game: {:.1}",
        decisions as f64 / games.max(1) as f64
    );
    println!("bytes per state clone: {}", state.heap_bytes());
    println!(
        "clone bytes:  {:.0} (mean over {} states of {SAMPLED_GAMES} random playouts)",
        clones.bytes,
        samples.states.len()
    );
    println!(
        "clone ns:     {:.1} ({} clones of those states, each dropped)",
        clones.ns(),
        clones.count
    );
    if let Some(s) = &search {
        println!(
            "iterations/s: {:.0} ({}, {} iterations a search, one tree: {} searches of {} positions in {:.1} s, on {})",
            s.per_s(),
            s.agent,
            s.iterations / s.searches.max(1),
            s.searches,
            s.positions,
            s.seconds,
            match playouts.back_end.compiled {
                Some(_) => "the IR walker with compiled code",
                None => "the IR walker",
            }
        );
    }
    Ok(())
}

/// States of the first random playouts.
struct Samples {
    /// At decisions spread evenly over each game, for clones.
    states: Vec<State>,
    /// Decisions of the first game to search: the first with more than one option, and
    /// the first such at or after a quarter, half and three quarters of its decisions.
    positions: Vec<State>,
}

fn sample_states(game: &Game, random: &[AgentSpec]) -> Result<Samples, String> {
    let mut samples = Samples {
        states: Vec::new(),
        positions: Vec::new(),
    };
    for g in 0..SAMPLED_GAMES {
        let seed = game_seed(7, g);
        // Once to count its decisions, then again to keep states spread over them.
        let total = playout(game, random, seed, |_, _, _| {})?;
        let kept = STATES_PER_GAME.min(total);
        let marks: Vec<u64> = (0..kept).map(|k| k * total / kept).collect();
        let quarters: Vec<u64> = (0..4).map(|q| q * total / 4).collect();
        playout(game, random, seed, |state, i, options| {
            if marks.binary_search(&i).is_ok() {
                samples.states.push(state.clone());
            }
            let next = quarters.get(samples.positions.len());
            if g == 0 && options > 1 && next.is_some_and(|&at| i >= at) {
                samples.positions.push(state.clone());
            }
        })?;
    }
    Ok(samples)
}

/// Plays the random playout seeded `seed` with the walker, as `Games` does, passing each
/// decision's state, number (from 0) and option count to `visit`; gives its decisions.
fn playout(
    game: &Game,
    random: &[AgentSpec],
    seed: u64,
    mut visit: impl FnMut(&State, u64, usize),
) -> Result<u64, String> {
    let names = crate::seat_names(random.len());
    let mut state = game.start(names).map_err(|e| e.to_string())?;
    let mut agents: Vec<Box<dyn Bot>> = random
        .iter()
        .enumerate()
        .map(|(seat, s)| s.agent(seed, seat, crate::bots::clock))
        .collect();
    let mut rng = GameRng::new(seed);
    let mut decisions = 0u64;
    for _ in 0..runner::MAX_STEPS {
        let choice = match game.status(&state) {
            Status::Over(_) => return Ok(decisions),
            Status::Decision { player, options } => {
                visit(&state, decisions, options);
                decisions += 1;
                let view = game.view(&state).ok_or("the game is not at a decision")?;
                let agent = agents
                    .get_mut(player as usize)
                    .ok_or_else(|| format!("no agent for seat {}", player + 1))?;
                Choice::Option(agent.decide(&view)?)
            }
            Status::Chance(chance) => sample_chance(&state, chance, &mut rng),
        };
        game.apply(&mut state, choice, &mut Journal::off())
            .map_err(|e| format!("game with seed {seed}: {e}"))?;
    }
    Err(format!(
        "game with seed {seed}: the game did not end within {} steps",
        runner::MAX_STEPS
    ))
}

/// What clones of the sampled states cost.
struct Clones {
    /// Mean bytes a clone allocates and copies (`State::heap_bytes`).
    bytes: f64,
    /// Clones timed, and the time they took (each with its drop).
    count: u64,
    time: Duration,
}

impl Clones {
    fn ns(&self) -> f64 {
        self.time.as_nanos() as f64 / self.count.max(1) as f64
    }
}

/// Clones the states in turn, [`CLONES`] times or until `limit` has passed (a debug
/// build, a large state), dropping each clone as a search drops the state it played out.
fn time_clones(states: &[State], limit: Duration) -> Clones {
    let bytes =
        states.iter().map(|s| s.heap_bytes() as f64).sum::<f64>() / states.len().max(1) as f64;
    let mut count = 0u64;
    let started = Instant::now();
    while !states.is_empty() && count < CLONES {
        for state in states {
            drop(black_box(black_box(state).clone()));
        }
        count += states.len() as u64;
        if started.elapsed() >= limit {
            break;
        }
    }
    Clones {
        bytes,
        count,
        time: started.elapsed(),
    }
}

/// Searches done and the time they took.
struct SearchTimes {
    agent: String,
    iterations: u64,
    searches: u64,
    positions: usize,
    seconds: f64,
}

impl SearchTimes {
    fn per_s(&self) -> f64 {
        self.iterations as f64 / self.seconds.max(f64::MIN_POSITIVE)
    }
}

/// Searches each position with the agent (a new seed each time) for its share of
/// `budget`, at least once. The iterations are the playouts through the root: its visits
/// added up.
fn time_search(
    stepper: Stepper,
    search: &Search,
    positions: &[State],
    budget: Duration,
) -> Result<SearchTimes, String> {
    if positions.is_empty() {
        return Err(format!(
            "{}: the first random playout has no decision with more than one option to search",
            search.text
        ));
    }
    let share = budget / positions.len() as u32;
    let mut times = SearchTimes {
        agent: search.text.clone(),
        iterations: 0,
        searches: 0,
        positions: positions.len(),
        seconds: 0.0,
    };
    for state in positions {
        let view = stepper.view(state).ok_or("the game is not at a decision")?;
        let started = Instant::now();
        loop {
            let agent = SearchAgent::new(search.kind, search.config.clone(), times.searches);
            let visits = agent.visits(&view)?;
            times.iterations += visits.iter().map(|&v| u64::from(v)).sum::<u64>();
            times.searches += 1;
            if started.elapsed() >= share {
                break;
            }
        }
        times.seconds += started.elapsed().as_secs_f64();
    }
    Ok(times)
}
