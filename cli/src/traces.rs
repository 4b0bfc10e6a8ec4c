//! `frontier check` and `frontier replay`, and writing traces for play and simulate.

use std::path::{Path, PathBuf};

use clap::Args;
use frontier_interpreter::frontier_grammar::trace::{self as notation, RulesetRef, Trace};
use frontier_interpreter::runner::Step;
use frontier_interpreter::trace::{replay, starting_state, write_trace, Divergence, Replayed, ReplayStep};
use frontier_interpreter::{load_with_params, Game, State};

use crate::source::{plain_io, resolve};

#[derive(Args)]
pub struct CheckArgs {
    /// Trace files (or, with --all, folders of .trace files).
    #[arg(required = true)]
    pub traces: Vec<PathBuf>,
    /// Check every trace (folders included) and report every failing file.
    #[arg(long)]
    pub all: bool,
}

#[derive(Args)]
pub struct ReplayArgs {
    pub trace: PathBuf,
    /// Show the state after this step (1-based; 0 = the start) instead of the whole game.
    #[arg(long)]
    pub at: Option<usize>,
    /// With --at: print the state as a position file (YAML) that a trace can start from.
    #[arg(long, requires = "at")]
    pub state: bool,
}

/// A trace read and its game set up, ready to replay.
struct Prepared {
    trace: Trace,
    game: Game,
    start: State,
}

fn prepare(path: &Path) -> Result<Prepared, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: cannot read: {}", plain_io(&e)))?;
    let trace = notation::parse(&text).map_err(|errors| {
        errors.iter().map(|e| format!("{shown}:{}:{}: {}", e.line, e.column, e.message)).collect::<Vec<_>>().join("\n")
    })?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let at = |lc: Option<frontier_interpreter::frontier_grammar::LineCol>| lc.map(|l| format!(":{}:{}", l.line, l.column)).unwrap_or_default();
    let lines = &trace.header.header_lines;
    let ruleset_source = match (&trace.header.variant, &trace.header.ruleset) {
        (Some(variant), _) => resolve(variant, Some(&dir)).map_err(|e| format!("{shown}{}: {e}", at(lines.variant)))?,
        (None, RulesetRef::Name(n)) => resolve(n, Some(&dir)).map_err(|e| format!("{shown}{}: {e}", at(lines.ruleset)))?,
        (None, RulesetRef::Path(p)) => resolve(p, Some(&dir)).map_err(|e| format!("{shown}{}: {e}", at(lines.ruleset)))?,
    };
    let base_dir = Path::new(&ruleset_source.file).parent().map(Path::to_path_buf);
    let resolver = move |name: &str| resolve(name, base_dir.as_deref());
    let game = load_with_params(&ruleset_source, &resolver, &trace.header.params)
        .map_err(|e| format!("{shown}{}: the ruleset does not load:\n{e}", at(lines.ruleset)))?;
    let start = starting_state(&game, &trace, |p| {
        let file = dir.join(p);
        std::fs::read_to_string(&file).map_err(|e| format!("cannot read position {}: {}", file.display(), plain_io(&e)))
    })
    .map_err(|d| format!("{shown}:{}:{}: {}", d.line, d.column, d.message))?;
    Ok(Prepared { trace, game, start })
}

fn divergence(path: &Path, d: &Divergence) -> String {
    format!("{}:{}:{}:{d}", path.display(), d.line, d.column)
}

fn check_one(path: &Path) -> Result<Replayed, String> {
    let p = prepare(path)?;
    replay(&p.game, &p.trace, p.start, |_| {}).map_err(|d| divergence(path, &d))
}

fn trace_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| format!("{}: {}", p.display(), plain_io(&e)))?
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|f| f.extension().is_some_and(|x| x == "trace"))
                .collect();
            files.sort();
            out.extend(files);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

pub fn check(args: CheckArgs) -> Result<(), String> {
    if !args.all {
        if let Some(dir) = args.traces.iter().find(|p| p.is_dir()) {
            return Err(format!("{} is a folder: use --all to check every trace in it", dir.display()));
        }
    }
    let files = trace_files(&args.traces)?;
    let mut failures = 0;
    for file in &files {
        match check_one(file) {
            Ok(r) => println!("{}: ok ({} steps, {} assertions)", file.display(), r.steps, r.assertions),
            Err(e) if args.all => {
                failures += 1;
                eprintln!("{e}");
            }
            Err(e) => return Err(e),
        }
    }
    match failures {
        0 => Ok(()),
        n => Err(format!("{n} of {} traces do not check", files.len())),
    }
}

pub fn replay_cmd(args: ReplayArgs) -> Result<(), String> {
    let p = prepare(&args.trace)?;
    let Prepared { trace, game, start } = p;
    if args.at == Some(0) {
        print_state(&game, &start, args.state);
        return Ok(());
    }
    println!("{} — {}", game.meta.title, trace.header.players.join(", "));
    let mut shown_at: Option<State> = None;
    let result = replay(&game, &trace, start, |s: ReplayStep| {
        if let Some(at) = args.at {
            if s.number == at {
                shown_at = Some(s.state.clone());
            }
            return;
        }
        for line in s.log {
            println!("{:>4}  {line}", s.number);
        }
    });
    let replayed = result.map_err(|d| divergence(&args.trace, &d))?;
    match args.at {
        Some(at) => match shown_at {
            Some(state) => print_state(&game, &state, args.state),
            None => return Err(format!("the trace has {} steps, not {at}", replayed.steps)),
        },
        None => crate::play::print_result(&game, &replayed.final_state),
    }
    Ok(())
}

fn print_state(game: &Game, state: &State, as_position: bool) {
    if as_position {
        print!("{}", game.state_to_yaml(state));
    } else {
        print!("{}", game.render_state_styled(state, None, crate::output_style()));
    }
}

/// Writes a played game's trace to `path`, whole or not at all.
pub fn save_trace(
    path: &Path,
    ruleset: &str,
    players: &[String],
    seed: u64,
    steps: &[Step],
    outcome: Option<&frontier_interpreter::Outcome>,
) -> Result<(), String> {
    let reference = if crate::source::embedded(ruleset).is_some() {
        RulesetRef::Name(ruleset.to_string())
    } else {
        RulesetRef::Path(std::fs::canonicalize(ruleset).map(|p| p.display().to_string()).unwrap_or_else(|_| ruleset.to_string()))
    };
    let trace = write_trace(reference, players, Some(seed), steps, outcome);
    let tmp = path.with_extension("trace.partial");
    std::fs::write(&tmp, trace.to_text()).map_err(|e| format!("cannot write {}: {}", tmp.display(), plain_io(&e)))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {}", path.display(), plain_io(&e)))
}
