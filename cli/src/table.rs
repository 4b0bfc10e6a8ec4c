//! A game at a table, as `frontier play` and `frontier serve` play it: its state, its
//! chance stream, who sits at each seat, the steps taken (its trace) and the snapshots
//! that undo a person's decisions. Chance and bots are played here; what a person is
//! asked, and how the log is shown, is the caller's.

use frontier_interpreter::agent::Bot;
use frontier_interpreter::roster::AgentSpec;
use frontier_interpreter::runner::{sample_chance, Step, MAX_STEPS};
use frontier_interpreter::scene::Viewer;
use frontier_interpreter::{Choice, Game, GameRng, Journal, State, Status, Stepper};

/// Who decides for a seat. A bot is kept by value (cloned into undo snapshots): its
/// draws after an undo or a resume are those it would have made.
#[derive(Clone)]
pub(crate) enum Seat {
    Human,
    Bot(Box<dyn Bot>),
}

/// The seats of `--agents`-style specs (`human`, `random`, `mcts:…`), each bot seeded
/// from the game's seed and its seat.
pub(crate) fn seats_for(specs: &[String], seed: u64) -> Result<Vec<Seat>, String> {
    specs
        .iter()
        .enumerate()
        .map(|(seat, spec)| {
            let spec = spec.trim();
            if spec == "human" {
                return Ok(Seat::Human);
            }
            Ok(Seat::Bot(AgentSpec::parse(spec)?.agent(
                seed,
                seat,
                crate::bots::clock,
            )))
        })
        .collect()
}

/// Everything needed to put the table back as it was before a person's decision.
pub(crate) struct Snapshot {
    pub(crate) seat: u8,
    pub(crate) state: State,
    rng: GameRng,
    seats: Vec<Seat>,
    /// How many steps the game had taken.
    pub(crate) steps: usize,
}

/// What a person's single option is: taken for them (with a line in the log), or asked.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Forced {
    Taken,
    Asked,
}

/// Where [`Table::play_until_person`] stopped.
pub(crate) enum Waiting {
    Over,
    /// A person has this decision to take.
    Person {
        player: u8,
    },
}

pub(crate) struct Table {
    pub(crate) names: Vec<String>,
    pub(crate) state: State,
    rng: GameRng,
    pub(crate) seats: Vec<Seat>,
    pub(crate) steps: Vec<Step>,
    /// One snapshot per decision a person was asked, oldest first.
    pub(crate) history: Vec<Snapshot>,
}

impl Table {
    pub(crate) fn new(names: Vec<String>, state: State, seed: u64, seats: Vec<Seat>) -> Table {
        Table {
            names,
            state,
            rng: GameRng::new(seed),
            seats,
            steps: Vec::new(),
            history: Vec::new(),
        }
    }

    /// Keeps the table as it is, before `seat`'s decision, to come back to with [`Table::back_to`].
    pub(crate) fn remember(&mut self, seat: u8) {
        let snapshot = Snapshot {
            seat,
            state: self.state.clone(),
            rng: self.rng.clone(),
            seats: self.seats.clone(),
            steps: self.steps.len(),
        };
        self.history.push(snapshot);
    }

    /// The latest snapshot of `seat`'s decisions, by its place in the history.
    pub(crate) fn last_decision_of(&self, seat: u8) -> Option<usize> {
        self.history.iter().rposition(|s| s.seat == seat)
    }

    /// Puts the table back as snapshot `at` of the history was, forgetting it and the later
    /// ones; the number of steps taken back.
    pub(crate) fn back_to(&mut self, at: usize) -> usize {
        let snapshot = self.history.remove(at);
        self.history.truncate(at);
        let undone = self.steps.len() - snapshot.steps;
        self.state = snapshot.state;
        self.rng = snapshot.rng;
        self.seats = snapshot.seats;
        self.steps.truncate(snapshot.steps);
        undone
    }

    /// Applies a choice and records its step; the lines the game logs go to `log`, as the
    /// table's audience may read them, narrated ([`Game::apply_narrated`]).
    pub(crate) fn apply(
        &mut self,
        stepper: Stepper,
        choice: Choice,
        step: Step,
        log: &mut Vec<String>,
    ) -> Result<(), String> {
        let audience = self.audience();
        stepper
            .game()
            .apply_narrated(stepper, &mut self.state, choice, audience, log)
            .map_err(|e| e.to_string())?;
        self.steps.push(step);
        Ok(())
    }

    /// Who reads the log at this table: the one person playing, or, with several at
    /// one screen, what they all see; with bots only, everything.
    pub(crate) fn audience(&self) -> Viewer {
        audience(&self.seats)
    }

    /// Applies option `option` of `player`'s decision, the step named by its label.
    pub(crate) fn apply_option(
        &mut self,
        stepper: Stepper,
        player: u8,
        option: usize,
        log: &mut Vec<String>,
    ) -> Result<(), String> {
        let label = stepper
            .game()
            .option_label(&self.state, option)
            .map_err(|e| e.to_string())?;
        self.apply(
            stepper,
            Choice::Option(option),
            Step::Decision { player, label },
            log,
        )
    }

    /// At a chance point, the outcome a trace's `chance:` line gives (a shuffle given by its
    /// first elements ordered further by the table's generator, as `check` orders it).
    pub(crate) fn chance_of_line(&mut self, game: &Game, label: &str) -> Result<Choice, String> {
        frontier_interpreter::trace::chance_of_line(game, &self.state, label, Some(&mut self.rng))
            .map_err(|(message, _)| message)
    }

    /// At a chance point, the outcome the table's generator draws and its label.
    pub(crate) fn sample_chance(&mut self, game: &Game) -> Option<(Choice, String)> {
        let Status::Chance(chance) = game.status(&self.state) else {
            return None;
        };
        let choice = sample_chance(&self.state, chance, &mut self.rng);
        let label = game.outcome_label(&self.state, &choice);
        Some((choice, label))
    }

    /// Plays chance, bots and (when `forced` says so) a person's single option until a
    /// person has a decision to take or the game is over. `log` gets each line the game
    /// writes, with the number of steps taken when it was written.
    pub(crate) fn play_until_person(
        &mut self,
        stepper: Stepper,
        forced: Forced,
        log: &mut dyn FnMut(usize, String),
    ) -> Result<Waiting, String> {
        let game = stepper.game();
        for _ in 0..MAX_STEPS {
            let mut lines = Vec::new();
            match game.status(&self.state) {
                Status::Over(_) => return Ok(Waiting::Over),
                Status::Chance(_) => {
                    let (choice, label) = self
                        .sample_chance(game)
                        .ok_or("the game is not at a chance point")?;
                    self.apply(stepper, choice, Step::Chance { label }, &mut lines)?;
                }
                Status::Decision { player, options } => {
                    let name = &self.names[player as usize];
                    let option = match &mut self.seats[player as usize] {
                        Seat::Bot(agent) => {
                            let view = stepper
                                .view(&self.state)
                                .ok_or("the game is not at a decision")?;
                            agent.decide(&view).map_err(|e| format!("{name}: {e}"))?
                        }
                        Seat::Human if options == 1 && forced == Forced::Taken => {
                            log(
                                self.steps.len(),
                                format!("{name} has a single option, taken for them:"),
                            );
                            0
                        }
                        Seat::Human => return Ok(Waiting::Person { player }),
                    };
                    self.apply_option(stepper, player, option, &mut lines)?;
                }
            }
            let after_step = self.steps.len();
            for line in lines {
                log(after_step, line);
            }
        }
        Err(format!("the game did not end within {MAX_STEPS} steps"))
    }
}

/// A new game between `names` at a table with these seats: its state, and the log lines
/// of its setup as the table may read them ([`Game::hide_unseen`]).
pub(crate) fn start(
    game: &Game,
    names: Vec<String>,
    seats: &[Seat],
) -> Result<(State, Vec<String>), String> {
    let (mut log, mut secrets) = (Vec::new(), Vec::new());
    let state = game
        .start_logged(names, &mut Journal::on_noting(&mut log, &mut secrets))
        .map_err(|e| e.to_string())?;
    game.hide_unseen(&state, audience(seats), &mut log, &secrets);
    Ok((state, log))
}

/// Who reads the log of a table with these seats (see [`Table::audience`]).
fn audience(seats: &[Seat]) -> Viewer {
    let mut people = seats
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, Seat::Human));
    match (people.next(), people.next()) {
        (None, _) => Viewer::Everyone,
        (Some((seat, _)), None) => Viewer::Seat(seat as u8),
        (Some(_), Some(_)) => Viewer::Table,
    }
}
