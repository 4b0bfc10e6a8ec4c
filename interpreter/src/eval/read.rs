//! Reads of the state by the evaluator: indexed variables, keys, table columns, zone and
//! board instances, each checked where a ruleset could go wrong.

use super::*;
use crate::id::IntSlot;

/// The row number an [`Expr::RowAt`] of `count` rows reads at `at`, checked against the
/// table's rows.
pub(super) fn row_at(count: u16, at: &Expr, env: &Env) -> Result<u16> {
    let i = at.int(env)?;
    match u16::try_from(i) {
        Ok(r) if r < count => Ok(r),
        _ => Err(RuntimeError::new(format!(
            "position {i} is outside a list of {count}"
        ))),
    }
}

pub(super) fn var_at(env: &Env, base: IntSlot, index: &Expr, name: &str) -> Result<i64> {
    let i = index.index(env, name)?;
    env.state
        .ints
        .get(base.index() + i)
        .copied()
        .ok_or_else(|| RuntimeError::new(format!("{name}[…]: index {i} is out of range")))
}

impl Key {
    /// The seat or row number the key holds (none is an error naming `what`).
    #[inline(always)]
    pub(super) fn code(self, env: &Env, what: &str) -> Result<usize> {
        let code = match self {
            Key::Local(slot) => code_of(env.local(slot)),
            Key::It => code_of(env.it),
            Key::Param(i) => code_of(&env.params[i as usize]),
            Key::Var(slot) => {
                let n = env.state.ints[slot.index()];
                (n >= 0).then_some(n as u16)
            }
        };
        code.map(usize::from).ok_or_else(|| none_error(what))
    }
}

#[cold]
pub(super) fn none_error(what: &str) -> RuntimeError {
    RuntimeError::new(format!("{what}[…] indexed by none"))
}

#[inline(always)]
pub(super) fn var_at_key(env: &Env, base: IntSlot, key: Key, name: &str) -> Result<i64> {
    let i = key.code(env, name)?;
    match env.state.ints.get(base.index() + i) {
        Some(n) => Ok(*n),
        None => Err(out_of_range(name, i)),
    }
}

#[cold]
pub(super) fn out_of_range(name: &str, i: usize) -> RuntimeError {
    RuntimeError::new(format!("{name}[…]: index {i} is out of range"))
}

#[inline(always)]
pub(super) fn key_row(env: &Env, key: Key, column: &str) -> Result<usize> {
    match key.code(env, column) {
        Ok(r) => Ok(r),
        Err(_) => Err(no_column(column)),
    }
}

#[cold]
pub(super) fn no_column(column: &str) -> RuntimeError {
    RuntimeError::new(format!("none has no '{column}'"))
}

pub(super) fn row_of(row: &Expr, env: &Env, column: &str) -> Result<usize> {
    match row {
        Expr::Local(slot) => match env.local(*slot) {
            Value::Row(_, r) => Ok(*r as usize),
            _ => Err(RuntimeError::new(format!("none has no '{column}'"))),
        },
        _ => match row.eval(env)? {
            Value::Row(_, r) => Ok(r as usize),
            _ => Err(RuntimeError::new(format!("none has no '{column}'"))),
        },
    }
}

/// The elements of a zone instance, where they lie.
#[inline]
pub(crate) fn zone<'e>(env: &'e Env, z: &ZoneRead) -> Result<&'e [u16]> {
    // A single zone, or one instance the optimizer fixed: no index to read.
    if z.index.is_none() {
        return Ok(&env.state.zones[z.base.index()]);
    }
    Ok(&env.state.zones[z.instance(env)?])
}

/// The instance `base + index` of an indexed declaration, its index checked.
pub(super) fn instance(
    env: &Env,
    base: usize,
    len: u32,
    index: Option<&Expr>,
    name: &str,
) -> Result<usize> {
    let i = match index {
        Some(index) => index.index(env, name)?,
        None => 0,
    };
    if i >= len as usize {
        return Err(RuntimeError::new(format!("{name}: index out of range")));
    }
    Ok(base + i)
}

impl ZoneRead {
    /// Which zone instance of the state this names.
    pub fn instance(&self, env: &Env) -> Result<usize> {
        instance(
            env,
            self.base.index(),
            self.len,
            self.index.as_deref(),
            &self.name,
        )
    }
}

impl crate::ir::BoardRead {
    /// Which board instance of the state this names.
    pub fn instance(&self, env: &Env) -> Result<usize> {
        instance(
            env,
            self.base.index(),
            self.len,
            self.index.as_deref(),
            &self.name,
        )
    }
}

pub(super) fn players(env: &Env) -> Value {
    let n = env.state.names.len();
    match env.game.seats.get(n) {
        Some(seats) => seats.clone(),
        None => Value::list((0..n).map(|p| Value::Player(p as u8)).collect()),
    }
}
