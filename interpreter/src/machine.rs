//! The step machine: a state is suspended at a decision, a chance point or the end;
//! `apply` resumes it with a choice and runs until the next suspension. The
//! continuation (a stack of frames and the locals) lives in the state, so a state can
//! be cloned, serialized and resumed anywhere; no Rust call stack is held across steps.

use std::sync::Arc;

use crate::eval::{Env, RuntimeError};
use crate::grid::{Grid, Piece};
use crate::model::{
    AssignMode, BlockId, BoardRef, Domain, Element, Game, MoveWhat, Place, RemoveWhat, Slot, StmtKind, ZoneRef,
};
use crate::value::{Type, Value};

/// A running game. Plain data: cheap to clone, comparable, serializable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The players' names, in seat order.
    pub names: Arc<Vec<String>>,
    pub ints: Vec<i64>,
    pub zones: Vec<Vec<u16>>,
    pub boards: Vec<Grid>,
    pub stack: Vec<Frame>,
    pub locals: Vec<Value>,
    pub pending: Pending,
    /// Decisions and chance outcomes applied so far.
    pub steps: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub block: BlockId,
    pub pc: u32,
    /// Where this procedure activation's locals start in [`State::locals`].
    pub base: u32,
    pub kind: FrameKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// A procedure body: leaving it frees its locals.
    Call,
    /// A nested block (a branch, an option's effects).
    Block,
    ForEach { slot: Slot, list: Arc<Vec<Value>>, next: u32 },
    Repeat { left: i64 },
    /// A while loop; its condition is the statement at (block, pc).
    While { block: BlockId, pc: u32 },
}

/// Where the state is suspended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Only while running between two suspensions.
    Running,
    Decision { player: u8, block: BlockId, pc: u32, options: Vec<(u16, Value)> },
    Chance { slot: Slot, outcomes: Vec<Value>, weights: Vec<u64> },
    Shuffle { zone: usize },
    Over(Outcome),
}

/// The final result: a score per seat and a rank per seat (1 = winner; equal ranks share).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub scores: Vec<i64>,
    pub tiebreaks: Vec<Vec<i64>>,
    pub ranks: Vec<u8>,
}

impl Outcome {
    pub fn winners(&self) -> Vec<usize> {
        (0..self.ranks.len()).filter(|&p| self.ranks[p] == 1).collect()
    }
}

/// What a state waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status<'a> {
    Decision { player: u8, options: usize },
    Chance(Chance<'a>),
    Over(&'a Outcome),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chance<'a> {
    /// One outcome among these, with these weights.
    Pick { outcomes: &'a [Value], weights: &'a [u64] },
    /// A new order for the zone instance (all orders equally likely).
    Shuffle { zone: usize, len: usize },
}

/// How a suspended state is resumed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// The index of one of the decision's options.
    Option(usize),
    /// The index of one of a chance point's outcomes.
    Outcome(usize),
    /// A shuffle's result: the zone's elements in their new order.
    Order(Vec<u16>),
}

/// Where `apply` writes the game's log, if anywhere.
pub enum Journal<'a> {
    Off,
    On(&'a mut Vec<String>),
}

impl Journal<'_> {
    fn is_on(&self) -> bool {
        matches!(self, Journal::On(_))
    }
    fn write(&mut self, line: String) {
        if let Journal::On(lines) = self {
            lines.push(line);
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


pub(crate) fn encode(v: &Value) -> i64 {
    match v {
        Value::Int(n) => *n,
        Value::Bool(b) => *b as i64,
        Value::Player(p) => *p as i64,
        Value::Row(_, r) => *r as i64,
        _ => -1,
    }
}

pub(crate) fn decode(ty: &Type, n: i64) -> Value {
    match ty {
        Type::Bool => Value::Bool(n != 0),
        Type::Player if n < 0 => Value::None,
        Type::Player => Value::Player(n as u8),
        Type::Row(_) if n < 0 => Value::None,
        Type::Row(t) => Value::Row(*t, n as u16),
        _ => Value::Int(n),
    }
}

pub(crate) fn decode_element(of: Element, e: u16) -> Value {
    match of {
        Element::Player => Value::Player(e as u8),
        Element::Row(t) => Value::Row(t, e),
    }
}

/// The number of a seat or a row: how zones store elements, and where an indexed
/// variable's value for it lies.
pub(crate) fn encode_element(v: &Value) -> Option<u16> {
    match v {
        Value::Player(p) => Some(*p as u16),
        Value::Row(_, r) => Some(*r),
        _ => None,
    }
}

/// The index `v` stands for in `what[…]`.
pub(crate) fn index_of(v: &Value, what: &str) -> Result<usize, RuntimeError> {
    encode_element(v).map(usize::from).ok_or_else(|| RuntimeError::new(format!("{what}[…] indexed by none")))
}

impl Game {
    /// A new game for these players (seat order), run to its first decision or chance point.
    pub fn start(&self, names: Vec<String>) -> Result<State, ApplyError> {
        self.start_logged(names, &mut Journal::Off)
    }

    /// [`Game::start`], writing the log lines of setup to `journal`.
    pub fn start_logged(&self, names: Vec<String>, journal: &mut Journal) -> Result<State, ApplyError> {
        let n = names.len();
        if n < self.meta.min_players as usize || n > self.meta.max_players as usize {
            return Err(ApplyError::Illegal(self.player_count_message(n)));
        }
        let mut state = self.initial_state(names)?;
        self.enter(&mut state, self.play, Vec::new());
        self.enter(&mut state, self.setup, Vec::new());
        self.run(&mut state, journal)?;
        Ok(state)
    }

    pub fn player_count_message(&self, n: usize) -> String {
        let (min, max) = (self.meta.min_players, self.meta.max_players);
        let range = if min == max { format!("{min}") } else { format!("{min} to {max}") };
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
                values.push(encode(&(var.init)(&env).map_err(|e| e.at(&format!("state.{}", var.name).into()))?));
            }
            state.ints[var.base..var.base + values.len()].copy_from_slice(&values);
        }
        for zone in &self.zones {
            let Some(init) = &zone.init else { continue };
            for i in 0..self.domain_len(zone.per) {
                let it = self.domain_value(zone.per, i);
                let root = Env::new(self, &state, &[]);
                let env = root.with_it(&it);
                let contents = match init(&env)? {
                    Value::List(items) => items.iter().filter_map(encode_element).collect(),
                    _ => Vec::new(),
                };
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
            ints: vec![0; self.int_slots],
            zones: vec![Vec::new(); self.zone_slots],
            boards: vec![Grid::default(); self.board_slots],
            stack: Vec::new(),
            locals: Vec::new(),
            pending: Pending::Running,
            steps: 0,
        }
    }

    /// The value that stands for index `i` of a domain (a seat, a row).
    pub fn domain_value(&self, domain: Domain, i: usize) -> Value {
        match domain {
            Domain::Global => Value::None,
            Domain::Players => Value::Player(i as u8),
            Domain::Table(t) => Value::Row(t, i as u16),
        }
    }

    pub fn status<'s>(&self, state: &'s State) -> Status<'s> {
        match &state.pending {
            Pending::Decision { player, options, .. } => Status::Decision { player: *player, options: options.len() },
            Pending::Chance { outcomes, weights, .. } => Status::Chance(Chance::Pick { outcomes, weights }),
            Pending::Shuffle { zone } => Status::Chance(Chance::Shuffle { zone: *zone, len: state.zones[*zone].len() }),
            Pending::Over(outcome) => Status::Over(outcome),
            // A state handed out by the machine is never running; treat it as a decision with
            // no option so that callers cannot loop on it.
            Pending::Running => Status::Decision { player: 0, options: 0 },
        }
    }

    /// Resumes the state with `choice` and runs to the next suspension. On an error the
    /// state is left as it was before the call only for illegal choices; a runtime error
    /// (a ruleset bug) leaves it unusable.
    pub fn apply(&self, state: &mut State, choice: Choice, journal: &mut Journal) -> Result<(), ApplyError> {
        match (&state.pending, choice) {
            (Pending::Decision { options, block, pc, player }, Choice::Option(i)) => {
                let Some((group, value)) = options.get(i).cloned() else {
                    return Err(ApplyError::Illegal(format!("option {i} does not exist ({} options)", options.len())));
                };
                let (block, pc, player) = (*block, *pc, *player);
                if journal.is_on() {
                    let label = self.option_label(state, i)?;
                    journal.write(format!("{}: {label}", state.names[player as usize]));
                }
                let StmtKind::Choose(choose) = &self.blocks[block as usize][pc as usize].kind else {
                    return Err(ApplyError::Illegal("the state is not at a decision".into()));
                };
                let group = &choose.groups[group as usize];
                let base = self.top_base(state);
                if let Some((slot, _)) = &group.binding {
                    state.locals[base + *slot as usize] = value;
                }
                state.stack.push(Frame { block: group.body, pc: 0, base: base as u32, kind: FrameKind::Block });
            }
            (Pending::Chance { slot, outcomes, .. }, Choice::Outcome(i)) => {
                let Some(value) = outcomes.get(i).cloned() else {
                    return Err(ApplyError::Illegal(format!("outcome {i} does not exist ({} outcomes)", outcomes.len())));
                };
                if journal.is_on() {
                    journal.write(format!("chance: {}", self.value_text(&value, &state.names)));
                }
                let base = self.top_base(state);
                state.locals[base + *slot as usize] = value;
            }
            (Pending::Shuffle { zone }, Choice::Order(order)) => {
                let zone = *zone;
                if !is_reordering(&order, &state.zones[zone]) {
                    return Err(ApplyError::Illegal("the order given is not a reordering of the zone's contents".into()));
                }
                if journal.is_on() {
                    journal.write(format!("chance: shuffled {}", self.zone_instance_name(zone)));
                }
                state.zones[zone] = order;
            }
            (Pending::Over(_), _) => return Err(ApplyError::Illegal("the game is over".into())),
            (_, choice) => {
                return Err(ApplyError::Illegal(format!("{choice:?} does not fit what the game waits for")));
            }
        }
        state.pending = Pending::Running;
        state.steps += 1;
        self.run(state, journal)
    }

    fn top_base(&self, state: &State) -> usize {
        state.stack.last().map_or(0, |f| f.base as usize)
    }

    /// Starts the `play` procedure (a position resumes there, after setup).
    pub(crate) fn enter_play(&self, state: &mut State) {
        self.enter(state, self.play, Vec::new());
    }

    /// Pushes a procedure call: a fresh frame with its locals, parameters bound.
    fn enter(&self, state: &mut State, proc: u16, args: Vec<Value>) {
        let p = &self.procedures[proc as usize];
        let base = state.locals.len();
        state.locals.resize(base + p.locals, Value::None);
        for (slot, arg) in p.params.iter().zip(args) {
            state.locals[base + *slot as usize] = arg;
        }
        state.stack.push(Frame { block: p.body, pc: 0, base: base as u32, kind: FrameKind::Call });
    }

    /// Runs until the state is suspended.
    pub(crate) fn run(&self, state: &mut State, journal: &mut Journal) -> Result<(), ApplyError> {
        while matches!(state.pending, Pending::Running) {
            let Some(frame) = state.stack.last_mut() else {
                self.finish(state)?;
                break;
            };
            let block = &self.blocks[frame.block as usize];
            if (frame.pc as usize) < block.len() {
                let (block_id, pc) = (frame.block, frame.pc);
                frame.pc += 1;
                let stmt = &block[pc as usize];
                self.exec(state, block_id, pc, journal).map_err(|e| e.at(&stmt.origin))?;
            } else {
                self.end_of_block(state)?;
            }
        }
        Ok(())
    }

    fn end_of_block(&self, state: &mut State) -> Result<(), RuntimeError> {
        let Some(frame) = state.stack.last_mut() else { return Ok(()) };
        match &mut frame.kind {
            FrameKind::Call => {
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
                    let index = frame.base as usize + *slot as usize;
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
                let stmt = &self.blocks[block as usize][pc as usize];
                let StmtKind::While { cond, .. } = &stmt.kind else {
                    return Err(RuntimeError::new("internal: a while frame without its loop"));
                };
                let env = Env::new(self, state, &state.locals[base..]);
                let again = cond(&env).and_then(|v| as_bool(&v)).map_err(|e| e.at(&stmt.origin))?;
                let frame = state.stack.last_mut().expect("frame checked above");
                if again {
                    frame.pc = 0;
                } else {
                    state.stack.pop();
                }
            }
        }
        Ok(())
    }

    /// Ends the game: ranks the players by the ranking's score and tie-breaks.
    fn finish(&self, state: &mut State) -> Result<(), RuntimeError> {
        let n = state.names.len();
        let mut scores = Vec::with_capacity(n);
        let mut tiebreaks = Vec::with_capacity(n);
        for p in 0..n {
            let it = Value::Player(p as u8);
            let root = Env::new(self, state, &[]);
            let env = root.with_it(&it);
            scores.push(as_int(&(self.ranking.score)(&env)?)?);
            let mut keys = Vec::new();
            for key in &self.ranking.tiebreak {
                keys.push(as_int(&key(&env)?)?);
            }
            tiebreaks.push(keys);
        }
        let key = |p: usize| (scores[p], tiebreaks[p].clone());
        let ranks = (0..n).map(|p| 1 + (0..n).filter(|&q| key(q) > key(p)).count() as u8).collect();
        state.stack.clear();
        state.locals.clear();
        state.pending = Pending::Over(Outcome { scores, tiebreaks, ranks });
        Ok(())
    }

    fn exec(&self, state: &mut State, block: BlockId, pc: u32, journal: &mut Journal) -> Result<(), RuntimeError> {
        let stmt = &self.blocks[block as usize][pc as usize];
        let base = self.top_base(state);
        macro_rules! env {
            () => {
                Env::new(self, &*state, &state.locals[base..])
            };
        }
        match &stmt.kind {
            StmtKind::Assign { target, value, mode } => {
                let v = value(&env!())?;
                match target {
                    Place::Local(slot) => {
                        let cell = &mut state.locals[base + *slot as usize];
                        *cell = match mode {
                            AssignMode::Set => v,
                            AssignMode::Add => Value::Int(as_int(cell)? + as_int(&v)?),
                        };
                    }
                    Place::Var { var, index } => {
                        let decl = &self.vars[*var as usize];
                        let i = match index {
                            Some(index) => self.checked_index(decl.per, &index(&env!())?, &decl.name)?,
                            None => 0,
                        };
                        let cell = &mut state.ints[decl.base + i];
                        match mode {
                            AssignMode::Set => *cell = encode(&v),
                            AssignMode::Add => *cell += as_int(&v)?,
                        }
                    }
                }
            }
            StmtKind::Move { from, to, what } => {
                let from = self.zone_instance(from, &env!())?;
                let to = self.zone_instance(to, &env!())?;
                let moved: Vec<u16> = match what {
                    MoveWhat::Item(item) => {
                        let item = item(&env!())?;
                        let code = encode_element(&item).ok_or_else(|| RuntimeError::new("cannot move none"))?;
                        let Some(at) = state.zones[from].iter().position(|e| *e == code) else {
                            return Err(RuntimeError::new(format!(
                                "{} is not in {}",
                                self.value_text(&item, &state.names),
                                self.zone_instance_name(from)
                            )));
                        };
                        vec![state.zones[from].remove(at)]
                    }
                    MoveWhat::Top(n) => {
                        let n = (as_int(&n(&env!())?)?.max(0) as usize).min(state.zones[from].len());
                        state.zones[from].drain(..n).collect()
                    }
                    MoveWhat::All => std::mem::take(&mut state.zones[from]),
                };
                state.zones[to].extend(moved);
            }
            StmtKind::Push { to, value } => {
                let to = self.zone_instance(to, &env!())?;
                let v = value(&env!())?;
                let code = encode_element(&v).ok_or_else(|| RuntimeError::new("cannot put none in a zone"))?;
                state.zones[to].push(code);
            }
            StmtKind::Remove { from, what } => {
                let from = self.zone_instance(from, &env!())?;
                match what {
                    RemoveWhat::At(at) => {
                        let at = as_int(&at(&env!())?)?;
                        let len = state.zones[from].len();
                        if at < 0 || at as usize >= len {
                            return Err(RuntimeError::new(format!(
                                "position {at} is outside {} ({len} elements)",
                                self.zone_instance_name(from)
                            )));
                        }
                        state.zones[from].remove(at as usize);
                    }
                    RemoveWhat::Item(item) => {
                        let item = item(&env!())?;
                        if let Some(code) = encode_element(&item) {
                            if let Some(at) = state.zones[from].iter().position(|e| *e == code) {
                                state.zones[from].remove(at);
                            }
                        }
                    }
                }
            }
            StmtKind::Shuffle { zone } => {
                let zone = self.zone_instance(zone, &env!())?;
                if state.zones[zone].len() > 1 {
                    state.pending = Pending::Shuffle { zone };
                }
            }
            StmtKind::Place { board, at, piece } => {
                let env = env!();
                let instance = self.board_instance(board, &env)?;
                let at = as_pos(&at(&env)?)?;
                let piece = piece_of(&piece(&env)?)?;
                state.boards[instance].place(at, &piece).map_err(RuntimeError::new)?;
            }
            StmtKind::If { cond, then, otherwise } => {
                let branch = if as_bool(&cond(&env!())?)? { Some(*then) } else { *otherwise };
                if let Some(b) = branch {
                    state.stack.push(Frame { block: b, pc: 0, base: base as u32, kind: FrameKind::Block });
                }
            }
            StmtKind::ForEach { slot, list, body } => {
                let list = as_list(list(&env!())?)?;
                if let Some(first) = list.first().cloned() {
                    state.locals[base + *slot as usize] = first;
                    let kind = FrameKind::ForEach { slot: *slot, list, next: 1 };
                    state.stack.push(Frame { block: *body, pc: 0, base: base as u32, kind });
                }
            }
            StmtKind::Repeat { count, body } => {
                let n = as_int(&count(&env!())?)?;
                if n > 0 {
                    let kind = FrameKind::Repeat { left: n - 1 };
                    state.stack.push(Frame { block: *body, pc: 0, base: base as u32, kind });
                }
            }
            StmtKind::While { cond, body } => {
                if as_bool(&cond(&env!())?)? {
                    let kind = FrameKind::While { block, pc };
                    state.stack.push(Frame { block: *body, pc: 0, base: base as u32, kind });
                }
            }
            StmtKind::Choose(choose) => {
                let env = env!();
                let player = match (choose.who)(&env)? {
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
                state.pending = Pending::Decision { player, block, pc, options };
            }
            StmtKind::Random { slot, outcomes, weights } => {
                let env = env!();
                let outcomes = as_list(outcomes(&env)?)?;
                let weights: Vec<u64> = match weights {
                    Some(w) => as_list(w(&env)?)?.iter().map(|w| as_int(w).map(|w| w.max(0) as u64)).collect::<Result<_, _>>()?,
                    None => vec![1; outcomes.len()],
                };
                if outcomes.is_empty() || weights.len() != outcomes.len() || weights.iter().all(|w| *w == 0) {
                    return Err(RuntimeError::new("a random choice needs outcomes, and as many positive weights"));
                }
                if outcomes.len() == 1 {
                    state.locals[base + *slot as usize] = outcomes[0].clone();
                } else {
                    state.pending = Pending::Chance { slot: *slot, outcomes: outcomes.to_vec(), weights };
                }
            }
            StmtKind::Call { proc, args } => {
                let env = env!();
                let args = args.iter().map(|a| a(&env)).collect::<Result<Vec<_>, _>>()?;
                self.enter(state, *proc, args);
            }
            StmtKind::Log(template) => {
                if journal.is_on() {
                    let line = template.render(&env!())?;
                    journal.write(line);
                }
            }
            StmtKind::EndGame => {
                self.finish(state)?;
            }
        }
        Ok(())
    }

    /// The options of a decision, in the order the ruleset lists them.
    fn enumerate_options(&self, choose: &crate::model::Choose, env: &Env) -> Result<Vec<(u16, Value)>, RuntimeError> {
        let mut options = Vec::new();
        for (g, group) in choose.groups.iter().enumerate() {
            match &group.binding {
                None => {
                    let legal = match &group.condition {
                        Some(c) => as_bool(&c(env)?)?,
                        None => true,
                    };
                    if legal {
                        options.push((g as u16, Value::None));
                    }
                }
                Some((slot, list)) => {
                    let items = as_list(list(env)?)?;
                    for item in items.iter() {
                        let legal = match &group.condition {
                            Some(c) => as_bool(&c(&env.with_bound(*slot, item))?)?,
                            None => true,
                        };
                        if legal {
                            options.push((g as u16, item.clone()));
                        }
                    }
                }
            }
        }
        Ok(options)
    }

    /// The label of option `i` of the pending decision, as traces and players see it.
    pub fn option_label(&self, state: &State, i: usize) -> Result<String, RuntimeError> {
        let Pending::Decision { block, pc, options, .. } = &state.pending else {
            return Err(RuntimeError::new("the game is not waiting for a decision"));
        };
        let StmtKind::Choose(choose) = &self.blocks[*block as usize][*pc as usize].kind else {
            return Err(RuntimeError::new("internal: a decision without its choose"));
        };
        let (g, value) = options.get(i).ok_or_else(|| RuntimeError::new("no such option"))?;
        let group = &choose.groups[*g as usize];
        let base = self.top_base(state);
        let env = Env::new(self, state, &state.locals[base..]);
        match &group.binding {
            Some((slot, _)) => group.label.render(&env.with_bound(*slot, value)),
            None => group.label.render(&env),
        }
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
        let Pending::Decision { block, pc, .. } = &state.pending else { return Ok(String::new()) };
        let StmtKind::Choose(choose) = &self.blocks[*block as usize][*pc as usize].kind else { return Ok(String::new()) };
        let base = self.top_base(state);
        choose.prompt.render(&Env::new(self, state, &state.locals[base..]))
    }

    /// The rule reference of the pending decision's statement, if any.
    pub fn pending_rule(&self, state: &State) -> Option<Arc<str>> {
        let Pending::Decision { block, pc, .. } = &state.pending else { return None };
        self.blocks[*block as usize][*pc as usize].rule.clone()
    }

    /// Labels of a chance point's outcomes (a shuffle has one label per element).
    pub fn outcome_label(&self, state: &State, choice: &Choice) -> String {
        match (&state.pending, choice) {
            (Pending::Chance { outcomes, .. }, Choice::Outcome(i)) => {
                outcomes.get(*i).map(|v| self.value_text(v, &state.names)).unwrap_or_default()
            }
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
            Pending::Chance { outcomes, .. } => outcomes
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

    fn checked_index(&self, domain: Domain, index: &Value, what: &str) -> Result<usize, RuntimeError> {
        let i = index_of(index, what)?;
        if i >= self.domain_len(domain) {
            return Err(RuntimeError::new(format!("{what}: index out of range")));
        }
        Ok(i)
    }

    pub(crate) fn zone_instance(&self, zone: &ZoneRef, env: &Env) -> Result<usize, RuntimeError> {
        let decl = &self.zones[zone.zone as usize];
        self.instance(decl.per, decl.base, zone.index.as_ref(), &decl.name, env)
    }

    pub(crate) fn board_instance(&self, board: &BoardRef, env: &Env) -> Result<usize, RuntimeError> {
        let decl = &self.boards[board.board as usize];
        self.instance(decl.per, decl.base, board.index.as_ref(), &decl.name, env)
    }

    /// The instance of an indexed declaration (zone, board) that `index` selects.
    fn instance(&self, per: Domain, base: usize, index: Option<&crate::eval::Eval>, name: &str, env: &Env) -> Result<usize, RuntimeError> {
        let i = match index {
            Some(index) => self.checked_index(per, &index(env)?, name)?,
            None => 0,
        };
        Ok(base + i)
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

    fn zone_element(&self, instance: usize) -> Element {
        self.zones[self.zone_of_instance(instance).0].of
    }

    /// A zone instance's name as written in rulesets: `deck`, `hand[red]`, `track[east]`.
    pub fn zone_instance_name(&self, instance: usize) -> String {
        let (z, i) = self.zone_of_instance(instance);
        let decl = &self.zones[z];
        match decl.per {
            Domain::Global => decl.name.clone(),
            Domain::Players => format!("{}[p{}]", decl.name, i + 1),
            Domain::Table(t) => format!("{}[{}]", decl.name, self.tables[t as usize].rows[i].id),
        }
    }
}

/// A piece as statements give it: a list of rows, each a list of elements or none.
fn piece_of(v: &Value) -> Result<Piece, RuntimeError> {
    let rows = as_list(v.clone())?;
    let mut piece = Vec::with_capacity(rows.len());
    for row in rows.iter() {
        let cells = as_list(row.clone())?;
        piece.push(cells.iter().map(|c| if *c == Value::None { Ok(None) } else { encode_element(c).map(Some).ok_or(()) }).collect::<Result<Vec<_>, ()>>().map_err(|_| RuntimeError::new("a piece holds rows or players, or none for a gap"))?);
    }
    crate::grid::check_piece(&piece).map_err(RuntimeError::new)?;
    Ok(piece)
}

/// Whether `order` holds exactly the elements of `zone`, in any order.
fn is_reordering(order: &[u16], zone: &[u16]) -> bool {
    let (mut a, mut b) = (order.to_vec(), zone.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

pub(crate) fn as_int(v: &Value) -> Result<i64, RuntimeError> {
    match v {
        Value::Int(n) => Ok(*n),
        other => Err(RuntimeError::new(format!("expected a number, found {other:?}"))),
    }
}

pub(crate) fn as_pos(v: &Value) -> Result<crate::grid::Pos, RuntimeError> {
    match v {
        Value::Pos(p) => Ok(*p),
        other => Err(RuntimeError::new(format!("expected a position, found {other:?}"))),
    }
}

pub(crate) fn as_bool(v: &Value) -> Result<bool, RuntimeError> {
    match v {
        Value::Bool(b) => Ok(*b),
        other => Err(RuntimeError::new(format!("expected true or false, found {other:?}"))),
    }
}

pub(crate) fn as_list(v: Value) -> Result<Arc<Vec<Value>>, RuntimeError> {
    match v {
        Value::List(items) => Ok(items),
        Value::None => Ok(Arc::new(Vec::new())),
        other => Err(RuntimeError::new(format!("expected a list, found {other:?}"))),
    }
}

impl State {
    /// The memory a clone of this state allocates and copies, in bytes.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        size_of::<State>()
            + self.ints.len() * size_of::<i64>()
            + self.zones.iter().map(|z| size_of::<Vec<u16>>() + z.len() * size_of::<u16>()).sum::<usize>()
            + self.stack.len() * size_of::<Frame>()
            + self.locals.len() * size_of::<Value>()
            + self.boards.iter().map(|b| size_of::<Grid>() + b.len() * size_of::<(crate::grid::Pos, u16)>()).sum::<usize>()
    }
}
