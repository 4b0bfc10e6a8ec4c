//! One game played through the web server: the state, the seats (people and bots), the
//! steps taken (its trace), the log, and snapshots before each person's decision for undo.
//! The game does not play itself: its driver (`live.rs`) asks it for the next piece of
//! work ([`WebGame::work`]): chance and a person's single option are taken at once, a
//! bot's decision is handed out ([`Thinking`]) to be thought over without the game's lock
//! and brought back ([`WebGame::conclude`]).

use std::collections::HashSet;
use std::sync::Arc;

use frontier_engine::SharedCompiled;
use frontier_interpreter::agent::Bot;
use frontier_interpreter::frontier_grammar::trace::RulesetRef;
use frontier_interpreter::model::Element;
use frontier_interpreter::runner::Step;
use frontier_interpreter::scene::Viewer;
use frontier_interpreter::{Choice, Game, Journal, State, Status, Stepper};
use frontier_study::Compile;

use crate::table::{seats_for, Seat, Table};

/// The most steps a game of the server takes: past it the game stops with a message
/// (parameters without an upper bound, as a wagon count of 30,000, would otherwise keep
/// a bot game running for hundreds of thousands of steps).
pub const MAX_STEPS: usize = 20_000;

/// A log line and the number of steps taken when it was written (0: during setup).
#[derive(Clone)]
pub struct LogLine {
    pub after_step: usize,
    pub text: String,
}

pub struct WebGame {
    pub game: Arc<Game>,
    /// The game's compiled code (none with `--compile off`, or where the machine has no
    /// code generator): it steps the game and its bots' searches.
    code: Option<Arc<SharedCompiled>>,
    /// The ruleset's name in the server's list.
    pub ruleset: String,
    /// How the trace names the ruleset: an embedded name or a path.
    reference: RulesetRef,
    pub params: Vec<(String, i64)>,
    /// Who sits at each seat: `human`, `random`, `mcts:…`.
    pub specs: Vec<String>,
    pub seed: u64,
    /// The game; its history holds a snapshot before each decision a person took.
    pub table: Table,
    /// The log as each of its readers reads it (see [`readers`]).
    logs: Vec<(Viewer, Vec<LogLine>)>,
    /// Counts the changes of the game (a step, an undo): a bot's decision thought over
    /// on an older version is dropped.
    pub version: u64,
    /// The seat whose bot is thinking now.
    pub thinking: Option<u8>,
    /// Why the game stopped before its end (the ruleset failed while running, or the
    /// server's bound on steps was reached).
    pub failure: Option<String>,
}

/// What a new game is made of.
pub struct Setup {
    pub game: Arc<Game>,
    pub compile: Compile,
    /// The ruleset's name in the server's list.
    pub ruleset: String,
    pub reference: RulesetRef,
    pub params: Vec<(String, i64)>,
    /// Who sits at each seat, as asked (`human`, `random`, `mcts:…`).
    pub specs: Vec<String>,
    pub seed: u64,
    /// What each seat's bot is built from (the specs with the server's bounds).
    pub bot_specs: Vec<String>,
}

/// A bot's decision to think over, with everything it needs and without the game.
pub struct Thinking {
    pub seat: u8,
    bot: Box<dyn Bot>,
    state: State,
    game: Arc<Game>,
    code: Option<Arc<SharedCompiled>>,
    version: u64,
}

/// What a bot decided, to bring back to its game.
pub struct Thought {
    seat: u8,
    /// The bot after deciding (its stream moved on).
    bot: Box<dyn Bot>,
    option: Result<usize, String>,
    version: u64,
}

impl Thinking {
    /// Thinks: as long as the bot's search takes (bounded by the server's time per move).
    pub fn decide(mut self) -> Thought {
        let stepper = stepper(&self.game, &self.code);
        let option = match stepper.view(&self.state) {
            Some(view) => self.bot.decide(&view),
            None => Err("the game is not at a decision".into()),
        };
        Thought {
            seat: self.seat,
            bot: self.bot,
            option,
            version: self.version,
        }
    }
}

/// What [`WebGame::work`] did or hands out.
pub enum Work {
    /// Nothing to do: a person decides, or the game is over or stopped.
    Waiting,
    /// A step was taken (chance, a person's single option).
    Stepped,
    /// A bot decides.
    Think(Box<Thinking>),
}

/// What steps a web game: its compiled code, or the walker alone.
fn stepper<'a>(game: &'a Game, code: &'a Option<Arc<SharedCompiled>>) -> Stepper<'a> {
    match code {
        Some(code) => code.stepper(),
        None => Stepper::walker(game),
    }
}

impl WebGame {
    /// A new game after its setup; its driver plays it on.
    pub fn start(setup: Setup) -> Result<WebGame, String> {
        let Setup {
            game,
            compile,
            ruleset,
            reference,
            params,
            specs,
            seed,
            bot_specs,
        } = setup;
        let code = match compile {
            Compile::On => SharedCompiled::new(game.clone()).ok().map(Arc::new),
            Compile::Off => None,
        };
        let names = crate::seat_names(specs.len());
        let seats = seats_for(&bot_specs, seed)?;
        let (mut setup_log, mut secrets) = (Vec::new(), Vec::new());
        let state = game
            .start_logged(
                names.clone(),
                &mut Journal::on_noting(&mut setup_log, &mut secrets),
            )
            .map_err(|e| e.to_string())?;
        let logs = readers(&seats)
            .into_iter()
            .map(|viewer| {
                let mut lines = setup_log.clone();
                game.hide_unseen(&state, viewer, &mut lines, &secrets);
                let log = lines
                    .into_iter()
                    .map(|text| LogLine {
                        after_step: 0,
                        text,
                    })
                    .collect();
                (viewer, log)
            })
            .collect();
        Ok(WebGame {
            game,
            code,
            ruleset,
            reference,
            params,
            specs,
            seed,
            table: Table::new(names, state, seed, seats),
            logs,
            version: 0,
            thinking: None,
            failure: None,
        })
    }

    pub fn is_over(&self) -> bool {
        matches!(self.game.status(&self.table.state), Status::Over(_))
    }

    /// The seat that must decide now, if the game waits on a decision.
    pub fn decider(&self) -> Option<u8> {
        match self.game.status(&self.table.state) {
            Status::Decision { player, .. } => Some(player),
            _ => None,
        }
    }

    pub fn is_human(&self, seat: u8) -> bool {
        matches!(
            self.table.seats.get(seat as usize),
            Some(crate::table::Seat::Human)
        )
    }

    /// Takes option `option` for `seat`, then plays the bots and chance that follow.
    pub fn choose(&mut self, seat: u8, option: usize) -> Result<(), Refusal> {
        let Status::Decision { player, options } = self.game.status(&self.table.state) else {
            return Err(Refusal::Conflict(
                "the game is not waiting for a decision".into(),
            ));
        };
        if player != seat {
            return Err(Refusal::Conflict(format!(
                "it is {}'s decision, not {}'s",
                self.table.names[player as usize],
                self.seat_name(seat)
            )));
        }
        if !self.is_human(seat) {
            return Err(Refusal::Conflict(format!(
                "{} is played by a bot",
                self.seat_name(seat)
            )));
        }
        if option >= options {
            return Err(Refusal::Invalid(format!(
                "option {option} does not exist: the decision has {options} options (0 to {})",
                options - 1
            )));
        }
        self.table.remember(seat);
        self.apply_option(seat, option).map_err(Refusal::Game)
    }

    /// Back to `seat`'s last decision, unless something that seat could not see was shown
    /// since (a chance result, a card drawn): undoing would let them choose again knowing it.
    pub fn undo(&mut self, seat: u8) -> Result<usize, Refusal> {
        let at = self.undo_point(seat)?;
        let undone = self.table.back_to(at);
        let steps = self.table.steps.len();
        for (_, log) in &mut self.logs {
            log.retain(|l| l.after_step <= steps);
        }
        // A bot thinking on the undone state is not listened to.
        self.version += 1;
        self.thinking = None;
        self.failure = None;
        Ok(undone)
    }

    /// Whether `seat` may undo now (and the refusal's reason when not).
    pub fn undo_point(&self, seat: u8) -> Result<usize, Refusal> {
        let Some(at) = self.table.last_decision_of(seat) else {
            return Err(Refusal::Conflict(format!(
                "{} has no decision to take back",
                self.seat_name(seat)
            )));
        };
        let snapshot = &self.table.history[at];
        if self.table.steps[snapshot.steps..]
            .iter()
            .any(|s| matches!(s, Step::Chance { .. }))
        {
            return Err(Refusal::Conflict(
                "a chance result came up since that decision: it cannot be taken back".into(),
            ));
        }
        if self.sees_more_than(seat, &snapshot.state) {
            return Err(Refusal::Conflict(
                "something hidden was shown since that decision: it cannot be taken back".into(),
            ));
        }
        Ok(at)
    }

    /// Whether `seat` now sees an element that was hidden from them in `before` (and not
    /// seen there elsewhere).
    fn sees_more_than(&self, seat: u8, before: &State) -> bool {
        // The elements of a state that `seat` sees, and those it does not.
        let split = |state: &State| {
            let (mut seen, mut hidden) = (HashSet::new(), HashSet::new());
            for zone in 0..state.zones().len() {
                let flags = self
                    .game
                    .seen_positions(state, seat, zone)
                    .unwrap_or_default();
                // An element is its code within what the zone holds (a table's rows, players).
                let kind = match self.game.zones[self.game.zone_of_instance(zone).0].of {
                    Element::Player => None,
                    Element::Row(t) => Some(t),
                };
                for (at, element) in state.zones()[zone].iter().enumerate() {
                    if flags.get(at).copied().unwrap_or(false) {
                        seen.insert((kind, *element));
                    } else {
                        hidden.insert((kind, *element));
                    }
                }
            }
            (seen, hidden)
        };
        let (seen_then, hidden_then) = split(before);
        let (seen_now, _) = split(&self.table.state);
        seen_now
            .iter()
            .any(|e| hidden_then.contains(e) && !seen_then.contains(e))
    }

    /// How a viewer asking for `seat` sees the game: that seat, or everything once it is over.
    pub fn viewer(&self, seat: Option<u8>) -> Viewer {
        match (self.game.status(&self.table.state), seat) {
            (Status::Over(_), _) => Viewer::Everyone,
            (_, Some(s)) => Viewer::Seat(s),
            (_, None) => Viewer::Table,
        }
    }

    fn seat_name(&self, seat: u8) -> String {
        self.table
            .names
            .get(seat as usize)
            .cloned()
            .unwrap_or_else(|| format!("seat {seat}"))
    }

    /// Applies option `option` of `player`'s decision, its log lines as the game's
    /// audience reads them.
    fn apply_option(&mut self, player: u8, option: usize) -> Result<(), String> {
        let label = self
            .game
            .option_label(&self.table.state, option)
            .map_err(|e| e.to_string())?;
        self.apply(Choice::Option(option), Step::Decision { player, label })
    }

    fn apply(&mut self, choice: Choice, step: Step) -> Result<(), String> {
        let mut lines: Vec<Vec<String>> = vec![Vec::new(); self.logs.len()];
        let mut readers: Vec<(Viewer, &mut Vec<String>)> = self
            .logs
            .iter()
            .map(|(viewer, _)| *viewer)
            .zip(lines.iter_mut())
            .collect();
        let stepper = stepper(&self.game, &self.code);
        self.game
            .apply_narrated_to(stepper, &mut self.table.state, choice, &mut readers)
            .map_err(|e| e.to_string())?;
        self.table.steps.push(step);
        self.version += 1;
        let after_step = self.table.steps.len();
        for ((_, log), lines) in self.logs.iter_mut().zip(lines) {
            log.extend(lines.into_iter().map(|text| LogLine { after_step, text }));
        }
        Ok(())
    }

    /// The log as `seat` reads it (their own private lines in it), or without a seat as
    /// every player reads it.
    pub fn log_for(&self, seat: Option<u8>) -> &[LogLine] {
        let own = seat.and_then(|s| self.logs.iter().find(|(v, _)| *v == Viewer::Seat(s)));
        match own.or(self.logs.first()) {
            Some((_, log)) => log,
            None => &[],
        }
    }

    /// The next piece of work of the game's driver: a chance step or a person's single
    /// option is taken here; a bot's decision is handed out to be thought over.
    pub fn work(&mut self) -> Work {
        if self.failure.is_some() || self.thinking.is_some() {
            return Work::Waiting;
        }
        if self.table.steps.len() >= MAX_STEPS
            && !matches!(self.game.status(&self.table.state), Status::Over(_))
        {
            self.failure = Some(format!(
                "the game stopped after {MAX_STEPS} steps, the most a game of this server takes (are the parameters far larger than the ruleset's defaults?)"
            ));
            self.version += 1;
            return Work::Waiting;
        }
        let done = match self.game.status(&self.table.state) {
            Status::Over(_) => return Work::Waiting,
            Status::Chance(_) => match self.table.sample_chance(&self.game) {
                Some((choice, label)) => self.apply(choice, Step::Chance { label }),
                None => Err("the game is not at a chance point".into()),
            },
            Status::Decision { player, options } => match &self.table.seats[player as usize] {
                Seat::Bot(bot) => {
                    self.thinking = Some(player);
                    self.version += 1;
                    return Work::Think(Box::new(Thinking {
                        seat: player,
                        bot: bot.clone(),
                        state: self.table.state.clone(),
                        game: self.game.clone(),
                        code: self.code.clone(),
                        version: self.version,
                    }));
                }
                Seat::Human if options == 1 => {
                    let after_step = self.table.steps.len();
                    let text = format!(
                        "{} has a single option, taken for them:",
                        self.seat_name(player)
                    );
                    for (_, log) in &mut self.logs {
                        log.push(LogLine {
                            after_step,
                            text: text.clone(),
                        });
                    }
                    self.apply_option(player, 0)
                }
                Seat::Human => return Work::Waiting,
            },
        };
        match done {
            Ok(()) => Work::Stepped,
            Err(e) => {
                self.failure = Some(format!("the ruleset failed: {e}"));
                self.version += 1;
                Work::Waiting
            }
        }
    }

    /// Takes a bot's decision, unless the game changed while it thought (an undo).
    pub fn conclude(&mut self, thought: Thought) {
        if thought.version != self.version {
            return;
        }
        self.thinking = None;
        let name = self.seat_name(thought.seat);
        let applied = thought.option.and_then(|option| {
            self.table.seats[thought.seat as usize] = Seat::Bot(thought.bot);
            self.apply_option(thought.seat, option)
        });
        if let Err(e) = applied {
            self.failure = Some(format!("the ruleset failed: {name}: {e}"));
            self.version += 1;
        }
    }

    /// Whether the game's driver has work: chance or a bot to play.
    pub fn has_work(&self) -> bool {
        if self.failure.is_some() || self.thinking.is_some() {
            return false;
        }
        match self.game.status(&self.table.state) {
            Status::Over(_) => false,
            Status::Chance(_) => true,
            Status::Decision { player, options } => !self.is_human(player) || options == 1,
        }
    }

    /// The trace of the game so far (the final result once it is over), as `frontier
    /// check` reads it; `# agents` names who sat where, as `frontier play` writes it.
    pub fn trace_text(&self) -> String {
        let outcome = match self.game.status(&self.table.state) {
            Status::Over(o) => Some(o.clone()),
            _ => None,
        };
        let mut trace = frontier_interpreter::trace::write_trace(
            self.reference.clone(),
            &self.table.names,
            Some(self.seed),
            &self.table.steps,
            outcome.as_ref(),
        );
        trace.header.params = self.params.clone();
        format!("# agents {}\n{}", self.specs.join(","), trace.to_text())
    }
}

/// Who reads the log of a game with these seats, each with their own: with a person at
/// the table, a spectator (what every player sees) first, then each person (their own
/// private lines too: "p1 draws c13"); with bots only, one log of everything.
fn readers(seats: &[Seat]) -> Vec<Viewer> {
    let people = seats
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, Seat::Human))
        .map(|(seat, _)| Viewer::Seat(seat as u8));
    let mut readers: Vec<Viewer> = std::iter::once(Viewer::Table).chain(people).collect();
    if readers.len() == 1 {
        readers[0] = Viewer::Everyone;
    }
    readers
}

/// Why a request on a game was refused.
#[derive(Debug)]
pub enum Refusal {
    /// The request is malformed or names what does not exist (400).
    Invalid(String),
    /// The game is not in a state to do it (409).
    Conflict(String),
    /// The ruleset failed while running (a runtime error: 500, with its place).
    Game(String),
}

impl Refusal {
    pub fn message(&self) -> &str {
        match self {
            Refusal::Invalid(m) | Refusal::Conflict(m) | Refusal::Game(m) => m,
        }
    }
}
