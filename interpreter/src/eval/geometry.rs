//! The run halves of the built-ins over maps (compile halves: `builtins/geometry.rs`).

use std::ops::ControlFlow::Continue;

use super::{Env, Result, RuntimeError};
use crate::hex::HexTable;
use crate::ir::Expr;
use crate::value::{TableId, Value};
use crate::work::charge_work;

/// The hexes of the table that `t` belongs to, its rows counted as steps of work: what
/// a search over the map (groups, lines, a distance) may visit.
fn searched<'e>(env: &Env<'e>, t: TableId) -> Result<&'e HexTable> {
    let g = geometry(env, t)?;
    charge_work(g.neighbours.len() as u64)?;
    Ok(g)
}

/// The hexes of the table that `t` belongs to.
pub(crate) fn geometry<'e>(env: &Env<'e>, t: TableId) -> Result<&'e HexTable> {
    env.game.tables[t.index()]
        .geometry
        .as_ref()
        .ok_or_else(|| RuntimeError::new("the table has no geometry"))
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
    let groups = find(searched(env, t)?, &rows);
    Ok(Value::list(
        groups
            .into_iter()
            .map(|g| Value::list(g.into_iter().map(|r| Value::Row(t, r)).collect()))
            .collect(),
    ))
}

pub(crate) fn eval_lines(args: &[Expr], env: &Env) -> Result<Value> {
    let Some(k) = args.get(1) else {
        return groups_of(args, env, HexTable::lines);
    };
    let k = k.int(env)?;
    if k < 1 {
        return Err(RuntimeError::new(format!(
            "lines: runs of {k} cells: the length is at least 1"
        )));
    }
    let (table, rows) = rows_of(&args[0], env)?;
    let Some(t) = table else {
        return Ok(Value::list(Vec::new()));
    };
    let windows = searched(env, t)?.windows(&rows, k as usize);
    Ok(Value::list(
        windows
            .into_iter()
            .map(|w| Value::list(w.into_iter().map(|r| Value::Row(t, r)).collect()))
            .collect(),
    ))
}

pub(crate) fn eval_cell_at(args: &[Expr], env: &Env) -> Result<Value> {
    let (x, y) = (args[1].int(env)?, args[2].int(env)?);
    // The map is the table of the list's rows: its first row says which.
    let mut table = None;
    args[0].each(env, |v| {
        table = Some(hex(v)?.0);
        Ok(std::ops::ControlFlow::Break(()))
    })?;
    let Some(t) = table else {
        return Err(RuntimeError::new(format!(
            "at: no cell at ({x}, {y}) in an empty list"
        )));
    };
    match geometry(env, t)?.at(x, y) {
        Some(r) => Ok(Value::Row(t, r)),
        None => Err(RuntimeError::new(format!(
            "at: {} has no cell at ({x}, {y})",
            env.game.tables[t.index()].name
        ))),
    }
}

/// A cell and a direction that the cell's map has.
fn cell_and_direction(args: &[Expr], env: &Env, what: &str) -> Result<(TableId, u16, usize)> {
    let (t, r) = hex(&args[0].eval(env)?)?;
    let d = args[1].int(env)?;
    let g = geometry(env, t)?;
    let n = g.full_degree().unwrap_or(0);
    match usize::try_from(d) {
        Ok(d) if d < n => Ok((t, r, d)),
        _ => Err(RuntimeError::new(format!(
            "{what}: direction {d}: the cells of {} have directions 0 to {}",
            env.game.tables[t.index()].name,
            n.saturating_sub(1)
        ))),
    }
}

pub(crate) fn eval_step(args: &[Expr], env: &Env) -> Result<Value> {
    let (t, r, d) = cell_and_direction(args, env, "step")?;
    Ok(match geometry(env, t)?.step(r, d) {
        Some(n) => Value::Row(t, n),
        None => Value::None,
    })
}

pub(crate) fn eval_ray(args: &[Expr], env: &Env) -> Result<Value> {
    let (t, r, d) = cell_and_direction(args, env, "ray")?;
    Ok(Value::list(
        searched(env, t)?
            .ray(r, d)
            .into_iter()
            .map(|n| Value::Row(t, n))
            .collect(),
    ))
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
    let full = geometry(env, t)?.full_degree().unwrap_or(6);
    Ok(Value::Bool(around < full))
}

pub(crate) fn eval_distance(args: &[Expr], env: &Env) -> Result<Value> {
    let (t, a) = hex(&args[0].eval(env)?)?;
    let (_, b) = hex(&args[1].eval(env)?)?;
    match searched(env, t)?.distance(a, b) {
        Some(d) => Ok(Value::Int(d)),
        None => Err(RuntimeError::new(format!(
            "distance: no path joins {} and {}",
            env.game.tables[t.index()].rows[a as usize].id,
            env.game.tables[t.index()].rows[b as usize].id
        ))),
    }
}
