//! Calls of the ruleset's functions inlined, and `put_in`: a value put in for a read.

use super::*;

/// The largest function body (in IR nodes) that a call is replaced by.
pub(super) const INLINE_NODES: usize = 48;

/// The functions in an order where each comes after the functions its body calls (the
/// loader refuses recursion, so there is one).
pub(super) fn inline_order(bodies: &[Expr]) -> Vec<usize> {
    pub(super) fn visit(id: usize, bodies: &[Expr], done: &mut [bool], order: &mut Vec<usize>) {
        if done[id] {
            return;
        }
        done[id] = true;
        let mut callees = Vec::new();
        calls(&bodies[id], &mut callees);
        for callee in callees {
            visit(callee, bodies, done, order);
        }
        order.push(id);
    }
    pub(super) fn calls(e: &Expr, out: &mut Vec<usize>) {
        if let Expr::Function { id, .. } = e {
            out.push(id.index());
        }
        e.children().into_iter().for_each(|c| calls(c, out));
    }
    let mut done = vec![false; bodies.len()];
    let mut order = Vec::with_capacity(bodies.len());
    for id in 0..bodies.len() {
        visit(id, bodies, &mut done, &mut order);
    }
    order
}

/// Which calls [`inline`] replaces by the callee's body, from the call's arguments and
/// the body.
pub(super) type InlinePolicy = fn(&[Expr], &Expr) -> bool;

/// A small function whose arguments are plain reads (a constant, a local, a parameter,
/// `it`, a variable): the call's frame, argument values and environment disappear. Such
/// an argument cannot fail and costs what the parameter read did, so reading it where the
/// body reads the parameter, as often as it does, changes nothing the game does.
pub(super) fn small_with_plain_reads(args: &[Expr], body: &Expr) -> bool {
    args.iter().all(plain_read) && size(body) <= INLINE_NODES
}

/// A function whose arguments are all constants, whatever its size: what the constants
/// decide folds away.
pub(super) fn constant_arguments(args: &[Expr], _body: &Expr) -> bool {
    args.iter().all(|a| matches!(a, Expr::Const(_)))
}

/// Replaces each call that `policy` accepts by the function's body with the arguments put
/// in for its parameters. Functions without parameters stay calls: an option listing
/// computes them once. Whether anything was inlined.
pub(super) fn inline(e: &mut Expr, bodies: &[Expr], policy: InlinePolicy) -> bool {
    let mut changed = false;
    for child in e.children_mut() {
        changed |= inline(child, bodies, policy);
    }
    if let Expr::Function { id, args } = e {
        let body = &bodies[id.index()];
        if !args.is_empty() && policy(args, body) {
            if let Some(inlined) = put_in(body, PutIn::Params(args), 0) {
                *e = inlined;
                changed = true;
            }
        }
    }
    changed
}

/// A true/false test that cannot fail: comparisons, negations and connectives of
/// constants and state variables (a variable's slot is checked at load).
pub(super) fn cannot_fail(e: &Expr) -> bool {
    let number = |e: &Expr| {
        matches!(
            e,
            Expr::Const(Value::Int(_))
                | Expr::Var {
                    code: Code::Int,
                    ..
                }
                | Expr::PlayerCount
        )
    };
    match e {
        Expr::Const(Value::Bool(_))
        | Expr::Var {
            code: Code::Bool, ..
        } => true,
        Expr::Compare { a, b, .. } => number(a) && number(b),
        Expr::Not(a) => cannot_fail(a),
        Expr::And(a, b) | Expr::Or(a, b) => cannot_fail(a) && cannot_fail(b),
        _ => false,
    }
}

/// Reads that cannot fail and cost no more than reading a parameter.
pub(super) fn plain_read(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Const(_)
            | Expr::Local(_)
            | Expr::Param(_)
            | Expr::It
            | Expr::Outer(_)
            | Expr::Var { .. }
            | Expr::PlayerCount
    )
}

pub(super) fn size(e: &Expr) -> usize {
    1 + e.children().into_iter().map(size).sum::<usize>()
}

/// What [`put_in`] puts in place of the reads of something an expression reads.
#[derive(Clone, Copy)]
pub(super) enum PutIn<'a> {
    /// A local (an option's `for:` variable) read as a constant: a condition for one row.
    Local(crate::ir::Slot, &'a Value),
    /// A function body's parameters read as a call's arguments: the call inlined.
    Params(&'a [Expr]),
    /// The element of a per-element argument read as a constant: the argument's body, no
    /// longer per element (unrolled), so enclosing elements come one level nearer.
    Element(&'a Value),
    /// The same without an element, for a part that must not read it (lifted out of the
    /// argument): none where it does.
    NoElement,
}

/// `e`, `depth` per-element arguments deep inside the expression being rewritten, with
/// `what` put in for what it reads; none where that cannot be (the element read with no
/// element to put in, nesting past 255).
pub(super) fn put_in(e: &Expr, what: PutIn, depth: u8) -> Option<Expr> {
    let mut out = match e {
        Expr::Local(_) | Expr::Param(_) | Expr::It | Expr::Outer(_) => return what.read(e, depth),
        // A keyed read whose key is put in reads by the new key, or by index.
        Expr::VarAtKey {
            base,
            code,
            key,
            name,
        } => match what.read_key(*key, depth)? {
            Keyed::Key(key) => Expr::VarAtKey {
                base: *base,
                code: *code,
                key,
                name: name.clone(),
            },
            Keyed::Index(index) => Expr::VarAt {
                base: *base,
                code: *code,
                index: index.boxed(),
                name: name.clone(),
            },
        },
        Expr::ColumnKey { values, key, name } => match what.read_key(*key, depth)? {
            Keyed::Key(key) => Expr::ColumnKey {
                values: values.clone(),
                key,
                name: name.clone(),
            },
            Keyed::Index(row) => Expr::Column {
                values: values.clone(),
                row: row.boxed(),
                name: name.clone(),
            },
        },
        other => other.clone(),
    };
    let depth = if matches!(out, Expr::Lambda(_)) {
        depth.checked_add(1)?
    } else {
        depth
    };
    for child in out.children_mut() {
        *child = put_in(child, what, depth)?;
    }
    Some(out)
}

impl PutIn<'_> {
    /// A plain read (a local, a parameter, `it`, an enclosing element), `depth`
    /// per-element arguments deep, with `self` put in.
    pub(super) fn read(self, e: &Expr, depth: u8) -> Option<Expr> {
        let element = |value: Option<&Value>| value.map(|v| Expr::Const(v.clone()));
        match (self, e) {
            (PutIn::Local(slot, value), Expr::Local(s)) if *s == slot => {
                Some(Expr::Const(value.clone()))
            }
            // An argument that reads the caller's element reads it from `depth` levels out.
            (PutIn::Params(args), Expr::Param(i)) => Some(match args.get(*i as usize)? {
                Expr::It if depth > 0 => Expr::Outer(depth),
                Expr::Outer(k) => Expr::Outer(k.checked_add(depth)?),
                other => other.clone(),
            }),
            (PutIn::Element(v), Expr::It) if depth == 0 => element(Some(v)),
            (PutIn::NoElement, Expr::It) if depth == 0 => element(None),
            (PutIn::Element(v), Expr::Outer(k)) if *k == depth => element(Some(v)),
            (PutIn::NoElement, Expr::Outer(k)) if *k == depth => element(None),
            (PutIn::Element(_) | PutIn::NoElement, Expr::Outer(k)) if *k > depth => {
                Some(if *k == 1 {
                    Expr::It
                } else {
                    Expr::Outer(*k - 1)
                })
            }
            _ => Some(e.clone()),
        }
    }

    /// The key of a keyed read (`var[key]`, `key.column`) with `self` put in: still a key,
    /// or an expression to read by.
    pub(super) fn read_key(self, key: Key, depth: u8) -> Option<Keyed> {
        let Some(read) = key.plain_read() else {
            return Some(Keyed::Key(key));
        };
        let read = self.read(&read, depth)?;
        Some(match Key::of(&read) {
            Some(key) => Keyed::Key(key),
            None => Keyed::Index(read),
        })
    }
}

/// What a keyed read reads by once something is put in for its key.
pub(super) enum Keyed {
    Key(Key),
    Index(Expr),
}

#[cfg(test)]
mod tests {
    /// `put_in` with each kind of read, written out as the IR's printed form. The element
    /// of the argument being taken apart is `It` at its own level and `Outer(k)` from `k`
    /// per-element arguments inside it.
    mod put_in {
        use super::super::{put_in, PutIn};
        use crate::ir::{Expr, Slot};
        use crate::value::Value;

        fn lambda(body: Expr) -> Expr {
            Expr::Lambda(Box::new(body))
        }
        fn pair(a: Expr, b: Expr) -> Expr {
            Expr::And(Box::new(a), Box::new(b))
        }
        fn check(e: Expr, what: PutIn, expected: Option<Expr>) {
            assert_eq!(
                format!("{:?}", put_in(&e, what, 0)),
                format!("{expected:?}"),
                "in {e:?}"
            );
        }

        #[test]
        fn an_element_put_in_brings_enclosing_elements_one_level_nearer() {
            let seven = Value::Int(7);
            let c = || Expr::Const(Value::Int(7));
            // `it` is the element; inside an inner argument `it` is the inner element and
            // `Outer(1)` the element; `Outer(2)` there was an element enclosing the one
            // put in, one level out, so it becomes `Outer(1)`; at the top, `Outer(1)` was
            // the enclosing element and becomes `it`.
            check(Expr::It, PutIn::Element(&seven), Some(c()));
            check(
                lambda(pair(Expr::It, Expr::Outer(1))),
                PutIn::Element(&seven),
                Some(lambda(pair(Expr::It, c()))),
            );
            check(
                lambda(Expr::Outer(2)),
                PutIn::Element(&seven),
                Some(lambda(Expr::Outer(1))),
            );
            check(Expr::Outer(1), PutIn::Element(&seven), Some(Expr::It));
        }

        #[test]
        fn a_part_without_an_element_must_not_read_it() {
            check(Expr::It, PutIn::NoElement, None);
            check(lambda(Expr::Outer(1)), PutIn::NoElement, None);
            check(
                lambda(pair(Expr::It, Expr::Outer(2))),
                PutIn::NoElement,
                Some(lambda(pair(Expr::It, Expr::Outer(1)))),
            );
            check(
                Expr::Local(Slot::at(0)),
                PutIn::NoElement,
                Some(Expr::Local(Slot::at(0))),
            );
        }

        #[test]
        fn arguments_that_read_the_callers_element_read_it_from_further_out() {
            // f(it, Outer(1)) with body `p0 and p1`, and `any(l, p0)` (p0 one level in).
            let args = [Expr::It, Expr::Outer(1)];
            check(
                pair(Expr::Param(0), Expr::Param(1)),
                PutIn::Params(&args),
                Some(pair(Expr::It, Expr::Outer(1))),
            );
            check(
                lambda(pair(Expr::Param(0), Expr::Param(1))),
                PutIn::Params(&args),
                Some(lambda(pair(Expr::Outer(1), Expr::Outer(2)))),
            );
        }

        #[test]
        fn a_local_put_in_is_read_at_any_depth() {
            let row = Value::Int(3);
            let c = || Expr::Const(Value::Int(3));
            check(
                lambda(pair(Expr::Local(Slot::at(1)), Expr::Local(Slot::at(2)))),
                PutIn::Local(Slot::at(1), &row),
                Some(lambda(pair(c(), Expr::Local(Slot::at(2))))),
            );
            check(Expr::It, PutIn::Local(Slot::at(1), &row), Some(Expr::It));
        }
    }
}
