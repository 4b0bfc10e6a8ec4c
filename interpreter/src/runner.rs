//! Runs whole games: agents decide, the seeded generator resolves chance, and the
//! steps are recorded (as trace lines) when asked.

use crate::agent::Agent;
use crate::machine::{
    ApplyError, Chance, Choice, Journal, Outcome, Pending, State, Status, Stepper,
};
use crate::model::Game;
use crate::rng::GameRng;

/// One applied step, as a trace records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Decision { player: u8, label: String },
    Chance { label: String },
}

/// What to keep of a game while it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recording {
    /// Only counts and the outcome (fast: no labels are rendered).
    Counts,
    /// Every step's label, for traces.
    Steps,
    /// Steps and the readable log.
    StepsAndLog,
}

#[derive(Debug, Clone)]
pub struct GameRecord {
    pub outcome: Outcome,
    pub decisions: u64,
    pub chances: u64,
    pub steps: Vec<Step>,
    pub log: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    Apply(ApplyError),
    Agent(String),
    /// The game did not end within the step bound.
    TooLong(u64),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Apply(e) => write!(f, "{e}"),
            RunError::Agent(e) => write!(f, "{e}"),
            RunError::TooLong(n) => write!(f, "the game did not end within {n} steps"),
        }
    }
}

impl std::error::Error for RunError {}

impl From<ApplyError> for RunError {
    fn from(e: ApplyError) -> Self {
        RunError::Apply(e)
    }
}

/// The most games one `simulate` or `balance` process plays. Its games are summed up and
/// written as they are played, so its memory does not grow with them (docs/scale.md); the
/// bound keeps one process's run to a length a batch task can be given. A larger run is
/// split with `--shard`.
pub const MAX_GAMES_PER_PROCESS: u64 = 1_000_000;

/// The default bound on steps per game: a game that runs longer is reported, not hung on.
pub const MAX_STEPS: u64 = 1_000_000;

/// Resolves the pending chance point with the generator.
pub fn sample_chance(state: &State, status: Chance, rng: &mut GameRng) -> Choice {
    match status {
        Chance::Pick { weights, .. } => Choice::Outcome(rng.weighted(weights)),
        Chance::Shuffle { zone, .. } => {
            let mut order = state.zones[zone].clone();
            rng.shuffle(&mut order);
            Choice::Order(order)
        }
    }
}

/// Plays from `state` to the end.
pub fn run(
    game: &Game,
    state: State,
    rng: &mut GameRng,
    agents: &mut [Box<dyn Agent>],
    recording: Recording,
    max_steps: u64,
) -> Result<(GameRecord, State), RunError> {
    run_stepped(
        Stepper::walker(game),
        state,
        rng,
        agents,
        recording,
        max_steps,
    )
}

/// [`run`] with `stepper`: its compiled code, if any, runs the steps and the agents'
/// searches. The game is the same.
pub fn run_stepped(
    stepper: Stepper,
    state: State,
    rng: &mut GameRng,
    agents: &mut [Box<dyn Agent>],
    recording: Recording,
    max_steps: u64,
) -> Result<(GameRecord, State), RunError> {
    run_with_log(stepper, state, rng, agents, recording, max_steps, |_| {})
}

/// Plays from `state` to the end, passing each log line to `on_log` as it is written
/// (with [`Recording::StepsAndLog`]), so that people see the game as it happens. The
/// stepper's compiled code, if any, runs the steps and the agents' searches.
pub fn run_with_log(
    stepper: Stepper,
    mut state: State,
    rng: &mut GameRng,
    agents: &mut [Box<dyn Agent>],
    recording: Recording,
    max_steps: u64,
    mut on_log: impl FnMut(&str),
) -> Result<(GameRecord, State), RunError> {
    let mut record = GameRecord {
        outcome: Outcome {
            scores: Vec::new(),
            tiebreaks: Vec::new(),
            ranks: Vec::new(),
            ended_by: None,
            returns: None,
        },
        decisions: 0,
        chances: 0,
        steps: Vec::new(),
        log: Vec::new(),
    };
    let game = stepper.game();
    let mut taken = 0u64;
    loop {
        if taken >= max_steps {
            return Err(RunError::TooLong(max_steps));
        }
        taken += 1;
        let choice = match game.status(&state) {
            Status::Over(outcome) => {
                record.outcome = outcome.clone();
                return Ok((record, state));
            }
            Status::Decision { player, .. } => {
                let agent = agents
                    .get_mut(player as usize)
                    .ok_or_else(|| RunError::Agent(format!("no agent for seat {}", player + 1)))?;
                let view = stepper
                    .view(&state)
                    .ok_or_else(|| RunError::Agent("the game is not at a decision".into()))?;
                let i = agent.decide(&view).map_err(RunError::Agent)?;
                record.decisions += 1;
                if recording != Recording::Counts {
                    let label = game
                        .option_label(&state, i)
                        .map_err(|e| RunError::Apply(ApplyError::Runtime(e)))?;
                    record.steps.push(Step::Decision { player, label });
                }
                Choice::Option(i)
            }
            Status::Chance(chance) => {
                let choice = sample_chance(&state, chance, rng);
                record.chances += 1;
                if recording != Recording::Counts {
                    record.steps.push(Step::Chance {
                        label: game.outcome_label(&state, &choice),
                    });
                }
                choice
            }
        };
        match recording {
            Recording::StepsAndLog => {
                let before = record.log.len();
                stepper.apply(&mut state, choice, &mut Journal::on(&mut record.log))?;
                record.log[before..].iter().for_each(|line| on_log(line));
            }
            _ => stepper.apply(&mut state, choice, &mut Journal::off())?,
        }
        if let Pending::Running = state.pending {
            return Err(RunError::Apply(ApplyError::Illegal(
                "the game stopped without a decision".into(),
            )));
        }
    }
}
