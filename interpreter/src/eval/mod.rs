//! The evaluator: walks the typed IR ([`crate::ir::Expr`]) against a state.
//!
//! Typed entry points keep the hot path unboxed: [`Expr::int`] and [`Expr::bool`] return
//! plain numbers and booleans, [`Expr::index`] the seat or row number that indexes state,
//! and only [`Expr::eval`] builds a [`Value`]. Errors are boxed so that every `Result`
//! here fits in two registers. Nothing is parsed or looked up by name while a game runs.

mod board;
pub(crate) mod call;
mod convert;
mod env;
mod error;
mod geometry;
mod knowledge;
pub(crate) mod list;
mod read;

use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;

use crate::ir::{ArithOp, Code, Expr, Key, Quantifier, Slot, Total, ZoneRead};
pub use crate::ir::{Template, TemplatePart};
use crate::model::Game;
use crate::state::State;
use crate::value::Value;
pub(crate) use crate::value::{code_of, decode_element, encode};

use crate::work::charge_work;
pub use convert::arith;
/// A value read as a list (the walker's error otherwise): what `for_each` runs through.
pub use convert::as_list;
use convert::*;
pub(crate) use convert::{as_bool, as_int, as_pos};
pub use convert::{names_rows, Mask, Piece};
pub use env::{Env, Hoisting, Memo, MAX_HOISTED};
pub(crate) use error::unverified;
pub use error::{Result, RuntimeError};
pub(crate) use read::zone;
use read::*;

impl Expr {
    /// The value of this expression.
    pub fn eval(&self, env: &Env) -> Result<Value> {
        Ok(match self {
            Expr::Const(v) => v.clone(),
            Expr::Local(slot) => env.local(*slot).clone(),
            Expr::It => env.it.clone(),
            Expr::Outer(depth) => env.outer_it(*depth).clone(),
            Expr::Players => players(env),
            Expr::Param(i) => env.params[*i as usize].clone(),
            Expr::Function { id, args } => {
                return call_function(env, *id, args, |body, env| body.eval(env))
            }
            Expr::Var { slot, code } => code.decode(env.state.ints[slot.index()]),
            Expr::VarAt {
                base,
                code,
                index,
                name,
            } => code.decode(var_at(env, *base, index, name)?),
            Expr::VarAtKey {
                base,
                code,
                key,
                name,
            } => code.decode(var_at_key(env, *base, *key, name)?),
            Expr::Column { values, row, name } => values[row_of(row, env, name)?].clone(),
            Expr::ColumnKey { values, key, name } => values[key_row(env, *key, name)?].clone(),
            Expr::RowId(row) => match row.eval(env)? {
                Value::Row(t, r) => Value::Str(Arc::from(
                    env.game.tables[t.index()].rows[r as usize].id.as_str(),
                )),
                _ => return Err(RuntimeError::new("none has no id")),
            },
            Expr::PosRow(p) => Value::Int(as_pos(&p.eval(env)?)?.row as i64),
            Expr::PosCol(p) => Value::Int(as_pos(&p.eval(env)?)?.col as i64),
            Expr::Zone(z) => {
                let items = zone(env, z)?;
                Value::list(items.iter().map(|e| decode_element(z.of, *e)).collect())
            }
            Expr::ZoneFirst(z) => zone(env, z)?
                .first()
                .map_or(Value::None, |e| decode_element(z.of, *e)),
            Expr::ZoneLast(z) => zone(env, z)?
                .last()
                .map_or(Value::None, |e| decode_element(z.of, *e)),
            Expr::ZoneLen(_)
            | Expr::RowNumber { .. }
            | Expr::PlayerCount
            | Expr::ZoneCount(..)
            | Expr::ZoneIndexOf(..)
            | Expr::Arith { .. }
            | Expr::Neg(..) => Value::Int(self.int(env)?),
            Expr::ZoneContains(..)
            | Expr::Compare { .. }
            | Expr::Equal { .. }
            | Expr::And(..)
            | Expr::Or(..)
            | Expr::Not(_)
            | Expr::In { .. }
            | Expr::IsNone { .. }
            | Expr::Same { .. } => Value::Bool(self.bool(env)?),
            Expr::Index { list, at } => {
                let items = as_list(list.eval(env)?)?;
                let i = at.int(env)?;
                return usize::try_from(i)
                    .ok()
                    .and_then(|i| items.get(i).cloned())
                    .ok_or_else(|| {
                        RuntimeError::new(format!(
                            "position {i} is outside a list of {}",
                            items.len()
                        ))
                    });
            }
            Expr::RowAt { table, count, at } => Value::Row(*table, row_at(*count, at, env)?),
            Expr::List(items) => Value::list(
                items
                    .iter()
                    .map(|e| e.eval(env))
                    .collect::<Result<Vec<_>>>()?,
            ),
            Expr::UnrolledTest { .. } => Value::Bool(self.bool(env)?),
            Expr::UnrolledTotal { .. } => Value::Int(self.int(env)?),
            Expr::Filter { .. } | Expr::RowsWhere { .. } => {
                let mut out = Vec::with_capacity(8);
                self.each(env, |v| {
                    out.push(v.clone());
                    Ok(ControlFlow::Continue(()))
                })?;
                Value::list(out)
            }
            Expr::Pair { .. } => Value::Int(self.index(env, "a two-key declaration")? as i64),
            Expr::If {
                cond,
                then,
                otherwise,
            } => {
                return if cond.bool(env)? {
                    then.eval(env)
                } else {
                    otherwise.eval(env)
                };
            }
            Expr::Call { op, args } => return call::run(*op, args, env),
            Expr::Lambda(body) => return body.eval(env),
            Expr::Let { value, body } => {
                let value = value.eval(env)?;
                return body.eval(&env.with_it(&value));
            }
            Expr::With { values, body } => return env.with_hoisted(values, |env| body.eval(env)),
            Expr::Hoisted { depth, index } => return env.hoisted_value(*depth, *index),
            Expr::Board(_) => {
                return Err(RuntimeError::new(
                    "a board is read with cells(), at(), groups(), holes() or placements()",
                ))
            }
            Expr::Script { function, args } => {
                let values = args
                    .iter()
                    .map(|a| a.eval(env))
                    .collect::<Result<Vec<_>>>()?;
                return crate::script::call(env.game, env.state, *function, values)
                    .map_err(RuntimeError::new);
            }
        })
    }

    /// The value of a number-typed expression, unboxed. The commonest nodes are read
    /// here; the others in `Expr::int_other`, out of line, so that this function's
    /// frame stays small: it is entered for nearly every number the game reads.
    pub fn int(&self, env: &Env) -> Result<i64> {
        match self {
            Expr::Const(Value::Int(n)) => Ok(*n),
            Expr::Var {
                slot,
                code: Code::Int,
            } => Ok(env.state.ints[slot.index()]),
            Expr::VarAtKey {
                base,
                code: Code::Int,
                key,
                name,
            } => var_at_key(env, *base, *key, name),
            Expr::Local(slot) => as_int(env.local(*slot)),
            Expr::Param(i) => as_int(&env.params[*i as usize]),
            Expr::Function { id, args } => call_function(env, *id, args, |body, env| body.int(env)),
            Expr::ColumnKey { values, key, name } => as_int(&values[key_row(env, *key, name)?]),
            Expr::Arith { op, a, b, source } => {
                let (x, y) = (a.leaf_int(env)?, b.leaf_int(env)?);
                arith(*op, x, y).ok_or_else(|| arith_error(*op, x, y, source))
            }
            Expr::ZoneLen(z) => Ok(zone(env, z)?.len() as i64),
            Expr::PlayerCount => Ok(env.state.names.len() as i64),
            Expr::Call { op, args } => as_int(&call::run(*op, args, env)?),
            Expr::RowNumber { row, count } => Ok(match row.code(env)? {
                Some(r) if r < *count => r as i64,
                _ => -1,
            }),
            Expr::ZoneCount(z, x) => {
                let code = x.code(env)?;
                let items = scanned(zone(env, z)?)?;
                Ok(code.map_or(0, |c| items.iter().filter(|e| **e == c).count()) as i64)
            }
            Expr::If {
                cond,
                then,
                otherwise,
            } => {
                if cond.bool(env)? {
                    then.int(env)
                } else {
                    otherwise.int(env)
                }
            }
            Expr::UnrolledTotal { op, items } => unrolled_total(*op, items, env),
            _ => self.int_other(env),
        }
    }

    #[inline(never)]
    fn int_other(&self, env: &Env) -> Result<i64> {
        match self {
            Expr::VarAt {
                base,
                code: Code::Int,
                index,
                name,
            } => var_at(env, *base, index, name),
            Expr::Column { values, row, name } => as_int(&values[row_of(row, env, name)?]),
            Expr::Neg(e, source) => {
                let x = e.int(env)?;
                x.checked_neg().ok_or_else(|| {
                    RuntimeError::new(format!(
                        "-({x}) is past the largest whole number in \"{source}\""
                    ))
                })
            }
            Expr::ZoneIndexOf(z, x) => {
                let code = x.code(env)?;
                let items = scanned(zone(env, z)?)?;
                Ok(code
                    .and_then(|c| items.iter().position(|e| *e == c))
                    .map_or(-1, |i| i as i64))
            }
            Expr::With { values, body } => env.with_hoisted(values, |env| body.int(env)),
            _ => as_int(&self.eval(env)?),
        }
    }

    /// [`Expr::int`] with the commonest leaves read here, without a call: the operands of
    /// arithmetic and comparisons are mostly constants, variables and columns.
    #[inline(always)]
    fn leaf_int(&self, env: &Env) -> Result<i64> {
        match self {
            Expr::Const(Value::Int(n)) => Ok(*n),
            Expr::Var {
                slot,
                code: Code::Int,
            } => Ok(env.state.ints[slot.index()]),
            Expr::VarAtKey {
                base,
                code: Code::Int,
                key,
                name,
            } => var_at_key(env, *base, *key, name),
            Expr::ColumnKey { values, key, name } => as_int(&values[key_row(env, *key, name)?]),
            Expr::PlayerCount => Ok(env.state.names.len() as i64),
            Expr::ZoneLen(z) => Ok(zone(env, z)?.len() as i64),
            _ => self.int(env),
        }
    }

    /// The value of a true/false-typed expression, unboxed.
    #[inline(always)]
    pub fn bool(&self, env: &Env) -> Result<bool> {
        self.truth(env).map(|t| t != 0)
    }

    /// [`Expr::bool`] as 0 or 1: a word, which a `Result` returns in registers where a
    /// `bool` beside the error's pointer would go through memory.
    fn truth(&self, env: &Env) -> Result<u64> {
        let r: Result<bool> = match self {
            Expr::Const(Value::Bool(b)) => Ok(*b),
            Expr::Compare { op, a, b } => {
                let (x, y) = (a.leaf_int(env)?, b.leaf_int(env)?);
                Ok(op.holds(x, y))
            }
            Expr::IsNone { value, negate } => Ok(value.code(env)?.is_none() != *negate),
            Expr::Same { a, b, negate } => Ok((a.code(env)? == b.code(env)?) != *negate),
            Expr::VarAtKey {
                base,
                code: Code::Bool,
                key,
                name,
            } => Ok(var_at_key(env, *base, *key, name)? != 0),
            Expr::ColumnKey { values, key, name } => as_bool(&values[key_row(env, *key, name)?]),
            Expr::And(a, b) => Ok(a.bool(env)? && b.bool(env)?),
            Expr::Or(a, b) => Ok(a.bool(env)? || b.bool(env)?),
            Expr::Not(e) => Ok(!e.bool(env)?),
            Expr::Var {
                slot,
                code: Code::Bool,
            } => Ok(env.state.ints[slot.index()] != 0),
            Expr::VarAt {
                base,
                code: Code::Bool,
                index,
                name,
            } => Ok(var_at(env, *base, index, name)? != 0),
            Expr::Local(slot) => as_bool(env.local(*slot)),
            Expr::Param(i) => as_bool(&env.params[*i as usize]),
            Expr::Function { id, args } => {
                call_function(env, *id, args, |body, env| body.bool(env))
            }
            Expr::Call { op, args } => as_bool(&call::run(*op, args, env)?),
            Expr::UnrolledTest { op, items } => unrolled_test(*op, items, env),
            Expr::ZoneContains(z, x) => {
                let code = x.code(env)?;
                let items = scanned(zone(env, z)?)?;
                Ok(code.is_some_and(|c| items.contains(&c)))
            }
            _ => self.bool_other(env),
        };
        r.map(u64::from)
    }

    /// The rarer nodes of [`Expr::bool`], out of line (see [`Expr::int`]).
    #[inline(never)]
    fn bool_other(&self, env: &Env) -> Result<bool> {
        match self {
            Expr::Equal { a, b, negate } => {
                let (x, y) = (a.eval(env)?, b.eval(env)?);
                // Two lists are compared element by element.
                if let (Value::List(p), Value::List(q)) = (&x, &y) {
                    charge_work(p.len().min(q.len()) as u64)?;
                }
                Ok((x == y) != *negate)
            }
            Expr::Column { values, row, name } => as_bool(&values[row_of(row, env, name)?]),
            // Read element by element: a filtered list or the players are not built.
            Expr::In { item, list } => {
                let x = item.eval(env)?;
                let mut found = false;
                list.each(env, |v| {
                    found = *v == x;
                    Ok(if found {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    })
                })?;
                Ok(found)
            }
            Expr::If {
                cond,
                then,
                otherwise,
            } => {
                if cond.bool(env)? {
                    then.bool(env)
                } else {
                    otherwise.bool(env)
                }
            }
            Expr::With { values, body } => env.with_hoisted(values, |env| body.bool(env)),
            _ => as_bool(&self.eval(env)?),
        }
    }

    /// The number of the seat or row this expression stands for: where its value lies in
    /// a variable indexed by players or by a table. `what` names the indexed thing.
    /// An entry of a two-key declaration is found from both keys' numbers.
    #[inline]
    pub fn index(&self, env: &Env, what: &str) -> Result<usize> {
        if let Expr::Pair { .. } = self {
            return self.pair_index(env, what);
        }
        match self.code(env)? {
            Some(code) => Ok(code as usize),
            None => Err(none_error(what)),
        }
    }

    /// The index of an entry of a two-key declaration (kept apart so that `index` stays
    /// small and non-recursive).
    #[inline(never)]
    fn pair_index(&self, env: &Env, what: &str) -> Result<usize> {
        let Expr::Pair {
            first,
            second,
            stride,
        } = self
        else {
            return self.index(env, what);
        };
        Ok(first.index(env, what)? * *stride as usize + second.index(env, what)?)
    }

    /// The code of the player or row this expression stands for, or none.
    #[inline(always)]
    pub fn code(&self, env: &Env) -> Result<Option<u16>> {
        Ok(match self {
            Expr::Local(slot) => code_of(env.local(*slot)),
            Expr::It => code_of(env.it),
            Expr::Var {
                slot,
                code: Code::Player | Code::Row(_),
            } => {
                let n = env.state.ints[slot.index()];
                (n >= 0).then_some(n as u16)
            }
            Expr::VarAtKey {
                base,
                code: Code::Player | Code::Row(_),
                key,
                name,
            } => {
                let n = var_at_key(env, *base, *key, name)?;
                (n >= 0).then_some(n as u16)
            }
            Expr::ColumnKey { values, key, name } => code_of(&values[key_row(env, *key, name)?]),
            _ => return self.code_of_any(env),
        })
    }

    /// [`Expr::code`] of the less common expressions.
    #[inline(never)]
    fn code_of_any(&self, env: &Env) -> Result<Option<u16>> {
        Ok(match self {
            Expr::RowAt { count, at, .. } => Some(row_at(*count, at, env)?),
            Expr::Outer(depth) => code_of(env.outer_it(*depth)),
            Expr::Param(i) => code_of(&env.params[*i as usize]),
            Expr::Const(v) => code_of(v),
            _ => code_of(&self.eval(env)?),
        })
    }

    /// Evaluates a per-element argument for one element.
    /// Each application is a step of work ([`charge_work`]).
    pub fn apply(&self, env: &Env, it: &Value) -> Result<Value> {
        charge_work(1)?;
        self.body().eval(&env.with_it(it))
    }
    pub fn apply_int(&self, env: &Env, it: &Value) -> Result<i64> {
        charge_work(1)?;
        self.body().int(&env.with_it(it))
    }
    pub fn apply_bool(&self, env: &Env, it: &Value) -> Result<bool> {
        charge_work(1)?;
        self.body().bool(&env.with_it(it))
    }
}

impl Expr {
    /// Calls `f` with each element of this list expression in order, until it breaks.
    /// The players, a zone, a constant list and a list written out are read where they
    /// lie, and a filter, a `map`, a `concat` or a `range` as its elements come: no list
    /// is built, and no element after the break is computed.
    pub fn each(
        &self,
        env: &Env,
        mut f: impl FnMut(&Value) -> Result<ControlFlow<()>>,
    ) -> Result<()> {
        match self {
            Expr::Players => {
                for p in 0..env.state.names.len() {
                    if f(&Value::Player(p as u8))?.is_break() {
                        break;
                    }
                }
            }
            Expr::Zone(z) => {
                let codes = zone(env, z)?;
                charge_work(codes.len() as u64)?;
                for code in codes {
                    if f(&decode_element(z.of, *code))?.is_break() {
                        break;
                    }
                }
            }
            Expr::Const(Value::List(items)) => {
                charge_work(items.len() as u64)?;
                for v in items.iter() {
                    if f(v)?.is_break() {
                        break;
                    }
                }
            }
            // A filtered list: the elements of its list that pass, as they come.
            Expr::Filter { list, cond } => list.each_dyn(env, &mut |v| {
                if cond.apply_bool(env, v)? {
                    f(v)
                } else {
                    Ok(ControlFlow::Continue(()))
                }
            })?,
            Expr::RowsWhere { table, groups, key } => {
                let group = key.code(env)?.map_or(0, |c| c as usize + 1);
                let rows = groups.get(group).map_or(&[][..], |g| &g[..]);
                charge_work(rows.len() as u64)?;
                for &row in rows {
                    if f(&Value::Row(*table, row))?.is_break() {
                        break;
                    }
                }
            }
            Expr::With { values, body } => {
                env.with_hoisted(values, |env| body.each_dyn(env, &mut f))?
            }
            // A list written out (`[t.coach, t.hotel]`): its items one by one.
            Expr::List(items) => {
                for item in items {
                    if f(&item.eval(env)?)?.is_break() {
                        break;
                    }
                }
            }
            Expr::Call { op, args } if list::reads_lazily(*op) => {
                list::each_of(*op, args, env, &mut f)?
            }
            _ => {
                let items = as_list(self.eval(env)?)?;
                charge_work(items.len() as u64)?;
                for v in items.iter() {
                    if f(v)?.is_break() {
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    /// [`Expr::each`] with the element function behind a reference: what a nested
    /// `each` (a filter of a filter) calls, so that the generic one is instantiated once.
    fn each_dyn(
        &self,
        env: &Env,
        f: &mut dyn FnMut(&Value) -> Result<ControlFlow<()>>,
    ) -> Result<()> {
        self.each(env, f)
    }

    /// Lambdas evaluate their body; the typed entry points see through them.
    fn body(&self) -> &Expr {
        match self {
            Expr::Lambda(body) => body,
            other => other,
        }
    }
}

/// The arguments a function is called with, evaluated in the caller's environment:
/// up to this many live on the stack.
const STACK_ARGS: usize = 4;

/// Calls function `id` with `args`: evaluates them, then `body` in the function's
/// environment with `run` (the typed entry point the caller needs).
// Out of line: its argument array and frame would otherwise weigh on every
// `int`/`bool`/`eval` call, most of which call no function.
#[inline(never)]
fn call_function<T: FromValue>(
    env: &Env,
    id: crate::ir::FunctionId,
    args: &[Expr],
    run: impl Fn(&Expr, &Env) -> Result<T>,
) -> Result<T> {
    charge_work(1)?;
    let function = &env.game.functions[id.index()];
    if let (true, Some(memo)) = (args.is_empty(), env.memo) {
        if let Some(Some(v)) = memo.0.borrow().get(id.index()) {
            return T::from_value(v);
        }
        let v = function.body.eval(&env.for_function(&[]))?;
        let value = T::from_value(&v);
        let mut known = memo.0.borrow_mut();
        if known.is_empty() {
            *known = (0..env.game.functions.len()).map(|_| None).collect();
        }
        known[id.index()] = Some(v);
        return value;
    }
    if args.len() <= STACK_ARGS {
        let mut values: [Value; STACK_ARGS] = Default::default();
        for (slot, arg) in values.iter_mut().zip(args) {
            *slot = arg.eval(env)?;
        }
        run(&function.body, &env.for_function(&values[..args.len()]))
    } else {
        let values = args
            .iter()
            .map(|a| a.eval(env))
            .collect::<Result<Vec<_>>>()?;
        run(&function.body, &env.for_function(&values))
    }
}

/// An unrolled `any` or `all` ([`Expr::UnrolledTest`]): the items in order, up to the
/// first that decides.
#[inline(never)]
fn unrolled_test(op: Quantifier, items: &[Expr], env: &Env) -> Result<bool> {
    let decides = match op {
        Quantifier::Any => true,
        Quantifier::All => false,
    };
    for item in items {
        if item.bool(env)? == decides {
            return Ok(decides);
        }
    }
    Ok(!decides)
}

/// An unrolled `sum` or `count_if` ([`Expr::UnrolledTotal`]): the items in order.
#[inline(never)]
fn unrolled_total(op: Total, items: &[Expr], env: &Env) -> Result<i64> {
    match op {
        Total::Sum => {
            let mut total = 0;
            for item in items {
                total = list::sum_add(total, item.int(env)?)?;
            }
            Ok(total)
        }
        Total::Count => {
            let mut n = 0;
            for item in items {
                n += item.bool(env)? as i64;
            }
            Ok(n)
        }
    }
}

/// A zone's elements about to be searched, counted as steps of work past the first
/// [`crate::work::FREE_SCAN`] (a short search is part of the step that asked for it).
#[inline]
fn scanned(items: &[u16]) -> Result<&[u16]> {
    if items.len() > crate::work::FREE_SCAN {
        charge_work(items.len() as u64)?;
    }
    Ok(items)
}
