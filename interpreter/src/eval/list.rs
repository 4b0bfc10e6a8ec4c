//! The run halves of the built-ins over lists, seats, numbers and text (compile halves:
//! `builtins/list.rs`, `seats.rs`, `text.rs`).

use std::ops::ControlFlow::{self, Break, Continue};

use super::{as_int, as_list, call, Env, Result, RuntimeError};
use crate::builtins::{MAX_LIST_ELEMENTS, MAX_RANGE, MAX_TEXT_BYTES};
use crate::ir::{Expr, Op};
use crate::value::Value;
use crate::work::charge_work;

/// The list argument `i`, evaluated; its elements are steps of work (the built-in reads
/// them).
pub(crate) fn list(args: &[Expr], i: usize, env: &Env) -> Result<std::sync::Arc<Vec<Value>>> {
    let items = as_list(args[i].eval(env)?)?;
    charge_work(items.len() as u64)?;
    Ok(items)
}

pub(crate) fn eval_len(args: &[Expr], env: &Env) -> Result<Value> {
    Ok(Value::Int(list(args, 0, env)?.len() as i64))
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

pub(crate) fn eval_count_if(args: &[Expr], env: &Env) -> Result<Value> {
    let mut n = 0;
    args[0].each(env, |v| {
        n += args[1].apply_bool(env, v)? as i64;
        Ok(Continue(()))
    })?;
    Ok(Value::Int(n))
}

pub(crate) fn eval_any(args: &[Expr], env: &Env) -> Result<Value> {
    let mut found = false;
    args[0].each(env, |v| {
        found = args[1].apply_bool(env, v)?;
        Ok(if found { Break(()) } else { Continue(()) })
    })?;
    Ok(Value::Bool(found))
}

pub(crate) fn eval_find(args: &[Expr], env: &Env) -> Result<Value> {
    let mut found = Value::None;
    args[0].each(env, |v| {
        if args[1].apply_bool(env, v)? {
            found = v.clone();
            return Ok(Break(()));
        }
        Ok(Continue(()))
    })?;
    Ok(found)
}

pub(crate) fn eval_all(args: &[Expr], env: &Env) -> Result<Value> {
    let mut all = true;
    args[0].each(env, |v| {
        all = args[1].apply_bool(env, v)?;
        Ok(if all { Continue(()) } else { Break(()) })
    })?;
    Ok(Value::Bool(all))
}

pub(crate) fn eval_map(args: &[Expr], env: &Env) -> Result<Value> {
    let items = list(args, 0, env)?;
    Ok(Value::list(
        items
            .iter()
            .map(|v| args[1].apply(env, v))
            .collect::<Result<Vec<_>>>()?,
    ))
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

/// The running total of a `sum` plus the next number, checked.
pub(crate) fn sum_add(total: i64, n: i64) -> Result<i64> {
    total.checked_add(n).ok_or_else(|| {
        RuntimeError::new(format!(
            "sum: {total} + {n} is outside the whole numbers a state holds (−2⁶³ to 2⁶³−1)"
        ))
    })
}

pub(crate) fn eval_sum(args: &[Expr], env: &Env) -> Result<Value> {
    let mut total = 0i64;
    args[0].each(env, |v| {
        total = sum_add(total, as_int(v)?)?;
        Ok(Continue(()))
    })?;
    Ok(Value::Int(total))
}

pub(crate) fn eval_sum_of(args: &[Expr], env: &Env) -> Result<Value> {
    let mut total = 0i64;
    args[0].each(env, |v| {
        total = sum_add(total, args[1].apply_int(env, v)?)?;
        Ok(Continue(()))
    })?;
    Ok(Value::Int(total))
}

/// The best key over the elements of `args[0]` (`args[1]` per element), 0 if none.
pub(crate) fn pick_of(args: &[Expr], env: &Env, better: fn(i64, i64) -> i64) -> Result<Value> {
    let mut best: Option<i64> = None;
    args[0].each(env, |v| {
        let k = args[1].apply_int(env, v)?;
        best = Some(best.map_or(k, |b| better(b, k)));
        Ok(Continue(()))
    })?;
    Ok(Value::Int(best.unwrap_or(0)))
}

pub(crate) fn eval_min_of(args: &[Expr], env: &Env) -> Result<Value> {
    pick_of(args, env, i64::min)
}
pub(crate) fn eval_max_of(args: &[Expr], env: &Env) -> Result<Value> {
    pick_of(args, env, i64::max)
}

/// The first element whose key is strictly better than every earlier one's.
pub(crate) fn arg_best(args: &[Expr], env: &Env, better: fn(i64, i64) -> bool) -> Result<Value> {
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

pub(crate) fn eval_argmax(args: &[Expr], env: &Env) -> Result<Value> {
    arg_best(args, env, |k, b| k > b)
}
pub(crate) fn eval_argmin(args: &[Expr], env: &Env) -> Result<Value> {
    arg_best(args, env, |k, b| k < b)
}

pub(crate) fn pick(
    values: impl Iterator<Item = Result<i64>>,
    better: fn(i64, i64) -> i64,
) -> Result<Value> {
    let mut best: Option<i64> = None;
    for v in values {
        let v = v?;
        best = Some(best.map_or(v, |b| better(b, v)));
    }
    Ok(Value::Int(best.unwrap_or(0)))
}

pub(crate) fn eval_min_of_list(args: &[Expr], env: &Env) -> Result<Value> {
    pick(list(args, 0, env)?.iter().map(as_int), i64::min)
}
pub(crate) fn eval_max_of_list(args: &[Expr], env: &Env) -> Result<Value> {
    pick(list(args, 0, env)?.iter().map(as_int), i64::max)
}
pub(crate) fn eval_min(args: &[Expr], env: &Env) -> Result<Value> {
    pick(args.iter().map(|a| a.int(env)), i64::min)
}
pub(crate) fn eval_max(args: &[Expr], env: &Env) -> Result<Value> {
    pick(args.iter().map(|a| a.int(env)), i64::max)
}

pub(crate) fn eval_first(args: &[Expr], env: &Env) -> Result<Value> {
    Ok(list(args, 0, env)?.first().cloned().unwrap_or_default())
}

pub(crate) fn eval_last(args: &[Expr], env: &Env) -> Result<Value> {
    Ok(list(args, 0, env)?.last().cloned().unwrap_or_default())
}

pub(crate) fn eval_reverse(args: &[Expr], env: &Env) -> Result<Value> {
    let mut items = list(args, 0, env)?.to_vec();
    items.reverse();
    Ok(Value::list(items))
}

/// The list and how many of its elements `take`/`drop` count (clamped to the list).
pub(crate) fn split(args: &[Expr], env: &Env) -> Result<(std::sync::Arc<Vec<Value>>, usize)> {
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

pub(crate) fn eval_drop(args: &[Expr], env: &Env) -> Result<Value> {
    let (mut items, n) = split(args, env)?;
    match std::sync::Arc::get_mut(&mut items) {
        Some(own) => drop(own.drain(..n)),
        None => return Ok(Value::list(items[n..].to_vec())),
    }
    Ok(Value::List(items))
}

pub(crate) fn eval_contains(args: &[Expr], env: &Env) -> Result<Value> {
    let x = args[1].eval(env)?;
    let mut found = false;
    args[0].each(env, |v| {
        found = *v == x;
        Ok(if found { Break(()) } else { Continue(()) })
    })?;
    Ok(Value::Bool(found))
}

// A search: read element by element, up to the first match (`each`), as `contains` is.
pub(crate) fn eval_index_of(args: &[Expr], env: &Env) -> Result<Value> {
    let x = args[1].eval(env)?;
    let (mut i, mut found) = (0i64, false);
    args[0].each(env, |v| {
        found = *v == x;
        if found {
            return Ok(Break(()));
        }
        i += 1;
        Ok(Continue(()))
    })?;
    Ok(Value::Int(if found { i } else { -1 }))
}

pub(crate) fn eval_concat(args: &[Expr], env: &Env) -> Result<Value> {
    let (a, b) = (list(args, 0, env)?, list(args, 1, env)?);
    let n = a.len() + b.len();
    if n > MAX_LIST_ELEMENTS {
        return Err(RuntimeError::new(format!(
            "concat: a list of {n} elements; a list holds at most {MAX_LIST_ELEMENTS}"
        )));
    }
    charge_work(n as u64)?;
    let mut items = Vec::with_capacity(n);
    items.extend(a.iter().cloned());
    items.extend(b.iter().cloned());
    Ok(Value::list(items))
}

/// The bounds of a `range`, checked.
fn range_bounds(args: &[Expr], env: &Env) -> Result<(i64, i64)> {
    let (lo, hi) = (args[0].int(env)?, args[1].int(env)?);
    if hi.saturating_sub(lo) > MAX_RANGE {
        return Err(RuntimeError::new(format!("range({lo}, {hi}) is too long")));
    }
    Ok((lo, hi))
}

/// How many numbers `range(lo, hi)` holds (its bounds checked).
fn range_len(lo: i64, hi: i64) -> u64 {
    (hi.saturating_sub(lo).saturating_add(1)).max(0) as u64
}

pub(crate) fn eval_range(args: &[Expr], env: &Env) -> Result<Value> {
    let (lo, hi) = range_bounds(args, env)?;
    charge_work(range_len(lo, hi))?;
    Ok(Value::list((lo..=hi).map(Value::Int).collect()))
}

/// Whether [`each_of`] reads a call of `op` element by element, without building its list.
#[inline(always)]
pub(crate) fn reads_lazily(op: Op) -> bool {
    matches!(op, Op::Map | Op::Concat | Op::Range)
}

/// The elements of a `map`, `concat` or `range` call one by one, as its list would hold
/// them, until `f` breaks: `map`'s per-element argument is computed for each element as
/// it comes (none after the break), `concat` reads its second list only once the first is
/// done, and `range` counts (its bounds checked first, as `range` does). A consumer that
/// stops at a match (`index_of`, `any`, `contains`…) computes nothing past it, as it
/// already did over a filter or a list written out.
#[inline(never)]
pub(crate) fn each_of(
    op: Op,
    args: &[Expr],
    env: &Env,
    f: &mut dyn FnMut(&Value) -> Result<ControlFlow<()>>,
) -> Result<()> {
    match op {
        Op::Map => args[0].each(env, |v| f(&args[1].apply(env, v)?))?,
        Op::Concat => {
            let mut stopped = false;
            args[0].each(env, |v| {
                let flow = f(v)?;
                stopped = flow.is_break();
                Ok(flow)
            })?;
            if !stopped {
                args[1].each(env, f)?;
            }
        }
        Op::Range => {
            let (lo, hi) = range_bounds(args, env)?;
            charge_work(range_len(lo, hi))?;
            for n in lo..=hi {
                if f(&Value::Int(n))?.is_break() {
                    break;
                }
            }
        }
        _ => {
            let items = as_list(call::run(op, args, env)?)?;
            charge_work(items.len() as u64)?;
            for v in items.iter() {
                if f(v)?.is_break() {
                    break;
                }
            }
        }
    }
    Ok(())
}

/// The seat `p` stands for (none is an error naming the built-in).
pub(crate) fn seat(args: &[Expr], env: &Env, name: &str) -> Result<usize> {
    match args[0].eval(env)? {
        Value::Player(p) => Ok(p as usize),
        _ => Err(RuntimeError::new(format!("{name}(none)"))),
    }
}

/// The seats after `p` in order, wrapping round, `p` itself last.
pub(crate) fn seats_after(p: usize, n: usize) -> impl Iterator<Item = Value> {
    (1..=n).map(move |k| Value::Player(((p + k) % n) as u8))
}

pub(crate) fn eval_next_player(args: &[Expr], env: &Env) -> Result<Value> {
    let p = seat(args, env, "next_player")?;
    Ok(Value::Player(((p + 1) % env.state.names.len()) as u8))
}

pub(crate) fn eval_next_player_if(args: &[Expr], env: &Env) -> Result<Value> {
    let p = seat(args, env, "next_player")?;
    for q in seats_after(p, env.state.names.len()) {
        if args[1].apply_bool(env, &q)? {
            return Ok(q);
        }
    }
    Ok(Value::None)
}

pub(crate) fn eval_seats_from(args: &[Expr], env: &Env) -> Result<Value> {
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

pub(crate) fn eval_abs(args: &[Expr], env: &Env) -> Result<Value> {
    let x = args[0].int(env)?;
    x.checked_abs().map(Value::Int).ok_or_else(|| {
        RuntimeError::new(format!(
            "abs({x}) is outside the whole numbers a state holds (−2⁶³ to 2⁶³−1)"
        ))
    })
}

pub(crate) fn eval_text(args: &[Expr], env: &Env) -> Result<Value> {
    let mut out = String::new();
    for part in args {
        let v = part.eval(env)?;
        env.game.write_value(&mut out, &v, &env.state.names);
        // A value's writing stops soon past the bound (see `write_value`).
        if out.len() > MAX_TEXT_BYTES {
            return Err(RuntimeError::new(format!(
                "text: more than {MAX_TEXT_BYTES} bytes; a text holds at most {MAX_TEXT_BYTES}"
            )));
        }
        charge_work(out.len() as u64)?;
    }
    Ok(Value::Str(std::sync::Arc::from(out.as_str())))
}

pub(crate) fn eval_colour(args: &[Expr], env: &Env) -> Result<Value> {
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
        crate::colour::mark_colour(&text, &name).as_str(),
    )))
}

/// The widest `pad` writes: a display line, not a page.
pub(crate) const MAX_PAD: i64 = 1_000;

pub(crate) fn eval_pad(args: &[Expr], env: &Env) -> Result<Value> {
    let mut out = String::new();
    env.game
        .write_value(&mut out, &args[0].eval(env)?, &env.state.names);
    let width = args[1].int(env)?;
    if width > MAX_PAD {
        return Err(RuntimeError::new(format!(
            "pad to {width} characters: at most {MAX_PAD}"
        )));
    }
    let missing = (width.max(0) as usize).saturating_sub(crate::colour::visible_width(&out));
    out.extend(std::iter::repeat_n(' ', missing));
    Ok(Value::Str(std::sync::Arc::from(out.as_str())))
}
