//! `frontier`: play, simulate, check and inspect board-game rulesets. Glue only: the
//! work is done by the frontier-interpreter crate.

mod balance;
mod bench;
mod human;
mod new;
mod output;
mod play;
mod results;
mod serve;
mod simulate;
mod source;
mod traces;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "frontier", version, about = "A data-driven board-game rules interpreter", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Change a bound a running game is held to (repeatable): statements=N, the statements
    /// run between two decisions or chance points (10000000); calls=N, procedure calls
    /// nested in one another (10000).
    #[arg(long = "limit", value_name = "NAME=N", global = true, value_parser = parse_limit)]
    limits: Vec<(String, u64)>,
}

/// `statements=1000` → ("statements", 1000), checked against the limits that exist.
fn parse_limit(text: &str) -> Result<(String, u64), String> {
    let (name, value) = text.split_once('=').ok_or("expected NAME=N, e.g. statements=1000000")?;
    let value: u64 = value.trim().parse().map_err(|_| format!("{value:?} is not a whole number"))?;
    let mut limits = frontier_interpreter::model::Limits::default();
    limits.set(name.trim(), value)?;
    Ok((name.trim().to_string(), value))
}

#[derive(Subcommand)]
enum Command {
    /// List the embedded rulesets, one per line, name first.
    List,
    /// Load and check a ruleset; print every problem found.
    Validate {
        /// An embedded ruleset name (see `frontier list`) or a path to a ruleset file or folder.
        #[arg(value_name = "RULESET")]
        ruleset: String,
    },
    /// Describe a ruleset in words: players, parameters, components, flow, decisions.
    Describe {
        /// An embedded ruleset name (see `frontier list`) or a path to a ruleset file or folder.
        #[arg(value_name = "RULESET")]
        ruleset: String,
    },
    /// Print the files of a ruleset (ruleset.yaml, then its scripts), to read or copy the
    /// base of a variant.
    Show(source::ShowArgs),
    /// Play one game in the terminal (people and bots).
    Play(play::PlayArgs),
    /// Play many seeded games between bots, summarize them, write them as JSON Lines.
    Simulate(simulate::SimulateArgs),
    /// Put the JSON Lines of `simulate --shard K/N --out` runs back in the order of one run.
    Merge(results::MergeArgs),
    /// Compare a ruleset with its variants over seeded games: win rates per seat with 95%
    /// intervals, first-player advantage, scores, game length, significance; HTML and JSON.
    Balance(balance::BalanceArgs),
    /// Measure random playouts on one thread: games/s, decisions/s, bytes per state.
    Bench(bench::BenchArgs),
    /// Replay traces: every step must be legal and every assertion hold.
    Check(traces::CheckArgs),
    /// Print a traced game step by step, or the state at one step.
    Replay(traces::ReplayArgs),
    /// Make a new ruleset folder (ruleset.yaml, RULES.md, traces/) that validates and plays.
    New(new::NewArgs),
    /// Play, watch and replay rulesets in a browser: a local web server with a JSON API.
    Serve(serve::ServeArgs),
    /// Print the JSON Schema (draft-07) of ruleset files, for editors.
    Schema,
}

fn main() -> ExitCode {
    quiet_on_closed_output();
    let cli = Cli::parse();
    let mut limits = frontier_interpreter::model::Limits::default();
    for (name, value) in &cli.limits {
        // Checked by parse_limit already.
        let _ = limits.set(name, *value);
    }
    source::set_limits(limits);
    let result = match cli.command {
        Command::List => {
            for e in source::RULESETS {
                match source::load_ruleset(e.name) {
                    Ok(g) => println!("{}\t{}\t{}", e.name, players_text(&g), g.meta.title),
                    Err(_) => println!("{}\t(does not load: run frontier validate {})", e.name, e.name),
                }
            }
            Ok(())
        }
        Command::Validate { ruleset } => source::load_ruleset(&ruleset).map(|g| {
            println!("{}: valid ({}, {} players)", ruleset, g.meta.title, players_text(&g));
        }),
        Command::Describe { ruleset } => source::load_ruleset(&ruleset).map(|g| print!("{}", g.describe())),
        Command::Show(args) => source::show(args),
        Command::Play(args) => play::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Merge(args) => results::merge(args),
        Command::Balance(args) => balance::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Check(args) => traces::check(args),
        Command::Replay(args) => traces::replay_cmd(args),
        Command::New(args) => new::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Schema => {
            print!("{}", frontier_interpreter::format::schema());
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            // A message that names its place (`file:line:col: …`) is printed as it is.
            if is_located(&message) {
                eprintln!("{message}");
            } else {
                eprintln!("error: {message}");
            }
            ExitCode::from(1)
        }
    }
}

/// Whether the message's first line starts with `file:line:col: `.
fn is_located(message: &str) -> bool {
    let first = message.lines().next().unwrap_or_default();
    first.match_indices(": ").any(|(at, _)| {
        let mut parts = first[..at].rsplitn(3, ':');
        let column = parts.next().unwrap_or_default();
        let line = parts.next().unwrap_or_default();
        let file = parts.next().unwrap_or_default();
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        !file.is_empty() && digits(line) && digits(column)
    })
}

/// `frontier play … | head` closes our stdout early: stop quietly instead of panicking
/// (println! panics when the reader is gone).
fn quiet_on_closed_output() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message.contains("failed printing to stdout") {
            std::process::exit(0);
        }
        default(info);
    }));
}

pub fn players_text(g: &frontier_interpreter::Game) -> String {
    if g.meta.min_players == g.meta.max_players {
        g.meta.min_players.to_string()
    } else {
        format!("{}-{}", g.meta.min_players, g.meta.max_players)
    }
}

/// Colours when standard output is a terminal, unless NO_COLOR is set.
pub fn output_style() -> frontier_interpreter::render::Style {
    use std::io::IsTerminal;
    let wanted = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    if wanted {
        frontier_interpreter::render::Style::Colour
    } else {
        frontier_interpreter::render::Style::Plain
    }
}

/// Player names for a game: p1, p2, …
pub fn seat_names(n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("p{i}")).collect()
}

/// The player count asked for, checked against the ruleset.
pub fn player_count(game: &frontier_interpreter::Game, asked: Option<usize>) -> Result<usize, String> {
    let n = asked.unwrap_or(game.meta.min_players as usize);
    if n < game.meta.min_players as usize || n > game.meta.max_players as usize {
        return Err(game.player_count_message(n));
    }
    Ok(n)
}
