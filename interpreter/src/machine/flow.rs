//! Loops and returns: the frames `for_each`, `repeat`, `while` and `repeat: { up_to }`
//! push, what happens at the end of a frame's block (the next round, or the frame left),
//! a round's `done`, and `return`.

use super::unfit_state;
use super::{as_list, Frame, FrameKind, State};
use crate::eval::{Env, RuntimeError};
use crate::ir::Expr;
use crate::model::{BlockId, Game, Slot, StmtKind};
use crate::value::Value;

impl Game {
    /// The end of the top frame's block: a loop's next round, or the frame left (a call's
    /// locals freed with it).
    pub(super) fn end_of_block(&self, state: &mut State) -> Result<(), RuntimeError> {
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
                    return Err(unfit_state("a while frame without its loop"));
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
                let (block, pc, round, count, base) =
                    (*block, *pc, *round, *count, frame.base as usize);
                // Compared before adding: the last round of 65,535 has no 16-bit successor.
                let again = round < count && self.begin_round(state, base, block, pc, round + 1)?;
                let frame = state.stack.last_mut().expect("frame checked above");
                match (&mut frame.kind, again) {
                    (FrameKind::UpTo { round, .. }, true) => {
                        *round += 1;
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
            return Err(unfit_state("an up_to frame without its loop"));
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

    /// `for_each`: the first element bound and the body entered, once per element.
    // Run from one arm of `exec_rest`: inlined there, as when it was written in place.
    #[inline]
    pub(super) fn enter_for_each(
        &self,
        state: &mut State,
        base: usize,
        slot: &Slot,
        list: &Expr,
        body: &BlockId,
    ) -> Result<(), RuntimeError> {
        let list = as_list(list.eval(&self.frame_env(state, base))?)?;
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
        Ok(())
    }

    /// `repeat: n`: the body entered n times.
    // Run from one arm of `exec_rest`: inlined there, as when it was written in place.
    #[inline]
    pub(super) fn enter_repeat(
        &self,
        state: &mut State,
        base: usize,
        count: &Expr,
        body: &BlockId,
    ) -> Result<(), RuntimeError> {
        let n = count.int(&self.frame_env(state, base))?;
        if n > 0 {
            let kind = FrameKind::Repeat { left: n - 1 };
            state.stack.push(Frame {
                block: *body,
                pc: 0,
                base: base as u32,
                kind,
            });
        }
        Ok(())
    }

    /// `while`: the body entered while the condition holds (tested again at its end).
    // Run from one arm of `exec_rest`: inlined there, as when it was written in place.
    #[inline]
    pub(super) fn enter_while(
        &self,
        state: &mut State,
        base: usize,
        (block, pc): (BlockId, u32),
        cond: &Expr,
        body: &BlockId,
    ) -> Result<(), RuntimeError> {
        if cond.bool(&self.frame_env(state, base))? {
            let kind = FrameKind::While { block, pc };
            state.stack.push(Frame {
                block: *body,
                pc: 0,
                base: base as u32,
                kind,
            });
        }
        Ok(())
    }

    /// `repeat: { up_to }`: the first round begun, if its `while:` lets it.
    // Run from one arm of `exec_rest`: inlined there, as when it was written in place.
    #[inline]
    pub(super) fn enter_up_to(
        &self,
        state: &mut State,
        base: usize,
        (block, pc): (BlockId, u32),
        count: &Expr,
        body: &BlockId,
    ) -> Result<(), RuntimeError> {
        // Frames stay small: a round counter is 16 bits.
        let n = count.int(&self.frame_env(state, base))?;
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
        Ok(())
    }

    /// A round's `done`: the frames of the round left, then its `repeat: { up_to }` loop.
    // Run from one arm of `exec_rest`: inlined there, as when it was written in place.
    #[inline]
    pub(super) fn end_loop(&self, state: &mut State) -> Result<(), RuntimeError> {
        loop {
            match state.stack.pop().map(|f| f.kind) {
                Some(FrameKind::UpTo { .. }) => break,
                Some(FrameKind::Block) => {}
                _ => return Err(unfit_state("'done' outside its repeat loop")),
            }
        }
        Ok(())
    }

    /// `return`: every block of the procedure left, then the procedure itself, its value
    /// given to the caller's `into:` local.
    // Run from one arm of `exec_rest`: inlined there, as when it was written in place.
    #[inline]
    pub(super) fn return_from(
        &self,
        state: &mut State,
        base: usize,
        value: Option<&Expr>,
    ) -> Result<(), RuntimeError> {
        let value = match value {
            Some(v) => Some(v.eval(&self.frame_env(state, base))?),
            None => None,
        };
        // Leave every block of the procedure, then the procedure itself.
        while let Some(frame) = state.stack.pop() {
            if let FrameKind::Call { into } = frame.kind {
                state.locals.truncate(frame.base as usize);
                if let (Some(slot), Some(value)) = (into, value) {
                    let caller = self.top_base(state) + slot.index();
                    let cell = state
                        .locals
                        .get_mut(caller)
                        .ok_or_else(|| RuntimeError::new("return: the caller has no such local"))?;
                    *cell = value;
                }
                break;
            }
        }
        Ok(())
    }
}
