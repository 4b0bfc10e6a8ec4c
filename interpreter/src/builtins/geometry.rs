//! Built-ins over maps (tables with a geometry: hexes, squares, listed neighbours):
//! their compile halves (run halves: `eval/geometry.rs`).

use super::{call, nothing, Builtin, Compiled, Form, Lowering};
use crate::ir::Op;
use crate::value::{TableId, Type};

fn hexes_of(ty: &Type) -> Type {
    Type::List(Box::new(ty.clone()))
}

/// Checks that `ty` is a row of a table with a hex geometry, reporting at `arg` otherwise.
pub(super) fn hex_table(c: &mut dyn Lowering, arg: usize, ty: &Type) -> Option<TableId> {
    match ty {
        Type::Row(t) if c.is_hex_table(*t) => Some(*t),
        Type::Any => None,
        other => {
            let message = format!(
                "{} needs a row of a table with a geometry (a grid, hexes or listed neighbours), found {}",
                c.name(),
                c.type_name(other)
            );
            c.report(c.arg_span(arg), message);
            None
        }
    }
}

/// Like [`hex_table`], for a built-in that needs coordinates (not listed neighbours).
fn hex_coordinates(c: &mut dyn Lowering, arg: usize, ty: &Type) {
    if let Some(t) = hex_table(c, arg, ty) {
        if !c.has_coordinates(t) {
            let table = c.table_name(t);
            let message = format!(
                "{} needs coordinates, and {table} only lists its neighbours",
                c.name()
            );
            c.report(c.arg_span(arg), message);
        }
    }
}

pub const COMPONENTS: Builtin = Builtin {
    name: "components",
    forms: &[Form {
        call: "components(hexes)",
        result: "list of lists of hexes",
        meaning: "The groups of the hexes (rows of a table with a hex geometry) connected through neighbours among them, largest first; equal sizes in the order of their first hex.",
    }],
    lower: lower_components,
    ops: &[Op::Components],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_components(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[1]) {
        return nothing();
    }
    let (cells, elem) = c.list_arg(0);
    hex_table(c, 0, &elem);
    (
        call(Op::Components, vec![cells]),
        hexes_of(&hexes_of(&elem)),
    )
}

pub const LINES: Builtin = Builtin {
    name: "lines",
    forms: &[
        Form {
            call: "lines(hexes)",
            result: "list of lists of hexes",
            meaning: "The straight lines of the cells (hexes or squares): the longest runs of at least 2, each the next one's neighbour in one direction, along each axis (hexes: down, lower right, upper right; squares: right, up, and with 8 neighbours up right and down right); by axis, then by where their first cell stands.",
        },
        Form {
            call: "lines(cells, k)",
            result: "list of lists of cells",
            meaning: "Every run of exactly `k` of the cells along an axis, in the order of the lines, then of where each run starts: `lines(cells, 4)` of a 7 × 6 grid with 8 neighbours are its 69 fours in a row.",
        },
    ],
    lower: lower_lines,
    ops: &[Op::Lines],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_lines(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[1, 2]) {
        return nothing();
    }
    let (cells, elem) = c.list_arg(0);
    hex_coordinates(c, 0, &elem);
    let mut args = vec![cells];
    if c.arg_count() == 2 {
        args.push(c.expect(1, &Type::Int));
    }
    (call(Op::Lines, args), hexes_of(&hexes_of(&elem)))
}

/// `at(cells, x, y)`: the form of `at` over a map with coordinates.
pub(super) fn lower_cell_at(c: &mut dyn Lowering) -> Compiled {
    let (cells, elem) = c.list_arg(0);
    hex_coordinates(c, 0, &elem);
    let x = c.expect(1, &Type::Int);
    let y = c.expect(2, &Type::Int);
    (call(Op::CellAt, vec![cells, x, y]), elem)
}

pub const STEP: Builtin = Builtin {
    name: "step",
    forms: &[Form {
        call: "step(cell, d)",
        result: "cell or none",
        meaning: "The cell next to `cell` in direction `d`, or `none` past the edge. Directions count clockwise from 0, the cell above: 0 to 7 on a grid with 8 neighbours (up, up right, right, down right, down, down left, left, up left), 0 to 3 with 4 (up, right, down, left), 0 to 5 on hexes; another `d` is an error.",
    }],
    lower: lower_step,
    ops: &[Op::Step],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_step(c: &mut dyn Lowering) -> Compiled {
    lower_cell_and_direction(c, Op::Step, |cell| cell.clone())
}

/// `step(cell, d)` and `ray(cell, d)`: a cell of a map with coordinates and a direction;
/// `result` is the call's type from the cell's.
fn lower_cell_and_direction(c: &mut dyn Lowering, op: Op, result: fn(&Type) -> Type) -> Compiled {
    if !c.arity(&[2]) {
        return nothing();
    }
    let (cell, ty) = c.compile(0);
    hex_coordinates(c, 0, &ty);
    let d = c.expect(1, &Type::Int);
    (call(op, vec![cell, d]), result(&ty))
}

pub const RAY: Builtin = Builtin {
    name: "ray",
    forms: &[Form {
        call: "ray(cell, d)",
        result: "list of cells",
        meaning: "The cells from `cell` (left out) in direction `d` (as `step` counts them) up to the edge, nearest first: a rook's or a bishop's line of sight.",
    }],
    lower: lower_ray,
    ops: &[Op::Ray],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_ray(c: &mut dyn Lowering) -> Compiled {
    lower_cell_and_direction(c, Op::Ray, hexes_of)
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
    ops: &[Op::OnEdge],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_on_edge(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[1, 2]) {
        return nothing();
    }
    let (h, ty) = c.compile(0);
    hex_coordinates(c, 0, &ty);
    let mut args = vec![h];
    if c.arg_count() == 2 {
        args.push(c.expect(1, &hexes_of(&ty)));
    }
    (call(Op::OnEdge, args), Type::Bool)
}

pub const DISTANCE: Builtin = Builtin {
    name: "distance",
    forms: &[Form {
        call: "distance(a, b)",
        result: "int",
        meaning: "The number of steps from hex `a` to hex `b`: through any hexes on a hex grid, through the table's rows on a map that lists neighbours (an error when no path joins them).",
    }],
    lower: lower_distance,
    ops: &[Op::Distance],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_distance(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[2]) {
        return nothing();
    }
    let (a, ty) = c.compile(0);
    hex_table(c, 0, &ty);
    let b = c.expect(1, &ty);
    (call(Op::Distance, vec![a, b]), Type::Int)
}
