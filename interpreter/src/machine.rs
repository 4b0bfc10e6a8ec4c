//! The step machine: a state is suspended at a decision, a chance point or the end;
//! `apply` resumes it with a choice and runs until the next suspension. The
//! continuation (a stack of frames and the locals) lives in the state, so a state can
//! be cloned, serialized and resumed anywhere; no Rust call stack is held across steps.

use std::sync::Arc;

pub(crate) use crate::eval::{as_int, as_list, as_pos, decode_element, encode};
use crate::eval::{code_of, Env, RuntimeError};
use crate::grid::{Grid, Piece};
use crate::model::{
    AssignMode, BlockId, Domain, Element, Game, MoveAt, MoveWhat, OptionGroup, Place, ProcId,
    RemoveWhat, RuleRef, Slot, StmtKind, Var,
};
pub use crate::state::{
    Chance, ChancePoint, Choice, Frame, FrameKind, Outcome, Pending, State, Status,
};
use crate::value::{Type, Value};

/// Where `apply` writes the game's log, if anywhere. A journal serves one step (one
/// `apply`, or a game's start): what a step logs is bounded by [`MAX_LOG_BYTES`].
pub struct Journal<'a> {
    sink: Sink<'a>,
    /// Bytes of log written in this step.
    written: usize,
}

enum Sink<'a> {
    Off,
    On(&'a mut Vec<String>),
    Rules(&'a mut std::collections::BTreeSet<Arc<str>>),
}

/// The most bytes of log lines one step writes. A ruleset may log large texts in a loop
/// (`text(range(1, 100000))` is 600 kB, and 10,000,000 statements may run in a step):
/// past this, the step's log says it stops, and its further lines are left out.
pub const MAX_LOG_BYTES: usize = 1 << 20;

impl<'a> Journal<'a> {
    /// No log.
    pub fn off() -> Self {
        Journal {
            sink: Sink::Off,
            written: 0,
        }
    }

    /// The log's lines appended to `lines`.
    pub fn on(lines: &'a mut Vec<String>) -> Self {
        Journal {
            sink: Sink::On(lines),
            written: 0,
        }
    }

    /// No log: the `rule:` references of the statements, procedures and options that run
    /// are collected instead (`frontier check --coverage`).
    pub fn rules(seen: &'a mut std::collections::BTreeSet<Arc<str>>) -> Self {
        Journal {
            sink: Sink::Rules(seen),
            written: 0,
        }
    }
}

impl Journal<'_> {
    fn is_on(&self) -> bool {
        matches!(self.sink, Sink::On(_)) && self.written <= MAX_LOG_BYTES
    }
    fn write(&mut self, mut line: String) {
        let Sink::On(lines) = &mut self.sink else {
            return;
        };
        if self.written > MAX_LOG_BYTES {
            return;
        }
        self.written += line.len();
        if self.written > MAX_LOG_BYTES {
            let mut cut = line.len().saturating_sub(self.written - MAX_LOG_BYTES);
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            line.truncate(cut);
            line.push_str(&format!(
                "… (this step's log stops here: it passed {MAX_LOG_BYTES} bytes)"
            ));
        }
        lines.push(line);
    }
    #[inline]
    fn cover(&mut self, rule: &RuleRef) {
        if let (Sink::Rules(seen), Some(rule)) = (&mut self.sink, rule) {
            if !seen.contains(rule) {
                seen.insert(rule.clone());
            }
        }
    }
}

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
        self.run(&mut state, journal)?;
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

    /// Resumes the state with `choice` and runs to the next suspension. On an error the
    /// state is left as it was before the call only for illegal choices; a runtime error
    /// (a ruleset bug) leaves it unusable.
    pub fn apply(
        &self,
        state: &mut State,
        choice: Choice,
        journal: &mut Journal,
    ) -> Result<(), ApplyError> {
        match (&state.pending, choice) {
            (
                Pending::Decision {
                    options,
                    block,
                    pc,
                    player,
                },
                Choice::Option(i),
            ) => {
                let Some((group, value)) = options.get(i).cloned() else {
                    return Err(ApplyError::Illegal(format!(
                        "option {i} does not exist ({} options)",
                        options.len()
                    )));
                };
                let (block, pc, player) = (*block, *pc, *player);
                if journal.is_on() {
                    let label = self.option_label(state, i)?;
                    journal.write(format!("{}: {label}", state.names[player as usize]));
                }
                let StmtKind::Choose(choose) = &self.blocks[block.index()][pc as usize].kind else {
                    return Err(ApplyError::Illegal("the state is not at a decision".into()));
                };
                let group = &choose.groups[group as usize];
                journal.cover(&group.rule);
                let base = self.top_base(state);
                match (group.bindings.as_slice(), value) {
                    ([], _) => {}
                    ([(slot, _)], value) => state.locals[base + slot.index()] = value,
                    (bindings, Value::List(values)) => {
                        for ((slot, _), value) in bindings.iter().zip(values.iter()) {
                            state.locals[base + slot.index()] = value.clone();
                        }
                    }
                    _ => {
                        return Err(ApplyError::Illegal(
                            "internal: an option of several lists without its elements".into(),
                        ))
                    }
                }
                state.stack.push(Frame {
                    block: group.body,
                    pc: 0,
                    base: base as u32,
                    kind: FrameKind::Block,
                });
            }
            (Pending::Chance(point), Choice::Outcome(i)) => {
                let (slot, outcomes) = (&point.slot, &point.outcomes);
                let Some(value) = outcomes.get(i).cloned() else {
                    return Err(ApplyError::Illegal(format!(
                        "outcome {i} does not exist ({} outcomes)",
                        outcomes.len()
                    )));
                };
                if journal.is_on() {
                    journal.write(format!("chance: {}", self.value_text(&value, &state.names)));
                }
                let base = self.top_base(state);
                state.locals[base + slot.index()] = value;
            }
            (Pending::Shuffle { zone }, Choice::Order(order)) => {
                let zone = *zone;
                if !is_reordering(&order, &state.zones[zone]) {
                    return Err(ApplyError::Illegal(
                        "the order given is not a reordering of the zone's contents".into(),
                    ));
                }
                if journal.is_on() {
                    journal.write(format!(
                        "chance: shuffled {}",
                        self.zone_instance_name(zone)
                    ));
                }
                state.zones[zone] = order;
                self.resume_draw(state);
            }
            (Pending::Over(_), _) => return Err(ApplyError::Illegal("the game is over".into())),
            (_, choice) => {
                return Err(ApplyError::Illegal(format!(
                    "{choice:?} does not fit what the game waits for"
                )));
            }
        }
        // The option list's memory serves the next decision of this thread.
        if let Pending::Decision { options, .. } =
            std::mem::replace(&mut state.pending, Pending::Running)
        {
            recycle_options(options);
        }
        state.steps += 1;
        self.run(state, journal)?;
        // Debug builds (the test suite) check the ruleset's conserved totals after every
        // step; release builds trust them.
        if cfg!(debug_assertions) && !self.conserve.is_empty() {
            self.check_conserved(state).map_err(|e| {
                ApplyError::Runtime(RuntimeError::new(format!("after this step, {e}")))
            })?;
        }
        Ok(())
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

    /// When the shuffle just made was a `draw`'s (of its refilled pile), runs that draw
    /// again, told that its pile is shuffled, to move the rounds it has left.
    fn resume_draw(&self, state: &mut State) {
        let Some(frame) = state.stack.last_mut() else {
            return;
        };
        let Some(pc) = frame.pc.checked_sub(1) else {
            return;
        };
        let Some(StmtKind::Draw(draw)) = self.blocks[frame.block.index()]
            .get(pc as usize)
            .map(|s| &s.kind)
        else {
            return;
        };
        let cell = frame.base as usize + draw.left.index();
        if let Some(Value::Int(n)) = state.locals.get(cell).cloned() {
            frame.pc = pc;
            state.locals[cell] = Value::Int(-n);
        }
    }

    fn top_base(&self, state: &State) -> usize {
        state.stack.last().map_or(0, |f| f.base as usize)
    }

    /// Starts the `play` procedure (a position resumes there, after setup).
    pub(crate) fn enter_play(&self, state: &mut State) {
        self.enter(state, self.play);
    }

    /// Starts a procedure without parameters (setup, play): a fresh frame with its locals.
    fn enter(&self, state: &mut State, proc: ProcId) {
        let p = &self.procedures[proc.index()];
        let base = state.locals.len();
        state.locals.resize(base + p.locals, Value::None);
        state.stack.push(Frame {
            block: p.body,
            pc: 0,
            base: base as u32,
            kind: FrameKind::Call { into: None },
        });
    }

    /// Runs until the state is suspended.
    pub(crate) fn run(&self, state: &mut State, journal: &mut Journal) -> Result<(), ApplyError> {
        let mut steps: u64 = 0;
        while matches!(state.pending, Pending::Running) {
            let Some(frame) = state.stack.last_mut() else {
                self.finish(state, None)?;
                break;
            };
            let block = &self.blocks[frame.block.index()];
            if (frame.pc as usize) < block.len() {
                let (block_id, pc) = (frame.block, frame.pc);
                frame.pc += 1;
                let stmt = &block[pc as usize];
                journal.cover(&stmt.rule);
                steps += 1;
                if steps > self.limits.statements_between_steps {
                    return Err(self.endless(&stmt.origin).into());
                }
                self.exec(state, block_id, pc, journal)
                    .map_err(|e| e.at(&self.location(&stmt.origin)))?;
            } else {
                self.end_of_block(state)?;
            }
        }
        Ok(())
    }

    #[cold]
    fn nested_too_deep(&self) -> RuntimeError {
        let message = format!(
            "calls nested more than {} deep: does a procedure call itself without end? (--limit calls=N raises the limit)",
            self.limits.nested_calls
        );
        RuntimeError::new(message)
    }

    #[cold]
    fn endless(&self, origin: &str) -> RuntimeError {
        let message = format!(
            "{} statements ran without a decision or a chance point: does a loop never end? (--limit statements=N raises the limit)",
            self.limits.statements_between_steps
        );
        RuntimeError::new(message).at(&self.location(origin))
    }

    fn end_of_block(&self, state: &mut State) -> Result<(), RuntimeError> {
        let Some(frame) = state.stack.last_mut() else {
            return Ok(());
        };
        match &mut frame.kind {
            FrameKind::Call { into } => {
                if into.is_some() {
                    let name = self
                        .procedures
                        .iter()
                        .find(|p| p.body == frame.block)
                        .map_or("?", |p| p.name.as_str());
                    let message = format!(
                        "procedure '{name}' ended without return: its caller waits for a value"
                    );
                    return Err(RuntimeError::new(message)
                        .at(&self.location(&format!("procedures.{name}"))));
                }
                let base = frame.base as usize;
                state.stack.pop();
                state.locals.truncate(base);
            }
            FrameKind::Block => {
                state.stack.pop();
            }
            FrameKind::ForEach { slot, list, next } => {
                if (*next as usize) < list.len() {
                    let value = list[*next as usize].clone();
                    let index = frame.base as usize + slot.index();
                    *next += 1;
                    frame.pc = 0;
                    state.locals[index] = value;
                } else {
                    state.stack.pop();
                }
            }
            FrameKind::Repeat { left } => {
                if *left > 0 {
                    *left -= 1;
                    frame.pc = 0;
                } else {
                    state.stack.pop();
                }
            }
            FrameKind::While { block, pc } => {
                let (block, pc, base) = (*block, *pc, frame.base as usize);
                let stmt = &self.blocks[block.index()][pc as usize];
                let StmtKind::While { cond, .. } = &stmt.kind else {
                    return Err(RuntimeError::new(
                        "internal: a while frame without its loop",
                    ));
                };
                let env = Env::new(self, state, &state.locals[base..]);
                let again = cond
                    .bool(&env)
                    .map_err(|e| e.at(&self.location(&stmt.origin)))?;
                let frame = state.stack.last_mut().expect("frame checked above");
                if again {
                    frame.pc = 0;
                } else {
                    state.stack.pop();
                }
            }
            FrameKind::UpTo {
                block,
                pc,
                round,
                count,
            } => {
                let (block, pc, next, count, base) =
                    (*block, *pc, *round + 1, *count, frame.base as usize);
                let again = next <= count && self.begin_round(state, base, block, pc, next)?;
                let frame = state.stack.last_mut().expect("frame checked above");
                match (&mut frame.kind, again) {
                    (FrameKind::UpTo { round, .. }, true) => {
                        *round = next;
                        frame.pc = 0;
                    }
                    _ => {
                        state.stack.pop();
                    }
                }
            }
        }
        Ok(())
    }

    /// Begins round `round` of the `repeat: { up_to }` loop at (block, pc): sets its round
    /// locals and says whether its `while:` condition lets the round run.
    fn begin_round(
        &self,
        state: &mut State,
        base: usize,
        block: BlockId,
        pc: u32,
        round: u16,
    ) -> Result<bool, RuntimeError> {
        let round = round as i64;
        let stmt = &self.blocks[block.index()][pc as usize];
        let StmtKind::RepeatUpTo {
            round: slot,
            name,
            cond,
            ..
        } = &stmt.kind
        else {
            return Err(RuntimeError::new(
                "internal: an up_to frame without its loop",
            ));
        };
        state.locals[base + slot.index()] = Value::Int(round);
        if let Some(name) = name {
            state.locals[base + name.index()] = Value::Int(round);
        }
        match cond {
            Some(cond) => cond
                .bool(&Env::new(self, state, &state.locals[base..]))
                .map_err(|e| e.at(&self.location(&stmt.origin))),
            None => Ok(true),
        }
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

    /// Ends the game: ranks the players by the ranking's score and tie-breaks.
    pub(crate) fn finish(
        &self,
        state: &mut State,
        ended_by: Option<std::sync::Arc<str>>,
    ) -> Result<(), RuntimeError> {
        let n = state.names.len();
        let mut scores = Vec::with_capacity(n);
        let mut tiebreaks = Vec::with_capacity(n);
        for p in 0..n {
            let it = Value::Player(p as u8);
            let root = Env::new(self, state, &[]);
            let env = root.with_it(&it);
            scores.push(
                self.ranking
                    .score
                    .int(&env)
                    .map_err(|e| e.at(&self.location("ranking.score")))?,
            );
            let mut keys = Vec::new();
            for (i, key) in self.ranking.tiebreak.iter().enumerate() {
                keys.push(
                    key.int(&env)
                        .map_err(|e| e.at(&self.location(&format!("ranking.tiebreak[{i}]"))))?,
                );
            }
            tiebreaks.push(keys);
        }
        let key = |p: usize| (scores[p], tiebreaks[p].clone());
        let ranks = (0..n)
            .map(|p| 1 + (0..n).filter(|&q| key(q) > key(p)).count() as u8)
            .collect();
        state.stack.clear();
        state.locals.clear();
        state.pending = Pending::Over(Box::new(Outcome {
            scores,
            tiebreaks,
            ranks,
            ended_by,
        }));
        Ok(())
    }

    fn exec(
        &self,
        state: &mut State,
        block: BlockId,
        pc: u32,
        journal: &mut Journal,
    ) -> Result<(), RuntimeError> {
        let stmt = &self.blocks[block.index()][pc as usize];
        let base = self.top_base(state);
        macro_rules! env {
            () => {
                Env::new(self, &*state, &state.locals[base..])
            };
        }
        match &stmt.kind {
            StmtKind::Assign {
                target,
                value,
                mode,
            } => match target {
                Place::Local(slot) => {
                    let v = value.eval(&env!())?;
                    let cell = &mut state.locals[base + slot.index()];
                    *cell = match mode {
                        AssignMode::Set => v,
                        AssignMode::Add => Value::Int(checked_add(as_int(cell)?, as_int(&v)?)?),
                    };
                }
                Place::Var { var, index } => {
                    let decl = &self.vars[var.index()];
                    let env = env!();
                    let i = match index {
                        Some(index) => self.checked_index(
                            decl.per,
                            index.index(&env, &decl.name)?,
                            &decl.name,
                        )?,
                        None => 0,
                    };
                    let slot = decl.base + i;
                    let n = match mode {
                        AssignMode::Set if decl.ty == Type::Int => match value.int(&env) {
                            Ok(n) => n,
                            // A value of unknown type (a script's) that is not a number:
                            // say what was stored where.
                            Err(_) => self.slot_value(decl, &value.eval(&env)?, &state.names)?,
                        },
                        AssignMode::Set => {
                            self.slot_value(decl, &value.eval(&env)?, &state.names)?
                        }
                        AssignMode::Add => checked_add(state.ints[slot], value.int(&env)?)?,
                    };
                    state.ints[slot] = n;
                }
            },
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let branch = if cond.bool(&env!())? {
                    Some(*then)
                } else {
                    *otherwise
                };
                if let Some(b) = branch {
                    state.stack.push(Frame {
                        block: b,
                        pc: 0,
                        base: base as u32,
                        kind: FrameKind::Block,
                    });
                }
            }
            StmtKind::Call { proc, args, into } => {
                // The arguments are evaluated in the caller's frame, straight into the
                // callee's parameter slots.
                if state.stack.len() > self.limits.nested_calls {
                    return Err(self.nested_too_deep());
                }
                let p = &self.procedures[proc.index()];
                journal.cover(&p.rule);
                let callee = state.locals.len();
                state.locals.extend((0..p.locals).map(|_| Value::None));
                for (slot, arg) in p.params.iter().zip(args) {
                    let v = arg.eval(&Env::new(self, &*state, &state.locals[base..callee]))?;
                    state.locals[callee + slot.index()] = v;
                }
                state.stack.push(Frame {
                    block: p.body,
                    pc: 0,
                    base: callee as u32,
                    kind: FrameKind::Call { into: *into },
                });
            }
            _ => self.exec_rest(state, stmt, block, pc, base, journal)?,
        }
        Ok(())
    }

    /// The statements other than assignments, `if` and `call`, out of line: the commonest
    /// three run without the frame that the others' temporaries need.
    #[inline(never)]
    fn exec_rest(
        &self,
        state: &mut State,
        stmt: &crate::model::Stmt,
        block: BlockId,
        pc: u32,
        base: usize,
        journal: &mut Journal,
    ) -> Result<(), RuntimeError> {
        macro_rules! env {
            () => {
                Env::new(self, &*state, &state.locals[base..])
            };
        }
        match &stmt.kind {
            StmtKind::Assign { .. } | StmtKind::If { .. } | StmtKind::Call { .. } => {
                return Err(RuntimeError::new(
                    "internal: a statement run out of its place",
                ));
            }
            StmtKind::Move { from, to, what, at } => {
                let env = env!();
                let (from, of) = (from.instance(&env)?, from.of);
                let to = to.instance(&env)?;
                let at = match at {
                    MoveAt::Bottom => None,
                    MoveAt::Top => Some(0),
                    MoveAt::Index(k) => Some(k.int(&env)?),
                };
                let taken = match what {
                    MoveWhat::Item(item) => {
                        let item = item.eval(&env)?;
                        let code = self.zone_code(of, &item, &state.names)?;
                        let Some(at) = state.zones[from].iter().position(|e| *e == code) else {
                            return Err(RuntimeError::new(format!(
                                "{} is not in {}",
                                self.value_text(&item, &state.names),
                                self.zone_instance_name(from)
                            )));
                        };
                        at..at + 1
                    }
                    MoveWhat::Top(n) => {
                        0..n.int(&env)?.clamp(0, state.zones[from].len() as i64) as usize
                    }
                    MoveWhat::All => 0..state.zones[from].len(),
                };
                match at {
                    None => state.move_to_end(from, to, taken),
                    Some(at) => {
                        // The position counts in the destination once the elements are out.
                        let len = state.zones[to].len() - if from == to { taken.len() } else { 0 };
                        if at < 0 || at as usize > len {
                            return Err(RuntimeError::new(format!(
                                "position {at} is outside {} ({len} elements: a move inserts at 0 to {len})",
                                self.zone_instance_name(to)
                            )));
                        }
                        let moved: Vec<u16> = state.zones[from].drain(taken).collect();
                        let at = at as usize;
                        state.zones[to].splice(at..at, moved);
                        if from != to {
                            state.forget_moved();
                        }
                    }
                }
            }
            StmtKind::Push { to, value } => {
                let env = env!();
                let zone = to.instance(&env)?;
                let code = self.zone_code(to.of, &value.eval(&env)?, &state.names)?;
                self.check_elements(state, 1)?;
                state.zones[zone].push(code);
            }
            StmtKind::Remove { from, what } => {
                let env = env!();
                let zone = from.instance(&env)?;
                match what {
                    RemoveWhat::At(at) => {
                        let at = at.int(&env)?;
                        let len = state.zones[zone].len();
                        if at < 0 || at as usize >= len {
                            return Err(RuntimeError::new(format!(
                                "position {at} is outside {} ({len} elements)",
                                self.zone_instance_name(zone)
                            )));
                        }
                        state.zones[zone].remove(at as usize);
                    }
                    RemoveWhat::Item(item) => {
                        if let Some(code) = code_of(&item.eval(&env)?) {
                            if let Some(at) = state.zones[zone].iter().position(|e| *e == code) {
                                state.zones[zone].remove(at);
                            }
                        }
                    }
                }
                state.forget_moved();
            }
            StmtKind::Shuffle { zone } => {
                let zone = zone.instance(&env!())?;
                if state.zones[zone].len() > 1 {
                    state.pending = Pending::Shuffle { zone };
                }
            }
            StmtKind::Draw(draw) => self.draw(state, base, draw)?,
            StmtKind::Clear { zone } => {
                let zone = zone.instance(&env!())?;
                state.zones[zone].clear();
                state.forget_moved();
            }
            StmtKind::Reveal {
                zone: read,
                what,
                to,
            } => {
                let env = env!();
                let zone = read.instance(&env)?;
                let item = what.eval(&env)?;
                let code = self.zone_code(read.of, &item, &state.names)?;
                if !state.zones[zone].contains(&code) {
                    return Err(RuntimeError::new(format!(
                        "reveal: {} is not in {}",
                        self.value_text(&item, &state.names),
                        self.zone_instance_name(zone)
                    )));
                }
                let players = match to.eval(&env)? {
                    Value::List(list) => list.iter().map(as_seat).collect::<Result<Vec<_>, _>>()?,
                    one => vec![as_seat(&one)?],
                };
                let mut mask = 0u64;
                for p in players {
                    if p as usize >= crate::knowledge::MAX_SEATS {
                        return Err(RuntimeError::new(format!(
                            "reveal: at most {} seats can be shown an element",
                            crate::knowledge::MAX_SEATS
                        )));
                    }
                    mask |= 1 << p;
                }
                state.reveal(zone, code, mask);
            }
            StmtKind::Place { board, at, piece } => {
                let env = env!();
                let instance = board.instance(&env)?;
                let at = as_pos(&at.eval(&env)?)?;
                let piece = piece_of(&piece.eval(&env)?)?;
                state.boards[instance]
                    .place(at, &piece)
                    .map_err(RuntimeError::new)?;
                if state.boards[instance].len() > self.limits.board_cells {
                    return Err(RuntimeError::new(format!(
                        "a board covered on more than {} cells (--limit cells=N raises the limit)",
                        self.limits.board_cells
                    )));
                }
            }
            StmtKind::ForEach { slot, list, body } => {
                let list = as_list(list.eval(&env!())?)?;
                if let Some(first) = list.first().cloned() {
                    state.locals[base + slot.index()] = first;
                    let kind = FrameKind::ForEach {
                        slot: *slot,
                        list,
                        next: 1,
                    };
                    state.stack.push(Frame {
                        block: *body,
                        pc: 0,
                        base: base as u32,
                        kind,
                    });
                }
            }
            StmtKind::Repeat { count, body } => {
                let n = count.int(&env!())?;
                if n > 0 {
                    let kind = FrameKind::Repeat { left: n - 1 };
                    state.stack.push(Frame {
                        block: *body,
                        pc: 0,
                        base: base as u32,
                        kind,
                    });
                }
            }
            StmtKind::While { cond, body } => {
                if cond.bool(&env!())? {
                    let kind = FrameKind::While { block, pc };
                    state.stack.push(Frame {
                        block: *body,
                        pc: 0,
                        base: base as u32,
                        kind,
                    });
                }
            }
            StmtKind::RepeatUpTo { count, body, .. } => {
                // Frames stay small: a round counter is 16 bits.
                let n = count.int(&env!())?;
                let n = u16::try_from(n.max(0)).map_err(|_| {
                    RuntimeError::new(format!("repeat up_to {n}: at most {} rounds", u16::MAX))
                })?;
                if n > 0 && self.begin_round(state, base, block, pc, 1)? {
                    let kind = FrameKind::UpTo {
                        block,
                        pc,
                        round: 1,
                        count: n,
                    };
                    state.stack.push(Frame {
                        block: *body,
                        pc: 0,
                        base: base as u32,
                        kind,
                    });
                }
            }
            StmtKind::EndLoop => loop {
                match state.stack.pop().map(|f| f.kind) {
                    Some(FrameKind::UpTo { .. }) => break,
                    Some(FrameKind::Block) => {}
                    _ => {
                        return Err(RuntimeError::new(
                            "internal: 'done' outside its repeat loop",
                        ))
                    }
                }
            },
            StmtKind::Choose(choose) => {
                let env = env!();
                let player = match choose.who.eval(&env)? {
                    Value::Player(p) if (p as usize) < state.names.len() => p,
                    other => {
                        return Err(RuntimeError::new(format!(
                            "the player to decide is {}, not a player",
                            self.value_text(&other, &state.names)
                        )))
                    }
                };
                let options = self.enumerate_options(choose, &env)?;
                if options.is_empty() {
                    let prompt = choose.prompt.render(&env).unwrap_or_default();
                    return Err(RuntimeError::new(format!(
                        "no option is legal for {} at \"{prompt}\"",
                        state.names[player as usize]
                    )));
                }
                state.pending = Pending::Decision {
                    player,
                    block,
                    pc,
                    options,
                };
            }
            StmtKind::Random {
                slot,
                outcomes,
                weights,
            } => {
                let env = env!();
                let outcomes = as_list(outcomes.eval(&env)?)?;
                let weights: Vec<u64> = match weights {
                    Some(w) => as_list(w.eval(&env)?)?
                        .iter()
                        .map(|w| as_int(w).map(|w| w.max(0) as u64))
                        .collect::<Result<_, _>>()?,
                    None => vec![1; outcomes.len()],
                };
                if outcomes.is_empty()
                    || weights.len() != outcomes.len()
                    || weights.iter().all(|w| *w == 0)
                {
                    return Err(RuntimeError::new(
                        "a random choice needs outcomes, and as many positive weights",
                    ));
                }
                if weights
                    .iter()
                    .try_fold(0u64, |total, w| total.checked_add(*w))
                    .is_none()
                {
                    return Err(RuntimeError::new(
                        "the weights of a random choice add up past 2⁶⁴−1",
                    ));
                }
                if outcomes.len() == 1 {
                    state.locals[base + slot.index()] = outcomes[0].clone();
                } else {
                    state.pending = Pending::Chance(Box::new(ChancePoint {
                        slot: *slot,
                        outcomes: outcomes.to_vec(),
                        weights,
                    }));
                }
            }
            StmtKind::Log(template) => {
                if journal.is_on() {
                    let line = template.render(&env!())?;
                    journal.write(line);
                }
            }
            StmtKind::EndGame => {
                self.finish(state, Some(stmt.origin.clone()))?;
            }
            StmtKind::Award(award) => self.award(state, base, award)?,
            StmtKind::Return(value) => {
                let value = match value {
                    Some(v) => Some(v.eval(&env!())?),
                    None => None,
                };
                // Leave every block of the procedure, then the procedure itself.
                while let Some(frame) = state.stack.pop() {
                    if let FrameKind::Call { into } = frame.kind {
                        state.locals.truncate(frame.base as usize);
                        if let (Some(slot), Some(value)) = (into, value) {
                            let caller = self.top_base(state) + slot.index();
                            let cell = state.locals.get_mut(caller).ok_or_else(|| {
                                RuntimeError::new("return: the caller has no such local")
                            })?;
                            *cell = value;
                        }
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    /// Runs a `draw:` (see [`crate::model::Draw`]) until it ends or waits for the shuffle
    /// of its refilled pile.
    fn draw(
        &self,
        state: &mut State,
        base: usize,
        draw: &crate::model::Draw,
    ) -> Result<(), RuntimeError> {
        let crate::model::Draw {
            from,
            to,
            count,
            refill,
            left,
        } = draw;
        macro_rules! env {
            () => {
                Env::new(self, &*state, &state.locals[base..])
            };
        }
        let cell = base + left.index();
        let (mut rounds, mut refilled) = match state.locals[cell] {
            // Waiting for the shuffle of the refilled pile (a position read back runs the
            // suspending statement again): wait again.
            Value::Int(n) if n > 0 => {
                state.pending = Pending::Shuffle {
                    zone: from.instance(&env!())?,
                };
                return Ok(());
            }
            // The pile is shuffled (`resume_draw`): that round's element is still to move.
            Value::Int(n) if n < 0 => (-n, true),
            _ => (count.int(&env!())?, false),
        };
        state.locals[cell] = Value::None;
        while rounds > 0 {
            let mut source = from.instance(&env!())?;
            if let (Some(refill), false, true) = (refill, refilled, state.zones[source].is_empty())
            {
                let pile = refill.instance(&env!())?;
                let all = 0..state.zones[pile].len();
                state.move_to_end(pile, source, all);
                source = from.instance(&env!())?;
                if state.zones[source].len() > 1 {
                    state.locals[cell] = Value::Int(rounds);
                    state.pending = Pending::Shuffle { zone: source };
                    return Ok(());
                }
            }
            refilled = false;
            if state.zones[source].is_empty() {
                // Nothing left to draw or to refill from: the other rounds do nothing.
                let refillable = match refill {
                    Some(refill) => !state.zones[refill.instance(&env!())?].is_empty(),
                    None => false,
                };
                if !refillable {
                    break;
                }
            } else {
                let target = to.instance(&env!())?;
                state.move_to_end(source, target, 0..1);
            }
            rounds -= 1;
        }
        Ok(())
    }

    /// Gives the prizes of an `award:`: ranks the entrants, then adds each prize where
    /// `to` says (for that entrant).
    fn award(
        &self,
        state: &mut State,
        base: usize,
        award: &crate::model::Award,
    ) -> Result<(), RuntimeError> {
        let env = Env::new(self, state, &state.locals[base..]);
        let mut entrants: Vec<Value> = Vec::new();
        let mut keys: Vec<Vec<i64>> = Vec::new();
        award.among.each(&env, |v| {
            let each = env.with_it(v);
            if award.only.as_ref().map_or(Ok(true), |c| c.bool(&each))? {
                keys.push(
                    award
                        .keys
                        .iter()
                        .map(|k| k.int(&each))
                        .collect::<Result<_, _>>()?,
                );
                entrants.push(v.clone());
            }
            Ok(std::ops::ControlFlow::Continue(()))
        })?;
        let prizes: Vec<i64> = as_list(award.prizes.eval(&env)?)?
            .iter()
            .map(as_int)
            .collect::<Result<_, _>>()?;
        let amounts =
            crate::award::prizes(&keys, &prizes, award.ties).map_err(RuntimeError::new)?;
        // Where each prize goes, found before anything is changed.
        let mut targets = Vec::with_capacity(entrants.len());
        for (v, amount) in entrants.iter().zip(amounts) {
            let each = env.with_it(v);
            let target = match &award.to {
                Place::Local(slot) => Cell::Local(base + slot.index()),
                Place::Var { var, index } => {
                    let decl = &self.vars[var.index()];
                    let i = match index {
                        Some(index) => self.checked_index(
                            decl.per,
                            index.index(&each, &decl.name)?,
                            &decl.name,
                        )?,
                        None => 0,
                    };
                    Cell::Int(decl.base + i)
                }
            };
            targets.push((target, amount));
        }
        for (target, amount) in targets {
            match target {
                Cell::Int(slot) => state.ints[slot] = checked_add(state.ints[slot], amount)?,
                Cell::Local(local) => {
                    state.locals[local] =
                        Value::Int(checked_add(as_int(&state.locals[local])?, amount)?)
                }
            }
        }
        Ok(())
    }

    /// The number a variable's slot stores for `v`, which must be of the variable's type:
    /// a script's result is checked here, where it is stored. Scripts speak of players
    /// as seat numbers and of rows by id, so those convert.
    pub(crate) fn slot_value(
        &self,
        var: &Var,
        v: &Value,
        names: &[String],
    ) -> Result<i64, RuntimeError> {
        let stored = match (&var.ty, v) {
            (Type::Int, Value::Int(n)) => Some(*n),
            (Type::Bool, Value::Bool(b)) => Some(*b as i64),
            (Type::Player | Type::Row(_), Value::None) => Some(-1),
            (Type::Player | Type::Row(_), _) => self.element_of(&var.ty, v, names).map(i64::from),
            _ => None,
        };
        stored.ok_or_else(|| {
            RuntimeError::new(format!(
                "'{}' holds {}, not {}",
                var.name,
                self.type_words(&var.ty),
                self.value_words(v, names)
            ))
        })
    }

    /// The code of a player or row that `v` stands for, as a value of type `ty`: a player,
    /// a seat number (scripts), a row of the table, or its id (scripts).
    fn element_of(&self, ty: &Type, v: &Value, names: &[String]) -> Option<u16> {
        match (ty, v) {
            (Type::Player, Value::Player(p)) => ((*p as usize) < names.len()).then_some(*p as u16),
            (Type::Player, Value::Int(n)) => {
                (0..names.len() as i64).contains(n).then_some(*n as u16)
            }
            (Type::Row(t), Value::Row(u, r)) => {
                (t == u && (*r as usize) < self.tables[t.index()].rows.len()).then_some(*r)
            }
            (Type::Row(t), Value::Str(id)) => self.tables[t.index()].row_index(id),
            _ => None,
        }
    }

    /// The code a zone holding `of` stores for `v`, which must be one of its elements.
    pub(crate) fn zone_code(
        &self,
        of: Element,
        v: &Value,
        names: &[String],
    ) -> Result<u16, RuntimeError> {
        if *v == Value::None {
            return Err(RuntimeError::new("cannot put none in a zone"));
        }
        self.element_of(&of.value_type(), v, names).ok_or_else(|| {
            RuntimeError::new(format!(
                "a zone of {} cannot hold {}",
                self.type_words(&of.value_type()),
                self.value_words(v, names)
            ))
        })
    }

    /// A type as messages name it: "a number", "a row of cards".
    fn type_words(&self, ty: &Type) -> String {
        match ty {
            Type::Int => "a number".into(),
            Type::Bool => "true/false".into(),
            Type::Player => "a player".into(),
            Type::Row(t) => format!("a row of {}", self.tables[t.index()].name),
            Type::Str => "a text".into(),
            Type::Pos => "a position".into(),
            Type::List(_) => "a list".into(),
            Type::None => "none".into(),
            Type::Any => "anything".into(),
        }
    }

    /// A value as messages name it: its kind and how it reads.
    fn value_words(&self, v: &Value, names: &[String]) -> String {
        let kind = match v {
            Value::Int(_) => "the number",
            Value::Bool(_) => "the truth value",
            // Quoted: a text may be a word that reads as part of the sentence.
            Value::Str(s) => return format!("the text \"{s}\""),
            Value::List(_) => "the list",
            Value::Pos(_) => "the position",
            Value::Player(p) if (*p as usize) >= names.len() => {
                return format!("seat {p}, which does not play")
            }
            Value::Player(_) => "the player",
            Value::Row(t, r)
                if (*r as usize) >= self.tables.get(t.index()).map_or(0, |t| t.rows.len()) =>
            {
                return format!("row number {r}, which does not exist")
            }
            Value::Row(..) => "the row",
            Value::None => return "none".into(),
        };
        format!("{kind} {}", self.value_text(v, names))
    }

    /// The options of a decision, in the order the ruleset lists them.
    fn enumerate_options(
        &self,
        choose: &crate::model::Choose,
        env: &Env,
    ) -> Result<Vec<(u16, Value)>, RuntimeError> {
        // The state stays as it is while the options are listed: a function without
        // parameters that several options' conditions call is computed once.
        let memo = crate::eval::Memo::default();
        let env = &env.with_memo(&memo);
        let mut options = spare_options();
        for (g, group) in choose.groups.iter().enumerate() {
            let g = g as u16;
            match group.bindings.as_slice() {
                [] => {
                    if legal(group, env)? {
                        options.push((g, Value::None));
                    }
                }
                [(slot, list)] => {
                    // The state does not change while the options are listed: a condition
                    // several rows share holds or not for all of them (the first 64 are
                    // remembered).
                    let (mut tested, mut held) = (0u64, 0u64);
                    let mut consider =
                        |item: &Value| -> Result<std::ops::ControlFlow<()>, RuntimeError> {
                            let allowed = match (&group.by_row, item) {
                                (Some(by_row), Value::Row(_, r)) => {
                                    let k =
                                        by_row.of_row.get(*r as usize).copied().unwrap_or(u16::MAX)
                                            as usize;
                                    let condition = by_row.conditions.get(k).ok_or_else(|| {
                                        RuntimeError::new("internal: a row without its condition")
                                    })?;
                                    let bit = 1u64.checked_shl(k as u32).unwrap_or(0);
                                    if tested & bit != 0 {
                                        held & bit != 0
                                    } else {
                                        let holds = condition.bool(&env.with_bound(*slot, item))?;
                                        tested |= bit;
                                        held |= if holds { bit } else { 0 };
                                        holds
                                    }
                                }
                                _ => legal(group, &env.with_bound(*slot, item))?,
                            };
                            if allowed {
                                options.push((g, item.clone()));
                            }
                            Ok(std::ops::ControlFlow::Continue(()))
                        };
                    match group
                        .by_row
                        .as_ref()
                        .and_then(|by_row| by_row.filtered.as_ref())
                    {
                        // The filter of constant rows, row by row with its condition for each.
                        Some(filtered) => {
                            for item in filtered.rows.iter() {
                                let Value::Row(_, r) = item else {
                                    return Err(RuntimeError::new(
                                        "internal: a filtered row that is not a row",
                                    ));
                                };
                                let pass = filtered.pass.get(*r as usize).ok_or_else(|| {
                                    RuntimeError::new("internal: a row without its filter")
                                })?;
                                if pass.bool(env)? && consider(item)?.is_break() {
                                    break;
                                }
                            }
                        }
                        None => list.each(env, consider)?,
                    }
                }
                bindings => {
                    let mut scratch = env.locals.to_vec();
                    self.product_options(
                        env,
                        group,
                        g,
                        bindings,
                        &mut scratch,
                        &mut Vec::new(),
                        &mut options,
                    )?;
                }
            }
        }
        Ok(options)
    }

    /// The options of a group with several `for:` lists: one per combination, the first
    /// list outermost. Each option's value is the list of its elements. The names bound
    /// so far are written into `scratch`, a copy of the locals; the last is bound in place.
    #[allow(clippy::too_many_arguments)]
    fn product_options(
        &self,
        env: &Env,
        group: &OptionGroup,
        g: u16,
        bindings: &[(Slot, crate::ir::Expr)],
        scratch: &mut Vec<Value>,
        chosen: &mut Vec<Value>,
        options: &mut Vec<(u16, Value)>,
    ) -> Result<(), RuntimeError> {
        let Some(((slot, list), rest)) = bindings.split_first() else {
            return Ok(());
        };
        if rest.is_empty() {
            let inner = Env {
                memo: env.memo,
                ..Env::new(env.game, env.state, scratch)
            };
            return list.each(&inner, |item| {
                if legal(group, &inner.with_bound(*slot, item))? {
                    let mut values = chosen.clone();
                    values.push(item.clone());
                    options.push((g, Value::list(values)));
                }
                Ok(std::ops::ControlFlow::Continue(()))
            });
        }
        let mut items = Vec::new();
        list.each(
            &Env {
                memo: env.memo,
                ..Env::new(env.game, env.state, scratch)
            },
            |item| {
                items.push(item.clone());
                Ok(std::ops::ControlFlow::Continue(()))
            },
        )?;
        for item in items {
            scratch[slot.index()] = item.clone();
            chosen.push(item);
            self.product_options(env, group, g, rest, scratch, chosen, options)?;
            chosen.pop();
        }
        Ok(())
    }

    /// The label of option `i` of the pending decision, as traces and players see it.
    pub fn option_label(&self, state: &State, i: usize) -> Result<String, RuntimeError> {
        let Pending::Decision {
            block, pc, options, ..
        } = &state.pending
        else {
            return Err(RuntimeError::new("the game is not waiting for a decision"));
        };
        let stmt = &self.blocks[block.index()][*pc as usize];
        let StmtKind::Choose(choose) = &stmt.kind else {
            return Err(RuntimeError::new("internal: a decision without its choose"));
        };
        let (g, value) = options
            .get(i)
            .ok_or_else(|| RuntimeError::new("no such option"))?;
        let group = &choose.groups[*g as usize];
        let base = self.top_base(state);
        let env = Env::new(self, state, &state.locals[base..]);
        // A label that fails (a division by zero…) is reported where it is written.
        let at = |e: RuntimeError| {
            e.at(&self.location(&format!("{}.choose.options[{g}].label", stmt.origin)))
        };
        let label = match (group.bindings.as_slice(), value) {
            ([], _) => group.label.render(&env),
            ([(slot, _)], value) => group.label.render(&env.with_bound(*slot, value)),
            (bindings, Value::List(values)) => {
                let mut scratch = state.locals[base..].to_vec();
                for ((slot, _), value) in bindings.iter().zip(values.iter()) {
                    scratch[slot.index()] = value.clone();
                }
                group.label.render(&Env::new(self, state, &scratch))
            }
            _ => Err(RuntimeError::new(
                "internal: an option of several lists without its elements",
            )),
        };
        label.map_err(at)
    }

    pub fn option_labels(&self, state: &State) -> Result<Vec<String>, RuntimeError> {
        let n = match &state.pending {
            Pending::Decision { options, .. } => options.len(),
            _ => 0,
        };
        (0..n).map(|i| self.option_label(state, i)).collect()
    }

    /// The prompt of the pending decision.
    pub fn prompt(&self, state: &State) -> Result<String, RuntimeError> {
        let Pending::Decision { block, pc, .. } = &state.pending else {
            return Ok(String::new());
        };
        let stmt = &self.blocks[block.index()][*pc as usize];
        let StmtKind::Choose(choose) = &stmt.kind else {
            return Ok(String::new());
        };
        let base = self.top_base(state);
        choose
            .prompt
            .render(&Env::new(self, state, &state.locals[base..]))
            .map_err(|e| e.at(&self.location(&format!("{}.choose.prompt", stmt.origin))))
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
    /// boards, functions, the ranking): in force in every game of the ruleset.
    pub fn declared_rules(&self) -> std::collections::BTreeSet<Arc<str>> {
        let mut rules = std::collections::BTreeSet::new();
        rules.extend(self.params.iter().filter_map(|x| x.rule.clone()));
        rules.extend(self.tables.iter().filter_map(|x| x.rule.clone()));
        rules.extend(self.vars.iter().filter_map(|x| x.rule.clone()));
        rules.extend(self.zones.iter().filter_map(|x| x.rule.clone()));
        rules.extend(self.boards.iter().filter_map(|x| x.rule.clone()));
        rules.extend(self.functions.iter().filter_map(|x| x.rule.clone()));
        rules.extend(self.ranking.rule.clone());
        rules
    }

    /// The rule reference of the pending decision's statement, if any.
    pub fn pending_rule(&self, state: &State) -> Option<Arc<str>> {
        let Pending::Decision { block, pc, .. } = &state.pending else {
            return None;
        };
        self.blocks[block.index()][*pc as usize].rule.clone()
    }

    /// Labels of a chance point's outcomes (a shuffle has one label per element).
    pub fn outcome_label(&self, state: &State, choice: &Choice) -> String {
        match (&state.pending, choice) {
            (Pending::Chance(point), Choice::Outcome(i)) => point
                .outcomes
                .get(*i)
                .map(|v| self.value_text(v, &state.names))
                .unwrap_or_default(),
            (Pending::Shuffle { zone }, Choice::Order(order)) => {
                let of = self.zone_element(*zone);
                let items: Vec<Value> = order.iter().map(|e| decode_element(of, *e)).collect();
                self.value_text(&Value::list(items), &state.names)
            }
            _ => String::new(),
        }
    }

    /// Parses an outcome label back into a choice for the pending chance point.
    pub fn parse_outcome(&self, state: &State, label: &str) -> Option<Choice> {
        match &state.pending {
            Pending::Chance(point) => point
                .outcomes
                .iter()
                .position(|v| self.value_text(v, &state.names) == label)
                .map(Choice::Outcome),
            Pending::Shuffle { zone } => {
                let of = self.zone_element(*zone);
                let mut order = Vec::new();
                for word in label.split_whitespace() {
                    let code = state.zones[*zone]
                        .iter()
                        .copied()
                        .find(|e| self.value_text(&decode_element(of, *e), &state.names) == word)?;
                    order.push(code);
                }
                is_reordering(&order, &state.zones[*zone]).then_some(Choice::Order(order))
            }
            _ => None,
        }
    }

    #[inline]
    fn checked_index(&self, domain: Domain, i: usize, what: &str) -> Result<usize, RuntimeError> {
        if i >= self.domain_len(domain) {
            return Err(index_out_of_range(what));
        }
        Ok(i)
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

/// Whether an option's `if:` holds (an option without one always may be chosen).
fn legal(group: &OptionGroup, env: &Env) -> Result<bool, RuntimeError> {
    match &group.condition {
        Some(c) => c.bool(env),
        None => Ok(true),
    }
}

/// A piece as statements give it: a list of rows, each a list of elements or none.
fn piece_of(v: &Value) -> Result<Piece, RuntimeError> {
    let rows = as_list(v.clone())?;
    let mut piece = Vec::with_capacity(rows.len());
    for row in rows.iter() {
        let cells = as_list(row.clone())?;
        piece.push(
            cells
                .iter()
                .map(|c| {
                    if *c == Value::None {
                        Ok(None)
                    } else {
                        code_of(c).map(Some).ok_or(())
                    }
                })
                .collect::<Result<Vec<_>, ()>>()
                .map_err(|_| {
                    RuntimeError::new("a piece holds rows or players, or none for a gap")
                })?,
        );
    }
    crate::grid::check_piece(&piece).map_err(RuntimeError::new)?;
    Ok(piece)
}

/// Whether `order` holds exactly the elements of `zone`, in any order.
fn is_reordering(order: &[u16], zone: &[u16]) -> bool {
    if order.len() != zone.len() {
        return false;
    }
    // Each code counted in the zone, then counted off by the order: a code the zone does
    // not hold, or holds fewer times, goes below zero or past the counts.
    let Some(&most) = zone.iter().max() else {
        return true;
    };
    let mut counts = vec![0u32; most as usize + 1];
    for &e in zone {
        counts[e as usize] += 1;
    }
    order.iter().all(|&e| match counts.get_mut(e as usize) {
        Some(n) if *n > 0 => {
            *n -= 1;
            true
        }
        _ => false,
    })
}

impl Game {
    /// Refuses `adding` new elements when the zones of `state` would then hold more than
    /// the limit: elements are made by `push` and zone `init`s only (moves keep the
    /// total), so this bounds the memory zones take. Zones are few, so their lengths are
    /// added up each time rather than kept in the state.
    pub(crate) fn check_elements(&self, state: &State, adding: usize) -> Result<(), RuntimeError> {
        let held: usize = state.zones.iter().map(Vec::len).sum();
        if held.saturating_add(adding) > self.limits.zone_elements {
            return Err(RuntimeError::new(format!(
                "the zones would hold more than {} elements (--limit elements=N raises the limit)",
                self.limits.zone_elements
            )));
        }
        Ok(())
    }
}

thread_local! {
    /// An emptied option list kept for the next decision: a playout then allocates no
    /// option list per decision. Only capacity is kept, never contents.
    static SPARE_OPTIONS: std::cell::Cell<Vec<(u16, Value)>> = const { std::cell::Cell::new(Vec::new()) };
}

fn spare_options() -> Vec<(u16, Value)> {
    let mut options = SPARE_OPTIONS.with(|spare| spare.take());
    if options.capacity() == 0 {
        options.reserve(16);
    }
    options
}

fn recycle_options(mut options: Vec<(u16, Value)>) {
    options.clear();
    SPARE_OPTIONS.with(|spare| spare.set(options));
}

/// Where a number is stored: an integer slot of the state, or a local.
enum Cell {
    Int(usize),
    Local(usize),
}

fn checked_add(a: i64, b: i64) -> Result<i64, RuntimeError> {
    a.checked_add(b).ok_or_else(|| {
        RuntimeError::new(format!(
            "{a} + {b} is outside the whole numbers a state holds (−2⁶³ to 2⁶³−1)"
        ))
    })
}

/// The seat a player value stands for (`none` is an error).
fn as_seat(v: &Value) -> Result<u8, RuntimeError> {
    match v {
        Value::Player(p) => Ok(*p),
        other => Err(RuntimeError::new(format!(
            "expected a player, found {other:?}"
        ))),
    }
}

/// Out of line: `checked_index` is on the assignment path. `eval::instance` writes the
/// same message in place, on purpose: calling this from there measured 1.2% more
/// instructions a Way Out West decision (callgrind; the calls around it inline
/// differently).
#[cold]
fn index_out_of_range(what: &str) -> RuntimeError {
    RuntimeError::new(format!("{what}: index out of range"))
}

#[cfg(test)]
mod tests {
    use super::is_reordering;

    #[test]
    fn a_reordering_holds_each_element_as_often_as_the_zone() {
        assert!(is_reordering(&[3, 1, 2], &[1, 2, 3]));
        assert!(is_reordering(&[2, 1, 2], &[2, 2, 1]));
        assert!(is_reordering(&[], &[]));
        // One element too many or too few of a code, a code the zone does not hold,
        // another length.
        assert!(!is_reordering(&[1, 1, 2], &[1, 2, 2]));
        assert!(!is_reordering(&[1, 2, 9], &[1, 2, 3]));
        assert!(!is_reordering(&[1, 2], &[1, 2, 3]));
        assert!(!is_reordering(&[1], &[]));
    }
}
