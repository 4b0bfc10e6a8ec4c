//! Built-ins over square boards: their compile halves (run halves: `eval/board.rs`).

use super::{call, nothing, Builtin, Compiled, Form, Lowering};
use crate::ir::{Expr, Op};
use crate::value::Type;

fn positions() -> Type {
    Type::List(Box::new(Type::Pos))
}

/// `f(board, …)` with `arity` arguments: the board argument lowered, or nothing.
fn lower_board(c: &mut dyn Lowering, arity: usize) -> Option<(Expr, crate::value::Element)> {
    if !c.arity(&[arity]) {
        return None;
    }
    c.board_read(0).map(|b| {
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
    lower: |c| match lower_board(c, 1) {
        Some((b, _)) => (call(Op::Cells, vec![b]), positions()),
        None => nothing(),
    },
    ops: &[Op::Cells],
    reduce: None,
    pure: false,
    unroll: None,
};

pub const HOLES: Builtin = Builtin {
    name: "holes",
    forms: &[
        Form { call: "holes(board)", result: "list of positions", meaning: "The empty cells the board encloses: inside the rectangle of occupied cells and not connected to its outside through empty cells (edge steps). A board whose rectangle spans more than 1,000,000 cells is a runtime error." },
    ],
    lower: |c| match lower_board(c, 1) {
        Some((b, _)) => (call(Op::Holes, vec![b]), positions()),
        None => nothing(),
    },
    ops: &[Op::Holes],
    reduce: None,
    pure: false,
    unroll: None,
};

pub const AT: Builtin = Builtin {
    name: "at",
    forms: &[
        Form {
            call: "at(board, p)",
            result: "element",
            meaning: "The element at `p`, or `none` if the cell is empty.",
        },
        Form {
            call: "at(cells, x, y)",
            result: "cell",
            meaning: "The row of a map with coordinates (a `grid:` table, or a table with a square or hex geometry) at column `x`, row `y`; an error where the map has none (off a grid).",
        },
    ],
    lower: lower_at,
    ops: &[Op::At, Op::CellAt],
    reduce: None,
    pure: false,
    unroll: None,
};

fn lower_at(c: &mut dyn Lowering) -> Compiled {
    if c.arg_count() == 3 {
        return super::geometry::lower_cell_at(c);
    }
    let Some((b, of)) = lower_board(c, 2) else {
        return nothing();
    };
    let p = c.expect(1, &Type::Pos);
    (call(Op::At, vec![b, p]), of.value_type())
}

pub const GROUPS: Builtin = Builtin {
    name: "groups",
    forms: &[
        Form { call: "groups(board, cond)", result: "list of lists of positions", meaning: "The edge-connected groups of the cells whose element satisfies `cond` (per element: `it` is the element), largest first; equal sizes in reading order of their first cell. `len(first(groups(town[p], it.terrain == t)))` is the size of the largest group (0 when there is none)." },
    ],
    lower: lower_groups,
    ops: &[Op::Groups],
    reduce: None,
    pure: false,
    unroll: None,
};

fn lower_groups(c: &mut dyn Lowering) -> Compiled {
    let Some((b, of)) = lower_board(c, 2) else {
        return nothing();
    };
    let (pred, ty) = c.per_element(1, &of.value_type());
    if !Type::Bool.accepts(&ty) {
        let message = format!(
            "expected {}, found {}",
            c.type_name(&Type::Bool),
            c.type_name(&ty)
        );
        c.report(c.arg_span(1), message);
    }
    (
        call(Op::Groups, vec![b, pred]),
        Type::List(Box::new(positions())),
    )
}

pub const PLACEMENTS: Builtin = Builtin {
    name: "placements",
    forms: &[
        Form { call: "placements(board, rows, cols)", result: "list of positions", meaning: "The top-left positions where a `rows` × `cols` piece may go: on an empty board `(0,0)` only; otherwise every position where the piece covers at least one occupied cell or shares an edge with one (a corner is not enough). Reading order. Sizes go from 1 to 64." },
    ],
    lower: lower_placements,
    ops: &[Op::Placements],
    reduce: None,
    pure: false,
    unroll: None,
};

fn lower_placements(c: &mut dyn Lowering) -> Compiled {
    let Some((b, _)) = lower_board(c, 3) else {
        return nothing();
    };
    let rows = c.expect(1, &Type::Int);
    let cols = c.expect(2, &Type::Int);
    (call(Op::Placements, vec![b, rows, cols]), positions())
}

pub const POS: Builtin = Builtin {
    name: "pos",
    forms: &[Form {
        call: "pos(row, col)",
        result: "position",
        meaning: "The position; `p.row` and `p.col` read it back. Written `(row,col)` in labels.",
    }],
    lower: lower_pos,
    ops: &[Op::Pos],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_pos(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[2]) {
        return nothing();
    }
    let row = c.expect(0, &Type::Int);
    let col = c.expect(1, &Type::Int);
    (call(Op::Pos, vec![row, col]), Type::Pos)
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
    ops: &[Op::Neighbours, Op::HexNeighbours],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_neighbours(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[1]) {
        return nothing();
    }
    let (p, ty) = c.compile(0);
    if let Type::Row(_) = ty {
        super::geometry::hex_table(c, 0, &ty);
        return (call(Op::HexNeighbours, vec![p]), Type::List(Box::new(ty)));
    }
    if !Type::Pos.accepts(&ty) {
        let message = format!(
            "expected {}, found {}",
            c.type_name(&Type::Pos),
            c.type_name(&ty)
        );
        c.report(c.arg_span(0), message);
    }
    (call(Op::Neighbours, vec![p]), positions())
}

pub const ROTATE: Builtin = Builtin {
    name: "rotate",
    forms: &[
        Form { call: "rotate(piece, n)", result: "list of rows", meaning: "A piece (list of rows) turned clockwise by `n` quarter turns (negative: anticlockwise). `rotate(piece, 2)` is the half turn." },
    ],
    lower: lower_rotate,
    ops: &[Op::Rotate],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_rotate(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[2]) {
        return nothing();
    }
    let (piece, ty) = c.compile(0);
    let turns = c.expect(1, &Type::Int);
    if !matches!(&ty, Type::List(row) if matches!(**row, Type::List(_) | Type::Any))
        && ty != Type::Any
    {
        let message = format!(
            "rotate needs a list of rows (lists), found {}",
            c.type_name(&ty)
        );
        c.report(c.arg_span(0), message);
    }
    (call(Op::Rotate, vec![piece, turns]), ty)
}
