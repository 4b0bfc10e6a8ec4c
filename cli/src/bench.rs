//! `frontier bench`: random playouts on one thread for a fixed time.

use std::time::{Duration, Instant};

use clap::Args;
use frontier_interpreter::runner::Recording;
use frontier_interpreter::Optimizer;

use frontier_interpreter::roster::AgentSpec;
use frontier_study::games::game_seed;
use frontier_study::{BackEnd, Games, Settings};

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
}

/// A duration of a bench: more than 0 and at most an hour (a usage error otherwise).
fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err("a number of seconds, more than 0 and at most 3600".into()),
    }
}

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
    let unoptimized = if game.optimizer == Optimizer::Off {
        ", optimizer off"
    } else {
        ""
    };
    let back_end = match &playouts.back_end {
        BackEnd::Native(native) => format!(
            "native code generated from the IR of {}",
            native.compiled.ruleset
        ),
        BackEnd::Walker => "the IR walker".to_string(),
    };
    println!(
        "{} with {n} players, random playouts on one thread for {secs:.1} s{unoptimized}",
        game.meta.name
    );
    println!("back end:     {back_end}");
    println!("games/s:      {:.0}", games as f64 / secs);
    println!("decisions/s:  {:.0}", decisions as f64 / secs);
    println!(
        "steps/s:      {:.0} (decisions and chance outcomes)",
        steps as f64 / secs
    );
    println!(
        "decisions per game: {:.1}",
        decisions as f64 / games.max(1) as f64
    );
    println!("bytes per state clone: {}", state.heap_bytes());
    Ok(())
}
