//! Decisions: a `choose` suspends the state with its legal options listed (one per group,
//! per element of a `for:` list, or per combination of several); the labels and prompt
//! the deciding player reads.

use super::unfit_state;
use std::sync::Arc;

use super::{CompiledCode, Pending, State};
use crate::eval::{Env, RuntimeError};
use crate::model::{BlockId, Choose, Game, OptionGroup, Slot, StmtKind, MAX_DECISION_OPTIONS};
use crate::value::Value;

impl Game {
    /// `choose`: the state suspended at a decision of the player `who` names, with its
    /// legal options (at least one).
    // Run from one arm of `exec_rest`: inlined there, as when it was written in place.
    #[inline]
    pub(super) fn pose_decision(
        &self,
        state: &mut State,
        base: usize,
        (block, pc): (BlockId, u32),
        choose: &Choose,
        code: Option<&dyn CompiledCode>,
    ) -> Result<(), RuntimeError> {
        let env = self.frame_env(state, base);
        let player = match choose.who.eval(&env)? {
            Value::Player(p) if (p as usize) < state.names.len() => p,
            other => {
                return Err(RuntimeError::new(format!(
                    "the player to decide is {}, not a player",
                    self.value_text(&other, &state.names)
                )))
            }
        };
        let mut options = spare_options();
        match code.and_then(|code| code.list_options((block, pc), &env, &mut options)) {
            // Compiled listings run over one list per group, each within the bounds of
            // lists; the walker checks each option as it comes.
            Some(listed) => {
                listed?;
                if options.len() > MAX_DECISION_OPTIONS {
                    return Err(too_many_options());
                }
            }
            None => self.enumerate_options(choose, &env, &mut options)?,
        }
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
        Ok(())
    }

    /// Lists the options of a decision into `options` (empty), in the order the ruleset
    /// lists them.
    fn enumerate_options(
        &self,
        choose: &crate::model::Choose,
        env: &Env,
        options: &mut Vec<(u16, Value)>,
    ) -> Result<(), RuntimeError> {
        // The state stays as it is while the options are listed: a function without
        // parameters that several options' conditions call is computed once.
        let memo = crate::eval::Memo::default();
        let env = &env.with_memo(&memo);
        for (g, group) in choose.groups.iter().enumerate() {
            let g = g as u16;
            match group.bindings.as_slice() {
                [] => {
                    if legal(group, env)? {
                        push_option(options, (g, Value::None))?;
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
                                        crate::eval::unverified("a row without its condition")
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
                                push_option(options, (g, item.clone()))?;
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
                                    return Err(crate::eval::unverified(
                                        "a filtered row that is not a row",
                                    ));
                                };
                                let pass = filtered.pass.get(*r as usize).ok_or_else(|| {
                                    crate::eval::unverified("a row without its filter")
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
                        options,
                    )?;
                }
            }
        }
        Ok(())
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
            // Not a root environment: the listing's work counts on.
            let inner = Env {
                locals: scratch,
                ..*env
            };
            return list.each(&inner, |item| {
                if legal(group, &inner.with_bound(*slot, item))? {
                    let mut values = chosen.clone();
                    values.push(item.clone());
                    push_option(options, (g, Value::list(values)))?;
                }
                Ok(std::ops::ControlFlow::Continue(()))
            });
        }
        let mut items = Vec::new();
        list.each(
            &Env {
                locals: scratch,
                ..*env
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
        self.with_label(state, i, |label, env| label.render(env))
    }

    /// The label of option `i` in pieces, so that it can be written again for a reader who
    /// may not know the rows it names.
    pub fn option_label_pieces(
        &self,
        state: &State,
        i: usize,
    ) -> Result<Vec<crate::eval::Piece>, RuntimeError> {
        self.with_label(state, i, |label, env| label.pieces(env))
    }

    /// `render` applied to option `i`'s label template in the environment of its option.
    fn with_label<T>(
        &self,
        state: &State,
        i: usize,
        render: impl Fn(&crate::ir::Template, &Env) -> Result<T, RuntimeError>,
    ) -> Result<T, RuntimeError> {
        let Pending::Decision {
            block, pc, options, ..
        } = &state.pending
        else {
            return Err(RuntimeError::new("the game is not waiting for a decision"));
        };
        let stmt = &self.blocks[block.index()][*pc as usize];
        let StmtKind::Choose(choose) = &stmt.kind else {
            return Err(unfit_state("a decision without its choose"));
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
            ([], _) => render(&group.label, &env),
            ([(slot, _)], value) => render(&group.label, &env.with_bound(*slot, value)),
            (bindings, Value::List(values)) => {
                let mut scratch = state.locals[base..].to_vec();
                for ((slot, _), value) in bindings.iter().zip(values.iter()) {
                    scratch[slot.index()] = value.clone();
                }
                render(&group.label, &Env::new(self, state, &scratch))
            }
            _ => Err(unfit_state(
                "an option of several lists without its elements",
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

    /// The rule reference of the pending decision's statement, if any.
    pub fn pending_rule(&self, state: &State) -> Option<Arc<str>> {
        let Pending::Decision { block, pc, .. } = &state.pending else {
            return None;
        };
        self.blocks[block.index()][*pc as usize].rule.clone()
    }
}

/// Whether an option's `if:` holds (an option without one always may be chosen).
/// Adds an option to a decision's list, refused past [`MAX_DECISION_OPTIONS`] (before it
/// grows: a product of two long `for:` lists would take gigabytes).
fn push_option(options: &mut Vec<(u16, Value)>, option: (u16, Value)) -> Result<(), RuntimeError> {
    if options.len() >= MAX_DECISION_OPTIONS {
        return Err(too_many_options());
    }
    options.push(option);
    Ok(())
}

#[cold]
fn too_many_options() -> RuntimeError {
    RuntimeError::new(format!(
        "more than {MAX_DECISION_OPTIONS} options for one decision: its for: lists (or their product) are too long to list; narrow them, or split the decision in two"
    ))
}

fn legal(group: &OptionGroup, env: &Env) -> Result<bool, RuntimeError> {
    match &group.condition {
        Some(c) => c.bool(env),
        None => Ok(true),
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

pub(super) fn recycle_options(mut options: Vec<(u16, Value)>) {
    options.clear();
    SPARE_OPTIONS.with(|spare| spare.set(options));
}
