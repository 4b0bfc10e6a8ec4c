//! Built-ins over text and numbers (`abs`, `text`, `colour`, `pad`): their compile
//! halves. Their run halves are in `eval/list.rs`.

use super::{call, nothing, Builtin, Compiled, Form, Lowering};
use crate::ir::Op;
use crate::value::Type;

pub const ABS: Builtin = Builtin {
    name: "abs",
    forms: &[Form {
        call: "abs(n)",
        result: "int",
        meaning: "The absolute value.",
    }],
    lower: lower_abs,
    ops: &[Op::Abs],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_abs(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[1]) {
        return nothing();
    }
    let x = c.expect(0, &Type::Int);
    (call(Op::Abs, vec![x]), Type::Int)
}

pub const TEXT: Builtin = Builtin {
    name: "text",
    forms: &[
        Form { call: "text(a, b, …)", result: "str", meaning: "One or more values of any type, each written as a [template](#templates) writes it (a player's name, a row's id, a list space-separated), joined with nothing in between: `text(it, \":\", money[it])` is `red:12`. For labels and `display` lines." },
    ],
    lower: lower_text,
    ops: &[Op::Text],
    reduce: None,
    // Players read by their names, which belong to the game being played.
    pure: false,
    unroll: None,
};

fn lower_text(c: &mut dyn Lowering) -> Compiled {
    if c.arg_count() == 0 {
        return c.error(c.span(), "text needs at least one value".into());
    }
    let count = c.arg_count();
    let parts = (0..count).map(|i| c.compile(i).0).collect();
    (call(Op::Text, parts), Type::Str)
}

pub const COLOUR: Builtin = Builtin {
    name: "colour",
    forms: &[Form {
        call: "colour(v, name)",
        result: "str",
        meaning: "`v` written as `text` writes it, in the colour `name` (`red`, `bright_blue`, … as for a board's `cell_colour`) where a `display` line is shown on a terminal; plain everywhere else (labels, logs, `NO_COLOR`). `pad` counts only the visible characters.",
    }],
    lower: lower_colour,
    ops: &[Op::Colour],
    reduce: None,
    pure: false,
    unroll: None,
};

fn lower_colour(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[2]) {
        return nothing();
    }
    let v = c.compile(0).0;
    let name = c.expect(1, &Type::Str);
    (call(Op::Colour, vec![v, name]), Type::Str)
}

pub const PAD: Builtin = Builtin {
    name: "pad",
    forms: &[Form {
        call: "pad(v, width)",
        result: "str",
        meaning: "`v` written as `text` writes it, with spaces after it up to `width` characters (for columns in `display` lines).",
    }],
    lower: lower_pad,
    ops: &[Op::Pad],
    reduce: None,
    pure: false,
    unroll: None,
};

fn lower_pad(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[2]) {
        return nothing();
    }
    let v = c.compile(0).0;
    let width = c.expect(1, &Type::Int);
    (call(Op::Pad, vec![v, width]), Type::Str)
}
