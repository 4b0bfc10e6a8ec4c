//! The run halves of the built-ins over square boards (compile halves: `builtins/board.rs`).

use super::{as_list, as_pos, Env, Result, RuntimeError};
use crate::grid::{self, Grid, Pos};
use crate::ir::Expr;
use crate::value::{decode_element, Value};
use crate::work::charge_work;

/// The board instance argument `args[0]` names.
pub(crate) fn board<'e>(args: &[Expr], env: &'e Env) -> Result<&'e Grid> {
    let Expr::Board(b) = &args[0] else {
        return Err(RuntimeError::new("expected a board"));
    };
    Ok(&env.state.boards[b.instance(env)?])
}

pub(crate) fn pos_list(items: impl IntoIterator<Item = Pos>) -> Value {
    Value::list(items.into_iter().map(Value::Pos).collect())
}

pub(crate) fn eval_cells(args: &[Expr], env: &Env) -> Result<Value> {
    let grid = board(args, env)?;
    charge_work(grid.len() as u64)?;
    Ok(pos_list(grid.cells().iter().map(|(p, _)| *p)))
}

pub(crate) fn eval_holes(args: &[Expr], env: &Env) -> Result<Value> {
    let grid = board(args, env)?;
    // The search walks the rectangle around the cells (refused past its own bound).
    if let Some(b) = grid.bounds() {
        let area = (b.bottom as i64 - b.top as i64 + 1) * (b.right as i64 - b.left as i64 + 1);
        charge_work(area as u64)?;
    }
    Ok(pos_list(grid.holes().map_err(RuntimeError::new)?))
}

pub(crate) fn eval_at(args: &[Expr], env: &Env) -> Result<Value> {
    let Expr::Board(b) = &args[0] else {
        return Ok(Value::None);
    };
    let found = board(args, env)?.get(as_pos(&args[1].eval(env)?)?);
    Ok(found.map_or(Value::None, |e| decode_element(b.of, e)))
}

pub(crate) fn eval_groups(args: &[Expr], env: &Env) -> Result<Value> {
    let Expr::Board(b) = &args[0] else {
        return Ok(Value::None);
    };
    let grid = board(args, env)?;
    charge_work(grid.len() as u64)?;
    let groups = grid.groups(|e| args[1].apply_bool(env, &decode_element(b.of, e)))?;
    Ok(Value::list(groups.into_iter().map(pos_list).collect()))
}

pub(crate) fn eval_placements(args: &[Expr], env: &Env) -> Result<Value> {
    let grid = board(args, env)?;
    let (r, c) = (args[1].int(env)?, args[2].int(env)?);
    if !(1..=64).contains(&r) || !(1..=64).contains(&c) {
        return Err(RuntimeError::new(format!(
            "placements of a {r}×{c} piece: sizes go from 1 to 64"
        )));
    }
    // Each cell is tried against the piece's every position.
    charge_work((grid.len() as u64 + 1) * (r * c) as u64)?;
    Ok(pos_list(grid.placements(r as i16, c as i16)))
}

pub(crate) fn coordinate(n: i64) -> Result<i16> {
    Pos::coordinate(n).ok_or_else(|| RuntimeError::new(format!("coordinate {n} is out of range")))
}

pub(crate) fn eval_pos(args: &[Expr], env: &Env) -> Result<Value> {
    let (r, c) = (args[0].int(env)?, args[1].int(env)?);
    Ok(Value::Pos(Pos::new(coordinate(r)?, coordinate(c)?)))
}

pub(crate) fn eval_neighbours(args: &[Expr], env: &Env) -> Result<Value> {
    Ok(pos_list(as_pos(&args[0].eval(env)?)?.neighbours()))
}

pub(crate) fn eval_rotate(args: &[Expr], env: &Env) -> Result<Value> {
    let rows = as_list(args[0].eval(env)?)?;
    let rows: Vec<Vec<Value>> = rows
        .iter()
        .map(|r| as_list(r.clone()).map(|r| r.to_vec()))
        .collect::<Result<_>>()?;
    if rows.iter().any(|r| r.len() != rows[0].len()) {
        return Err(RuntimeError::new("rotate needs rows of equal length"));
    }
    let turned = grid::rotate(&rows, args[1].int(env)?);
    Ok(Value::list(turned.into_iter().map(Value::list).collect()))
}
