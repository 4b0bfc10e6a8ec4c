//! Built-ins over the rows of a table with a hex `geometry:` (`hex.rs`): `components`,
//! `lines`, `on_edge`, `distance`, and `neighbours` of a hex (the `neighbours` of a board
//! position is in `board.rs`; one entry serves both).

use std::ops::ControlFlow::Continue;

use super::{Builtin, CallSite, Form};
use crate::eval::{Env, Result, RuntimeError};
use crate::hex::HexTable;
use crate::ir::Expr;
use crate::load::{nothing, Compiled, Compiler};
use crate::value::{TableId, Type, Value};

fn hexes_of(ty: &Type) -> Type {
    Type::List(Box::new(ty.clone()))
}

/// Checks that `ty` is a row of a table with a hex geometry, reporting at `arg` otherwise.
pub(super) fn hex_table(
    c: &mut Compiler,
    site: &CallSite,
    arg: usize,
    ty: &Type,
) -> Option<TableId> {
    match ty {
        Type::Row(t) if c.decls.tables[t.index()].hex => Some(*t),
        Type::Any => None,
        other => {
            let message = format!(
                "{} needs a row of a table with a hex geometry, found {}",
                site.name(),
                c.type_name(other)
            );
            c.report(site.args[arg].span, message);
            None
        }
    }
}

/// Like [`hex_table`], for a built-in that needs coordinates (not listed neighbours).
fn hex_coordinates(c: &mut Compiler, site: &CallSite, arg: usize, ty: &Type) {
    if let Some(t) = hex_table(c, site, arg, ty) {
        if !c.decls.tables[t.index()].coordinates {
            let table = &c.decls.tables[t.index()].name;
            let message = format!(
                "{} needs hex coordinates, and {table} only lists its neighbours",
                site.name()
            );
            c.report(site.args[arg].span, message);
        }
    }
}

/// The hexes of the table that `t` belongs to.
fn geometry<'e>(env: &Env<'e>, t: TableId) -> Result<&'e HexTable> {
    env.game.tables[t.index()]
        .geometry
        .as_ref()
        .ok_or_else(|| RuntimeError::new("the table has no hex geometry"))
}

/// A hex: its table and row.
fn hex(v: &Value) -> Result<(TableId, u16)> {
    match v {
        Value::Row(t, r) => Ok((*t, *r)),
        _ => Err(RuntimeError::new("expected a hex, found none")),
    }
}

/// The rows of a list of hexes of table `t`.
fn rows_of(arg: &Expr, env: &Env) -> Result<(Option<TableId>, Vec<u16>)> {
    let (mut table, mut rows) = (None, Vec::new());
    arg.each(env, |v| {
        let (t, r) = hex(v)?;
        table = Some(t);
        rows.push(r);
        Ok(Continue(()))
    })?;
    Ok((table, rows))
}

pub(super) fn eval_hex_neighbours(args: &[Expr], env: &Env) -> Result<Value> {
    let (t, r) = hex(&args[0].eval(env)?)?;
    let g = geometry(env, t)?;
    Ok(Value::list(
        g.neighbours[r as usize]
            .iter()
            .map(|n| Value::Row(t, *n))
            .collect(),
    ))
}

pub const COMPONENTS: Builtin = Builtin {
    name: "components",
    forms: &[Form {
        call: "components(hexes)",
        result: "list of lists of hexes",
        meaning: "The groups of the hexes (rows of a table with a hex geometry) connected through neighbours among them, largest first; equal sizes in the order of their first hex.",
    }],
    lower: lower_components,
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_components(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[1]) {
        return nothing();
    }
    let (cells, elem) = c.list_arg(&site.args[0], site.scope);
    hex_table(c, site, 0, &elem);
    (
        site.call(eval_components, vec![cells]),
        hexes_of(&hexes_of(&elem)),
    )
}

fn eval_components(args: &[Expr], env: &Env) -> Result<Value> {
    groups_of(args, env, HexTable::components)
}

/// The groups `find` makes of the hexes of `args[0]`, as lists of rows.
fn groups_of(
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

pub const LINES: Builtin = Builtin {
    name: "lines",
    forms: &[Form {
        call: "lines(hexes)",
        result: "list of lists of hexes",
        meaning: "The straight lines of the hexes: the longest runs of at least 2, each the next one's neighbour in one direction, along the three axes; by axis, then by where their first hex stands.",
    }],
    lower: lower_lines,
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_lines(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[1]) {
        return nothing();
    }
    let (cells, elem) = c.list_arg(&site.args[0], site.scope);
    hex_coordinates(c, site, 0, &elem);
    (
        site.call(eval_lines, vec![cells]),
        hexes_of(&hexes_of(&elem)),
    )
}

fn eval_lines(args: &[Expr], env: &Env) -> Result<Value> {
    groups_of(args, env, HexTable::lines)
}

pub const ON_EDGE: Builtin = Builtin {
    name: "on_edge",
    forms: &[
        Form { call: "on_edge(hex)", result: "bool", meaning: "Whether the hex has fewer than 6 neighbours in its table: it lies on the edge of the map." },
        Form {
            call: "on_edge(hex, hexes)",
            result: "bool",
            meaning: "Whether the hex has fewer than 6 neighbours among `hexes` (the part of the map in play).",
        },
    ],
    lower: lower_on_edge,
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_on_edge(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[1, 2]) {
        return nothing();
    }
    let (h, ty) = c.compile(&site.args[0], site.scope);
    hex_coordinates(c, site, 0, &ty);
    let mut args = vec![h];
    if site.args.len() == 2 {
        args.push(c.expect(&site.args[1], site.scope, &hexes_of(&ty)));
    }
    (site.call(eval_on_edge, args), Type::Bool)
}

fn eval_on_edge(args: &[Expr], env: &Env) -> Result<Value> {
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

pub const DISTANCE: Builtin = Builtin {
    name: "distance",
    forms: &[Form {
        call: "distance(a, b)",
        result: "int",
        meaning: "The number of steps from hex `a` to hex `b`: through any hexes on a hex grid, through the table's rows on a map that lists neighbours (an error when no path joins them).",
    }],
    lower: lower_distance,
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_distance(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[2]) {
        return nothing();
    }
    let (a, ty) = c.compile(&site.args[0], site.scope);
    hex_table(c, site, 0, &ty);
    let b = c.expect(&site.args[1], site.scope, &ty);
    (site.call(eval_distance, vec![a, b]), Type::Int)
}

fn eval_distance(args: &[Expr], env: &Env) -> Result<Value> {
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
