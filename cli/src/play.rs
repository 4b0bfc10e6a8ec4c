//! `frontier play`: one game in the terminal, its log as it happens, the final scores.

use std::io::IsTerminal;

use clap::Args;
use frontier_interpreter::agent::{Agent, RandomAgent};
use frontier_interpreter::runner::{self, Recording};
use frontier_interpreter::{Game, GameRng, Journal, State, Status};

use crate::human::HumanAgent;

#[derive(Args)]
pub struct PlayArgs {
    /// An embedded ruleset name or a path to a ruleset file or folder.
    pub ruleset: String,
    /// Number of players (default: the ruleset's minimum).
    #[arg(long)]
    pub players: Option<usize>,
    /// Seed of the game's random generator (default: taken from the clock, and printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// One agent per seat, comma-separated: human or random (default: human in seat 1
    /// when the terminal is interactive, random elsewhere).
    #[arg(long, value_delimiter = ',', value_parser = ["human", "random"])]
    pub agents: Option<Vec<String>>,
    /// Write the game's trace to this file.
    #[arg(long)]
    pub trace_out: Option<std::path::PathBuf>,
}

pub fn agents_for(specs: &[String], seed: u64) -> Result<Vec<Box<dyn Agent>>, String> {
    specs
        .iter()
        .enumerate()
        .map(|(seat, spec)| -> Result<Box<dyn Agent>, String> {
            match spec.trim() {
                "random" => Ok(Box::new(RandomAgent::new(GameRng::derived(seed, seat as u64 + 1)))),
                "human" => Ok(Box::new(HumanAgent::default())),
                other => Err(format!("unknown agent '{other}': use human or random")),
            }
        })
        .collect()
}

pub fn run(args: PlayArgs) -> Result<(), String> {
    let game = crate::source::load_ruleset(&args.ruleset)?;
    let n = crate::player_count(&game, args.players)?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
    });
    let specs = match args.agents {
        Some(specs) => specs,
        None => {
            let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
            (0..n).map(|i| if i == 0 && interactive { "human".into() } else { "random".into() }).collect()
        }
    };
    if specs.len() != n {
        return Err(format!("--agents names {} agents for {n} players", specs.len()));
    }
    let mut agents = agents_for(&specs, seed)?;
    let names = crate::seat_names(n);
    println!("{} — {n} players ({}), seed {seed}", game.meta.title, specs.join(", "));
    let mut setup_log = Vec::new();
    let start = game.start_logged(names.clone(), &mut Journal::On(&mut setup_log)).map_err(|e| e.to_string())?;
    for line in setup_log {
        println!("{line}");
    }
    let mut rng = GameRng::new(seed);
    let (record, state) =
        runner::run_with_log(&game, start, &mut rng, &mut agents, Recording::StepsAndLog, runner::MAX_STEPS, |line| println!("{line}"))
            .map_err(|e| e.to_string())?;
    print_result(&game, &state);
    if let Some(path) = &args.trace_out {
        crate::traces::save_trace(path, &args.ruleset, &names, seed, &record.steps, Some(&record.outcome))?;
        println!("trace written to {}", path.display());
    }
    Ok(())
}

pub fn print_result(game: &Game, state: &State) {
    let board = game.render_display_styled(state, crate::output_style());
    if !board.is_empty() {
        println!("\n{}", board.trim_end());
    }
    let shown = game.render_state_styled(state, None, crate::output_style());
    if !shown.trim().is_empty() {
        println!("\n{}", shown.trim_end());
    }
    if let Status::Over(outcome) = game.status(state) {
        println!("\nfinal scores:");
        let mut seats: Vec<usize> = (0..outcome.scores.len()).collect();
        seats.sort_by_key(|&p| outcome.ranks[p]);
        for p in seats {
            let tb = if outcome.tiebreaks[p].is_empty() {
                String::new()
            } else {
                format!(" (tie-break {})", outcome.tiebreaks[p].iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", "))
            };
            println!("  {}. {} {}{tb}", outcome.ranks[p], state.names[p], outcome.scores[p]);
        }
        let winners: Vec<&str> = outcome.winners().iter().map(|&p| state.names[p].as_str()).collect();
        match winners.len() {
            1 => println!("winner: {}", winners[0]),
            _ => println!("shared victory: {}", winners.join(", ")),
        }
    }
}
