//! The optimizer's rewrite of one node, its children already rewritten: folding,
//! dead branches, strength reduction, searches in place, superinstructions. Its dispatch
//! names every kind of node, so that a new one is placed among them knowingly.

use super::*;
use crate::id::IntSlot;
use crate::ir::ArithOp;

/// A constant number.
fn int(e: &Expr) -> Option<i64> {
    match e {
        Expr::Const(Value::Int(n)) => Some(*n),
        _ => None,
    }
}

/// A constant true/false.
fn boolean(e: &Expr) -> Option<bool> {
    match e {
        Expr::Const(Value::Bool(b)) => Some(*b),
        _ => None,
    }
}

impl Folder<'_> {
    /// A cheaper node for `e`, if there is one.
    pub(super) fn rewrite(&self, e: &Expr) -> Option<Expr> {
        match e {
            Expr::Arith { op, a, b, .. } => match (int(a), int(b)) {
                (Some(x), Some(y)) => arith(*op, x, y).map(|n| Expr::Const(Value::Int(n))),
                _ => identity(*op, a, b),
            },
            Expr::Neg(a, _) => int(a)?.checked_neg().map(|n| Expr::Const(Value::Int(n))),
            Expr::Compare { op, a, b } => match (int(a), int(b)) {
                (Some(x), Some(y)) => Some(Expr::Const(Value::Bool(op.holds(x, y)))),
                (None, Some(n)) => crate::builtins::list::count_test(*op, a, n),
                _ => None,
            },
            Expr::Not(a) => negated(a),
            Expr::And(a, b) => and(a, b),
            Expr::Or(a, b) => or(a, b),
            Expr::If {
                cond,
                then,
                otherwise,
            } => Some(if boolean(cond)? {
                (**then).clone()
            } else {
                (**otherwise).clone()
            }),
            Expr::Call { op, args } => {
                let builtin = crate::builtins::of(*op);
                if let Some(reduced) = builtin.reduce.and_then(|reduce| reduce(args)) {
                    return Some(reduced);
                }
                (builtin.pure && args.iter().all(|a| closed(a, It::Unbound)))
                    .then(|| self.fold(e))
                    .flatten()
            }
            Expr::Column { .. }
            | Expr::RowId(_)
            | Expr::Equal { .. }
            | Expr::Same { .. }
            | Expr::In { .. }
            | Expr::Index { .. }
            | Expr::RowAt { .. }
            | Expr::RowNumber { .. }
            | Expr::Filter { .. }
            | Expr::RowsWhere { .. }
            | Expr::List(_)
            | Expr::UnrolledTest { .. }
            | Expr::UnrolledTotal { .. }
            | Expr::IsNone { .. }
                if closed(e, It::Unbound) =>
            {
                self.fold(e)
            }
            Expr::Index { list, at } => row_at(list, at),
            Expr::Filter { list, cond } => {
                crate::builtins::list::rows_where(list, cond).map(|(list, cond)| Expr::Filter {
                    list: list.boxed(),
                    cond: cond.boxed(),
                })
            }
            // `x in zone` searches the zone where it lies.
            Expr::In { item, list } => match &**list {
                Expr::Zone(z) => Some(Expr::ZoneContains(z.clone(), item.clone())),
                _ => None,
            },
            Expr::VarAt {
                base,
                code,
                index,
                name,
            } => self.var_at(*base, *code, index, name),
            Expr::Zone(z) => fixed_instance(z).map(Expr::Zone),
            Expr::ZoneLen(z) => fixed_instance(z).map(Expr::ZoneLen),
            Expr::ZoneFirst(z) => fixed_instance(z).map(Expr::ZoneFirst),
            Expr::ZoneLast(z) => fixed_instance(z).map(Expr::ZoneLast),
            Expr::ZoneCount(z, x) => fixed_instance(z).map(|z| Expr::ZoneCount(z, x.clone())),
            Expr::ZoneContains(z, x) => fixed_instance(z).map(|z| Expr::ZoneContains(z, x.clone())),
            Expr::ZoneIndexOf(z, x) => fixed_instance(z).map(|z| Expr::ZoneIndexOf(z, x.clone())),
            Expr::UnrolledTest { op, items } => without_neutral_items(Unroll::Test(*op), items),
            Expr::UnrolledTotal { op, items } => without_neutral_items(Unroll::Total(*op), items),
            Expr::Column { values, row, name } => Key::of(row).map(|key| Expr::ColumnKey {
                values: values.clone(),
                key,
                name: name.clone(),
            }),
            Expr::Equal { a, b, negate } | Expr::Same { a, b, negate } => none_test(a, b, *negate),
            // Nothing cheaper: reads that are single nodes already, and nodes made by
            // the passes themselves.
            Expr::Const(_)
            | Expr::Local(_)
            | Expr::It
            | Expr::Outer(_)
            | Expr::Players
            | Expr::PlayerCount
            | Expr::Param(_)
            | Expr::Function { .. }
            | Expr::Var { .. }
            | Expr::VarAtKey { .. }
            | Expr::Pair { .. }
            | Expr::ColumnKey { .. }
            | Expr::IsNone { .. }
            | Expr::RowId(_)
            | Expr::PosRow(_)
            | Expr::PosCol(_)
            | Expr::RowsWhere { .. }
            | Expr::RowAt { .. }
            | Expr::RowNumber { .. }
            | Expr::List(_)
            | Expr::Lambda(_)
            | Expr::With { .. }
            | Expr::Hoisted { .. }
            | Expr::Board(_)
            | Expr::Script { .. } => None,
            // A constant value is put in where the body reads it.
            Expr::Let { value, body } => match (&**value, &**body) {
                (Expr::Const(v), Expr::Lambda(inner)) => {
                    super::inline::put_in(inner, super::inline::PutIn::Element(v), 0)
                }
                _ => None,
            },
        }
    }

    /// Superinstructions: an index or row that is a local, `it` or a variable is read by
    /// the node itself; a constant row gives the variable's slot.
    fn var_at(
        &self,
        base: IntSlot,
        code: Code,
        index: &Expr,
        name: &std::sync::Arc<str>,
    ) -> Option<Expr> {
        match row_code(index) {
            Some(r) => {
                let slot = base.index() + r as usize;
                (slot < self.env.state.ints.len()).then_some(Expr::Var {
                    slot: IntSlot::at(slot),
                    code,
                })
            }
            None => Key::of(index).map(|key| Expr::VarAtKey {
                base,
                code,
                key,
                name: name.clone(),
            }),
        }
    }
}

/// Arithmetic with its identity, `a + 0`, `0 + a`, `a - 0`, `a * 1`, `1 * a`, `a / 1`:
/// the number `a`, whose own errors stand (the operation adds none).
fn identity(op: ArithOp, a: &Expr, b: &Expr) -> Option<Expr> {
    let kept = match (op, int(a), int(b)) {
        (ArithOp::Add, _, Some(0))
        | (ArithOp::Sub, _, Some(0))
        | (ArithOp::Mul, _, Some(1))
        | (ArithOp::Div, _, Some(1)) => a,
        (ArithOp::Add, Some(0), _) | (ArithOp::Mul, Some(1), _) => b,
        _ => return None,
    };
    Some(kept.clone())
}

/// A negation goes into the test it negates: one node fewer to evaluate.
fn negated(a: &Expr) -> Option<Expr> {
    match a {
        Expr::Const(Value::Bool(b)) => Some(Expr::Const(Value::Bool(!b))),
        Expr::Not(inner) => Some((**inner).clone()),
        Expr::Compare { op, a, b } => Some(Expr::Compare {
            op: op.negated(),
            a: a.clone(),
            b: b.clone(),
        }),
        Expr::IsNone { value, negate } => Some(Expr::IsNone {
            value: value.clone(),
            negate: !negate,
        }),
        Expr::Same { a, b, negate } => Some(Expr::Same {
            a: a.clone(),
            b: b.clone(),
            negate: !negate,
        }),
        Expr::Equal { a, b, negate } => Some(Expr::Equal {
            a: a.clone(),
            b: b.clone(),
            negate: !negate,
        }),
        _ => None,
    }
}

// A constant on the right decides only once the left is read: `x and true` is x; `x and
// false` is false when x cannot fail (else x's error stands).
fn and(a: &Expr, b: &Expr) -> Option<Expr> {
    match (boolean(a), boolean(b)) {
        (Some(false), _) => Some(Expr::Const(Value::Bool(false))),
        (Some(true), _) => Some(b.clone()),
        (None, Some(true)) => Some(a.clone()),
        (None, Some(false)) => cannot_fail(a).then_some(Expr::Const(Value::Bool(false))),
        (None, None) => None,
    }
}

fn or(a: &Expr, b: &Expr) -> Option<Expr> {
    match (boolean(a), boolean(b)) {
        (Some(true), _) => Some(Expr::Const(Value::Bool(true))),
        (Some(false), _) => Some(b.clone()),
        (None, Some(false)) => Some(a.clone()),
        (None, Some(true)) => cannot_fail(a).then_some(Expr::Const(Value::Bool(true))),
        (None, None) => None,
    }
}

/// Every row of a table indexed by position: the row of that number.
fn row_at(list: &Expr, at: &Expr) -> Option<Expr> {
    let Expr::Const(Value::List(rows)) = list else {
        return None;
    };
    let Some(Value::Row(table, 0)) = rows.first() else {
        return None;
    };
    let count = u16::try_from(rows.len()).ok()?;
    let in_order = rows
        .iter()
        .enumerate()
        .all(|(i, r)| *r == Value::Row(*table, i as u16));
    in_order.then(|| Expr::RowAt {
        table: *table,
        count,
        at: at.clone().boxed(),
    })
}

/// A comparison with none tests the code.
fn none_test(a: &Expr, b: &Expr, negate: bool) -> Option<Expr> {
    match (a, b) {
        (Expr::Const(Value::None), other) | (other, Expr::Const(Value::None)) => {
            Some(Expr::IsNone {
                value: other.clone().boxed(),
                negate,
            })
        }
        _ => None,
    }
}
