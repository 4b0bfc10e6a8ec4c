//! Reductions of built-in calls to cheaper IR that the lists' `reduce` and the optimizer
//! share: a count that only asks whether there is one (`count_test`), a search of a
//! table's rows by a column (`rows_where`).

use crate::ir::{Expr, Key, Op};
use crate::value::Value;

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
        Expr::Call {
            op: Op::CountIf,
            args,
        } => Expr::Call {
            op: Op::Any,
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

/// A search of every row of a table for those whose column equals a key, as an index
/// read: `list` is all the rows of one table in order and `cond` is `r => r.column ==
/// key` or `r => r.column == key and rest`, where the key does not depend on the row.
/// Gives the rows where the column holds the key's value ([`Expr::RowsWhere`]) and the
/// condition left to test on them (`rest`, or true). The order of the rows is kept, so a
/// consumer sees the rows that pass in the same order.
pub(crate) fn rows_where(list: &Expr, cond: &Expr) -> Option<(Expr, Expr)> {
    let Expr::Const(Value::List(rows)) = list else {
        return None;
    };
    let table = match rows.first()? {
        Value::Row(t, _) => *t,
        _ => return None,
    };
    let every_row = rows
        .iter()
        .enumerate()
        .all(|(i, v)| matches!(v, Value::Row(t, r) if *t == table && *r as usize == i));
    let Expr::Lambda(body) = cond else {
        return None;
    };
    let (test, rest) = match &**body {
        Expr::And(a, b) => (&**a, Some(&**b)),
        other => (other, None),
    };
    let Expr::Same {
        a,
        b,
        negate: false,
    } = test
    else {
        return None;
    };
    let (values, key) = match (&**a, &**b) {
        (
            Expr::ColumnKey {
                values,
                key: Key::It,
                ..
            },
            other,
        )
        | (
            other,
            Expr::ColumnKey {
                values,
                key: Key::It,
                ..
            },
        ) => (values, outside_element(other)?),
        _ => return None,
    };
    if !every_row || values.len() != rows.len() {
        return None;
    }
    let mut groups: Vec<Vec<u16>> = Vec::new();
    for (row, v) in values.iter().enumerate() {
        let group = match v {
            Value::None => 0,
            Value::Player(p) => *p as usize + 1,
            Value::Row(_, r) => *r as usize + 1,
            _ => return None,
        };
        if groups.len() <= group {
            groups.resize(group + 1, Vec::new());
        }
        groups[group].push(row as u16);
    }
    let groups = groups.into_iter().map(Vec::into_boxed_slice).collect();
    let rest = rest.cloned().unwrap_or(Expr::Const(Value::Bool(true)));
    Some((
        Expr::RowsWhere {
            table,
            groups,
            key: key.boxed(),
        },
        Expr::Lambda(rest.boxed()),
    ))
}

/// An expression of a per-element argument that does not read the element, as it reads
/// outside that argument (an enclosing element is one level nearer): only plain reads.
fn outside_element(e: &Expr) -> Option<Expr> {
    Some(match e {
        Expr::Const(_) | Expr::Local(_) | Expr::Param(_) | Expr::Var { .. } => e.clone(),
        Expr::Outer(1) => Expr::It,
        Expr::Outer(k) if *k > 1 => Expr::Outer(*k - 1),
        _ => return None,
    })
}
