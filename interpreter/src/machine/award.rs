//! The `award:` statement run: the entrants ranked by their keys, and each prize added
//! where `to` says for its entrant (see [`crate::award`]).

use super::store::checked_add;
use super::{as_int, as_list, State};
use crate::eval::{Env, RuntimeError};
use crate::model::{Game, Place};
use crate::value::Value;

impl Game {
    /// Gives the prizes of an `award:`: ranks the entrants, then adds each prize where
    /// `to` says (for that entrant).
    pub(super) fn award(
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
}

/// Where a number is stored: an integer slot of the state, or a local.
enum Cell {
    Int(usize),
    Local(usize),
}
