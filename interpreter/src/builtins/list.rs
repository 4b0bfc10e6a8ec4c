//! Built-ins over lists: their compile halves. A zone named as the list argument of
//! `len`, `count`, `first`, `last`, `contains` and `index_of` is read where it lies
//! (`reduce`). Their run halves are in `eval/list.rs`.

// The IR reductions are reached here too, where the optimizer looks for them.
pub(crate) use super::reduce::{count_test, rows_where};
use super::{call, nothing, Builtin, Compiled, Form, Lowering};
use crate::ir::{Expr, Op, Quantifier, Total, Unroll};
use crate::value::{Type, Value};

pub(super) fn list_of(ty: Type) -> Type {
    Type::List(Box::new(ty))
}

pub const LEN: Builtin = Builtin {
    name: "len",
    forms: &[Form {
        call: "len(list)",
        result: "int",
        meaning: "The number of elements.",
    }],
    lower: lower_len,
    ops: &[Op::Len],
    reduce: Some(|args| match args {
        [Expr::Zone(z)] => Some(Expr::ZoneLen(z.clone())),
        [Expr::Players] => Some(Expr::PlayerCount),
        // The length of a filtered list is a count: no list is built.
        [Expr::Filter { list, cond }] => Some(Expr::Call {
            op: Op::CountIf,
            args: vec![(**list).clone(), (**cond).clone()],
        }),
        _ => None,
    }),
    pure: true,
    unroll: None,
};

fn lower_len(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[1]) {
        return nothing();
    }
    let (l, _) = c.list_arg(0);
    (call(Op::Len, vec![l]), Type::Int)
}

pub const COUNT: Builtin = Builtin {
    name: "count",
    forms: &[
        Form {
            call: "count(list)",
            result: "int",
            meaning: "The same as `len`.",
        },
        Form {
            call: "count(list, x)",
            result: "int",
            meaning: "How many elements equal `x`.",
        },
    ],
    lower: lower_count,
    ops: &[Op::CountAll, Op::Count],
    reduce: Some(|args| match args {
        [Expr::Zone(z)] => Some(Expr::ZoneLen(z.clone())),
        [Expr::Zone(z), x] => Some(Expr::ZoneCount(z.clone(), x.clone().boxed())),
        _ => None,
    }),
    pure: true,
    unroll: None,
};

fn lower_count(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[1, 2]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(0);
    if c.arg_count() == 1 {
        return (call(Op::CountAll, vec![l]), Type::Int);
    }
    let x = c.expect(1, &elem);
    (call(Op::Count, vec![l, x]), Type::Int)
}

/// `f(list, condition)`: the list and the condition as a lambda, checked to be true/false.
fn lower_condition(c: &mut dyn Lowering) -> Option<(Expr, Expr, Type)> {
    if !c.arity(&[2]) {
        return None;
    }
    let (l, elem) = c.list_arg(0);
    let (pred, pred_ty) = c.per_element(1, &elem);
    if !Type::Bool.accepts(&pred_ty) {
        let message = format!(
            "the condition of {} must be true/false, found {}",
            c.name(),
            c.type_name(&pred_ty)
        );
        c.report(c.arg_span(1), message);
    }
    Some((l, pred, elem))
}

pub const COUNT_IF: Builtin = Builtin {
    name: "count_if",
    forms: &[Form {
        call: "count_if(list, cond)",
        result: "int",
        meaning: "How many elements satisfy `cond` (per element).",
    }],
    lower: |c| match lower_condition(c) {
        Some((l, pred, _)) => (call(Op::CountIf, vec![l, pred]), Type::Int),
        None => nothing(),
    },
    ops: &[Op::CountIf],
    reduce: Some(|args| {
        let (rows, cond) = rows_where(&args[0], &args[1])?;
        Some(Expr::Call {
            op: Op::CountIf,
            args: vec![rows, cond],
        })
    }),
    pure: true,
    unroll: Some(Unroll::Total(Total::Count)),
};

pub const FILTER: Builtin = Builtin {
    name: "filter",
    forms: &[Form {
        call: "filter(list, cond)",
        result: "list",
        meaning: "The elements that satisfy `cond` (per element), in order.",
    }],
    lower: |c| match lower_condition(c) {
        Some((l, pred, elem)) => (
            Expr::Filter {
                list: l.boxed(),
                cond: pred.boxed(),
            },
            list_of(elem),
        ),
        None => nothing(),
    },
    ops: &[],
    reduce: None,
    pure: true,
    unroll: None,
};

pub const ANY: Builtin = Builtin {
    name: "any",
    forms: &[Form {
        call: "any(list, cond)",
        result: "bool",
        meaning: "Whether some element satisfies `cond` (per element); false for an empty list.",
    }],
    lower: |c| match lower_condition(c) {
        Some((l, pred, _)) => (call(Op::Any, vec![l, pred]), Type::Bool),
        None => nothing(),
    },
    ops: &[Op::Any],
    reduce: Some(|args| {
        let (rows, cond) = rows_where(&args[0], &args[1])?;
        Some(Expr::Call {
            op: Op::Any,
            args: vec![rows, cond],
        })
    }),
    pure: true,
    unroll: Some(Unroll::Test(Quantifier::Any)),
};

pub const FIND: Builtin = Builtin {
    name: "find",
    forms: &[Form {
        call: "find(list, cond)",
        result: "element or none",
        meaning: "The first element that satisfies `cond` (per element), or `none` when none does; a list of players or rows.",
    }],
    lower: lower_find,
    ops: &[Op::Find],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_find(c: &mut dyn Lowering) -> Compiled {
    let Some((l, pred, elem)) = lower_condition(c) else {
        return nothing();
    };
    if !matches!(elem, Type::Player | Type::Row(_) | Type::Any) {
        let message = format!(
            "find gives none when no element holds, so it takes a list of players or rows, not of {}",
            c.type_name(&elem)
        );
        c.report(c.arg_span(0), message);
    }
    (call(Op::Find, vec![l, pred]), elem)
}

pub const ALL: Builtin = Builtin {
    name: "all",
    forms: &[Form {
        call: "all(list, cond)",
        result: "bool",
        meaning: "Whether every element satisfies `cond` (per element); true for an empty list.",
    }],
    lower: |c| match lower_condition(c) {
        Some((l, pred, _)) => (call(Op::All, vec![l, pred]), Type::Bool),
        None => nothing(),
    },
    ops: &[Op::All],
    reduce: None,
    pure: true,
    unroll: Some(Unroll::Test(Quantifier::All)),
};

pub const MAP: Builtin = Builtin {
    name: "map",
    forms: &[Form {
        call: "map(list, expr)",
        result: "list",
        meaning: "`expr` (per element) for each element.",
    }],
    lower: lower_map,
    ops: &[Op::Map],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_map(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[2]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(0);
    let (f, out) = c.per_element(1, &elem);
    (call(Op::Map, vec![l, f]), list_of(out))
}

pub const SORT_BY: Builtin = Builtin {
    name: "sort_by",
    forms: &[
        Form { call: "sort_by(list, key)", result: "list", meaning: "The elements by increasing number `key` (per element). The sort is stable: equal keys keep their order. Sort by `-key` for decreasing order." },
    ],
    lower: lower_sort_by,
    ops: &[Op::SortBy],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_sort_by(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[2]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(0);
    let (key, key_ty) = c.per_element(1, &elem);
    if !Type::Int.accepts(&key_ty) {
        let message = format!(
            "sort_by needs a number as key, found {}",
            c.type_name(&key_ty)
        );
        c.report(c.arg_span(1), message);
    }
    (call(Op::SortBy, vec![l, key]), list_of(elem))
}

pub const SUM: Builtin = Builtin {
    name: "sum",
    forms: &[
        Form {
            call: "sum(list)",
            result: "int",
            meaning: "The total of a list of numbers; 0 for an empty list.",
        },
        Form {
            call: "sum(list, expr)",
            result: "int",
            meaning: "The total of the number `expr` (per element).",
        },
    ],
    lower: lower_sum,
    ops: &[Op::Sum, Op::SumOf],
    reduce: None,
    pure: true,
    unroll: Some(Unroll::Total(Total::Sum)),
};

fn lower_sum(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[1, 2]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(0);
    if c.arg_count() == 1 {
        if !Type::Int.accepts(&elem) {
            let message = format!("sum needs numbers, found {}", c.type_name(&elem));
            c.report(c.arg_span(0), message);
        }
        return (call(Op::Sum, vec![l]), Type::Int);
    }
    let (key, key_ty) = c.per_element(1, &elem);
    if !Type::Int.accepts(&key_ty) {
        let message = format!(
            "sum needs a number per element, found {}",
            c.type_name(&key_ty)
        );
        c.report(c.arg_span(1), message);
    }
    (call(Op::SumOf, vec![l, key]), Type::Int)
}

pub const MIN: Builtin = Builtin {
    name: "min",
    forms: &[
        Form { call: "min(list)", result: "int", meaning: "The smallest number of a list; 0 for an empty list." },
        Form { call: "min(list, key)", result: "int", meaning: "The smallest number `key` (per element); 0 for an empty list: `min(players, p => money[p])`." },
        Form { call: "min(a, b, …)", result: "int", meaning: "The smallest of two or more numbers." },
    ],
    lower: lower_min_max,
    ops: &[Op::MinOf, Op::MinOfList, Op::Min],
    reduce: None,
    pure: true,
    unroll: None,
};

pub const MAX: Builtin = Builtin {
    name: "max",
    forms: &[
        Form {
            call: "max(list)",
            result: "int",
            meaning: "The largest number of a list; 0 for an empty list.",
        },
        Form {
            call: "max(list, key)",
            result: "int",
            meaning: "The largest number `key` (per element); 0 for an empty list.",
        },
        Form {
            call: "max(a, b, …)",
            result: "int",
            meaning: "The largest of two or more numbers.",
        },
    ],
    lower: lower_min_max,
    ops: &[Op::MaxOf, Op::MaxOfList, Op::Max],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_min_max(c: &mut dyn Lowering) -> Compiled {
    let f = c.name();
    if c.arg_count() == 0 {
        return c.error(
            c.span(),
            format!("{f} needs a list or at least two numbers"),
        );
    }
    let is_max = f == "max";
    let (first, first_ty) = c.compile(0);
    match (&first_ty, c.arg_count()) {
        (_, 1) => {
            match &first_ty {
                Type::List(elem) if !Type::Int.accepts(elem) => {
                    let message = format!("{f} needs numbers, found {}", c.type_name(elem));
                    c.report(c.arg_span(0), message);
                }
                Type::List(_) | Type::Any => {}
                other => {
                    let message = format!("expected a list, found {}", c.type_name(other));
                    c.report(c.arg_span(0), message);
                }
            }
            let eval = if is_max { Op::MaxOfList } else { Op::MinOfList };
            (call(eval, vec![first]), Type::Int)
        }
        // A list and a number per element.
        (Type::List(elem), 2) => {
            let elem = (**elem).clone();
            let (key, key_ty) = c.per_element(1, &elem);
            if !Type::Int.accepts(&key_ty) {
                let message = format!(
                    "{f} needs a number per element, found {}",
                    c.type_name(&key_ty)
                );
                c.report(c.arg_span(1), message);
            }
            (
                call(if is_max { Op::MaxOf } else { Op::MinOf }, vec![first, key]),
                Type::Int,
            )
        }
        _ => {
            if !Type::Int.accepts(&first_ty) {
                let message = format!(
                    "expected {}, found {}",
                    c.type_name(&Type::Int),
                    c.type_name(&first_ty)
                );
                c.report(c.arg_span(0), message);
            }
            let mut parts = vec![first];
            let count = c.arg_count();
            parts.extend((1..count).map(|i| c.expect(i, &Type::Int)));
            (
                call(if is_max { Op::Max } else { Op::Min }, parts),
                Type::Int,
            )
        }
    }
}

pub const ARGMAX: Builtin = Builtin {
    name: "argmax",
    forms: &[Form {
        call: "argmax(list, key)",
        result: "element",
        meaning: "The first element with the largest number `key` (per element); `none` for an empty list: `argmax(terrains, t => influence(p, t))`.",
    }],
    lower: |c| lower_arg_best(c, Op::Argmax),
    ops: &[Op::Argmax],
    reduce: None,
    pure: true,
    unroll: None,
};

pub const ARGMIN: Builtin = Builtin {
    name: "argmin",
    forms: &[Form {
        call: "argmin(list, key)",
        result: "element",
        meaning: "The first element with the smallest number `key` (per element); `none` for an empty list.",
    }],
    lower: |c| lower_arg_best(c, Op::Argmin),
    ops: &[Op::Argmin],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_arg_best(c: &mut dyn Lowering, eval: Op) -> Compiled {
    if !c.arity(&[2]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(0);
    let (key, key_ty) = c.per_element(1, &elem);
    if !Type::Int.accepts(&key_ty) {
        let message = format!(
            "{} needs a number per element, found {}",
            c.name(),
            c.type_name(&key_ty)
        );
        c.report(c.arg_span(1), message);
    }
    (call(eval, vec![l, key]), elem)
}

/// `f(list)` with the list's element type as result or list type.
fn lower_one_list(c: &mut dyn Lowering, eval: Op, result: fn(Type) -> Type) -> Compiled {
    if !c.arity(&[1]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(0);
    (call(eval, vec![l]), result(elem))
}

pub const FIRST: Builtin = Builtin {
    name: "first",
    forms: &[Form {
        call: "first(list)",
        result: "element",
        meaning: "The first element; `none` for an empty list.",
    }],
    lower: |c| lower_one_list(c, Op::First, |elem| elem),
    ops: &[Op::First],
    reduce: Some(|args| match args {
        [Expr::Zone(z)] => Some(Expr::ZoneFirst(z.clone())),
        _ => None,
    }),
    pure: true,
    unroll: None,
};

pub const LAST: Builtin = Builtin {
    name: "last",
    forms: &[Form {
        call: "last(list)",
        result: "element",
        meaning: "The last element; `none` for an empty list.",
    }],
    lower: |c| lower_one_list(c, Op::Last, |elem| elem),
    ops: &[Op::Last],
    reduce: Some(|args| match args {
        [Expr::Zone(z)] => Some(Expr::ZoneLast(z.clone())),
        _ => None,
    }),
    pure: true,
    unroll: None,
};

pub const REVERSE: Builtin = Builtin {
    name: "reverse",
    forms: &[Form {
        call: "reverse(list)",
        result: "list",
        meaning: "The elements in reverse order.",
    }],
    lower: |c| lower_one_list(c, Op::Reverse, list_of),
    ops: &[Op::Reverse],
    reduce: None,
    pure: true,
    unroll: None,
};

pub const TAKE: Builtin = Builtin {
    name: "take",
    forms: &[
        Form { call: "take(list, n)", result: "list", meaning: "The first `n` elements (all of them if the list is shorter; an empty list if `n <= 0`)." },
    ],
    lower: |c| lower_take_drop(c, Op::Take),
    ops: &[Op::Take],
    reduce: None,
    pure: true,
    unroll: None,
};

pub const DROP: Builtin = Builtin {
    name: "drop",
    forms: &[Form {
        call: "drop(list, n)",
        result: "list",
        meaning: "All but the first `n` elements.",
    }],
    lower: |c| lower_take_drop(c, Op::Drop),
    ops: &[Op::Drop],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_take_drop(c: &mut dyn Lowering, eval: Op) -> Compiled {
    if !c.arity(&[2]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(0);
    let n = c.expect(1, &Type::Int);
    (call(eval, vec![l, n]), list_of(elem))
}

/// `f(list, x)` with `x` of the list's element type.
fn lower_search(c: &mut dyn Lowering, eval: Op, result: Type) -> Compiled {
    if !c.arity(&[2]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(0);
    let x = c.expect(1, &elem);
    (call(eval, vec![l, x]), result)
}

pub const CONTAINS: Builtin = Builtin {
    name: "contains",
    forms: &[Form {
        call: "contains(list, x)",
        result: "bool",
        meaning: "Whether the list holds `x`; the same as `x in list`.",
    }],
    lower: |c| lower_search(c, Op::Contains, Type::Bool),
    ops: &[Op::Contains],
    reduce: Some(|args| match args {
        [Expr::Zone(z), x] => Some(Expr::ZoneContains(z.clone(), x.clone().boxed())),
        _ => None,
    }),
    pure: true,
    unroll: None,
};

pub const INDEX_OF: Builtin = Builtin {
    name: "index_of",
    forms: &[Form {
        call: "index_of(list, x)",
        result: "int",
        meaning: "The position of the first `x`, from 0; -1 if absent.",
    }],
    lower: |c| lower_search(c, Op::IndexOf, Type::Int),
    ops: &[Op::IndexOf],
    reduce: Some(|args| match args {
        [Expr::Zone(z), x] => Some(Expr::ZoneIndexOf(z.clone(), x.clone().boxed())),
        // The rows of a table from the first (`index_of(regions, r)`): the row's number.
        [Expr::Const(Value::List(rows)), x] => {
            let table = match rows.first() {
                Some(Value::Row(t, 0)) => *t,
                _ => return None,
            };
            let in_order = rows
                .iter()
                .enumerate()
                .all(|(i, r)| *r == Value::Row(table, i as u16));
            let count = u16::try_from(rows.len()).ok()?;
            in_order.then(|| Expr::RowNumber {
                row: x.clone().boxed(),
                count,
            })
        }
        _ => None,
    }),
    pure: true,
    unroll: None,
};

pub const CONCAT: Builtin = Builtin {
    name: "concat",
    forms: &[Form {
        call: "concat(a, b)",
        result: "list",
        meaning: "The elements of `a`, then those of `b`.",
    }],
    lower: lower_concat,
    ops: &[Op::Concat],
    // Two lists written out (or one, and a constant list) are one list written out: its
    // items in the same order, read as the call read them (all of them where a list is
    // built, one by one up to a match where a search reads it).
    reduce: Some(|args| {
        let items = |e: &Expr| match e {
            Expr::List(items) => Some(items.clone()),
            Expr::Const(Value::List(values)) => {
                Some(values.iter().cloned().map(Expr::Const).collect())
            }
            _ => None,
        };
        match args {
            [a, b] if matches!(a, Expr::List(_)) || matches!(b, Expr::List(_)) => {
                let mut all = items(a)?;
                all.extend(items(b)?);
                Some(Expr::List(all))
            }
            _ => None,
        }
    }),
    pure: true,
    unroll: None,
};

fn lower_concat(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[2]) {
        return nothing();
    }
    let (a, a_elem) = c.list_arg(0);
    let (b, b_elem) = c.list_arg(1);
    let elem = c.unify(
        c.span(),
        &a_elem,
        &b_elem,
        "the two lists' elements differ in type",
    );
    (call(Op::Concat, vec![a, b]), list_of(elem))
}

/// The longest list `range` builds.
pub const MAX_RANGE: i64 = 100_000;
/// The most elements a list built by an expression holds (`concat`; `range`, `map` and the
/// others build no longer list than they read): checked before it is made, so that a
/// list doubled in a loop stops with an error instead of exhausting the memory.
pub const MAX_LIST_ELEMENTS: usize = 1_000_000;
/// The most bytes a text built by an expression holds (`text`, a list written as text).
pub const MAX_TEXT_BYTES: usize = 1_000_000;

pub const RANGE: Builtin = Builtin {
    name: "range",
    forms: &[
        Form { call: "range(a, b)", result: "list of int", meaning: "The numbers from `a` to `b`, both included; empty if `b < a`. At most 100,001 numbers (`b - a <= 100000`); more is a runtime error." },
    ],
    lower: lower_range,
    ops: &[Op::Range],
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_range(c: &mut dyn Lowering) -> Compiled {
    if !c.arity(&[2]) {
        return nothing();
    }
    let lo = c.expect(0, &Type::Int);
    let hi = c.expect(1, &Type::Int);
    (call(Op::Range, vec![lo, hi]), list_of(Type::Int))
}
