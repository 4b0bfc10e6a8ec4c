//! `frontier simulate`: many seeded random games, summarized. The summary depends only on
//! the ruleset, the player count, the number of games and the seed.

use std::io::IsTerminal;
use std::time::Instant;

use clap::Args;
use frontier_interpreter::agent::{Agent, RandomAgent};
use frontier_interpreter::runner::{self, GameRecord, Recording};
use frontier_interpreter::{Game, GameRng};
use rayon::prelude::*;

#[derive(Args)]
pub struct SimulateArgs {
    /// The game: an embedded ruleset name (see `frontier list`) or a path to a ruleset file or folder.
    #[arg(value_name = "RULESET")]
    pub ruleset: String,
    /// Number of players (default: the ruleset's minimum).
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// How many games (at least 1).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Seed of the whole run (game i uses a seed derived from it).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write each game's trace into this folder (game-0001.trace, …).
    #[arg(long)]
    pub trace_out: Option<std::path::PathBuf>,
}

/// The seed of game `i` of a run.
pub fn game_seed(seed: u64, i: u64) -> u64 {
    GameRng::derived(seed, 1_000_003 + i).next_u64()
}

pub fn random_agents(n: usize, seed: u64) -> Vec<Box<dyn Agent>> {
    (0..n).map(|seat| Box::new(RandomAgent::new(GameRng::derived(seed, seat as u64 + 1))) as Box<dyn Agent>).collect()
}

pub fn play_random(game: &Game, n: usize, seed: u64, recording: Recording) -> Result<GameRecord, String> {
    let state = game.start(crate::seat_names(n)).map_err(|e| e.to_string())?;
    let mut agents = random_agents(n, seed);
    let mut rng = GameRng::new(seed);
    runner::run(game, state, &mut rng, &mut agents, recording, runner::MAX_STEPS)
        .map(|(record, _)| record)
        .map_err(|e| format!("game with seed {seed}: {e}"))
}

pub fn run(args: SimulateArgs) -> Result<(), String> {
    let game = crate::source::load_ruleset(&args.ruleset)?;
    let n = crate::player_count(&game, args.players)?;
    if let Some(dir) = &args.trace_out {
        crate::traces::check_output_folder(dir)?;
    }
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(args.games);
        bar.set_style(indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}").unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()));
        bar
    });
    let started = Instant::now();
    let records: Vec<Result<GameRecord, String>> = (0..args.games)
        .into_par_iter()
        .map(|i| {
            let recording = if args.trace_out.is_some() { Recording::Steps } else { Recording::Counts };
            let r = play_random(&game, n, game_seed(args.seed, i), recording);
            if let Some(bar) = &bar {
                bar.inc(1);
            }
            r
        })
        .collect();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let elapsed = started.elapsed().as_secs_f64();
    let records = records.into_iter().collect::<Result<Vec<_>, _>>()?;
    if let Some(dir) = &args.trace_out {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {}", dir.display(), crate::source::plain_io(&e)))?;
        for (i, r) in records.iter().enumerate() {
            let path = dir.join(format!("game-{:04}.trace", i + 1));
            crate::traces::save_trace(&path, &args.ruleset, &crate::seat_names(n), game_seed(args.seed, i as u64), &r.steps, Some(&r.outcome))?;
        }
    }
    let mut wins = vec![0f64; n];
    let mut shared = 0u64;
    let mut scores: Vec<Vec<i64>> = vec![Vec::new(); n];
    let mut decisions = 0u64;
    for r in &records {
        let winners = r.outcome.winners();
        if winners.len() > 1 {
            shared += 1;
        }
        for &w in &winners {
            wins[w] += 1.0 / winners.len() as f64;
        }
        for p in 0..n {
            scores[p].push(r.outcome.scores[p]);
        }
        decisions += r.decisions;
    }
    let g = records.len() as f64;
    println!("{}: {} games, {n} players, seed {}", game.meta.name, records.len(), args.seed);
    println!("seat  wins (shared split)  mean score  min  max");
    for p in 0..n {
        let s = &scores[p];
        let mean = s.iter().sum::<i64>() as f64 / g;
        println!(
            "p{:<4} {:>8.1} ({:>5.1}%)  {:>10.2}  {:>3}  {:>3}",
            p + 1,
            wins[p],
            100.0 * wins[p] / g,
            mean,
            s.iter().min().copied().unwrap_or(0),
            s.iter().max().copied().unwrap_or(0)
        );
    }
    println!("shared victories: {shared}");
    println!("mean decisions per game: {:.1}", decisions as f64 / g);
    // Timing varies from run to run: it goes to stderr so stdout stays reproducible.
    eprintln!("{:.0} games/s ({} threads)", g / elapsed.max(1e-9), rayon::current_num_threads());
    Ok(())
}
