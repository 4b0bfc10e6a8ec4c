//! One game played through the web server: the state, the seats (people and bots), the
//! steps taken (its trace), the log, and snapshots before each person's decision for undo.
//! Bots and chance are played as soon as it is their turn, so a game always waits on a
//! person or is over.

use std::collections::HashSet;
use std::sync::Arc;

use frontier_engine::SharedCompiled;
use frontier_interpreter::frontier_grammar::trace::RulesetRef;
use frontier_interpreter::model::Element;
use frontier_interpreter::runner::Step;
use frontier_interpreter::scene::Viewer;
use frontier_interpreter::{Game, State, Status, Stepper};
use frontier_study::Compile;

use crate::table::{seats_for, Forced, Table};

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
    code: Option<SharedCompiled>,
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
    pub log: Vec<LogLine>,
}

/// What steps a web game: its compiled code, or the walker alone.
fn stepper<'a>(game: &'a Game, code: &'a Option<SharedCompiled>) -> Stepper<'a> {
    match code {
        Some(code) => code.stepper(),
        None => Stepper::walker(game),
    }
}

impl WebGame {
    /// A new game after its setup, played on until a person decides or it is over.
    pub fn start(
        game: Arc<Game>,
        compile: Compile,
        ruleset: String,
        reference: RulesetRef,
        params: Vec<(String, i64)>,
        specs: Vec<String>,
        seed: u64,
    ) -> Result<WebGame, String> {
        let code = match compile {
            Compile::On => SharedCompiled::new(game.clone()).ok(),
            Compile::Off => None,
        };
        let names = crate::seat_names(specs.len());
        let seats = seats_for(&specs, seed)?;
        let (state, setup_log) = crate::table::start(&game, names.clone(), &seats)?;
        let log = setup_log
            .into_iter()
            .map(|text| LogLine {
                after_step: 0,
                text,
            })
            .collect();
        let mut web = WebGame {
            game,
            code,
            ruleset,
            reference,
            params,
            specs,
            seed,
            table: Table::new(names, state, seed, seats),
            log,
        };
        web.advance()?;
        Ok(web)
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
        let mut lines = Vec::new();
        self.table
            .apply_option(stepper(&self.game, &self.code), seat, option, &mut lines)
            .map_err(Refusal::Game)?;
        self.log_lines(lines);
        self.advance().map_err(Refusal::Game)
    }

    /// Back to `seat`'s last decision, unless something that seat could not see was shown
    /// since (a chance result, a card drawn): undoing would let them choose again knowing it.
    pub fn undo(&mut self, seat: u8) -> Result<usize, Refusal> {
        let at = self.undo_point(seat)?;
        let undone = self.table.back_to(at);
        let steps = self.table.steps.len();
        self.log.retain(|l| l.after_step <= steps);
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

    /// Log lines written by the step just taken.
    fn log_lines(&mut self, lines: Vec<String>) {
        let after_step = self.table.steps.len();
        self.log
            .extend(lines.into_iter().map(|text| LogLine { after_step, text }));
    }

    /// Plays chance and bots, and a person's single option, until a person has a choice
    /// to make or the game is over.
    fn advance(&mut self) -> Result<(), String> {
        let log = &mut self.log;
        self.table.play_until_person(
            stepper(&self.game, &self.code),
            Forced::Taken,
            &mut |after_step, text| log.push(LogLine { after_step, text }),
        )?;
        Ok(())
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
