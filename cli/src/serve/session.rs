//! One game played through the web server: the state, the seats (people and bots), the
//! steps taken (its trace), the log, and snapshots before each person's decision for undo.
//! Bots and chance are played as soon as it is their turn, so a game always waits on a
//! person or is over.

use std::collections::HashSet;
use std::sync::Arc;

use frontier_interpreter::frontier_grammar::trace::RulesetRef;
use frontier_interpreter::runner::{sample_chance, Step, MAX_STEPS};
use frontier_interpreter::model::Element;
use frontier_interpreter::scene::Viewer;
use frontier_interpreter::{Choice, Game, GameRng, Journal, State, Status};

use crate::play::{seats_for, Seat, Snapshot};

/// A log line and the number of steps taken when it was written (0: during setup).
#[derive(Clone)]
pub struct LogLine {
    pub after_step: usize,
    pub text: String,
}


pub struct WebGame {
    pub game: Arc<Game>,
    /// The ruleset's name in the server's list.
    pub ruleset: String,
    /// How the trace names the ruleset: an embedded name or a path.
    reference: RulesetRef,
    pub params: Vec<(String, i64)>,
    pub names: Vec<String>,
    /// Who sits at each seat: `human`, `random`, `mcts:…`.
    pub specs: Vec<String>,
    pub seed: u64,
    pub state: State,
    rng: GameRng,
    seats: Vec<Seat>,
    pub steps: Vec<Step>,
    pub log: Vec<LogLine>,
    history: Vec<Snapshot>,
}

impl WebGame {
    /// A new game after its setup, played on until a person decides or it is over.
    pub fn start(game: Arc<Game>, ruleset: String, reference: RulesetRef, params: Vec<(String, i64)>, specs: Vec<String>, seed: u64) -> Result<WebGame, String> {
        let names = crate::seat_names(specs.len());
        let seats = seats_for(&specs, seed)?;
        let mut setup_log = Vec::new();
        let state = game.start_logged(names.clone(), &mut Journal::On(&mut setup_log)).map_err(|e| e.to_string())?;
        let log = setup_log.into_iter().map(|text| LogLine { after_step: 0, text }).collect();
        let mut web = WebGame {
            game,
            ruleset,
            reference,
            params,
            names,
            specs,
            seed,
            state,
            rng: GameRng::new(seed),
            seats,
            steps: Vec::new(),
            log,
            history: Vec::new(),
        };
        web.advance()?;
        Ok(web)
    }

    /// The seat that must decide now, if the game waits on a decision.
    pub fn decider(&self) -> Option<u8> {
        match self.game.status(&self.state) {
            Status::Decision { player, .. } => Some(player),
            _ => None,
        }
    }

    pub fn is_human(&self, seat: u8) -> bool {
        matches!(self.seats.get(seat as usize), Some(Seat::Human))
    }

    /// Takes option `option` for `seat`, then plays the bots and chance that follow.
    pub fn choose(&mut self, seat: u8, option: usize) -> Result<(), Refusal> {
        let Status::Decision { player, options } = self.game.status(&self.state) else {
            return Err(Refusal::Conflict("the game is not waiting for a decision".into()));
        };
        if player != seat {
            return Err(Refusal::Conflict(format!("it is {}'s decision, not {}'s", self.names[player as usize], self.seat_name(seat))));
        }
        if !self.is_human(seat) {
            return Err(Refusal::Conflict(format!("{} is played by a bot", self.seat_name(seat))));
        }
        if option >= options {
            return Err(Refusal::Invalid(format!("option {option} does not exist: the decision has {options} options (0 to {})", options - 1)));
        }
        self.history.push(Snapshot { seat, state: self.state.clone(), rng: self.rng.clone(), seats: self.seats.clone(), steps: self.steps.len() });
        self.apply_option(seat, option).map_err(Refusal::Game)?;
        self.advance().map_err(Refusal::Game)
    }

    /// Back to `seat`'s last decision, unless something that seat could not see was shown
    /// since (a chance result, a card drawn): undoing would let them choose again knowing it.
    pub fn undo(&mut self, seat: u8) -> Result<usize, Refusal> {
        let at = self.undo_point(seat)?;
        let snapshot = self.history.remove(at);
        self.history.truncate(at);
        let undone = self.steps.len() - snapshot.steps;
        self.state = snapshot.state;
        self.rng = snapshot.rng;
        self.seats = snapshot.seats;
        self.steps.truncate(snapshot.steps);
        self.log.retain(|l| l.after_step <= snapshot.steps);
        Ok(undone)
    }

    /// Whether `seat` may undo now (and the refusal's reason when not).
    pub fn undo_point(&self, seat: u8) -> Result<usize, Refusal> {
        let Some(at) = self.history.iter().rposition(|s| s.seat == seat) else {
            return Err(Refusal::Conflict(format!("{} has no decision to take back", self.seat_name(seat))));
        };
        let snapshot = &self.history[at];
        if self.steps[snapshot.steps..].iter().any(|s| matches!(s, Step::Chance { .. })) {
            return Err(Refusal::Conflict("a chance result came up since that decision: it cannot be taken back".into()));
        }
        if self.sees_more_than(seat, &snapshot.state) {
            return Err(Refusal::Conflict("something hidden was shown since that decision: it cannot be taken back".into()));
        }
        Ok(at)
    }

    /// Whether `seat` now sees an element that was hidden from them in `before` (and not
    /// seen there elsewhere).
    fn sees_more_than(&self, seat: u8, before: &State) -> bool {
        // The elements of a state that `seat` sees, and those it does not.
        let split = |state: &State| {
            let (mut seen, mut hidden) = (HashSet::new(), HashSet::new());
            for zone in 0..state.zones.len() {
                let flags = self.game.seen_positions(state, seat, zone).unwrap_or_default();
                // An element is its code within what the zone holds (a table's rows, players).
                let kind = match self.game.zones[self.game.zone_of_instance(zone).0].of {
                    Element::Player => None,
                    Element::Row(t) => Some(t),
                };
                for (at, element) in state.zones[zone].iter().enumerate() {
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
        let (seen_now, _) = split(&self.state);
        seen_now.iter().any(|e| hidden_then.contains(e) && !seen_then.contains(e))
    }

    /// How a viewer asking for `seat` sees the game: that seat, or everything once it is over.
    pub fn viewer(&self, seat: Option<u8>) -> Viewer {
        match (self.game.status(&self.state), seat) {
            (Status::Over(_), _) => Viewer::Everyone,
            (_, Some(s)) => Viewer::Seat(s),
            (_, None) => Viewer::Table,
        }
    }

    fn seat_name(&self, seat: u8) -> String {
        self.names.get(seat as usize).cloned().unwrap_or_else(|| format!("seat {seat}"))
    }

    fn apply_option(&mut self, seat: u8, option: usize) -> Result<(), String> {
        let label = self.game.option_label(&self.state, option).map_err(|e| e.to_string())?;
        self.apply(Choice::Option(option), Step::Decision { player: seat, label })
    }

    fn apply(&mut self, choice: Choice, step: Step) -> Result<(), String> {
        let mut lines = Vec::new();
        self.game.apply(&mut self.state, choice, &mut Journal::On(&mut lines)).map_err(|e| e.to_string())?;
        self.steps.push(step);
        let after_step = self.steps.len();
        self.log.extend(lines.into_iter().map(|text| LogLine { after_step, text }));
        Ok(())
    }

    /// Plays chance and bots, and a person's single option, until a person has a choice
    /// to make or the game is over.
    fn advance(&mut self) -> Result<(), String> {
        for _ in 0..MAX_STEPS {
            match self.game.status(&self.state) {
                Status::Over(_) => return Ok(()),
                Status::Chance(chance) => {
                    let choice = sample_chance(&self.state, chance, &mut self.rng);
                    let label = self.game.outcome_label(&self.state, &choice);
                    self.apply(choice, Step::Chance { label })?;
                }
                Status::Decision { player, options } => {
                    let view = self.game.view(&self.state).ok_or("the game is not at a decision")?;
                    let name = &self.names[player as usize];
                    let option = match &mut self.seats[player as usize] {
                        Seat::Bot(agent) => agent.decide(&view).map_err(|e| format!("{name}: {e}"))?,
                        Seat::Human if options == 1 => {
                            let after_step = self.steps.len();
                            self.log.push(LogLine { after_step, text: format!("{name} has a single option, taken for them:") });
                            0
                        }
                        Seat::Human => return Ok(()),
                    };
                    self.apply_option(player, option)?;
                }
            }
        }
        Err(format!("the game did not end within {MAX_STEPS} steps"))
    }

    /// The trace of the game so far (the final result once it is over), as `frontier
    /// check` reads it; `# agents` names who sat where, as `frontier play` writes it.
    pub fn trace_text(&self) -> String {
        let outcome = match self.game.status(&self.state) {
            Status::Over(o) => Some(o.clone()),
            _ => None,
        };
        let mut trace = frontier_interpreter::trace::write_trace(
            self.reference.clone(),
            &self.names,
            Some(self.seed),
            &self.steps,
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
