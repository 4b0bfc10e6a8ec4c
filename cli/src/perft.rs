//! `frontier perft`: how many step sequences of each length lead on from a game's start
//! or a position, to check a ruleset's move generation against published counts (chess's
//! 20, 400, 8,902, …).

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use frontier_interpreter::perft::{divide, perft};
use frontier_study::{BackEnd, Settings};

#[derive(Args)]
pub struct PerftArgs {
    /// The game: an embedded ruleset name (see `frontier list`) or a path to a ruleset file or folder.
    #[arg(value_name = "RULESET")]
    pub ruleset: String,
    /// The number of steps (1 to 12): counts are printed for every length up to it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=12))]
    pub depth: u32,
    /// Number of players (default: the ruleset's minimum; a position seats its own).
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// Count from a position file (as `frontier replay TRACE --at STEP --state` writes it)
    /// instead of the ruleset's start.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// Also print, for each first step, the sequences of --depth steps that start with it.
    #[arg(long)]
    pub divide: bool,
    /// Print one JSON document instead of the text (docs/json.md).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: PerftArgs, settings: &Settings) -> Result<(), String> {
    let game = crate::source::load_ruleset(&args.ruleset, settings)?;
    let back_end = BackEnd::for_game(&game, settings.compile);
    let stepper = back_end.stepper(&game);
    let state = match &args.from {
        Some(file) => {
            let text = crate::source::read_text(file, &settings.limits)?;
            let state = game
                .state_from_yaml(&text)
                .map_err(|e| format!("{}: {e}", file.display()))?;
            if let Some(n) = args.players.filter(|n| *n != state.names().len()) {
                crate::usage_error(format!(
                    "--players {n}, but the position {} seats {} players",
                    file.display(),
                    state.names().len()
                ));
            }
            state
        }
        None => {
            let n = crate::player_count(&game, args.players)?;
            game.start(crate::seat_names(n))
                .map_err(|e| e.to_string())?
        }
    };
    let mut counts = Vec::new();
    for depth in 1..=args.depth {
        let started = Instant::now();
        let count = perft(stepper, &state, depth)?;
        let seconds = started.elapsed().as_secs_f64();
        if !args.json {
            println!("depth {depth}: {count} ({seconds:.3} s)");
        }
        counts.push(serde_json::json!({ "depth": depth, "count": count, "seconds": (seconds * 1000.0).round() / 1000.0 }));
    }
    let divided = match args.divide {
        true => Some(divide(stepper, &state, args.depth)?),
        false => None,
    };
    if args.json {
        let document = serde_json::json!({
            "frontier_perft": 1,
            "ruleset": game.meta.name,
            "players": state.names().len(),
            "counts": counts,
            "divide": divided.as_ref().map(|d| d.iter().map(|(label, count)| serde_json::json!({ "step": label, "count": count })).collect::<Vec<_>>()),
        });
        println!("{document:#}");
    } else if let Some(divided) = divided {
        for (label, count) in divided {
            println!("{label}: {count}");
        }
    }
    Ok(())
}
