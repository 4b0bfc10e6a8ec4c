//! The step machine: a state is suspended at a decision, a chance point or the end;
//! `apply` resumes it with a choice and runs until the next suspension. The
//! continuation (a stack of frames and the locals) lives in the state, so a state can
//! be cloned, serialized and resumed anywhere; no Rust call stack is held across steps.
//!
//! This file starts games and reads what a state waits for; `run.rs` is the run loop,
//! `apply.rs` resumes a state with a choice, and the statements run in `flow.rs` (loops,
//! return), `zones.rs` (zones and boards), `chance.rs` (random, shuffle, draw),
//! `decide.rs` (decisions and their options) and `award.rs`; `store.rs` checks what is
//! stored where, and `journal.rs` is where a step writes its log.

mod apply;
mod award;
mod chance;
mod compiled;
mod decide;
mod flow;
mod journal;
mod run;
mod store;
mod zones;

use std::sync::Arc;

pub(crate) use crate::eval::{as_int, as_list, as_pos, decode_element, encode};
use crate::eval::{code_of, Env, RuntimeError};
use crate::grid::Grid;
use crate::model::{Domain, Element, Game, StmtKind};
pub use crate::state::{
    Chance, ChancePoint, Choice, Frame, FrameKind, Outcome, Pending, State, Status,
};
use crate::value::{Type, Value};
pub use compiled::{is_leaf, BlockRan, BlockRun, CompiledCode, Stepper};
pub use journal::{Journal, Secret, MAX_LOG_BYTES};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApplyError {
    /// The choice does not fit what the state waits for.
    Illegal(String),
    Runtime(RuntimeError),
}

impl std::fmt::Display for ApplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApplyError::Illegal(m) => f.write_str(m),
            ApplyError::Runtime(e) => write!(f, "ruleset error: {e}"),
        }
    }
}

impl std::error::Error for ApplyError {}

impl From<RuntimeError> for ApplyError {
    fn from(e: RuntimeError) -> Self {
        ApplyError::Runtime(e)
    }
}

/// The value a state slot of type `ty` holds as the number `n`.
pub(crate) use crate::ir::decode;

impl Game {
    /// A new game for these players (seat order), run to its first decision or chance point.
    pub fn start(&self, names: Vec<String>) -> Result<State, ApplyError> {
        self.start_logged(names, &mut Journal::off())
    }

    /// [`Game::start`], writing the log lines of setup to `journal`.
    pub fn start_logged(
        &self,
        names: Vec<String>,
        journal: &mut Journal,
    ) -> Result<State, ApplyError> {
        let n = names.len();
        if n < self.meta.min_players as usize || n > self.meta.max_players as usize {
            return Err(ApplyError::Illegal(self.player_count_message(n)));
        }
        let mut state = self.initial_state(names)?;
        self.enter(&mut state, self.play);
        self.enter(&mut state, self.setup);
        // Setup and play are entered here, not called: their own rule: is covered now.
        journal.cover(&self.procedures[self.setup.index()].rule);
        journal.cover(&self.procedures[self.play.index()].rule);
        self.run(&mut state, journal, None)?;
        Ok(state)
    }

    pub fn player_count_message(&self, n: usize) -> String {
        let (min, max) = (self.meta.min_players, self.meta.max_players);
        let range = if min == max {
            format!("{min}")
        } else {
            format!("{min} to {max}")
        };
        format!("{} is for {range} players, not {n}", self.meta.name)
    }

    /// The state before setup runs: every variable and zone at its declared initial value.
    pub fn initial_state(&self, names: Vec<String>) -> Result<State, RuntimeError> {
        let mut state = self.blank_state(names);
        for var in &self.vars {
            let mut values = Vec::new();
            for i in 0..self.domain_len(var.per) {
                let it = self.domain_value(var.per, i);
                let root = Env::new(self, &state, &[]);
                let env = root.with_it(&it);
                let value = var
                    .init
                    .eval(&env)
                    .and_then(|v| self.slot_value(var, &v, &state.names));
                values
                    .push(value.map_err(|e| e.at(&self.location(&format!("state.{}", var.name))))?);
            }
            state.ints[var.base..var.base + values.len()].copy_from_slice(&values);
        }
        for zone in &self.zones {
            let Some(init) = &zone.init else { continue };
            for i in 0..self.domain_len(zone.per) {
                let it = self.domain_value(zone.per, i);
                let root = Env::new(self, &state, &[]);
                let env = root.with_it(&it);
                let contents: Vec<u16> = match init.eval(&env)? {
                    Value::List(items) => items.iter().filter_map(code_of).collect(),
                    _ => Vec::new(),
                };
                self.check_elements(&state, contents.len())?;
                state.zones[zone.base + i] = contents;
            }
        }
        Ok(state)
    }

    /// A state with every slot zero and every zone and board empty: what expressions that
    /// read only tables and parameters can be evaluated against.
    pub(crate) fn blank_state(&self, names: Vec<String>) -> State {
        State {
            names: Arc::new(names),
            ints: vec![0; self.int_slots].into_boxed_slice(),
            zones: vec![Vec::new(); self.zone_slots].into_boxed_slice(),
            boards: vec![Grid::default(); self.board_slots].into_boxed_slice(),
            stack: Vec::new(),
            locals: Vec::new(),
            pending: Pending::Running,
            steps: 0,
            seen: Default::default(),
        }
    }

    /// The value that stands for index `i` of a domain (a seat, a row).
    pub fn domain_value(&self, domain: Domain, i: usize) -> Value {
        match domain {
            // Two keys: no single value (`it` is not defined in their init).
            Domain::Global | Domain::Pair(..) => Value::None,
            Domain::Players => Value::Player(i as u8),
            Domain::Table(t) => Value::Row(t, i as u16),
        }
    }

    pub fn status<'s>(&self, state: &'s State) -> Status<'s> {
        match &state.pending {
            Pending::Decision {
                player, options, ..
            } => Status::Decision {
                player: *player,
                options: options.len(),
            },
            Pending::Chance(point) => Status::Chance(Chance::Pick {
                outcomes: &point.outcomes,
                weights: &point.weights,
            }),
            Pending::Shuffle { zone } => Status::Chance(Chance::Shuffle {
                zone: *zone,
                len: state.zones[*zone].len(),
            }),
            Pending::Over(outcome) => Status::Over(outcome),
            // A state handed out by the machine is never running; treat it as a decision with
            // no option so that callers cannot loop on it.
            Pending::Running => Status::Decision {
                player: 0,
                options: 0,
            },
        }
    }

    /// Whether every `conserve:` total holds: the first that does not, named with the
    /// player or row it fails for.
    pub fn check_conserved(&self, state: &State) -> Result<(), String> {
        for c in &self.conserve {
            // Per players: the seats of this game, not the most the ruleset allows.
            let n = if c.per == Domain::Players {
                state.names.len()
            } else {
                self.domain_len(c.per)
            };
            for i in 0..n {
                let it = self.domain_value(c.per, i);
                let root = Env::new(self, state, &[]);
                let holds = c
                    .holds
                    .bool(&root.with_it(&it))
                    .map_err(|e| format!("conserve.{}: {e}", c.name))?;
                if !holds {
                    let whose = match c.per {
                        Domain::Global => String::new(),
                        _ => format!(" for {}", self.value_text(&it, &state.names)),
                    };
                    return Err(format!(
                        "conserve.{} does not hold{whose}: {}",
                        c.name, c.source
                    ));
                }
            }
        }
        Ok(())
    }

    /// The ruleset's `stats:` read on `state` (a finished game's, for results), in the
    /// order declared: whole numbers and true/false.
    pub fn stats(&self, state: &State) -> Result<Vec<(&str, Value)>, RuntimeError> {
        let env = Env::new(self, state, &[]);
        self.stats
            .iter()
            .map(|s| {
                let value = match s.ty {
                    Type::Bool => s.value.bool(&env).map(Value::Bool),
                    Type::Int => s.value.int(&env).map(Value::Int),
                    _ => s.value.eval(&env),
                };
                let value =
                    value.map_err(|e| e.at(&self.location(&format!("stats.{}", s.name))))?;
                Ok((s.name.as_str(), value))
            })
            .collect()
    }

    /// Every `rule:` reference that a game can run through: those of the statements, of
    /// the options of decisions and of the procedures (what `Journal::Rules` collects).
    pub fn runnable_rules(&self) -> std::collections::BTreeSet<Arc<str>> {
        let mut rules = std::collections::BTreeSet::new();
        for stmt in self.blocks.iter().flatten() {
            rules.extend(stmt.rule.clone());
            if let StmtKind::Choose(choose) = &stmt.kind {
                rules.extend(choose.groups.iter().filter_map(|g| g.rule.clone()));
            }
        }
        rules.extend(self.procedures.iter().filter_map(|p| p.rule.clone()));
        rules
    }

    /// The `rule:` references of the declarations (parameters, tables, variables, zones,
    /// boards, functions, the ranking and outcome): in force in every game of the ruleset.
    pub fn declared_rules(&self) -> std::collections::BTreeSet<Arc<str>> {
        let mut rules = std::collections::BTreeSet::new();
        rules.extend(self.params.iter().filter_map(|x| x.rule.clone()));
        rules.extend(self.tables.iter().filter_map(|x| x.rule.clone()));
        rules.extend(self.vars.iter().filter_map(|x| x.rule.clone()));
        rules.extend(self.zones.iter().filter_map(|x| x.rule.clone()));
        rules.extend(self.boards.iter().filter_map(|x| x.rule.clone()));
        rules.extend(self.functions.iter().filter_map(|x| x.rule.clone()));
        rules.extend(self.ranking.rule.clone());
        rules.extend(self.outcome.as_ref().and_then(|o| o.rule.clone()));
        rules
    }

    /// The zone declaration and index of a zone instance.
    pub fn zone_of_instance(&self, instance: usize) -> (usize, usize) {
        for (z, decl) in self.zones.iter().enumerate() {
            let len = self.domain_len(decl.per);
            if instance >= decl.base && instance < decl.base + len {
                return (z, instance - decl.base);
            }
        }
        (0, 0)
    }

    pub(crate) fn zone_element(&self, instance: usize) -> Element {
        self.zones[self.zone_of_instance(instance).0].of
    }

    /// A zone instance's name as written in rulesets: `deck`, `hand[red]`, `track[east]`.
    pub fn zone_instance_name(&self, instance: usize) -> String {
        let (z, i) = self.zone_of_instance(instance);
        let decl = &self.zones[z];
        match decl.per {
            Domain::Global => decl.name.clone(),
            Domain::Players => format!("{}[p{}]", decl.name, i + 1),
            Domain::Table(t) => format!("{}[{}]", decl.name, self.tables[t.index()].rows[i].id),
            Domain::Pair(a, b) => {
                let (i, j) = self.split_index(decl.per, i);
                format!(
                    "{}[{}, {}]",
                    decl.name,
                    self.key_text(a, i),
                    self.key_text(b, j)
                )
            }
        }
    }
}

/// The error of a state whose continuation the game's statements do not fit (a frame or a
/// pending decision naming a statement of another kind): a state of another game, or one
/// written by hand. The game's own steps never make one, and the positions it reads are
/// checked against its statements (position/continuation.rs).
#[cold]
pub(crate) fn unfit_state(what: &str) -> RuntimeError {
    RuntimeError::new(format!("the state does not fit this game: {what}"))
}
