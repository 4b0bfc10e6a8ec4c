//! Built-ins over lists and numbers. A zone named as the list argument of `len`,
//! `count`, `first`, `last`, `contains` and `index_of` is read where it lies (`reduce`).

use std::ops::ControlFlow::{Break, Continue};

use super::{Builtin, CallSite, Form};
use crate::eval::{as_int, as_list, Env, Result, RuntimeError};
use crate::ir::{Expr, Quantifier, Total, Unroll};
use crate::load::{nothing, Compiled, Compiler};
use crate::value::{Type, Value};

fn list_of(ty: Type) -> Type {
    Type::List(Box::new(ty))
}

/// The list argument `i`, evaluated.
fn list(args: &[Expr], i: usize, env: &Env) -> Result<std::sync::Arc<Vec<Value>>> {
    as_list(args[i].eval(env)?)
}

pub const LEN: Builtin = Builtin {
    name: "len",
    forms: &[Form {
        call: "len(list)",
        result: "int",
        meaning: "The number of elements.",
    }],
    lower: lower_len,
    reduce: Some(|args| match args {
        [Expr::Zone(z)] => Some(Expr::ZoneLen(z.clone())),
        [Expr::Players] => Some(Expr::PlayerCount),
        // The length of a filtered list is a count: no list is built.
        [Expr::Filter { list, cond }] => Some(Expr::Call {
            builtin: &COUNT_IF,
            eval: eval_count_if,
            args: vec![(**list).clone(), (**cond).clone()],
        }),
        _ => None,
    }),
    pure: true,
    unroll: None,
};

fn lower_len(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[1]) {
        return nothing();
    }
    let (l, _) = c.list_arg(&site.args[0], site.scope);
    (site.call(eval_len, vec![l]), Type::Int)
}

fn eval_len(args: &[Expr], env: &Env) -> Result<Value> {
    Ok(Value::Int(list(args, 0, env)?.len() as i64))
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
    reduce: Some(|args| match args {
        [Expr::Zone(z)] => Some(Expr::ZoneLen(z.clone())),
        [Expr::Zone(z), x] => Some(Expr::ZoneCount(z.clone(), x.clone().boxed())),
        _ => None,
    }),
    pure: true,
    unroll: None,
};

fn lower_count(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[1, 2]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(&site.args[0], site.scope);
    if site.args.len() == 1 {
        return (site.call(eval_len, vec![l]), Type::Int);
    }
    let x = c.expect(&site.args[1], site.scope, &elem);
    (site.call(eval_count, vec![l, x]), Type::Int)
}

pub(crate) fn eval_count(args: &[Expr], env: &Env) -> Result<Value> {
    let x = args[1].eval(env)?;
    let mut n = 0;
    args[0].each(env, |v| {
        n += (*v == x) as i64;
        Ok(Continue(()))
    })?;
    Ok(Value::Int(n))
}

/// `f(list, condition)`: the list and the condition as a lambda, checked to be true/false.
fn lower_condition(c: &mut Compiler, site: &CallSite) -> Option<(Expr, Expr, Type)> {
    if !c.arity(site.span, site.name(), site.args, &[2]) {
        return None;
    }
    let (l, elem) = c.list_arg(&site.args[0], site.scope);
    let (pred, pred_ty) = c.per_element(&site.args[1], site.scope, &elem);
    if !Type::Bool.accepts(&pred_ty) {
        let message = format!(
            "the condition of {} must be true/false, found {}",
            site.name(),
            c.type_name(&pred_ty)
        );
        c.report(site.args[1].span, message);
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
    lower: |c, site| match lower_condition(c, site) {
        Some((l, pred, _)) => (site.call(eval_count_if, vec![l, pred]), Type::Int),
        None => nothing(),
    },
    reduce: Some(|args| {
        let (rows, cond) = crate::optimize::rows_where(&args[0], &args[1])?;
        Some(Expr::Call {
            builtin: &COUNT_IF,
            eval: eval_count_if,
            args: vec![rows, cond],
        })
    }),
    pure: true,
    unroll: Some(Unroll::Total(Total::Count)),
};

/// A count compared with a constant that only asks whether there is one
/// (`count_if(l, c) > 0`, `count(zone, x) == 0`…): a search that stops at the first
/// match, `any(l, c)` or `x in zone`, negated for "none". Like `any`, it reads no element
/// after the first match: an error a later element would raise is not reached.
pub(crate) fn count_test(op: crate::ir::CmpOp, count: &Expr, n: i64) -> Option<Expr> {
    use crate::ir::CmpOp::{Eq, Ge, Gt, Le, Lt, Ne};
    let some = match (op, n) {
        (Gt, 0) | (Ge, 1) | (Ne, 0) => true,
        (Eq, 0) | (Le, 0) | (Lt, 1) => false,
        _ => return None,
    };
    let search = match count {
        Expr::Call { builtin, args, .. } if builtin.name == COUNT_IF.name => Expr::Call {
            builtin: &ANY,
            eval: eval_any,
            args: args.clone(),
        },
        Expr::ZoneCount(z, x) => Expr::ZoneContains(z.clone(), x.clone()),
        _ => return None,
    };
    Some(if some {
        search
    } else {
        Expr::Not(search.boxed())
    })
}

fn eval_count_if(args: &[Expr], env: &Env) -> Result<Value> {
    let mut n = 0;
    args[0].each(env, |v| {
        n += args[1].apply_bool(env, v)? as i64;
        Ok(Continue(()))
    })?;
    Ok(Value::Int(n))
}

pub const FILTER: Builtin = Builtin {
    name: "filter",
    forms: &[Form {
        call: "filter(list, cond)",
        result: "list",
        meaning: "The elements that satisfy `cond` (per element), in order.",
    }],
    lower: |c, site| match lower_condition(c, site) {
        Some((l, pred, elem)) => (
            Expr::Filter {
                list: l.boxed(),
                cond: pred.boxed(),
            },
            list_of(elem),
        ),
        None => nothing(),
    },
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
    lower: |c, site| match lower_condition(c, site) {
        Some((l, pred, _)) => (site.call(eval_any, vec![l, pred]), Type::Bool),
        None => nothing(),
    },
    reduce: Some(|args| {
        let (rows, cond) = crate::optimize::rows_where(&args[0], &args[1])?;
        Some(Expr::Call {
            builtin: &ANY,
            eval: eval_any,
            args: vec![rows, cond],
        })
    }),
    pure: true,
    unroll: Some(Unroll::Test(Quantifier::Any)),
};

pub(crate) fn eval_any(args: &[Expr], env: &Env) -> Result<Value> {
    let mut found = false;
    args[0].each(env, |v| {
        found = args[1].apply_bool(env, v)?;
        Ok(if found { Break(()) } else { Continue(()) })
    })?;
    Ok(Value::Bool(found))
}

pub const ALL: Builtin = Builtin {
    name: "all",
    forms: &[Form {
        call: "all(list, cond)",
        result: "bool",
        meaning: "Whether every element satisfies `cond` (per element); true for an empty list.",
    }],
    lower: |c, site| match lower_condition(c, site) {
        Some((l, pred, _)) => (site.call(eval_all, vec![l, pred]), Type::Bool),
        None => nothing(),
    },
    reduce: None,
    pure: true,
    unroll: Some(Unroll::Test(Quantifier::All)),
};

pub(crate) fn eval_all(args: &[Expr], env: &Env) -> Result<Value> {
    let mut all = true;
    args[0].each(env, |v| {
        all = args[1].apply_bool(env, v)?;
        Ok(if all { Continue(()) } else { Break(()) })
    })?;
    Ok(Value::Bool(all))
}

pub const MAP: Builtin = Builtin {
    name: "map",
    forms: &[Form {
        call: "map(list, expr)",
        result: "list",
        meaning: "`expr` (per element) for each element.",
    }],
    lower: lower_map,
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_map(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[2]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(&site.args[0], site.scope);
    let (f, out) = c.per_element(&site.args[1], site.scope, &elem);
    (site.call(eval_map, vec![l, f]), list_of(out))
}

fn eval_map(args: &[Expr], env: &Env) -> Result<Value> {
    let items = list(args, 0, env)?;
    Ok(Value::list(
        items
            .iter()
            .map(|v| args[1].apply(env, v))
            .collect::<Result<Vec<_>>>()?,
    ))
}

pub const SORT_BY: Builtin = Builtin {
    name: "sort_by",
    forms: &[
        Form { call: "sort_by(list, key)", result: "list", meaning: "The elements by increasing number `key` (per element). The sort is stable: equal keys keep their order. Sort by `-key` for decreasing order." },
    ],
    lower: lower_sort_by,
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_sort_by(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[2]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(&site.args[0], site.scope);
    let (key, key_ty) = c.per_element(&site.args[1], site.scope, &elem);
    if !Type::Int.accepts(&key_ty) {
        let message = format!(
            "sort_by needs a number as key, found {}",
            c.type_name(&key_ty)
        );
        c.report(site.args[1].span, message);
    }
    (site.call(eval_sort_by, vec![l, key]), list_of(elem))
}

pub(crate) fn eval_sort_by(args: &[Expr], env: &Env) -> Result<Value> {
    let mut keyed = Vec::with_capacity(8);
    args[0].each(env, |v| {
        keyed.push((args[1].apply_int(env, v)?, v.clone()));
        Ok(Continue(()))
    })?;
    // Stable: equal keys keep their order (rulebooks break ties by position).
    keyed.sort_by_key(|(k, _)| *k);
    Ok(Value::list(keyed.into_iter().map(|(_, v)| v).collect()))
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
    reduce: None,
    pure: true,
    unroll: Some(Unroll::Total(Total::Sum)),
};

fn lower_sum(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[1, 2]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(&site.args[0], site.scope);
    if site.args.len() == 1 {
        if !Type::Int.accepts(&elem) {
            let message = format!("sum needs numbers, found {}", c.type_name(&elem));
            c.report(site.args[0].span, message);
        }
        return (site.call(eval_sum, vec![l]), Type::Int);
    }
    let (key, key_ty) = c.per_element(&site.args[1], site.scope, &elem);
    if !Type::Int.accepts(&key_ty) {
        let message = format!(
            "sum needs a number per element, found {}",
            c.type_name(&key_ty)
        );
        c.report(site.args[1].span, message);
    }
    (site.call(eval_sum_of, vec![l, key]), Type::Int)
}

/// The running total of a `sum` plus the next number, checked.
pub(crate) fn sum_add(total: i64, n: i64) -> Result<i64> {
    total.checked_add(n).ok_or_else(|| {
        RuntimeError::new(format!(
            "sum: {total} + {n} is outside the whole numbers a state holds (−2⁶³ to 2⁶³−1)"
        ))
    })
}

fn eval_sum(args: &[Expr], env: &Env) -> Result<Value> {
    let mut total = 0i64;
    args[0].each(env, |v| {
        total = sum_add(total, as_int(v)?)?;
        Ok(Continue(()))
    })?;
    Ok(Value::Int(total))
}

fn eval_sum_of(args: &[Expr], env: &Env) -> Result<Value> {
    let mut total = 0i64;
    args[0].each(env, |v| {
        total = sum_add(total, args[1].apply_int(env, v)?)?;
        Ok(Continue(()))
    })?;
    Ok(Value::Int(total))
}

pub const MIN: Builtin = Builtin {
    name: "min",
    forms: &[
        Form { call: "min(list)", result: "int", meaning: "The smallest number of a list; 0 for an empty list." },
        Form { call: "min(list, key)", result: "int", meaning: "The smallest number `key` (per element); 0 for an empty list: `min(players, p => money[p])`." },
        Form { call: "min(a, b, …)", result: "int", meaning: "The smallest of two or more numbers." },
    ],
    lower: lower_min_max,
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
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_min_max(c: &mut Compiler, site: &CallSite) -> Compiled {
    let f = site.name();
    if site.args.is_empty() {
        return c.error(
            site.span,
            format!("{f} needs a list or at least two numbers"),
        );
    }
    let is_max = f == "max";
    let (first, first_ty) = c.compile(&site.args[0], site.scope);
    match (&first_ty, site.args.len()) {
        (_, 1) => {
            match &first_ty {
                Type::List(elem) if !Type::Int.accepts(elem) => {
                    let message = format!("{f} needs numbers, found {}", c.type_name(elem));
                    c.report(site.args[0].span, message);
                }
                Type::List(_) | Type::Any => {}
                other => {
                    let message = format!("expected a list, found {}", c.type_name(other));
                    c.report(site.args[0].span, message);
                }
            }
            let eval = if is_max {
                eval_max_of_list
            } else {
                eval_min_of_list
            };
            (site.call(eval, vec![first]), Type::Int)
        }
        // A list and a number per element.
        (Type::List(elem), 2) => {
            let elem = (**elem).clone();
            let (key, key_ty) = c.per_element(&site.args[1], site.scope, &elem);
            if !Type::Int.accepts(&key_ty) {
                let message = format!(
                    "{f} needs a number per element, found {}",
                    c.type_name(&key_ty)
                );
                c.report(site.args[1].span, message);
            }
            (
                site.call(
                    if is_max { eval_max_of } else { eval_min_of },
                    vec![first, key],
                ),
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
                c.report(site.args[0].span, message);
            }
            let mut parts = vec![first];
            parts.extend(
                site.args[1..]
                    .iter()
                    .map(|a| c.expect(a, site.scope, &Type::Int)),
            );
            (
                site.call(if is_max { eval_max } else { eval_min }, parts),
                Type::Int,
            )
        }
    }
}

/// The best key over the elements of `args[0]` (`args[1]` per element), 0 if none.
fn pick_of(args: &[Expr], env: &Env, better: fn(i64, i64) -> i64) -> Result<Value> {
    let mut best: Option<i64> = None;
    args[0].each(env, |v| {
        let k = args[1].apply_int(env, v)?;
        best = Some(best.map_or(k, |b| better(b, k)));
        Ok(Continue(()))
    })?;
    Ok(Value::Int(best.unwrap_or(0)))
}

fn eval_min_of(args: &[Expr], env: &Env) -> Result<Value> {
    pick_of(args, env, i64::min)
}
fn eval_max_of(args: &[Expr], env: &Env) -> Result<Value> {
    pick_of(args, env, i64::max)
}

pub const ARGMAX: Builtin = Builtin {
    name: "argmax",
    forms: &[Form {
        call: "argmax(list, key)",
        result: "element",
        meaning: "The first element with the largest number `key` (per element); `none` for an empty list: `argmax(terrains, t => influence(p, t))`.",
    }],
    lower: |c, site| lower_arg_best(c, site, eval_argmax),
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
    lower: |c, site| lower_arg_best(c, site, eval_argmin),
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_arg_best(c: &mut Compiler, site: &CallSite, eval: crate::ir::BuiltinEval) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[2]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(&site.args[0], site.scope);
    let (key, key_ty) = c.per_element(&site.args[1], site.scope, &elem);
    if !Type::Int.accepts(&key_ty) {
        let message = format!(
            "{} needs a number per element, found {}",
            site.name(),
            c.type_name(&key_ty)
        );
        c.report(site.args[1].span, message);
    }
    (site.call(eval, vec![l, key]), elem)
}

/// The first element whose key is strictly better than every earlier one's.
fn arg_best(args: &[Expr], env: &Env, better: fn(i64, i64) -> bool) -> Result<Value> {
    let mut best: Option<(i64, Value)> = None;
    args[0].each(env, |v| {
        let k = args[1].apply_int(env, v)?;
        if best.as_ref().is_none_or(|(b, _)| better(k, *b)) {
            best = Some((k, v.clone()));
        }
        Ok(Continue(()))
    })?;
    Ok(best.map_or(Value::None, |(_, v)| v))
}

fn eval_argmax(args: &[Expr], env: &Env) -> Result<Value> {
    arg_best(args, env, |k, b| k > b)
}
fn eval_argmin(args: &[Expr], env: &Env) -> Result<Value> {
    arg_best(args, env, |k, b| k < b)
}

fn pick(values: impl Iterator<Item = Result<i64>>, better: fn(i64, i64) -> i64) -> Result<Value> {
    let mut best: Option<i64> = None;
    for v in values {
        let v = v?;
        best = Some(best.map_or(v, |b| better(b, v)));
    }
    Ok(Value::Int(best.unwrap_or(0)))
}

fn eval_min_of_list(args: &[Expr], env: &Env) -> Result<Value> {
    pick(list(args, 0, env)?.iter().map(as_int), i64::min)
}
fn eval_max_of_list(args: &[Expr], env: &Env) -> Result<Value> {
    pick(list(args, 0, env)?.iter().map(as_int), i64::max)
}
pub(crate) fn eval_min(args: &[Expr], env: &Env) -> Result<Value> {
    pick(args.iter().map(|a| a.int(env)), i64::min)
}
pub(crate) fn eval_max(args: &[Expr], env: &Env) -> Result<Value> {
    pick(args.iter().map(|a| a.int(env)), i64::max)
}

/// `f(list)` with the list's element type as result or list type.
fn lower_one_list(
    c: &mut Compiler,
    site: &CallSite,
    eval: crate::ir::BuiltinEval,
    result: fn(Type) -> Type,
) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[1]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(&site.args[0], site.scope);
    (site.call(eval, vec![l]), result(elem))
}

pub const FIRST: Builtin = Builtin {
    name: "first",
    forms: &[Form {
        call: "first(list)",
        result: "element",
        meaning: "The first element; `none` for an empty list.",
    }],
    lower: |c, site| lower_one_list(c, site, eval_first, |elem| elem),
    reduce: Some(|args| match args {
        [Expr::Zone(z)] => Some(Expr::ZoneFirst(z.clone())),
        _ => None,
    }),
    pure: true,
    unroll: None,
};

fn eval_first(args: &[Expr], env: &Env) -> Result<Value> {
    Ok(list(args, 0, env)?.first().cloned().unwrap_or_default())
}

pub const LAST: Builtin = Builtin {
    name: "last",
    forms: &[Form {
        call: "last(list)",
        result: "element",
        meaning: "The last element; `none` for an empty list.",
    }],
    lower: |c, site| lower_one_list(c, site, eval_last, |elem| elem),
    reduce: Some(|args| match args {
        [Expr::Zone(z)] => Some(Expr::ZoneLast(z.clone())),
        _ => None,
    }),
    pure: true,
    unroll: None,
};

fn eval_last(args: &[Expr], env: &Env) -> Result<Value> {
    Ok(list(args, 0, env)?.last().cloned().unwrap_or_default())
}

pub const REVERSE: Builtin = Builtin {
    name: "reverse",
    forms: &[Form {
        call: "reverse(list)",
        result: "list",
        meaning: "The elements in reverse order.",
    }],
    lower: |c, site| lower_one_list(c, site, eval_reverse, list_of),
    reduce: None,
    pure: true,
    unroll: None,
};

fn eval_reverse(args: &[Expr], env: &Env) -> Result<Value> {
    let mut items = list(args, 0, env)?.to_vec();
    items.reverse();
    Ok(Value::list(items))
}

pub const TAKE: Builtin = Builtin {
    name: "take",
    forms: &[
        Form { call: "take(list, n)", result: "list", meaning: "The first `n` elements (all of them if the list is shorter; an empty list if `n <= 0`)." },
    ],
    lower: |c, site| lower_take_drop(c, site, eval_take),
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
    lower: |c, site| lower_take_drop(c, site, eval_drop),
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_take_drop(c: &mut Compiler, site: &CallSite, eval: crate::ir::BuiltinEval) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[2]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(&site.args[0], site.scope);
    let n = c.expect(&site.args[1], site.scope, &Type::Int);
    (site.call(eval, vec![l, n]), list_of(elem))
}

/// The list and how many of its elements `take`/`drop` count (clamped to the list).
fn split(args: &[Expr], env: &Env) -> Result<(std::sync::Arc<Vec<Value>>, usize)> {
    let items = list(args, 0, env)?;
    let n = args[1].int(env)?.clamp(0, items.len() as i64) as usize;
    Ok((items, n))
}

// A list built for this call (by `sort_by`, `filter`…) is cut in place; one shared with
// a variable or a constant is copied.
pub(crate) fn eval_take(args: &[Expr], env: &Env) -> Result<Value> {
    let (mut items, n) = split(args, env)?;
    match std::sync::Arc::get_mut(&mut items) {
        Some(own) => own.truncate(n),
        None => return Ok(Value::list(items[..n].to_vec())),
    }
    Ok(Value::List(items))
}

fn eval_drop(args: &[Expr], env: &Env) -> Result<Value> {
    let (mut items, n) = split(args, env)?;
    match std::sync::Arc::get_mut(&mut items) {
        Some(own) => drop(own.drain(..n)),
        None => return Ok(Value::list(items[n..].to_vec())),
    }
    Ok(Value::List(items))
}

/// `f(list, x)` with `x` of the list's element type.
fn lower_search(
    c: &mut Compiler,
    site: &CallSite,
    eval: crate::ir::BuiltinEval,
    result: Type,
) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[2]) {
        return nothing();
    }
    let (l, elem) = c.list_arg(&site.args[0], site.scope);
    let x = c.expect(&site.args[1], site.scope, &elem);
    (site.call(eval, vec![l, x]), result)
}

pub const CONTAINS: Builtin = Builtin {
    name: "contains",
    forms: &[Form {
        call: "contains(list, x)",
        result: "bool",
        meaning: "Whether the list holds `x`; the same as `x in list`.",
    }],
    lower: |c, site| lower_search(c, site, eval_contains, Type::Bool),
    reduce: Some(|args| match args {
        [Expr::Zone(z), x] => Some(Expr::ZoneContains(z.clone(), x.clone().boxed())),
        _ => None,
    }),
    pure: true,
    unroll: None,
};

fn eval_contains(args: &[Expr], env: &Env) -> Result<Value> {
    let x = args[1].eval(env)?;
    let mut found = false;
    args[0].each(env, |v| {
        found = *v == x;
        Ok(if found { Break(()) } else { Continue(()) })
    })?;
    Ok(Value::Bool(found))
}

pub const INDEX_OF: Builtin = Builtin {
    name: "index_of",
    forms: &[Form {
        call: "index_of(list, x)",
        result: "int",
        meaning: "The position of the first `x`, from 0; -1 if absent.",
    }],
    lower: |c, site| lower_search(c, site, eval_index_of, Type::Int),
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

fn eval_index_of(args: &[Expr], env: &Env) -> Result<Value> {
    let x = args[1].eval(env)?;
    Ok(Value::Int(
        list(args, 0, env)?
            .iter()
            .position(|v| *v == x)
            .map_or(-1, |i| i as i64),
    ))
}

pub const CONCAT: Builtin = Builtin {
    name: "concat",
    forms: &[Form {
        call: "concat(a, b)",
        result: "list",
        meaning: "The elements of `a`, then those of `b`.",
    }],
    lower: lower_concat,
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_concat(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[2]) {
        return nothing();
    }
    let (a, a_elem) = c.list_arg(&site.args[0], site.scope);
    let (b, b_elem) = c.list_arg(&site.args[1], site.scope);
    let elem = c.unify(site.span, &a_elem, &b_elem);
    (site.call(eval_concat, vec![a, b]), list_of(elem))
}

fn eval_concat(args: &[Expr], env: &Env) -> Result<Value> {
    let mut items = list(args, 0, env)?.to_vec();
    items.extend(list(args, 1, env)?.iter().cloned());
    Ok(Value::list(items))
}

/// The longest list `range` builds.
pub const MAX_RANGE: i64 = 100_000;

pub const RANGE: Builtin = Builtin {
    name: "range",
    forms: &[
        Form { call: "range(a, b)", result: "list of int", meaning: "The numbers from `a` to `b`, both included; empty if `b < a`. At most 100,001 numbers (`b - a <= 100000`); more is a runtime error." },
    ],
    lower: lower_range,
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_range(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[2]) {
        return nothing();
    }
    let lo = c.expect(&site.args[0], site.scope, &Type::Int);
    let hi = c.expect(&site.args[1], site.scope, &Type::Int);
    (site.call(eval_range, vec![lo, hi]), list_of(Type::Int))
}

pub(crate) fn eval_range(args: &[Expr], env: &Env) -> Result<Value> {
    let (lo, hi) = (args[0].int(env)?, args[1].int(env)?);
    if hi.saturating_sub(lo) > MAX_RANGE {
        return Err(RuntimeError::new(format!("range({lo}, {hi}) is too long")));
    }
    Ok(Value::list((lo..=hi).map(Value::Int).collect()))
}

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
    reduce: None,
    // Depends on how many play.
    pure: false,
    unroll: None,
};

fn lower_next_player(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[1, 2]) {
        return nothing();
    }
    let p = c.expect(&site.args[0], site.scope, &Type::Player);
    if site.args.len() == 1 {
        return (site.call(eval_next_player, vec![p]), Type::Player);
    }
    let cond = seat_condition(c, site);
    (site.call(eval_next_player_if, vec![p, cond]), Type::Player)
}

/// The condition of `next_player(p, cond)` and `seats_from(p, cond)`: true/false per seat.
fn seat_condition(c: &mut Compiler, site: &CallSite) -> Expr {
    let (cond, ty) = c.per_element(&site.args[1], site.scope, &Type::Player);
    if !Type::Bool.accepts(&ty) {
        let message = format!(
            "the condition of {} must be true/false, found {}",
            site.name(),
            c.type_name(&ty)
        );
        c.report(site.args[1].span, message);
    }
    cond
}

/// The seat `p` stands for (none is an error naming the built-in).
fn seat(args: &[Expr], env: &Env, name: &str) -> Result<usize> {
    match args[0].eval(env)? {
        Value::Player(p) => Ok(p as usize),
        _ => Err(RuntimeError::new(format!("{name}(none)"))),
    }
}

/// The seats after `p` in order, wrapping round, `p` itself last.
fn seats_after(p: usize, n: usize) -> impl Iterator<Item = Value> {
    (1..=n).map(move |k| Value::Player(((p + k) % n) as u8))
}

pub(crate) fn eval_next_player(args: &[Expr], env: &Env) -> Result<Value> {
    let p = seat(args, env, "next_player")?;
    Ok(Value::Player(((p + 1) % env.state.names.len()) as u8))
}

fn eval_next_player_if(args: &[Expr], env: &Env) -> Result<Value> {
    let p = seat(args, env, "next_player")?;
    for q in seats_after(p, env.state.names.len()) {
        if args[1].apply_bool(env, &q)? {
            return Ok(q);
        }
    }
    Ok(Value::None)
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
    reduce: None,
    pure: false,
    unroll: None,
};

fn lower_seats_from(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[1, 2]) {
        return nothing();
    }
    let mut args = vec![c.expect(&site.args[0], site.scope, &Type::Player)];
    if site.args.len() == 2 {
        args.push(seat_condition(c, site));
    }
    (site.call(eval_seats_from, args), list_of(Type::Player))
}

fn eval_seats_from(args: &[Expr], env: &Env) -> Result<Value> {
    let p = seat(args, env, "seats_from")?;
    let n = env.state.names.len();
    let mut out = Vec::with_capacity(n);
    // From p itself: the seats after the one before p.
    for q in seats_after((p + n - 1) % n, n) {
        if args
            .get(1)
            .map_or(Ok(true), |cond| cond.apply_bool(env, &q))?
        {
            out.push(q);
        }
    }
    Ok(Value::list(out))
}

pub const ABS: Builtin = Builtin {
    name: "abs",
    forms: &[Form {
        call: "abs(n)",
        result: "int",
        meaning: "The absolute value.",
    }],
    lower: lower_abs,
    reduce: None,
    pure: true,
    unroll: None,
};

fn lower_abs(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[1]) {
        return nothing();
    }
    let x = c.expect(&site.args[0], site.scope, &Type::Int);
    (site.call(eval_abs, vec![x]), Type::Int)
}

fn eval_abs(args: &[Expr], env: &Env) -> Result<Value> {
    let x = args[0].int(env)?;
    x.checked_abs().map(Value::Int).ok_or_else(|| {
        RuntimeError::new(format!(
            "abs({x}) is outside the whole numbers a state holds (−2⁶³ to 2⁶³−1)"
        ))
    })
}

pub const TEXT: Builtin = Builtin {
    name: "text",
    forms: &[
        Form { call: "text(a, b, …)", result: "str", meaning: "One or more values of any type, each written as a [template](#templates) writes it (a player's name, a row's id, a list space-separated), joined with nothing in between: `text(it, \":\", money[it])` is `red:12`. For labels and `display` lines." },
    ],
    lower: lower_text,
    reduce: None,
    // Players read by their names, which belong to the game being played.
    pure: false,
    unroll: None,
};

fn lower_text(c: &mut Compiler, site: &CallSite) -> Compiled {
    if site.args.is_empty() {
        return c.error(site.span, "text needs at least one value");
    }
    let parts = site
        .args
        .iter()
        .map(|a| c.compile(a, site.scope).0)
        .collect();
    (site.call(eval_text, parts), Type::Str)
}

fn eval_text(args: &[Expr], env: &Env) -> Result<Value> {
    let mut out = String::new();
    for part in args {
        let v = part.eval(env)?;
        env.game.write_value(&mut out, &v, &env.state.names);
    }
    Ok(Value::Str(std::sync::Arc::from(out.as_str())))
}

pub const COLOUR: Builtin = Builtin {
    name: "colour",
    forms: &[Form {
        call: "colour(v, name)",
        result: "str",
        meaning: "`v` written as `text` writes it, in the colour `name` (`red`, `bright_blue`, … as for a board's `cell_colour`) where a `display` line is shown on a terminal; plain everywhere else (labels, logs, `NO_COLOR`). `pad` counts only the visible characters.",
    }],
    lower: lower_colour,
    reduce: None,
    pure: false,
    unroll: None,
};

fn lower_colour(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[2]) {
        return nothing();
    }
    let v = c.compile(&site.args[0], site.scope).0;
    let name = c.expect(&site.args[1], site.scope, &Type::Str);
    (site.call(eval_colour, vec![v, name]), Type::Str)
}

fn eval_colour(args: &[Expr], env: &Env) -> Result<Value> {
    let mut text = String::new();
    env.game
        .write_value(&mut text, &args[0].eval(env)?, &env.state.names);
    let name = match args[1].eval(env)? {
        Value::Str(s) => s,
        other => {
            return Err(RuntimeError::new(format!(
                "colour: a colour name is a text, not {other:?}"
            )))
        }
    };
    Ok(Value::Str(std::sync::Arc::from(
        crate::render::mark_colour(&text, &name).as_str(),
    )))
}

pub const PAD: Builtin = Builtin {
    name: "pad",
    forms: &[Form {
        call: "pad(v, width)",
        result: "str",
        meaning: "`v` written as `text` writes it, with spaces after it up to `width` characters (for columns in `display` lines).",
    }],
    lower: lower_pad,
    reduce: None,
    pure: false,
    unroll: None,
};

fn lower_pad(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[2]) {
        return nothing();
    }
    let v = c.compile(&site.args[0], site.scope).0;
    let width = c.expect(&site.args[1], site.scope, &Type::Int);
    (site.call(eval_pad, vec![v, width]), Type::Str)
}

/// The widest `pad` writes: a display line, not a page.
const MAX_PAD: i64 = 1_000;

fn eval_pad(args: &[Expr], env: &Env) -> Result<Value> {
    let mut out = String::new();
    env.game
        .write_value(&mut out, &args[0].eval(env)?, &env.state.names);
    let width = args[1].int(env)?;
    if width > MAX_PAD {
        return Err(RuntimeError::new(format!(
            "pad to {width} characters: at most {MAX_PAD}"
        )));
    }
    let missing = (width.max(0) as usize).saturating_sub(crate::render::visible_width(&out));
    out.extend(std::iter::repeat_n(' ', missing));
    Ok(Value::Str(std::sync::Arc::from(out.as_str())))
}
