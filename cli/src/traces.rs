//! `frontier check` and `frontier replay`, and writing traces for play and simulate.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use frontier_engine::SharedCompiled;
use frontier_interpreter::frontier_grammar::trace::{self as notation, RulesetRef, Trace};
use frontier_interpreter::runner::Step;
use frontier_interpreter::trace::{
    replay_covering, replay_stepped, starting_state, write_trace, Divergence, ReplayStep, Replayed,
};
use frontier_interpreter::Stepper;
use frontier_interpreter::{coverage, Game, Journal, State};
use frontier_study::{Compile, Settings};

use crate::source::{plain_io, read_text, resolve};
use crate::words::counted;

#[derive(Args)]
pub struct CheckArgs {
    /// Trace files, or folders: every .trace file in them and their subfolders.
    #[arg(required = true, value_name = "TRACE")]
    pub traces: Vec<PathBuf>,
    /// Check every trace and report every failing file (without it, the check stops at
    /// the first failing trace).
    #[arg(long)]
    pub all: bool,
    /// Also report, per ruleset, which `rule:` references the replayed games ran through,
    /// which they never reached, and which clauses of the ruleset's RULES.md no trace reaches.
    #[arg(long)]
    pub coverage: bool,
    /// Print one JSON document instead (docs/json.md): each trace's result (every trace
    /// is checked, as with --all), and with --coverage per ruleset the rules run and never
    /// run and every RULES.md clause with whether it is reached.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct ReplayArgs {
    /// The trace file to replay (as `frontier play --trace-out` or a person writes it).
    #[arg(value_name = "TRACE")]
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
    game: Arc<Loaded>,
    start: State,
}

/// A game loaded for traces, and its code once compiled.
struct Loaded {
    game: Arc<Game>,
    compiled: std::sync::OnceLock<Option<SharedCompiled>>,
}

impl std::ops::Deref for Loaded {
    type Target = Game;
    fn deref(&self) -> &Game {
        &self.game
    }
}

impl Loaded {
    /// What steps the game: with its code, compiled the first time it is asked for
    /// (as in simulate; not with --compile off, nor where there is no code generator).
    fn stepper(&self, compile: Compile) -> Stepper<'_> {
        let compiled = match compile {
            Compile::On => self
                .compiled
                .get_or_init(|| SharedCompiled::new(self.game.clone()).ok())
                .as_ref(),
            Compile::Off => None,
        };
        match compiled {
            Some(code) => code.stepper(),
            None => Stepper::walker(&self.game),
        }
    }
}

/// A ruleset (how it was named, its text, its scripts) and the parameters set.
type GameKey = (String, String, Vec<(String, String)>, Vec<(String, i64)>);

/// The games loaded for a run of traces, by ruleset and parameters: traces of one game
/// share its load and its compiled code (compiling takes longer than replaying most
/// traces).
#[derive(Default)]
struct Games {
    loaded: std::collections::HashMap<GameKey, Arc<Loaded>>,
}

/// The line of the trace's `param` that a load diagnostic at YAML path `path`
/// (`params.hand_size…`) is about, if the trace sets that parameter.
fn param_line(
    trace: &Trace,
    path: &str,
) -> Option<frontier_interpreter::frontier_grammar::LineCol> {
    let name = path.strip_prefix("params.")?;
    let name = name.split(['.', '[']).next()?;
    let i = trace.header.params.iter().position(|(p, _)| p == name)?;
    trace.header.header_lines.params.get(i).copied()
}

fn prepare(path: &Path, games: &mut Games, settings: &Settings) -> Result<Prepared, String> {
    let shown = path.display();
    let limits = &settings.limits;
    let text = read_text(path, limits)?;
    let trace = notation::parse(&text).map_err(|errors| {
        errors
            .iter()
            .map(|e| format!("{shown}:{}:{}: {}", e.line, e.column, e.message))
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let lines = &trace.header.header_lines;
    let ruleset_source = match (&trace.header.variant, &trace.header.ruleset) {
        (Some(variant), _) => resolve(variant, Some(&dir), limits)
            .map_err(|e| format!("{shown}{}: {e}", at(lines.variant)))?,
        (None, RulesetRef::Name(n)) => resolve(n, Some(&dir), limits)
            .map_err(|e| format!("{shown}{}: {e}", at(lines.ruleset)))?,
        (None, RulesetRef::Path(p)) => resolve(p, Some(&dir), limits)
            .map_err(|e| format!("{shown}{}: {e}", at(lines.ruleset)))?,
    };
    let key = (
        ruleset_source.origin.clone(),
        ruleset_source.text.clone(),
        ruleset_source.scripts.clone(),
        trace.header.params.clone(),
    );
    let game = match games.loaded.get(&key) {
        Some(game) => game.clone(),
        None => {
            let game = load_game(&ruleset_source, &trace, settings, path)?;
            let game = Arc::new(Loaded {
                game: Arc::new(game),
                compiled: std::sync::OnceLock::new(),
            });
            games.loaded.insert(key, game.clone());
            game
        }
    };
    let start = starting_state(&game, &trace, |p| {
        let file = dir.join(p);
        read_text(&file, limits).map_err(|e| format!("position: {e}"))
    })
    .map_err(|d| format!("{shown}:{}:{}: {}", d.line, d.column, d.message))?;
    let wrong = frontier_interpreter::trace::assertion_errors(&game, &trace, &start);
    if !wrong.is_empty() {
        return Err(wrong
            .iter()
            .map(|d| format!("{shown}:{}:{}: {}", d.line, d.column, d.message))
            .collect::<Vec<_>>()
            .join("\n"));
    }
    Ok(Prepared { trace, game, start })
}

/// `:line:column` of a place in a trace's header, if it has one.
fn at(lc: Option<frontier_interpreter::frontier_grammar::LineCol>) -> String {
    lc.map(|l| format!(":{}:{}", l.line, l.column))
        .unwrap_or_default()
}

/// The game `trace` names, loaded with its parameters; a parameter the ruleset refuses
/// is reported at the trace's `param` line.
fn load_game(
    ruleset_source: &frontier_interpreter::RulesetSource,
    trace: &Trace,
    settings: &Settings,
    path: &Path,
) -> Result<Game, String> {
    let shown = path.display();
    let lines = &trace.header.header_lines;
    crate::source::load_source(ruleset_source, &trace.header.params, settings).map_err(|e| {
        // A parameter the trace sets is reported at its `param` line: the trace is at fault.
        let (mut out, mut others) = (Vec::new(), Vec::new());
        for d in e.diagnostics {
            match param_line(trace, &d.path) {
                Some(line) => out.push(format!(
                    "{shown}{}: {}: {}",
                    at(Some(line)),
                    d.path,
                    d.message
                )),
                None => others.push(d),
            }
        }
        if !others.is_empty() {
            out.push(format!(
                "{shown}{}: the ruleset does not load:\n{}",
                at(lines.ruleset),
                frontier_interpreter::LoadError {
                    diagnostics: others
                }
            ));
        }
        out.join("\n")
    })
}

fn divergence(path: &Path, d: &Divergence) -> String {
    format!("{}:{}:{}: {d}", path.display(), d.line, d.column)
}

fn check_one(
    path: &Path,
    games: &mut Games,
    coverage: &mut Option<Coverage>,
    settings: &Settings,
) -> Result<Replayed, String> {
    let p = prepare(path, games, settings)?;
    let stepper = p.game.stepper(settings.compile);
    let Some(coverage) = coverage else {
        return replay_stepped(stepper, &p.trace, p.start, |_| {})
            .map_err(|d| divergence(path, &d));
    };
    let entry = coverage.entry(&p, path);
    if let notation::Start::Setup = p.trace.header.start {
        // The setup ran in `prepare` without a journal: run it again to see its rules.
        let _ = p.game.start_logged(
            p.trace.header.players.clone(),
            &mut Journal::rules(&mut entry.ran),
        );
    }
    replay_covering(stepper, &p.trace, p.start, &mut entry.ran).map_err(|d| divergence(path, &d))
}

/// What `check --coverage` gathers, per ruleset (in the order first met).
#[derive(Default)]
struct Coverage {
    rulesets: Vec<Covered>,
}

struct Covered {
    name: String,
    traces: usize,
    /// Every rule reference a game of this ruleset can run through.
    runnable: BTreeSet<Arc<str>>,
    ran: BTreeSet<Arc<str>>,
    /// The references of declarations (tables, state, zones…), in force in every game.
    declared: BTreeSet<Arc<str>>,
    /// The ruleset's RULES.md, when one is found next to it.
    rules_md: Option<PathBuf>,
}

impl Covered {
    /// Every rule reference of the ruleset.
    fn known(&self) -> BTreeSet<Arc<str>> {
        self.runnable.union(&self.declared).cloned().collect()
    }
}

impl Coverage {
    fn entry(&mut self, p: &Prepared, path: &Path) -> &mut Covered {
        let name = p.game.meta.name.clone();
        let at = match self.rulesets.iter().position(|c| c.name == name) {
            Some(at) => at,
            None => {
                self.rulesets.push(Covered {
                    name: name.clone(),
                    traces: 0,
                    runnable: p.game.runnable_rules(),
                    ran: BTreeSet::new(),
                    declared: p.game.declared_rules(),
                    rules_md: rules_md_for(&p.trace, path, &name),
                });
                self.rulesets.len() - 1
            }
        };
        let entry = &mut self.rulesets[at];
        entry.traces += 1;
        entry
    }

    fn json(&self) -> serde_json::Value {
        let rulesets: Vec<serde_json::Value> = self
            .rulesets
            .iter()
            .map(|c| {
                let reached: BTreeSet<Arc<str>> = c.ran.union(&c.declared).cloned().collect();
                let clauses = c.rules_md.as_ref().and_then(|f| std::fs::read_to_string(f).ok()).map(|text| {
                    coverage::clauses(&text, &c.known())
                        .into_iter()
                        .map(|cl| {
                            let reached = cl.reference.as_deref().map(|r| coverage::reaches(r, &reached));
                            serde_json::json!({ "clause": cl.text, "reference": cl.reference, "reached": reached, "traces": cl.traces })
                        })
                        .collect::<Vec<_>>()
                });
                serde_json::json!({
                    "ruleset": c.name,
                    "traces": c.traces,
                    "rules_run": c.ran.iter().map(|r| &**r).collect::<Vec<_>>(),
                    "rules_never_run": c.runnable.iter().filter(|r| !c.ran.contains(*r)).map(|r| &**r).collect::<Vec<_>>(),
                    "rules_md": c.rules_md.as_ref().map(|f| f.display().to_string()),
                    "clauses": clauses,
                })
            })
            .collect();
        serde_json::Value::Array(rulesets)
    }

    fn print(&self) {
        for c in &self.rulesets {
            println!(
                "\ncoverage of {} ({}):",
                c.name,
                counted(c.traces as u64, "trace")
            );
            let ran: Vec<&str> = c.ran.iter().map(|r| &**r).collect();
            println!(
                "  rules run ({} of {}): {}",
                ran.len(),
                c.runnable.len(),
                ran.join(", ")
            );
            let missed: Vec<&str> = c
                .runnable
                .iter()
                .filter(|r| !c.ran.contains(*r))
                .map(|r| &**r)
                .collect();
            if missed.is_empty() {
                println!("  every rule reference of the ruleset's statements, options and procedures is run");
            } else {
                println!("  rules no trace runs: {}", missed.join(", "));
            }
            match &c.rules_md {
                None => println!("  no RULES.md found next to the ruleset"),
                Some(file) => match std::fs::read_to_string(file) {
                    Err(e) => println!("  {}: {}", file.display(), plain_io(&e)),
                    Ok(text) => {
                        let reached: BTreeSet<Arc<str>> =
                            c.ran.union(&c.declared).cloned().collect();
                        print_clauses(file, &text, &reached, &c.known())
                    }
                },
            }
        }
    }
}

/// The RULES.md of the trace's ruleset: beside a ruleset given by path, else in the
/// parent of a `traces` folder holding the trace, else under `rulesets/<name>/`.
fn rules_md_for(trace: &Trace, path: &Path, name: &str) -> Option<PathBuf> {
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut candidates = Vec::new();
    if let RulesetRef::Path(p) = &trace.header.ruleset {
        let ruleset = dir.join(p);
        candidates.push(if ruleset.is_dir() {
            ruleset.join("RULES.md")
        } else {
            ruleset.with_file_name("RULES.md")
        });
    }
    if dir.file_name().is_some_and(|d| d == "traces") {
        candidates.extend(dir.parent().map(|d| d.join("RULES.md")));
    }
    candidates.push(Path::new("rulesets").join(name).join("RULES.md"));
    candidates.into_iter().find(|c| c.is_file())
}

/// The clauses of RULES.md's clause map that no rule reference reaches (one that the
/// replays ran, or one of a declaration, in force in every game); see
/// `frontier_interpreter::coverage`.
fn print_clauses(file: &Path, text: &str, ran: &BTreeSet<Arc<str>>, known: &BTreeSet<Arc<str>>) {
    let clauses = coverage::clauses(text, known);
    if clauses.is_empty() {
        println!(
            "  {}: no clause map (a table whose first column is \"Clause\")",
            file.display()
        );
        return;
    }
    let unnamed = clauses.iter().filter(|c| c.reference.is_none()).count();
    let missed: Vec<&str> = clauses
        .iter()
        .filter(|c| {
            c.reference
                .as_deref()
                .is_some_and(|r| !coverage::reaches(r, ran))
        })
        .map(|c| c.text.as_str())
        .collect();
    let judged = clauses.len() - unnamed;
    println!(
        "  {}: {} clauses; {} of the {judged} that name a rule reference are reached",
        file.display(),
        clauses.len(),
        judged - missed.len()
    );
    if unnamed > 0 {
        println!("  {unnamed} clauses fall under no rule reference of the ruleset (§section, \"Reference:\" or a heading), so their coverage is not judged");
    }
    for clause in missed {
        let short: String = clause.chars().take(100).collect();
        let more = if clause.chars().count() > 100 {
            "…"
        } else {
            ""
        };
        println!("  not reached: {short}{more}");
    }
}

fn trace_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut files = Vec::new();
            traces_under(p, &mut files, 0)?;
            if files.is_empty() {
                // Checking nothing is not a success.
                return Err(format!(
                    "{}: no .trace file in this folder or below it",
                    p.display()
                ));
            }
            files.sort();
            out.extend(files);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Every `.trace` file in `dir` and its subfolders (symbolic links to folders are not
/// followed, so a link cycle cannot loop).
fn traces_under(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) -> Result<(), String> {
    const DEEPEST: usize = 64;
    if depth > DEEPEST {
        return Err(format!(
            "{}: folders nested more than {DEEPEST} deep",
            dir.display()
        ));
    }
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("{}: {}", dir.display(), plain_io(&e)))?;
    for entry in entries.filter_map(|e| e.ok()) {
        let path = entry.path();
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir {
            traces_under(&path, out, depth + 1)?;
        } else if path.extension().is_some_and(|x| x == "trace") {
            out.push(path);
        }
    }
    Ok(())
}

/// A trace that does not check, for `--json`: its message, and the line and column the
/// message starts with when it names one (`file:line:col: …`).
fn failed_json(file: &Path, error: &str) -> serde_json::Value {
    let shown = file.display().to_string();
    let place = error
        .strip_prefix(&shown)
        .and_then(|rest| rest.strip_prefix(':'))
        .and_then(|rest| {
            let mut parts = rest.splitn(3, ':');
            let line: u64 = parts.next()?.parse().ok()?;
            let column: u64 = parts.next()?.parse().ok()?;
            Some((line, column, parts.next()?.trim_start().to_string()))
        });
    let (line, column, message) = match place {
        Some((l, c, m)) => (Some(l), Some(c), m),
        None => (None, None, error.to_string()),
    };
    serde_json::json!({ "file": shown, "ok": false, "line": line, "column": column, "message": message, "error": error })
}

pub fn check(args: CheckArgs, settings: &Settings) -> Result<(), String> {
    let files = trace_files(&args.traces)?;
    let mut failures = 0;
    let mut coverage = args.coverage.then(Coverage::default);
    let mut results = Vec::new();
    let mut games = Games::default();
    for file in &files {
        match check_one(file, &mut games, &mut coverage, settings) {
            Ok(r) if args.json => results.push(serde_json::json!({
                "file": file.display().to_string(), "ok": true, "steps": r.steps, "assertions": r.assertions
            })),
            Ok(r) => println!("{}: ok ({}, {})", file.display(), counted(r.steps as u64, "step"), counted(r.assertions as u64, "assertion")),
            Err(e) if args.all || args.coverage || args.json => {
                failures += 1;
                eprintln!("{e}");
                results.push(failed_json(file, &e));
            }
            Err(e) => return Err(e),
        }
    }
    match &coverage {
        _ if args.json => {
            let doc = serde_json::json!({
                "frontier_check": 1,
                "traces": results,
                "checked": files.len(),
                "failed": failures,
                "coverage": coverage.as_ref().map(Coverage::json),
            });
            println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        }
        Some(coverage) => coverage.print(),
        None => {}
    }
    match failures {
        0 => Ok(()),
        n => Err(format!("{n} of {} traces do not check", files.len())),
    }
}

pub fn replay_cmd(args: ReplayArgs, settings: &Settings) -> Result<(), String> {
    let p = prepare(&args.trace, &mut Games::default(), settings)?;
    let Prepared { trace, game, start } = p;
    let shown = if args.state {
        StateAs::Position
    } else {
        StateAs::Text
    };
    if args.at == Some(0) {
        print_state(&game, &start, shown);
        return Ok(());
    }
    // A position file is YAML alone: no title before it.
    if shown == StateAs::Text {
        println!("{} — {}", game.meta.title, trace.header.players.join(", "));
    }
    let mut shown_at: Option<State> = None;
    let result = replay_stepped(
        game.stepper(settings.compile),
        &trace,
        start,
        |s: ReplayStep| {
            if let Some(at) = args.at {
                if s.number == at {
                    shown_at = Some(s.state.clone());
                }
                return;
            }
            for line in s.log {
                println!("{:>4}  {line}", s.number);
            }
        },
    );
    let replayed = result.map_err(|d| divergence(&args.trace, &d))?;
    match args.at {
        Some(at) => match shown_at {
            Some(state) => print_state(&game, &state, shown),
            None => {
                return Err(format!(
                    "the trace has {}, not {at}",
                    counted(replayed.steps as u64, "step")
                ))
            }
        },
        None => crate::play::print_result(&game, &replayed.final_state),
    }
    Ok(())
}

/// How `replay --at` prints a state: for people, or as a position file (`--state`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum StateAs {
    Text,
    Position,
}

fn print_state(game: &Game, state: &State, shown: StateAs) {
    match shown {
        StateAs::Position => print!("{}", game.state_to_yaml(state)),
        StateAs::Text => print!(
            "{}",
            game.render_state_styled(state, None, crate::output_style())
        ),
    }
}

/// The text of a played game's trace (`ruleset` as it was named: an embedded name, or a
/// path, which the trace gives in full).
pub fn trace_text(
    ruleset: &str,
    players: &[String],
    seed: u64,
    steps: &[Step],
    outcome: Option<&frontier_interpreter::Outcome>,
) -> String {
    let reference = if crate::source::embedded(ruleset).is_some() {
        RulesetRef::Name(ruleset.to_string())
    } else {
        RulesetRef::Path(
            std::fs::canonicalize(ruleset)
                .map(|p| p.display().to_string())
                .unwrap_or_else(|_| ruleset.to_string()),
        )
    };
    write_trace(reference, players, Some(seed), steps, outcome).to_text()
}
