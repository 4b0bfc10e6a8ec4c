//! Built-ins over seats (`next_player`, `seats_from`): their compile halves. Their run
//! halves are in `eval/list.rs`.

use super::list::list_of;
use super::{call, nothing, Builtin, Compiled, Form, Lowering};
use crate::ir::{Expr, Op};
use crate::value::Type;

pub const NEXT_PLAYER: Builtin = Builtin {
    name: "next_player",
    forms: &[
        Form { call: "next_player(p)", result: "player", meaning: "The player after `p` in seat order; after the last comes the first." },
        Form {
            call: "next_player(p, cond)",
            result: "player",
            meaning: "The first player after `p` in seat order who meets `cond` (per element), `p` itself last; `none` if nobody does: `next_player(active, q => not eliminated[q])`.",
        },
    ],
    lower: lower_next_player,
    ops: &[Op::NextPlayer, Op::NextPlayerIf],
    reduce: None,
    // Depends on how many play.
    pure: false,
    unroll: None,
};

fn lower_next_player(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[1, 2]) {
        return nothing();
    }
    let p = c.expect(0, &Type::Player);
    if c.arg_count() == 1 {
        return (call(Op::NextPlayer, vec![p]), Type::Player);
    }
    let cond = seat_condition(c);
    (call(Op::NextPlayerIf, vec![p, cond]), Type::Player)
}

/// The condition of `next_player(p, cond)` and `seats_from(p, cond)`: true/false per seat.
fn seat_condition(c: &mut dyn Lowering) -> Expr {
    let (cond, ty) = c.per_element(1, &Type::Player);
    if !Type::Bool.accepts(&ty) {
        let message = format!(
            "the condition of {} must be true/false, found {}",
            c.name(),
            c.type_name(&ty)
        );
        c.report(c.arg_span(1), message);
    }
    cond
}

pub const SEATS_FROM: Builtin = Builtin {
    name: "seats_from",
    forms: &[
        Form { call: "seats_from(p)", result: "list of players", meaning: "Every player in seat order starting with `p`: the order of a round that `p` begins." },
        Form {
            call: "seats_from(p, cond)",
            result: "list of players",
            meaning: "The players of `seats_from(p)` who meet `cond` (per element): `seats_from(active, q => not eliminated[q])`.",
        },
    ],
    lower: lower_seats_from,
    ops: &[Op::SeatsFrom],
    reduce: None,
    pure: false,
    unroll: None,
};

fn lower_seats_from(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[1, 2]) {
        return nothing();
    }
    let mut args = vec![c.expect(0, &Type::Player)];
    if c.arg_count() == 2 {
        args.push(seat_condition(c));
    }
    (call(Op::SeatsFrom, args), list_of(Type::Player))
}
