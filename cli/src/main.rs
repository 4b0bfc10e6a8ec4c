//! `frontier`: play, simulate, check and inspect board-game rulesets. Glue only: the
//! work is done by the frontier-interpreter crate.

// The doc comments of the clap types are the commands' help text, written for a terminal
// (`mcts[:options]`, `<ruleset>`), not rustdoc links or HTML.
#![allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags)]

mod balance;
mod bench;
mod bots;
mod human;
mod inspect;
mod new;
mod output;
mod perft;
mod play;
mod results;
mod serve;
mod simulate;
mod source;
mod table;
mod traces;
mod words;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "frontier", version, about = "A data-driven board-game rules interpreter", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Change a bound the ruleset and its games are held to (repeatable): nesting=N and
    /// operators=N, brackets nested in one expression (64, at most 1000) and operators in
    /// one (256, at most 4000); statements=N, run between two decisions or chance points
    /// (10000000); calls=N, procedure calls nested (10000, at most 1000000); elements=N, in
    /// the zones of a state (100000); cells=N, covered on one board (10000); slots=N,
    /// numbers, zones and boards of a state (1000000); bytes=N, of a file read (16777216);
    /// work=N, steps of work between two decisions or chance points (10000000: elements
    /// built-ins read, build or apply lambdas to, calls of functions and scripts, script
    /// operations). docs/rulesets.md, Limits.
    #[arg(long = "limit", value_name = "NAME=N", global = true, value_parser = parse_limit)]
    limits: Vec<(String, u64)>,
    /// `off` runs rulesets as lowered, without the optimizer's rewrites: the games are the
    /// same, slower; to measure what the optimizer gains (`bench`) or to rule it out.
    #[arg(long, value_enum, value_name = "ON|OFF", global = true, default_value_t = Switch::On)]
    optimizer: Switch,
    /// `off` runs games with the walker alone, without compiling the ruleset's code to
    /// machine code when it loads (decision listings, conditions and numbers of statements;
    /// ARCHITECTURE.md, The engine): the games are the same; to measure what compiling
    /// gains (`bench`) or to rule it out.
    #[arg(long, value_enum, value_name = "ON|OFF", global = true, default_value_t = Switch::On)]
    compile: Switch,
}

/// The value of an on/off option (`--optimizer`, `--compile`).
#[derive(Clone, Copy, clap::ValueEnum)]
enum Switch {
    On,
    Off,
}

/// Ends the command as clap ends a bad command line (exit 2): for what only a look at
/// several arguments together, or at the ruleset they name, shows to be wrong.
pub fn usage_error(message: impl std::fmt::Display) -> ! {
    use clap::CommandFactory as _;
    Cli::command()
        .error(clap::error::ErrorKind::ArgumentConflict, message)
        .exit()
}

/// Refuses to play more games in one process than it can keep (a usage error).
pub fn check_game_count(games: u64) {
    let max = frontier_interpreter::runner::MAX_GAMES_PER_PROCESS;
    if games > max {
        usage_error(format!("{games} games: one process plays at most {max}; split the run with --shard K/N (docs/scale.md)"));
    }
}

/// `statements=1000` → ("statements", 1000), checked against the limits that exist.
fn parse_limit(text: &str) -> Result<(String, u64), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or("expected NAME=N, e.g. statements=1000000")?;
    let value: u64 = value
        .trim()
        .parse()
        .map_err(|_| format!("{value:?} is not a whole number"))?;
    let mut limits = frontier_interpreter::model::Limits::default();
    limits.set(name.trim(), value)?;
    Ok((name.trim().to_string(), value))
}

#[derive(Subcommand)]
enum Command {
    /// List the embedded rulesets, one per line, name first.
    List {
        /// Print one JSON document instead (docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Load and check a ruleset; print every problem found.
    Validate {
        /// An embedded ruleset name (see `frontier list`) or a path to a ruleset file or folder.
        #[arg(value_name = "RULESET")]
        ruleset: String,
        /// Print one JSON document (valid or not, with every diagnostic) instead (docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Describe a ruleset in words: players, parameters, components, flow, decisions.
    Describe {
        /// An embedded ruleset name (see `frontier list`) or a path to a ruleset file or folder.
        #[arg(value_name = "RULESET")]
        ruleset: String,
        /// Print the declarations as one JSON document instead (docs/json.md).
        #[arg(long)]
        json: bool,
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
    /// Measure random playouts on one thread (games/s, decisions/s), a state clone (bytes,
    /// ns) and, with --search, a search agent's iterations/s.
    Bench(bench::BenchArgs),
    /// Replay traces: every step must be legal and every assertion hold.
    Check(traces::CheckArgs),
    /// Count the step sequences of each length from a game's start or a position
    /// ("perft"), to check move generation against published counts.
    Perft(perft::PerftArgs),
    /// Print a traced game step by step, or the state at one step.
    Replay(traces::ReplayArgs),
    /// Make a new ruleset folder (ruleset.yaml, RULES.md, traces/) that validates and plays.
    New(new::NewArgs),
    /// Play, watch and replay rulesets in a browser: a local web server with a JSON API.
    Serve(serve::ServeArgs),
    /// Print the JSON Schema (draft-07) of ruleset files, for editors.
    Schema,
    /// Serve the Language Server Protocol on standard input and output, for editors:
    /// the loader's diagnostics as you type, hover, definitions, completion (docs/lsp.md).
    Lsp,
}

fn main() -> ExitCode {
    quiet_on_closed_output();
    // Expressions are walked recursively as deep as the limits let them nest (up to
    // their ceilings): the command and every worker run on threads with the stack that
    // needs, not the 8 MiB of the main thread or the 2 MiB of a spawned one.
    let stack = frontier_interpreter::model::STACK_BYTES;
    match std::thread::Builder::new()
        .name("frontier".into())
        .stack_size(stack)
        .spawn(run)
    {
        Ok(command) => command.join().unwrap_or_else(|_| ExitCode::from(101)),
        Err(e) => {
            eprintln!("error: cannot start: {e}");
            ExitCode::from(1)
        }
    }
}

fn run() -> ExitCode {
    let cli = Cli::parse();
    let mut limits = frontier_interpreter::model::Limits::default();
    for (name, value) in &cli.limits {
        // Checked by parse_limit already.
        let _ = limits.set(name, *value);
    }
    let optimizer = match cli.optimizer {
        Switch::On => frontier_interpreter::Optimizer::On,
        Switch::Off => frontier_interpreter::Optimizer::Off,
    };
    let compile = match cli.compile {
        Switch::On => frontier_study::Compile::On,
        Switch::Off => frontier_study::Compile::Off,
    };
    let settings = frontier_study::Settings {
        limits,
        optimizer,
        compile,
    };
    let threads = match &cli.command {
        Command::Play(args) => args.threads,
        Command::Simulate(args) => args.threads,
        Command::Balance(args) => args.threads,
        _ => None,
    };
    if let Err(message) = bots::use_threads(threads.map(usize::from)) {
        eprintln!("error: {message}");
        return ExitCode::from(1);
    }
    let result = match cli.command {
        Command::List { json } => inspect::list(inspect::Output::json_if(json), &settings),
        Command::Validate { ruleset, json } => {
            inspect::validate(&ruleset, inspect::Output::json_if(json), &settings)
        }
        Command::Describe { ruleset, json } => {
            inspect::describe(&ruleset, inspect::Output::json_if(json), &settings)
        }
        Command::Show(args) => source::show(args, &settings.limits),
        Command::Play(args) => play::run(args, &settings),
        Command::Simulate(args) => simulate::run(args, &settings),
        Command::Merge(args) => results::merge(args),
        Command::Balance(args) => balance::run(args, &settings),
        Command::Bench(args) => bench::run(args, &settings),
        Command::Check(args) => traces::check(args, &settings),
        Command::Perft(args) => perft::run(args, &settings),
        Command::Replay(args) => traces::replay_cmd(args, &settings),
        Command::New(args) => new::run(args),
        Command::Serve(args) => serve::run(args, &settings),
        Command::Lsp => frontier_lsp::run_stdio(settings.limits),
        Command::Schema => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            out.write_all(frontier_interpreter::format::schema().as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| format!("cannot write the schema: {}", source::plain_io(&e)))
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
/// (println! panics when the reader is gone). Output that cannot be written for another
/// reason (a full disk) is an error, exit 1, said on stderr if stderr can take it; a
/// stderr that cannot be written ends the command with exit 1 too, never a panic.
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
            if message.contains("Broken pipe") {
                std::process::exit(0);
            }
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "error: cannot write the output: {message}"
            );
            std::process::exit(1);
        }
        if message.contains("failed printing to stderr") {
            std::process::exit(1);
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
    let wanted = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    if wanted {
        frontier_interpreter::render::Style::Colour
    } else {
        frontier_interpreter::render::Style::Plain
    }
}

/// Player names for a game: p1, p2, …
pub use frontier_study::games::seat_names;

/// The player count asked for, checked against the ruleset.
pub fn player_count(
    game: &frontier_interpreter::Game,
    asked: Option<usize>,
) -> Result<usize, String> {
    let n = asked.unwrap_or(game.meta.min_players as usize);
    if n < game.meta.min_players as usize || n > game.meta.max_players as usize {
        return Err(game.player_count_message(n));
    }
    Ok(n)
}
