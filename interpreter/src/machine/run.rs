//! The run loop: the statements of the top frame run one by one until the state
//! suspends (a decision, a chance point, the end). Assignments, `if` and `call` run in
//! line; every other statement is dispatched out of line to the file of its kind.

use super::compiled::{BlockRan, BlockRun};
use super::store::checked_add;
use super::{as_int, ApplyError, CompiledCode, Frame, FrameKind, Journal, Outcome, Pending, State};
use crate::eval::{Env, RuntimeError};
use crate::model::{AssignMode, BlockId, Game, Place, ProcId, StmtKind};
use crate::state::Returns;
use crate::value::{Type, Value};

impl Game {
    /// Where the top frame's locals start (0 with no frame).
    pub(super) fn top_base(&self, state: &State) -> usize {
        state.stack.last().map_or(0, |f| f.base as usize)
    }

    /// Starts the `play` procedure (a position resumes there, after setup).
    pub(crate) fn enter_play(&self, state: &mut State) {
        self.enter(state, self.play);
    }

    /// Starts a procedure without parameters (setup, play): a fresh frame with its locals.
    pub(super) fn enter(&self, state: &mut State, proc: ProcId) {
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

    /// Runs until the state is suspended, with `code` where it runs a part of the game.
    pub(crate) fn run(
        &self,
        state: &mut State,
        journal: &mut Journal,
        code: Option<&dyn CompiledCode>,
    ) -> Result<(), ApplyError> {
        // Every expression, listing and script of this run shares one work budget.
        let _work = crate::work::Work::hold(self.limits.work);
        self.run_held(state, journal, code)
    }

    /// [`Game::run`] within its work budget: the loop itself, kept apart from the guard.
    #[inline(never)]
    fn run_held(
        &self,
        state: &mut State,
        journal: &mut Journal,
        code: Option<&dyn CompiledCode>,
    ) -> Result<(), ApplyError> {
        let mut steps: u64 = 0;
        while matches!(state.pending, Pending::Running) {
            let Some(frame) = state.stack.last_mut() else {
                self.finish(state, None)?;
                break;
            };
            let block = &self.blocks[frame.block.index()];
            if (frame.pc as usize) < block.len() {
                let (block_id, pc, base) = (frame.block, frame.pc, frame.base as usize);
                // Compiled statements first, where there are some: they run the block
                // as far as they cover it.
                if let Some(code) = code {
                    let mut run = BlockRun {
                        game: self,
                        state,
                        journal,
                        code,
                        steps: &mut steps,
                        block: block_id,
                        pc,
                        base,
                    };
                    if let Some(ran) = code.run_block(&mut run) {
                        match ran? {
                            BlockRan::At(pc) => {
                                if let Some(frame) = state.stack.last_mut() {
                                    frame.pc = pc;
                                }
                            }
                            BlockRan::Moved => {}
                        }
                        continue;
                    }
                }
                self.step(state, (block_id, pc), base, journal, code, &mut steps)?;
            } else {
                self.end_of_block(state)?;
            }
        }
        Ok(())
    }

    /// Runs statement `at` of the top frame's block (its locals from `base`) as the run
    /// loop runs it: the frame's next statement set past it, the statement covered and
    /// counted in `steps` against the limit, an error located at it.
    pub(super) fn step(
        &self,
        state: &mut State,
        (block, pc): (BlockId, u32),
        base: usize,
        journal: &mut Journal,
        code: Option<&dyn CompiledCode>,
        steps: &mut u64,
    ) -> Result<(), RuntimeError> {
        if let Some(frame) = state.stack.last_mut() {
            frame.pc = pc + 1;
        }
        let stmt = &self.blocks[block.index()][pc as usize];
        journal.cover(&stmt.rule);
        *steps += 1;
        if *steps > self.limits.statements_between_steps {
            return Err(self.endless(&stmt.origin));
        }
        self.exec(state, block, pc, base, journal, code)
            .map_err(|e| e.at(&self.location(&stmt.origin)))
    }

    /// Makes the locals of a call of `proc` (none), `depth` calls above the frames on
    /// the stack (0 for a call that pushes its frame): the nesting limit checked, the
    /// procedure's `rule:` covered. Where they start.
    pub(super) fn call_locals(
        &self,
        state: &mut State,
        journal: &mut Journal,
        proc: ProcId,
        depth: usize,
    ) -> Result<usize, RuntimeError> {
        if state.stack.len() + depth > self.limits.nested_calls {
            return Err(self.nested_too_deep());
        }
        let p = &self.procedures[proc.index()];
        if state.locals.len() + p.locals > crate::model::MAX_CALL_LOCALS {
            return Err(RuntimeError::new(format!(
                "the calls under way hold more than {} locals: does a procedure call itself without end?",
                crate::model::MAX_CALL_LOCALS
            )));
        }
        journal.cover(&p.rule);
        let callee = state.locals.len();
        state.locals.extend((0..p.locals).map(|_| Value::None));
        Ok(callee)
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
    pub(super) fn endless(&self, origin: &str) -> RuntimeError {
        let message = format!(
            "{} statements ran without a decision or a chance point: does a loop never end? (--limit statements=N raises the limit)",
            self.limits.statements_between_steps
        );
        RuntimeError::new(message).at(&self.location(origin))
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
        let returns = match &self.outcome {
            Some(rule) => {
                let mut values = Vec::with_capacity(n);
                for p in 0..n {
                    let it = Value::Player(p as u8);
                    let root = Env::new(self, state, &[]);
                    values.push(
                        rule.returns
                            .int(&root.with_it(&it))
                            .map_err(|e| e.at(&self.location("outcome.returns")))?,
                    );
                }
                Some(Returns {
                    values,
                    scale: rule.scale,
                })
            }
            None => None,
        };
        state.stack.clear();
        state.locals.clear();
        state.pending = Pending::Over(Box::new(Outcome {
            scores,
            tiebreaks,
            ranks,
            ended_by,
            returns,
        }));
        Ok(())
    }

    /// Runs the statement at (block, pc), whose frame's locals start at `base`.
    pub(super) fn exec(
        &self,
        state: &mut State,
        block: BlockId,
        pc: u32,
        base: usize,
        journal: &mut Journal,
        code: Option<&dyn CompiledCode>,
    ) -> Result<(), RuntimeError> {
        let stmt = &self.blocks[block.index()][pc as usize];
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
                    check_locals_size(&state.locals, base + slot.index(), &v)?;
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
                    // The compiled code's number, where it computes it.
                    let number = || match code.and_then(|c| c.number((block, pc), &env)) {
                        Some(n) => n,
                        None => value.int(&env),
                    };
                    let n = match mode {
                        AssignMode::Set if decl.ty == Type::Int => match number() {
                            Ok(n) => n,
                            // A value of unknown type (a script's) that is not a number:
                            // say what was stored where. Any other error is the first
                            // one (evaluated again, the work budget is spent at once).
                            Err(first) => match value.eval(&env) {
                                Ok(v) => self.slot_value(decl, &v, &state.names)?,
                                Err(_) => return Err(first),
                            },
                        },
                        AssignMode::Set => {
                            self.slot_value(decl, &value.eval(&env)?, &state.names)?
                        }
                        AssignMode::Add => checked_add(state.ints[slot], number()?)?,
                    };
                    state.ints[slot] = n;
                }
            },
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let env = env!();
                let holds = match code.and_then(|c| c.condition((block, pc), &env)) {
                    Some(holds) => holds?,
                    None => cond.bool(&env)?,
                };
                let branch = if holds { Some(*then) } else { *otherwise };
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
                let callee = self.call_locals(state, journal, *proc, 0)?;
                let p = &self.procedures[proc.index()];
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
            StmtKind::Move { .. }
            | StmtKind::Push { .. }
            | StmtKind::Remove { .. }
            | StmtKind::Shuffle { .. }
            | StmtKind::Draw(_)
            | StmtKind::Clear { .. }
            | StmtKind::Reveal { .. }
            | StmtKind::Place { .. }
            | StmtKind::ForEach { .. }
            | StmtKind::Repeat { .. }
            | StmtKind::While { .. }
            | StmtKind::RepeatUpTo { .. }
            | StmtKind::EndLoop
            | StmtKind::Choose(_)
            | StmtKind::Random { .. }
            | StmtKind::Return(_)
            | StmtKind::Log(_)
            | StmtKind::EndGame
            | StmtKind::Award(_) => {
                self.exec_rest(state, stmt, (block, pc), base, journal, code)?
            }
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
        (block, pc): (BlockId, u32),
        base: usize,
        journal: &mut Journal,
        code: Option<&dyn CompiledCode>,
    ) -> Result<(), RuntimeError> {
        match &stmt.kind {
            // `exec` runs these itself and hands every other statement here.
            StmtKind::Assign { .. } | StmtKind::If { .. } | StmtKind::Call { .. } => {
                unreachable!("exec runs assignments, if and call in line")
            }
            StmtKind::Move { from, to, what, at } => {
                self.move_elements(state, base, from, to, what, at)?
            }
            StmtKind::Push { to, value } => self.push_element(state, base, to, value)?,
            StmtKind::Remove { from, what } => self.remove_element(state, base, from, what)?,
            StmtKind::Shuffle { zone } => self.shuffle_zone(state, base, zone)?,
            StmtKind::Draw(draw) => self.draw(state, base, draw)?,
            StmtKind::Clear { zone } => self.clear_zone(state, base, zone)?,
            StmtKind::Reveal { zone, what, to } => {
                self.reveal_element(state, base, zone, what, to)?
            }
            StmtKind::Place { board, at, piece } => {
                self.place_piece(state, base, board, at, piece)?
            }
            StmtKind::ForEach { slot, list, body } => {
                self.enter_for_each(state, base, slot, list, body)?
            }
            StmtKind::Repeat { count, body } => self.enter_repeat(state, base, count, body)?,
            StmtKind::While { cond, body } => {
                self.enter_while(state, base, (block, pc), cond, body)?
            }
            StmtKind::RepeatUpTo { count, body, .. } => {
                self.enter_up_to(state, base, (block, pc), count, body)?
            }
            StmtKind::EndLoop => self.end_loop(state)?,
            StmtKind::Choose(choose) => {
                self.pose_decision(state, base, (block, pc), choose, code)?
            }
            StmtKind::Random {
                slot,
                outcomes,
                weights,
            } => self.pick_random(state, base, slot, outcomes, weights.as_ref())?,
            StmtKind::Log(template) => {
                if journal.is_noting() {
                    let pieces = template.pieces(&self.frame_env(state, base))?;
                    let line = self.pieces_text(&pieces, &state.names, &|_| None);
                    journal.write_pieces(line, pieces, |v| self.seen_by(state, v));
                } else if journal.is_on() {
                    let line = template.render(&self.frame_env(state, base))?;
                    journal.write(line);
                }
            }
            StmtKind::EndGame => {
                self.finish(state, Some(stmt.origin.clone()))?;
            }
            StmtKind::Award(award) => self.award(state, base, award)?,
            StmtKind::Return(value) => self.return_from(state, base, value.as_ref())?,
        }
        Ok(())
    }

    /// The environment of the statements of the frame whose locals start at `base`.
    #[inline]
    pub(super) fn frame_env<'s>(&'s self, state: &'s State, base: usize) -> Env<'s> {
        Env::new(self, state, &state.locals[base..])
    }
}

/// How much a value held in a local weighs against [`crate::model::MAX_LOCAL_ELEMENTS`]:
/// a list its elements, a text its bytes, anything else nothing.
fn weight(v: &Value) -> usize {
    match v {
        Value::List(items) => items.len(),
        Value::Str(s) => s.len(),
        _ => 0,
    }
}

/// Refuses to store `v` in local `at` when the lists and texts of all locals would then
/// hold more than [`crate::model::MAX_LOCAL_ELEMENTS`] together (each is bounded alone;
/// many locals each holding a long list are not). Only a long value is weighed against
/// the others.
fn check_locals_size(locals: &[Value], at: usize, v: &Value) -> Result<(), RuntimeError> {
    let limit = crate::model::MAX_LOCAL_ELEMENTS;
    let n = weight(v);
    if n < 1024 {
        return Ok(());
    }
    let held: usize = locals
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != at)
        .map(|(_, l)| weight(l))
        .sum();
    if held + n > limit {
        return Err(RuntimeError::new(format!(
            "the locals would hold more than {limit} list elements and text bytes together"
        )));
    }
    Ok(())
}
