//! Chance: `random` (weighted outcomes) and `shuffle` suspend for the outcome or order,
//! `draw` moves elements and suspends to shuffle the pile it refills, and the labels
//! traces give outcomes and orders.

use super::{as_int, as_list, ChancePoint, Choice, Pending, State};
use crate::eval::{decode_element, Env, RuntimeError};
use crate::ir::{Expr, ZoneRead};
use crate::model::{Game, Slot, StmtKind};
use crate::value::Value;

impl Game {
    /// `random`: one outcome taken at once, or the state suspended at a chance point.
    // Run from one arm of `exec_rest`: inlined there, as when it was written in place.
    #[inline]
    pub(super) fn pick_random(
        &self,
        state: &mut State,
        base: usize,
        slot: &Slot,
        outcomes: &Expr,
        weights: Option<&Expr>,
    ) -> Result<(), RuntimeError> {
        let env = self.frame_env(state, base);
        let outcomes = as_list(outcomes.eval(&env)?)?;
        let weights: Vec<u64> = match weights {
            Some(w) => as_list(w.eval(&env)?)?
                .iter()
                .map(|w| as_int(w).map(|w| w.max(0) as u64))
                .collect::<Result<_, _>>()?,
            None => vec![1; outcomes.len()],
        };
        if outcomes.is_empty() || weights.len() != outcomes.len() || weights.iter().all(|w| *w == 0)
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
        Ok(())
    }

    /// `shuffle`: the state suspended for a new order of the zone (of two elements or more).
    // Run from one arm of `exec_rest`: inlined there, as when it was written in place.
    #[inline]
    pub(super) fn shuffle_zone(
        &self,
        state: &mut State,
        base: usize,
        zone: &ZoneRead,
    ) -> Result<(), RuntimeError> {
        let zone = zone.instance(&self.frame_env(state, base))?;
        if state.zones[zone].len() > 1 {
            state.pending = Pending::Shuffle { zone };
        }
        Ok(())
    }

    /// Runs a `draw:` (see [`crate::model::Draw`]) until it ends or waits for the shuffle
    /// of its refilled pile.
    pub(super) fn draw(
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
            // The pile poured into `from` this round, when it held one element (two or more
            // stop the draw for their shuffle).
            let mut poured = None;
            if let (Some(refill), false, true) = (refill, refilled, state.zones[source].is_empty())
            {
                let pile = refill.instance(&env!())?;
                poured = Some(pile);
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
                if target == source {
                    // Drawing from a zone into itself turns it round: the rounds left
                    // bring it back where it was every `len` rounds.
                    let len = state.zones[source].len() as i64;
                    state.move_to_end(source, source, 0..(rounds % len) as usize);
                    break;
                }
                state.move_to_end(source, target, 0..1);
                if poured == Some(target)
                    && state.zones[source].is_empty()
                    && state.zones[target].len() == 1
                {
                    // The one element of the zone drawn into, poured and drawn back: each
                    // round left would do the same, and leave the zones as they are.
                    break;
                }
            }
            rounds -= 1;
        }
        Ok(())
    }

    /// When the shuffle just made was a `draw`'s (of its refilled pile), runs that draw
    /// again, told that its pile is shuffled, to move the rounds it has left.
    pub(super) fn resume_draw(&self, state: &mut State) {
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
}

/// Whether `order` holds exactly the elements of `zone`, in any order.
pub(super) fn is_reordering(order: &[u16], zone: &[u16]) -> bool {
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
