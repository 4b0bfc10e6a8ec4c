//! Parts of per-element arguments that do not read the element, lifted out of them
//! (`Expr::With`).

use super::*;

/// Lifts, bottom-up, the parts of per-element arguments that do not depend on their
/// element: a built-in call (or filter) whose per-element arguments hold such parts
/// becomes an [`Expr::With`] that computes each once, when first read. Only parts worth
/// it (a call, a filter, a search) are lifted, at most [`MAX_HOISTED`] per call.
pub(super) fn hoist_invariants(e: &mut Expr) {
    for child in e.children_mut() {
        hoist_invariants(child);
    }
    let mut values = Vec::new();
    match e {
        Expr::Call { args, .. } => {
            for arg in args.iter_mut() {
                if let Expr::Lambda(body) = arg {
                    lift_invariants(body, &mut values);
                }
            }
        }
        Expr::Filter { cond, .. } => {
            if let Expr::Lambda(body) = &mut **cond {
                lift_invariants(body, &mut values);
            }
        }
        _ => return,
    }
    if !values.is_empty() {
        let body = std::mem::replace(e, Expr::Const(Value::None));
        *e = Expr::With {
            values,
            body: body.boxed(),
        };
    }
}

/// Replaces the largest parts of a per-element argument's body `e` that do not read its
/// element by reads of lifted values (appended to `values`). Parts inside an inner
/// per-element argument or an inner `With` are left: the inner ones lifted theirs.
pub(super) fn lift_invariants(e: &mut Expr, values: &mut Vec<Expr>) {
    if values.len() >= MAX_HOISTED {
        return;
    }
    if worth_lifting(e) && !has_free_hoisted(e, 0) {
        if let Some(lifted) = put_in(e, PutIn::NoElement, 0) {
            values.push(lifted);
            *e = Expr::Hoisted {
                depth: 0,
                index: (values.len() - 1) as u8,
            };
            return;
        }
    }
    if matches!(e, Expr::Lambda(_) | Expr::With { .. }) {
        return;
    }
    for child in e.children_mut() {
        lift_invariants(child, values);
    }
}

/// Whether computing `e` once instead of per element saves work: it calls, filters or
/// searches. Scripts are never lifted, nor the nodes that are not values but name a place
/// where they stand (a board, a two-key entry): their parts may be.
pub(super) fn worth_lifting(e: &Expr) -> bool {
    pub(super) fn costly(e: &Expr) -> bool {
        matches!(
            e,
            Expr::Call { .. }
                | Expr::Function { .. }
                | Expr::Filter { .. }
                | Expr::RowsWhere { .. }
                | Expr::In { .. }
                | Expr::UnrolledTest { .. }
                | Expr::UnrolledTotal { .. }
        ) || e.children().into_iter().any(costly)
    }
    pub(super) fn script(e: &Expr) -> bool {
        matches!(e, Expr::Script { .. }) || e.children().into_iter().any(script)
    }
    !matches!(
        e,
        Expr::Const(_) | Expr::Lambda(_) | Expr::Board(_) | Expr::Pair { .. }
    ) && costly(e)
        && !script(e)
}

/// Whether `e` reads a lifted value of a `With` outside it (`withs`: the `With`s between
/// `e` and the root of the search).
pub(super) fn has_free_hoisted(e: &Expr, withs: u8) -> bool {
    match e {
        Expr::Hoisted { depth, .. } => *depth >= withs,
        Expr::With { values, body } => {
            values.iter().any(|v| has_free_hoisted(v, withs)) || has_free_hoisted(body, withs + 1)
        }
        other => other
            .children()
            .into_iter()
            .any(|c| has_free_hoisted(c, withs)),
    }
}
