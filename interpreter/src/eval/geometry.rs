//! The run halves of the built-ins over hex maps (compile halves: `builtins/geometry.rs`).

use std::ops::ControlFlow::Continue;

use super::{Env, Result, RuntimeError};
use crate::hex::HexTable;
use crate::ir::Expr;
use crate::value::{TableId, Value};

/// The hexes of the table that `t` belongs to.
pub(crate) fn geometry<'e>(env: &Env<'e>, t: TableId) -> Result<&'e HexTable> {
    env.game.tables[t.index()]
        .geometry
        .as_ref()
        .ok_or_else(|| RuntimeError::new("the table has no hex geometry"))
}

/// A hex: its table and row.
pub(crate) fn hex(v: &Value) -> Result<(TableId, u16)> {
    match v {
        Value::Row(t, r) => Ok((*t, *r)),
        _ => Err(RuntimeError::new("expected a hex, found none")),
    }
}

/// The rows of a list of hexes of table `t`.
pub(crate) fn rows_of(arg: &Expr, env: &Env) -> Result<(Option<TableId>, Vec<u16>)> {
    let (mut table, mut rows) = (None, Vec::new());
    arg.each(env, |v| {
        let (t, r) = hex(v)?;
        table = Some(t);
        rows.push(r);
        Ok(Continue(()))
    })?;
    Ok((table, rows))
}

pub(crate) fn eval_hex_neighbours(args: &[Expr], env: &Env) -> Result<Value> {
    let (t, r) = hex(&args[0].eval(env)?)?;
    let g = geometry(env, t)?;
    Ok(Value::list(
        g.neighbours[r as usize]
            .iter()
            .map(|n| Value::Row(t, *n))
            .collect(),
    ))
}

pub(crate) fn eval_components(args: &[Expr], env: &Env) -> Result<Value> {
    groups_of(args, env, HexTable::components)
}

/// The groups `find` makes of the hexes of `args[0]`, as lists of rows.
pub(crate) fn groups_of(
    args: &[Expr],
    env: &Env,
    find: fn(&HexTable, &[u16]) -> Vec<Vec<u16>>,
) -> Result<Value> {
    let (table, rows) = rows_of(&args[0], env)?;
    let Some(t) = table else {
        return Ok(Value::list(Vec::new()));
    };
    let groups = find(geometry(env, t)?, &rows);
    Ok(Value::list(
        groups
            .into_iter()
            .map(|g| Value::list(g.into_iter().map(|r| Value::Row(t, r)).collect()))
            .collect(),
    ))
}

pub(crate) fn eval_lines(args: &[Expr], env: &Env) -> Result<Value> {
    groups_of(args, env, HexTable::lines)
}

pub(crate) fn eval_on_edge(args: &[Expr], env: &Env) -> Result<Value> {
    let (t, r) = hex(&args[0].eval(env)?)?;
    let neighbours = &geometry(env, t)?.neighbours[r as usize];
    let around = match args.get(1) {
        None => neighbours.len(),
        Some(cells) => {
            let (_, rows) = rows_of(cells, env)?;
            neighbours.iter().filter(|n| rows.contains(n)).count()
        }
    };
    Ok(Value::Bool(around < 6))
}

pub(crate) fn eval_distance(args: &[Expr], env: &Env) -> Result<Value> {
    let (t, a) = hex(&args[0].eval(env)?)?;
    let (_, b) = hex(&args[1].eval(env)?)?;
    match geometry(env, t)?.distance(a, b) {
        Some(d) => Ok(Value::Int(d)),
        None => Err(RuntimeError::new(format!(
            "distance: no path joins {} and {}",
            env.game.tables[t.index()].rows[a as usize].id,
            env.game.tables[t.index()].rows[b as usize].id
        ))),
    }
}
