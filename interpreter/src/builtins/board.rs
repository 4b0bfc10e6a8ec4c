//! Built-ins over boards and positions. The first argument of `cells`, `at`, `groups`,
//! `holes` and `placements` names a board instance (`town` or `town[p]`).

use super::{Builtin, CallSite, Form};
use crate::eval::{as_list, as_pos, decode_element, Env, Result, RuntimeError};
use crate::grid::{self, Grid, Pos};
use crate::ir::Expr;
use crate::load::{nothing, Compiled, Compiler};
use crate::value::{Type, Value};

fn positions() -> Type {
    Type::List(Box::new(Type::Pos))
}

/// The board instance argument `args[0]` names.
fn board<'e>(args: &[Expr], env: &'e Env) -> Result<&'e Grid> {
    let Expr::Board(b) = &args[0] else {
        return Err(RuntimeError::new("expected a board"));
    };
    Ok(&env.state.boards[b.instance(env)?])
}

fn pos_list(items: impl IntoIterator<Item = Pos>) -> Value {
    Value::list(items.into_iter().map(Value::Pos).collect())
}

/// `f(board, …)` with `arity` arguments: the board argument lowered, or nothing.
fn lower_board(
    c: &mut Compiler,
    site: &CallSite,
    arity: usize,
) -> Option<(Expr, crate::model::Element)> {
    if !c.arity(site.span, site.name(), site.args, &[arity]) {
        return None;
    }
    c.board_read(&site.args[0], site.scope).map(|b| {
        let of = b.of;
        (Expr::Board(b), of)
    })
}

pub const CELLS: Builtin = Builtin {
    name: "cells",
    forms: &[Form {
        call: "cells(board)",
        result: "list of positions",
        meaning: "The occupied cells, in reading order (by row, then column).",
    }],
    lower: |c, site| match lower_board(c, site, 1) {
        Some((b, _)) => (site.call(eval_cells, vec![b]), positions()),
        None => nothing(),
    },
    reduce: None,
    pure: false,
    unroll: None,
};

fn eval_cells(args: &[Expr], env: &Env) -> Result<Value> {
    Ok(pos_list(board(args, env)?.cells().iter().map(|(p, _)| *p)))
}

pub const HOLES: Builtin = Builtin {
    name: "holes",
    forms: &[
        Form { call: "holes(board)", result: "list of positions", meaning: "The empty cells the board encloses: inside the rectangle of occupied cells and not connected to its outside through empty cells (edge steps). A board whose rectangle spans more than 1,000,000 cells is a runtime error." },
    ],
    lower: |c, site| match lower_board(c, site, 1) {
        Some((b, _)) => (site.call(eval_holes, vec![b]), positions()),
        None => nothing(),
    },
    reduce: None,
    pure: false,
    unroll: None,
};

fn eval_holes(args: &[Expr], env: &Env) -> Result<Value> {
    Ok(pos_list(
        board(args, env)?.holes().map_err(RuntimeError::new)?,
    ))
}

pub const AT: Builtin = Builtin {
    name: "at",
    forms: &[Form {
        call: "at(board, p)",
        result: "element",
        meaning: "The element at `p`, or `none` if the cell is empty.",
    }],
    lower: lower_at,
    reduce: None,
    pure: false,
    unroll: None,
};

fn lower_at(c: &mut Compiler, site: &CallSite) -> Compiled {
    let Some((b, of)) = lower_board(c, site, 2) else {
        return nothing();
    };
    let p = c.expect(&site.args[1], site.scope, &Type::Pos);
    (site.call(eval_at, vec![b, p]), of.value_type())
}

fn eval_at(args: &[Expr], env: &Env) -> Result<Value> {
    let Expr::Board(b) = &args[0] else {
        return Ok(Value::None);
    };
    let found = board(args, env)?.get(as_pos(&args[1].eval(env)?)?);
    Ok(found.map_or(Value::None, |e| decode_element(b.of, e)))
}

pub const GROUPS: Builtin = Builtin {
    name: "groups",
    forms: &[
        Form { call: "groups(board, cond)", result: "list of lists of positions", meaning: "The edge-connected groups of the cells whose element satisfies `cond` (per element: `it` is the element), largest first; equal sizes in reading order of their first cell. `len(first(groups(town[p], it.terrain == t)))` is the size of the largest group (0 when there is none)." },
    ],
    lower: lower_groups,
    reduce: None,
    pure: false,
    unroll: None,
};

fn lower_groups(c: &mut Compiler, site: &CallSite) -> Compiled {
    let Some((b, of)) = lower_board(c, site, 2) else {
        return nothing();
    };
    let (pred, ty) = c.per_element(&site.args[1], site.scope, &of.value_type());
    if !Type::Bool.accepts(&ty) {
        let message = format!(
            "expected {}, found {}",
            c.type_name(&Type::Bool),
            c.type_name(&ty)
        );
        c.report(site.args[1].span, message);
    }
    (
        site.call(eval_groups, vec![b, pred]),
        Type::List(Box::new(positions())),
    )
}

fn eval_groups(args: &[Expr], env: &Env) -> Result<Value> {
    let Expr::Board(b) = &args[0] else {
        return Ok(Value::None);
    };
    let grid = board(args, env)?;
    let groups = grid.groups(|e| args[1].apply_bool(env, &decode_element(b.of, e)))?;
    Ok(Value::list(groups.into_iter().map(pos_list).collect()))
}

pub const PLACEMENTS: Builtin = Builtin {
    name: "placements",
    forms: &[
        Form { call: "placements(board, rows, cols)", result: "list of positions", meaning: "The top-left positions where a `rows` × `cols` piece may go: on an empty board `(0,0)` only; otherwise every position where the piece covers at least one occupied cell or shares an edge with one (a corner is not enough). Reading order. Sizes go from 1 to 64." },
    ],
    lower: lower_placements,
    reduce: None,
    pure: false,
    unroll: None,
};

fn lower_placements(c: &mut Compiler, site: &CallSite) -> Compiled {
    let Some((b, _)) = lower_board(c, site, 3) else {
        return nothing();
    };
    let rows = c.expect(&site.args[1], site.scope, &Type::Int);
    let cols = c.expect(&site.args[2], site.scope, &Type::Int);
    (site.call(eval_placements, vec![b, rows, cols]), positions())
}

fn eval_placements(args: &[Expr], env: &Env) -> Result<Value> {
    let grid = board(args, env)?;
    let (r, c) = (args[1].int(env)?, args[2].int(env)?);
    if !(1..=64).contains(&r) || !(1..=64).contains(&c) {
        return Err(RuntimeError::new(format!(
            "placements of a {r}×{c} piece: sizes go from 1 to 64"
        )));
    }
    Ok(pos_list(grid.placements(r as i16, c as i16)))
}

pub const POS: Builtin = Builtin {
    name: "pos",
    forms: &[Form {
        call: "pos(row, col)",
        result: "position",
        meaning: "The position; `p.row` and `p.col` read it back. Written `(row,col)` in labels.",
    }],
    lower: lower_pos,
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_pos(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[2]) {
        return nothing();
    }
    let row = c.expect(&site.args[0], site.scope, &Type::Int);
    let col = c.expect(&site.args[1], site.scope, &Type::Int);
    (site.call(eval_pos, vec![row, col]), Type::Pos)
}

fn coordinate(n: i64) -> Result<i16> {
    Pos::coordinate(n).ok_or_else(|| RuntimeError::new(format!("coordinate {n} is out of range")))
}

fn eval_pos(args: &[Expr], env: &Env) -> Result<Value> {
    let (r, c) = (args[0].int(env)?, args[1].int(env)?);
    Ok(Value::Pos(Pos::new(coordinate(r)?, coordinate(c)?)))
}

pub const NEIGHBOURS: Builtin = Builtin {
    name: "neighbours",
    forms: &[
        Form { call: "neighbours(p)", result: "list of positions", meaning: "The four edge neighbours of `p`: above, left, right, below." },
        Form {
            call: "neighbours(hex)",
            result: "list of hexes",
            meaning: "The hexes next to a hex (a row of a table with a hex geometry), clockwise from the one above; at the edge of the map, fewer than 6.",
        },
    ],
    lower: lower_neighbours,
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_neighbours(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[1]) {
        return nothing();
    }
    let (p, ty) = c.compile(&site.args[0], site.scope);
    if let Type::Row(_) = ty {
        super::geometry::hex_table(c, site, 0, &ty);
        return (
            site.call(super::geometry::eval_hex_neighbours, vec![p]),
            Type::List(Box::new(ty)),
        );
    }
    if !Type::Pos.accepts(&ty) {
        let message = format!(
            "expected {}, found {}",
            c.type_name(&Type::Pos),
            c.type_name(&ty)
        );
        c.report(site.args[0].span, message);
    }
    (site.call(eval_neighbours, vec![p]), positions())
}

fn eval_neighbours(args: &[Expr], env: &Env) -> Result<Value> {
    Ok(pos_list(as_pos(&args[0].eval(env)?)?.neighbours()))
}

pub const ROTATE: Builtin = Builtin {
    name: "rotate",
    forms: &[
        Form { call: "rotate(piece, n)", result: "list of rows", meaning: "A piece (list of rows) turned clockwise by `n` quarter turns (negative: anticlockwise). `rotate(piece, 2)` is the half turn." },
    ],
    lower: lower_rotate,
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_rotate(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[2]) {
        return nothing();
    }
    let (piece, ty) = c.compile(&site.args[0], site.scope);
    let turns = c.expect(&site.args[1], site.scope, &Type::Int);
    if !matches!(&ty, Type::List(row) if matches!(**row, Type::List(_) | Type::Any))
        && ty != Type::Any
    {
        let message = format!(
            "rotate needs a list of rows (lists), found {}",
            c.type_name(&ty)
        );
        c.report(site.args[0].span, message);
    }
    (site.call(eval_rotate, vec![piece, turns]), ty)
}

fn eval_rotate(args: &[Expr], env: &Env) -> Result<Value> {
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
