//! Resuming a suspended state: the choice it waits for (an option, an outcome, an order)
//! taken, then the machine run to the next suspension.

use super::chance::is_reordering;
use super::decide::recycle_options;
use super::unfit_state;
use super::{ApplyError, Choice, CompiledCode, Frame, FrameKind, Journal, Pending, State};
use crate::eval::RuntimeError;
use crate::model::{BlockId, Game, StmtKind};
use crate::value::Value;

impl Game {
    /// Resumes the state with `choice` and runs to the next suspension. On an error the
    /// state is left as it was before the call only for illegal choices; a runtime error
    /// (a ruleset bug) leaves it unusable.
    pub fn apply(
        &self,
        state: &mut State,
        choice: Choice,
        journal: &mut Journal,
    ) -> Result<(), ApplyError> {
        self.resume(state, choice, journal, None)
    }

    /// [`Game::apply`], running `code` (compiled from this game) where it runs a part of
    /// the game in place of the walker. The step is the same.
    pub fn apply_with(
        &self,
        state: &mut State,
        choice: Choice,
        journal: &mut Journal,
        code: &dyn CompiledCode,
    ) -> Result<(), ApplyError> {
        // Debug builds (the test suite) take every compiled step with the walker too,
        // and require the same state or the same error.
        let before = cfg!(debug_assertions).then(|| (state.clone(), choice.clone()));
        let result = self.resume(state, choice, journal, Some(code));
        if let Some((mut walked, choice)) = before {
            let reference = self.resume(&mut walked, choice, &mut Journal::off(), None);
            match (&result, &reference) {
                (Ok(()), Ok(())) => assert!(
                    walked == *state,
                    "compiled code and the walker step to different states"
                ),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                _ => panic!("compiled code gives {result:?}, the walker {reference:?}"),
            }
        }
        result
    }

    fn resume(
        &self,
        state: &mut State,
        choice: Choice,
        journal: &mut Journal,
        code: Option<&dyn CompiledCode>,
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
                let Some(option) = options.get(i).cloned() else {
                    return Err(ApplyError::Illegal(format!(
                        "option {i} does not exist ({} options)",
                        options.len()
                    )));
                };
                let at = (*block, *pc, *player);
                self.take_option(state, i, option, at, journal)?;
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
                    let line = format!("chance: {}", self.value_text(&value, &state.names));
                    journal.write_outcome(line, &value);
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
        self.run(state, journal, code)?;
        // Debug builds (the test suite) check the ruleset's conserved totals after every
        // step; release builds trust them.
        if cfg!(debug_assertions) && !self.conserve.is_empty() {
            self.check_conserved(state).map_err(|e| {
                ApplyError::Runtime(RuntimeError::new(format!("after this step, {e}")))
            })?;
        }
        Ok(())
    }

    /// Takes option `i` of the pending decision at (block, pc), for `player`: its group's
    /// names bound to its elements, and its body entered.
    fn take_option(
        &self,
        state: &mut State,
        i: usize,
        (group, value): (u16, Value),
        (block, pc, player): (BlockId, u32, u8),
        journal: &mut Journal,
    ) -> Result<(), ApplyError> {
        if journal.is_noting() {
            let mut pieces = vec![crate::eval::Piece::Text(format!(
                "{}: ",
                state.names[player as usize]
            ))];
            pieces.extend(self.option_label_pieces(state, i)?);
            let line = self.pieces_text(&pieces, &state.names, &|_| None);
            journal.write_pieces(line, pieces, |v| self.seen_by(state, v));
        } else if journal.is_on() {
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
                return Err(ApplyError::Runtime(unfit_state(
                    "an option of several lists without its elements",
                )))
            }
        }
        state.stack.push(Frame {
            block: group.body,
            pc: 0,
            base: base as u32,
            kind: FrameKind::Block,
        });
        Ok(())
    }
}
