//! `knows`: whether a player sees an element where it lies; its compile half (run half:
//! `eval/knowledge.rs`).

use super::{call, nothing, Builtin, Compiled, Form, Lowering};
use crate::ir::Op;
use crate::value::Type;

pub const KNOWS: Builtin = Builtin {
    name: "knows",
    forms: &[Form {
        call: "knows(p, x)",
        result: "bool",
        meaning: "Whether player `p` sees row `x` where it lies (in any of its places, when zones hold it more than once): its zone's visibility shows it, its `visible_if` holds for `p`, or a `reveal` showed it to `p` since it last moved. False when `x` is in no zone.",
    }],
    lower: lower_knows,
    ops: &[Op::Knows],
    reduce: None,
    // Reads the zones.
    pure: false,
    unroll: None,
};

fn lower_knows(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[2]) {
        return nothing();
    }
    let p = c.expect(0, &Type::Player);
    let (x, ty) = c.compile(1);
    if !matches!(ty, Type::Row(_) | Type::Any) {
        let message = format!("knows needs a row of a table, found {}", c.type_name(&ty));
        c.report(c.arg_span(1), message);
    }
    (call(Op::Knows, vec![p, x]), Type::Bool)
}
