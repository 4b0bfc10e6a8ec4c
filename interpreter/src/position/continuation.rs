//! The continuation of a serialized state read back: its locals and frames, each frame
//! checked against the ruleset (its block and statement, its kind, its locals) and
//! against the frames below it, then the suspending statement run again.

use serde_yaml::{Mapping, Value as Yaml};

use crate::machine::{Frame, FrameKind, Journal, Pending, State};
use crate::model::Game;
use crate::value::Value;

impl Game {
    /// `continuation:` (its frames, locals and what is pending) read into `state`, which
    /// then runs to its suspension again.
    pub(super) fn read_continuation(&self, c: &Yaml, state: &mut State) -> Result<(), String> {
        let frames = c
            .get("frames")
            .and_then(Yaml::as_sequence)
            .ok_or("continuation.frames: missing")?;
        let locals = c
            .get("locals")
            .and_then(Yaml::as_sequence)
            .ok_or("continuation.locals: missing")?;
        state.locals = locals
            .iter()
            .map(|v| self.read_tagged(v, state))
            .collect::<Result<_, _>>()?;
        state.stack.clear();
        for f in frames {
            let frame = self.read_frame(f, state)?;
            state.stack.push(frame);
        }
        if let Some(top) = state.stack.last() {
            // A suspended state stands at the statement that suspended it.
            if c.get("pending").and_then(Yaml::as_str) == Some("suspended") && top.pc == 0 {
                return Err(
                    "continuation: a suspended frame stands before its first statement".into(),
                );
            }
        }
        match c.get("pending").and_then(Yaml::as_str) {
            Some("suspended") => {
                // The suspending statement is re-run: it recomputes its options or outcomes.
                let frame = state
                    .stack
                    .last_mut()
                    .ok_or("continuation: suspended with no frame")?;
                frame.pc = frame
                    .pc
                    .checked_sub(1)
                    .ok_or("continuation: bad position")?;
                state.pending = Pending::Running;
                self.run(state, &mut Journal::off(), None)
                    .map_err(|e| e.to_string())?;
            }
            Some("over") => {
                state.pending = Pending::Running;
                self.run(state, &mut Journal::off(), None)
                    .map_err(|e| e.to_string())?;
            }
            _ => return Err("continuation.pending: expected suspended or over".into()),
        }
        Ok(())
    }

    /// One frame of `continuation.frames`, checked against the ruleset and the frames
    /// below it (those of `state` so far).
    fn read_frame(&self, f: &Yaml, state: &State) -> Result<Frame, String> {
        let m = f
            .as_mapping()
            .ok_or("continuation.frames: expected mappings")?;
        let block = frame_number(m, "block")?;
        if block >= self.blocks.len() as u64 {
            return Err(format!(
                "continuation: block {block} does not exist in this ruleset"
            ));
        }
        let kind = self.frame_kind(m, state)?;
        let (pc, base) = (frame_number(m, "pc")?, frame_number(m, "base")?);
        if pc as usize > self.blocks[block as usize].len() {
            return Err(format!(
                "continuation: block {block} has {} statements, not a statement {pc}",
                self.blocks[block as usize].len()
            ));
        }
        self.check_frame_place(block, base, &kind, state)?;
        Ok(Frame {
            block: crate::ir::BlockId::at(block as usize),
            pc: pc as u32,
            base: base as u32,
            kind,
        })
    }

    /// A frame's `kind`: call (into a local or not), block, for_each, repeat, while or
    /// up_to, with what the loop keeps between rounds.
    fn frame_kind(&self, m: &Mapping, state: &State) -> Result<FrameKind, String> {
        Ok(match m.get("kind") {
            Some(Yaml::String(s)) if s == "call" => FrameKind::Call { into: None },
            Some(Yaml::String(s)) if s == "block" => FrameKind::Block,
            Some(Yaml::Mapping(k)) => match k.iter().next() {
                Some((Yaml::String(s), Yaml::Mapping(a))) if s == "for_each" => {
                    let Value::List(list) =
                        self.read_tagged(a.get("list").unwrap_or(&Yaml::Null), state)?
                    else {
                        return Err("continuation: a for_each frame's 'list' is not a list".into());
                    };
                    // `next` is the position of the element after the current one: at most the length.
                    let next = frame_number(a, "next")?;
                    if next == 0 || next > list.len() as u64 {
                        return Err(format!("continuation: a for_each frame's 'next' is {next}, outside 1..={} (its list's length)", list.len()));
                    }
                    FrameKind::ForEach {
                        slot: crate::ir::Slot::at(usize::from(slot_number(frame_number(
                            a, "slot",
                        )?)?)),
                        list,
                        next: next as u32,
                    }
                }
                Some((Yaml::String(s), Yaml::Mapping(a))) if s == "call" => FrameKind::Call {
                    into: Some(crate::ir::Slot::at(usize::from(slot_number(
                        frame_number(a, "into")?,
                    )?))),
                },
                Some((Yaml::String(s), Yaml::Mapping(a))) if s == "repeat" => {
                    let left = a
                        .get("left")
                        .and_then(Yaml::as_i64)
                        .ok_or("continuation: repeat lacks 'left'")?;
                    if left < 0 {
                        return Err(format!(
                            "continuation: a repeat frame has {left} rounds left: a count from 0"
                        ));
                    }
                    FrameKind::Repeat { left }
                }
                Some((Yaml::String(s), Yaml::Mapping(a))) if s == "while" => {
                    let (block, pc) = (
                        frame_number(a, "block")? as usize,
                        frame_number(a, "pc")? as usize,
                    );
                    if !matches!(self.blocks.get(block).and_then(|b| b.get(pc)), Some(stmt) if matches!(stmt.kind, crate::model::StmtKind::While { .. }))
                    {
                        return Err(format!("continuation: block {block} statement {pc} is not a while loop of this ruleset"));
                    }
                    FrameKind::While {
                        block: crate::ir::BlockId::at(block),
                        pc: pc as u32,
                    }
                }
                Some((Yaml::String(s), Yaml::Mapping(a))) if s == "up_to" => {
                    let (block, pc) = (
                        frame_number(a, "block")? as usize,
                        frame_number(a, "pc")? as usize,
                    );
                    if !matches!(self.blocks.get(block).and_then(|b| b.get(pc)), Some(stmt) if matches!(stmt.kind, crate::model::StmtKind::RepeatUpTo { .. }))
                    {
                        return Err(format!("continuation: block {block} statement {pc} is not a repeat up_to loop of this ruleset"));
                    }
                    let int = |k: &str| {
                        a.get(k)
                            .and_then(Yaml::as_u64)
                            .and_then(|n| u16::try_from(n).ok())
                            .ok_or_else(|| {
                                format!("continuation: up_to lacks '{k}' (a count from 0)")
                            })
                    };
                    FrameKind::UpTo {
                        block: crate::ir::BlockId::at(block),
                        pc: pc as u32,
                        round: int("round")?,
                        count: int("count")?,
                    }
                }
                _ => return Err("continuation: unknown frame kind".into()),
            },
            _ => return Err("continuation: unknown frame kind".into()),
        })
    }

    /// Whether a frame's locals and procedure fit the frames below it, as the machine
    /// pushes them.
    fn check_frame_place(
        &self,
        block: u64,
        base: u64,
        kind: &FrameKind,
        state: &State,
    ) -> Result<(), String> {
        let below = state.stack.last().map_or(0, |f| f.base as u64);
        if base < below || base as usize > state.locals.len() {
            return Err(format!(
                "continuation: a frame's locals start at {base}, outside {below}..={}",
                state.locals.len()
            ));
        }
        // The frame's statements read its procedure's locals from `base` on.
        let owner = self
            .owner_of_block(block as usize)
            .ok_or_else(|| format!("continuation: block {block} belongs to no procedure"))?;
        let needed = base as usize + self.procedures[owner].locals;
        if needed > state.locals.len() {
            return Err(format!(
                    "continuation: a frame of procedure '{}' needs locals up to {needed}, and there are {}",
                    self.procedures[owner].name,
                    state.locals.len()
                ));
        }
        // Frames nest as the machine pushes them: a call's frame starts its locals past
        // those of the procedure below it (which it would otherwise free when it
        // returns); any other frame is a block of the procedure below, sharing its locals.
        let below_frame = state
            .stack
            .last()
            .map(|f| (f.base as usize, self.owner_of_block(f.block.index())));
        match (kind, below_frame) {
            (FrameKind::Call { .. }, Some((below_base, Some(caller))))
                if (base as usize) < below_base + self.procedures[caller].locals =>
            {
                return Err(format!(
                        "continuation: a call's locals start at {base}, inside those of procedure '{}' below it (from {below_base})",
                        self.procedures[caller].name
                    ));
            }
            (FrameKind::Call { .. }, _) => {}
            (_, None) => {
                return Err("continuation: the first frame is not a procedure's call".into())
            }
            (_, Some((below_base, below_owner)))
                if below_base != base as usize || below_owner != Some(owner) =>
            {
                return Err(format!("continuation: a frame of block {block} is not a block of the procedure below it"));
            }
            _ => {}
        }
        // A loop's element and a call's result go to a local of the procedure that
        // runs them: the frame's own for a for_each, the caller's for a call.
        let local_outside = match kind {
            FrameKind::ForEach { slot, .. } => (slot.index() >= self.procedures[owner].locals)
                .then_some(("for_each", slot.index())),
            FrameKind::Call { into: Some(into) } => {
                let caller = state
                    .stack
                    .last()
                    .and_then(|f| self.owner_of_block(f.block.index()));
                (caller.is_none_or(|c| into.index() >= self.procedures[c].locals))
                    .then_some(("call", into.index()))
            }
            _ => None,
        };
        if let Some((what, slot)) = local_outside {
            return Err(format!(
                "continuation: a {what} frame's local {slot} is not one of its procedure's"
            ));
        }
        Ok(())
    }

    /// The procedure whose body holds `block` (directly or nested in its statements).
    fn owner_of_block(&self, block: usize) -> Option<usize> {
        fn holds(game: &Game, within: usize, block: usize, depth: usize) -> bool {
            if within == block {
                return true;
            }
            // Blocks nest as deep as statements do; a corrupt game is not this one.
            if depth > 10_000 {
                return false;
            }
            game.blocks[within].iter().any(|stmt| {
                (stmt.kind.blocks().iter())
                    .any(|child| holds(game, child.index(), block, depth + 1))
            })
        }
        (0..self.procedures.len()).find(|&p| holds(self, self.procedures[p].body.index(), block, 0))
    }
}

/// The whole number from 0 a frame gives for `k`.
fn frame_number(m: &Mapping, k: &str) -> Result<u64, String> {
    match m.get(k) {
        None => Err(format!("continuation: frame lacks '{k}'")),
        Some(v) => v.as_u64().ok_or_else(|| {
            let shown = serde_yaml::to_string(v).unwrap_or_default();
            format!(
                "continuation: a frame's '{k}' is a whole number from 0, not {}",
                shown.trim()
            )
        }),
    }
}

/// A local's number as a frame writes it (16 bits).
fn slot_number(n: u64) -> Result<u16, String> {
    u16::try_from(n).map_err(|_| format!("continuation: local {n} does not exist"))
}
