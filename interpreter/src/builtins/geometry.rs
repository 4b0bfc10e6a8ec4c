//! Built-ins over hex maps (tables with a geometry): their compile halves (run halves:
//! `eval/geometry.rs`).

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
                "{} needs a row of a table with a hex geometry, found {}",
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
                "{} needs hex coordinates, and {table} only lists its neighbours",
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
    forms: &[Form {
        call: "lines(hexes)",
        result: "list of lists of hexes",
        meaning: "The straight lines of the hexes: the longest runs of at least 2, each the next one's neighbour in one direction, along the three axes; by axis, then by where their first hex stands.",
    }],
    lower: lower_lines,
    ops: &[Op::Lines],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_lines(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[1]) {
        return nothing();
    }
    let (cells, elem) = c.list_arg(0);
    hex_coordinates(c, 0, &elem);
    (call(Op::Lines, vec![cells]), hexes_of(&hexes_of(&elem)))
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
