//! `frontier play`: one game in the terminal, its log as it happens, the final scores.

use std::io::IsTerminal;

use clap::Args;
use frontier_interpreter::agent::{Agent, RandomAgent};
use frontier_interpreter::runner::{sample_chance, Step};
use frontier_interpreter::{Choice, Game, GameRng, Journal, State, Status};

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
    #[arg(long, value_delimiter = ',')]
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
                "human" => Ok(Box::new(HumanAgent { seat: seat as u8 })),
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
    let (state, steps) = play_to_end(&game, names.clone(), seed, &mut agents, |line| println!("{line}"))?;
    print_result(&game, &state);
    if let Some(path) = &args.trace_out {
        let outcome = match game.status(&state) {
            frontier_interpreter::Status::Over(o) => Some(o.clone()),
            _ => None,
        };
        crate::traces::save_trace(path, &args.ruleset, &names, seed, &steps, outcome.as_ref())?;
        println!("trace written to {}", path.display());
    }
    Ok(())
}

/// Plays a game, passing each log line to `show`; returns the final state and the steps.
pub fn play_to_end(
    game: &Game,
    names: Vec<String>,
    seed: u64,
    agents: &mut [Box<dyn Agent>],
    mut show: impl FnMut(&str),
) -> Result<(State, Vec<Step>), String> {
    let mut rng = GameRng::new(seed);
    let mut state = game.start(names).map_err(|e| e.to_string())?;
    let mut steps = Vec::new();
    let mut log = Vec::new();
    loop {
        let choice = match game.status(&state) {
            Status::Over(_) => return Ok((state, steps)),
            Status::Decision { player, .. } => {
                let i = agents[player as usize].decide(game, &state)?;
                let label = game.option_label(&state, i).map_err(|e| e.to_string())?;
                steps.push(Step::Decision { player, label });
                Choice::Option(i)
            }
            Status::Chance(chance) => {
                let choice = sample_chance(&state, chance, &mut rng);
                steps.push(Step::Chance { label: game.outcome_label(&state, &choice) });
                choice
            }
        };
        log.clear();
        game.apply(&mut state, choice, &mut Journal::On(&mut log)).map_err(|e| e.to_string())?;
        for line in &log {
            show(line);
        }
    }
}

pub fn print_result(game: &Game, state: &State) {
    println!("\n{}", game.render_state(state, None).trim_end());
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
