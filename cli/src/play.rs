//! `frontier play`: one game in the terminal, its log as it happens, the final scores.
//! People can undo their decisions (`u`), quit leaving the trace so far (`q`) and go on
//! later with `--resume`; a decision with one option is taken for them.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::Args;
use frontier_interpreter::frontier_grammar::trace::{
    self as notation, LineKind, RulesetRef, Start,
};
use frontier_interpreter::roster::{self, split_agents, AgentSpec};
use frontier_interpreter::runner::Step;
use frontier_interpreter::{Choice, Game, State, Status, Stepper, Viewer};
use frontier_study::{BackEnd, Settings};

use crate::human::{Answer, HumanAgent};
use crate::table::{seats_for, Forced, Seat, Table, Waiting};

#[derive(Args)]
pub struct PlayArgs {
    /// The game: an embedded ruleset name (see `frontier list`) or a path to a ruleset
    /// file or folder. Not given with --resume, which reads it from the trace.
    #[arg(value_name = "RULESET", required_unless_present = "resume")]
    pub ruleset: Option<String>,
    /// Number of players (default: as many as --agents names, else the ruleset's minimum).
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// Seed of the game's random generator (default: taken from the clock, and printed).
    /// The same seed, players and decisions give the same game.
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,
    /// One agent per seat, comma-separated: human, random, mcts or ismcts (default: human
    /// in seat 1 when the terminal is interactive, random elsewhere). Without --players,
    /// the number of agents is the number of players. The search bots take options after
    /// a colon: mcts:iterations=1000,c=1.4 (iterations: playouts per decision, default
    /// 500; ms: a time budget per decision instead, not reproducible; trees: root-parallel
    /// trees, default 1; c: exploration, default 1.4; rollout: steps per playout, default
    /// 10000; reward: win or rank). mcts searches one sampled state per decision, ismcts
    /// samples the hidden cards anew at every iteration; neither reads what its player
    /// cannot see.
    #[arg(long, value_name = "AGENTS", value_parser = parse_agent_list)]
    pub agents: Option<AgentList>,
    /// Threads that search trees (mcts:trees=N) run on at once (1 to 256; default: one per core).
    /// The bots' decisions do not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Write the game's trace to this file: at the end of the game, or when a person
    /// quits with `q` (default then: frontier-<ruleset>-<seed>.trace in this folder, or
    /// -2, -3, … when that file exists). A file already there is replaced only with --force.
    #[arg(long, value_name = "FILE")]
    pub trace_out: Option<PathBuf>,
    #[command(flatten)]
    pub force: crate::output::ForceArg,
    /// Go on with a game left with `q`: the trace it wrote gives the ruleset, players,
    /// seed, agents and the steps so far (chance it leaves out is drawn from the seed, as
    /// `check` does). The trace is never written: the game goes on into --trace-out or
    /// NAME-resumed.trace beside it.
    #[arg(long, value_name = "TRACE", conflicts_with_all = ["ruleset", "players", "seed", "from"])]
    pub resume: Option<PathBuf>,
    /// Start from a position file (as `frontier replay TRACE --at STEP --state` writes it)
    /// instead of the ruleset's setup; the position seats the players.
    #[arg(long, value_name = "POSITION")]
    pub from: Option<PathBuf>,
    /// Ask a person even when a decision has a single option (by default that option is
    /// taken for them, with a line in the log).
    #[arg(long)]
    pub confirm_forced: bool,
}

/// The agents of `--agents`, one per seat, each checked.
#[derive(Clone, Debug)]
pub struct AgentList(pub Vec<String>);

/// `--agents`' parser: a wrong agent or option is a usage error.
fn parse_agent_list(list: &str) -> Result<AgentList, String> {
    let specs = split_agents(list);
    for spec in &specs {
        if spec != "human" {
            AgentSpec::parse(spec)
                .map_err(|e| format!("{e} (agents: human, {})", roster::names()))?;
        }
    }
    Ok(AgentList(specs))
}

/// A game being played at the terminal.
struct Session<'g> {
    game: &'g Game,
    /// What steps the game: with its compiled code unless `--compile off`.
    stepper: Stepper<'g>,
    /// The ruleset as the trace names it.
    ruleset: String,
    seed: u64,
    /// The position the game started from (`--from`), as the trace names it.
    position: Option<String>,
    specs: Vec<String>,
    /// The game; its history holds one snapshot per decision a person was asked (not the
    /// forced ones), the one being asked last.
    table: Table,
    human: HumanAgent,
    forced: Forced,
}

/// How a session stopped.
enum Stopped {
    Over,
    /// A person quit (`q`) or their input ended.
    Quit {
        input_ended: bool,
    },
}

impl Session<'_> {
    /// Plays until the game ends or a person quits; the game's log is printed as it comes.
    fn run(&mut self) -> Result<Stopped, String> {
        loop {
            let player =
                match self
                    .table
                    .play_until_person(self.stepper, self.forced, &mut |_, line| {
                        println!("{line}")
                    })? {
                    Waiting::Over => return Ok(Stopped::Over),
                    Waiting::Person { player } => player,
                };
            self.table.remember(player);
            let view = self
                .game
                .view(&self.table.state)
                .ok_or("the game is not at a decision")?;
            let option = match self.human.ask(&view)? {
                Answer::Option(i) => i,
                Answer::Quit => return Ok(Stopped::Quit { input_ended: false }),
                Answer::InputEnded => return Ok(Stopped::Quit { input_ended: true }),
                Answer::Undo => {
                    self.undo(player);
                    continue;
                }
            };
            let mut lines = Vec::new();
            self.table
                .apply_option(self.stepper, player, option, &mut lines)?;
            lines.iter().for_each(|line| println!("{line}"));
        }
    }

    /// Back to this person's previous decision (the snapshot on top is the decision being
    /// asked; the one before it of the same seat is where undo goes).
    fn undo(&mut self, player: u8) {
        let name = &self.table.names[player as usize];
        // The last snapshot is of the decision being asked.
        let asked = self.table.history.len() - 1;
        match self.table.history[..asked]
            .iter()
            .rposition(|s| s.seat == player)
        {
            None => {
                println!("nothing to undo: this is {name}'s first decision");
                self.table.back_to(asked);
            }
            Some(at) => {
                let name = name.clone();
                let undone = self.table.back_to(at);
                println!(
                    "undone: back to {name}'s previous decision ({} taken back)",
                    crate::words::counted(undone as u64, "step")
                );
            }
        }
        self.human.forget_board();
    }

    /// The trace so far; with the final result when the game is over (a person quits
    /// only at a decision, so a game left with `q` has none).
    fn trace_text(&self) -> String {
        let reference = match crate::source::embedded(&self.ruleset) {
            Some(_) => RulesetRef::Name(self.ruleset.clone()),
            None => RulesetRef::Path(absolute(Path::new(&self.ruleset))),
        };
        let outcome = match self.game.status(&self.table.state) {
            Status::Over(o) => Some(o.clone()),
            _ => None,
        };
        let mut trace = frontier_interpreter::trace::write_trace(
            reference,
            &self.table.names,
            Some(self.seed),
            &self.table.steps,
            outcome.as_ref(),
        );
        if let Some(p) = &self.position {
            trace.header.start = Start::Position(p.clone());
        }
        format!("# agents {}\n{}", self.specs.join(","), trace.to_text())
    }

    fn save(&self, path: &Path) -> Result<(), String> {
        let text = self.trace_text();
        crate::output::check_trace_size(&text, &self.game.limits)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        crate::output::write_atomically(path, text.as_bytes())
    }
}

/// Whether a person's single option is taken for them (`--confirm-forced` asks).
fn forced(args: &PlayArgs) -> Forced {
    if args.confirm_forced {
        Forced::Asked
    } else {
        Forced::Taken
    }
}

fn absolute(path: &Path) -> String {
    std::fs::canonicalize(path)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| path.display().to_string())
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

fn default_specs(n: usize) -> Vec<String> {
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    (0..n)
        .map(|i| {
            if i == 0 && interactive {
                "human".into()
            } else {
                "random".into()
            }
        })
        .collect()
}

pub fn run(args: PlayArgs, settings: &Settings) -> Result<(), String> {
    if let Some(trace) = &args.resume {
        return resume(trace, &args, settings);
    }
    let ruleset = args.ruleset.clone().unwrap_or_default();
    let game = crate::source::load_ruleset(&ruleset, settings)?;
    let back_end = BackEnd::for_game(&game, settings.compile);
    let seed = args.seed.unwrap_or_else(clock_seed);
    let (start, names, position) = match &args.from {
        Some(file) => {
            let text = crate::source::read_text(file, &settings.limits)?;
            let state = game
                .state_from_yaml(&text)
                .map_err(|e| format!("{}: {e}", file.display()))?;
            let names: Vec<String> = state.names().to_vec();
            if let Some(n) = args.players.filter(|n| *n != names.len()) {
                return Err(format!(
                    "--players {n}, but the position {} seats {} players",
                    file.display(),
                    names.len()
                ));
            }
            (Some(state), names, Some(absolute(file)))
        }
        None => {
            let asked = args.players.or(args.agents.as_ref().map(|a| a.0.len()));
            let n = crate::player_count(&game, asked)?;
            (None, crate::seat_names(n), None)
        }
    };
    let n = names.len();
    let specs = args
        .agents
        .clone()
        .map(|a| a.0)
        .unwrap_or_else(|| default_specs(n));
    if specs.len() != n {
        crate::usage_error(format!(
            "--agents names {} agents for {n} players",
            specs.len()
        ));
    }
    let seats = seats_for(&specs, seed)?;
    // A trace that cannot be written is said before the game, not after it.
    if let Some(out) = &args.trace_out {
        // An input first: --force never replaces one.
        crate::output::refuse_ruleset_file(out, Path::new(&ruleset), "--trace-out")?;
        if let Some(file) = &args.from {
            crate::output::refuse_input(out, file, "--trace-out")?;
        }
        crate::output::check_output(out, args.force.existing(), "--trace-out")?;
    }
    println!(
        "{} — {n} players ({}), seed {seed}",
        game.meta.title,
        specs.join(", ")
    );
    let state = match start {
        Some(state) => state,
        None => {
            let (state, setup_log) = crate::table::start(&game, names.clone(), &seats)?;
            for line in setup_log {
                println!("{line}");
            }
            state
        }
    };
    let mut session = Session {
        game: &game,
        stepper: back_end.stepper(&game),
        ruleset: ruleset.clone(),
        seed,
        position,
        specs,
        table: Table::new(names, state, seed, seats),
        human: HumanAgent::default(),
        forced: forced(&args),
    };
    finish(&mut session, args.trace_out.as_deref())
}

/// Plays a session to its end (or a person's quitting) and writes its trace.
fn finish(session: &mut Session, trace_out: Option<&Path>) -> Result<(), String> {
    match session.run()? {
        Stopped::Over => {
            print_result(session.game, &session.table.state);
            if let Some(path) = trace_out {
                session.save(path)?;
                println!("trace written to {}", path.display());
            }
            Ok(())
        }
        Stopped::Quit { input_ended } => {
            let default = PathBuf::from(format!(
                "frontier-{}-{}.trace",
                session.game.meta.name, session.seed
            ));
            // A file the user did not name never replaces one.
            let path = trace_out
                .map(Path::to_path_buf)
                .unwrap_or_else(|| crate::output::free_path(&default));
            session.save(&path)?;
            let n = session.table.steps.len();
            let how = format!(
                "the game so far ({n} step{}) is in {}: go on with `frontier play --resume {}`",
                if n == 1 { "" } else { "s" },
                path.display(),
                path.display()
            );
            if input_ended {
                return Err(format!("input ended before the game did; {how}"));
            }
            println!("\n{how}");
            Ok(())
        }
    }
}

/// `--resume TRACE`: replays the trace's steps with the seed (so that chance and the
/// random agents go on as they would have), then plays on.
fn resume(path: &Path, args: &PlayArgs, settings: &Settings) -> Result<(), String> {
    let shown = path.display();
    if let Some(out) = &args.trace_out {
        crate::output::refuse_input(out, path, "--trace-out")?;
        crate::output::check_output(out, args.force.existing(), "--trace-out")?;
    }
    let text = crate::source::read_text(path, &settings.limits)?;
    let trace = notation::parse(&text).map_err(|errors| {
        errors
            .iter()
            .map(|e| format!("{shown}:{}:{}: {}", e.line, e.column, e.message))
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let ruleset = match &trace.header.ruleset {
        RulesetRef::Name(n) => n.clone(),
        RulesetRef::Path(p) => absolute(&dir.join(p)),
    };
    if trace.header.variant.is_some() || !trace.header.params.is_empty() {
        return Err(format!("{shown}: a trace with `variant` or `param` lines cannot be resumed: play the variant's file instead"));
    }
    let game = crate::source::load_ruleset(&ruleset, settings)
        .map_err(|e| format!("{shown}: the ruleset does not load:\n{e}"))?;
    let back_end = BackEnd::for_game(&game, settings.compile);
    let Some(seed) = trace.header.seed else {
        return Err(format!(
            "{shown}: the trace has no seed, so its game cannot go on as it would have"
        ));
    };
    let names = trace.header.players.clone();
    let n = names.len();
    let recorded: Option<Vec<String>> = text
        .lines()
        .find_map(|l| l.strip_prefix("# agents "))
        .map(split_agents);
    let specs = args
        .agents
        .clone()
        .map(|a| a.0)
        .or(recorded)
        .unwrap_or_else(|| default_specs(n));
    if specs.len() != n {
        return Err(format!(
            "{n} players but {} agents ({})",
            specs.len(),
            specs.join(",")
        ));
    }
    let seats = seats_for(&specs, seed)?;
    let position = match &trace.header.start {
        Start::Setup => None,
        Start::Position(p) => Some(absolute(&dir.join(p))),
    };
    let state = frontier_interpreter::trace::starting_state(&game, &trace, |p| {
        crate::source::read_text(&dir.join(p), &settings.limits)
            .map_err(|e| format!("position: {e}"))
    })
    .map_err(|d| format!("{shown}:{}:{}: {}", d.line, d.column, d.message))?;
    println!(
        "{} — {n} players ({}), seed {seed}, resumed from {shown}",
        game.meta.title,
        specs.join(", ")
    );
    let mut session = Session {
        game: &game,
        stepper: back_end.stepper(&game),
        ruleset,
        seed,
        position,
        specs,
        table: Table::new(names, state, seed, seats),
        human: HumanAgent::default(),
        forced: forced(args),
    };
    let table = &mut session.table;
    let mut quiet = Vec::new();
    for line in &trace.body {
        let at = format!("{shown}:{}:{}", line.line, line.column);
        match &line.kind {
            LineKind::Decision { player, label } => {
                // Chance the trace leaves to the seed (as `check` reads it): drawn here.
                while let Some((choice, drawn)) = table.sample_chance(&game) {
                    table.apply(
                        back_end.stepper(&game),
                        choice,
                        Step::Chance { label: drawn },
                        &mut quiet,
                    )?;
                }
                let Status::Decision {
                    player: seat,
                    options,
                } = game.status(&table.state)
                else {
                    return Err(format!(
                        "{at}: the trace has {player} decide, but the game is not at a decision"
                    ));
                };
                if table.names[seat as usize] != *player {
                    return Err(format!(
                        "{at}: the trace has {player} decide, but {} decides here",
                        table.names[seat as usize]
                    ));
                }
                let labels = game
                    .option_labels(&table.state)
                    .map_err(|e| e.to_string())?;
                let Some(i) = labels.iter().position(|l| l == label) else {
                    return Err(format!("{at}: '{label}' is not an option here"));
                };
                match &mut table.seats[seat as usize] {
                    Seat::Bot(agent) => {
                        // A bot whose stream advances with its decisions moves on as it would have.
                        let view = game
                            .view(&table.state)
                            .ok_or("the game is not at a decision")?;
                        agent
                            .replay(&view)
                            .map_err(|e| format!("{at}: {player}: {e}"))?;
                    }
                    Seat::Human if options == 1 && session.forced == Forced::Taken => {}
                    Seat::Human => table.remember(seat),
                }
                table.apply(
                    back_end.stepper(&game),
                    Choice::Option(i),
                    Step::Decision {
                        player: seat,
                        label: label.clone(),
                    },
                    &mut quiet,
                )?;
            }
            LineKind::Chance { label } => {
                // The outcome the line gives, as `check` reads it.
                if !matches!(game.status(&table.state), Status::Chance(_)) {
                    return Err(format!("{at}: the trace has a chance result here, but the game is not at a chance point"));
                }
                let choice = table
                    .chance_of_line(&game, label)
                    .map_err(|e| format!("{at}: {e}"))?;
                let drawn = game.outcome_label(&table.state, &choice);
                table.apply(
                    back_end.stepper(&game),
                    choice,
                    Step::Chance { label: drawn },
                    &mut quiet,
                )?;
            }
            LineKind::ChanceBySeed { count } => {
                // Drawn by the seed, as `check` draws them.
                let wanted = count.map_or(usize::MAX, |n| n as usize);
                let mut drawn = 0;
                while drawn < wanted {
                    let Some((choice, label)) = table.sample_chance(&game) else {
                        if drawn > 0 && count.is_none() {
                            break;
                        }
                        return Err(format!(
                            "{at}: the trace draws chance by the seed, but the game is not at a chance point after {drawn}"
                        ));
                    };
                    table.apply(
                        back_end.stepper(&game),
                        choice,
                        Step::Chance { label },
                        &mut quiet,
                    )?;
                    drawn += 1;
                }
            }
            _ => {}
        }
    }
    let n = session.table.steps.len();
    let over = matches!(game.status(&session.table.state), Status::Over(_));
    println!(
        "{n} step{} replayed{}",
        if n == 1 { "" } else { "s" },
        if over { "" } else { "; the game goes on" }
    );
    if let (Status::Over(_), None) = (game.status(&session.table.state), &args.trace_out) {
        // A finished game: its result, and the trace left as it is.
        println!("the game of {shown} is over: nothing to play");
        print_result(&game, &session.table.state);
        return Ok(());
    }
    // The input is never written: the game goes on into --trace-out or a new file.
    let out = args.trace_out.clone().unwrap_or_else(|| resumed_path(path));
    if out == path {
        return Err(format!(
            "--trace-out {shown} is the trace being resumed: it is left as it is; name another file"
        ));
    }
    finish(&mut session, Some(&out))
}

/// Where a resumed game is written without --trace-out: beside its trace, as
/// `NAME-resumed.trace` (or `-resumed-2`, … when that file exists).
fn resumed_path(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".into());
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    (1..)
        .map(|k| match k {
            1 => dir.join(format!("{stem}-resumed.trace")),
            k => dir.join(format!("{stem}-resumed-{k}.trace")),
        })
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join(format!("{stem}-resumed.trace")))
}

pub fn print_result(game: &Game, state: &State) {
    let board = game.render_display_styled(state, Viewer::Everyone, crate::output_style());
    if !board.is_empty() {
        println!("\n{}", board.trim_end());
    }
    // With a display, the board it draws is the end screen; without, the state as the
    // players read it (no bookkeeping).
    if board.is_empty() {
        let shown = game.render_end_state(state, crate::output_style());
        if !shown.trim().is_empty() {
            println!("\n{}", shown.trim_end());
        }
    }
    if let Status::Over(outcome) = game.status(state) {
        // Labelled: what the score counts (the ranking's doc, or its score as written),
        // and each tie-break as written beside its value.
        println!("\nfinal scores ({}):", game.ranking.label);
        let mut seats: Vec<usize> = (0..outcome.scores.len()).collect();
        seats.sort_by_key(|&p| outcome.ranks[p]);
        for p in seats {
            let tb = if outcome.tiebreaks[p].is_empty() {
                String::new()
            } else {
                format!(
                    " (tie-break{}: {})",
                    if outcome.tiebreaks[p].len() > 1 {
                        "s"
                    } else {
                        ""
                    },
                    outcome.tiebreaks[p]
                        .iter()
                        .zip(&game.ranking.tiebreak_labels)
                        .map(|(t, label)| format!("{label} = {t}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            println!(
                "  {}. {} {}{tb}",
                outcome.ranks[p],
                state.names()[p],
                outcome.scores[p]
            );
        }
        let winners: Vec<&str> = outcome
            .winners()
            .iter()
            .map(|&p| state.names()[p].as_str())
            .collect();
        match winners.len() {
            0 => println!("a draw"),
            1 => println!("winner: {}", winners[0]),
            _ => println!("shared victory: {}", winners.join(", ")),
        }
    }
}
