//! Searches and totals over constant lists unrolled, one copy of the per-element
//! argument per element.

use super::*;
use crate::id::ZoneSlot;
use crate::ir::Op;

impl Folder<'_> {
    /// Unrolls, bottom-up, each call of a built-in that may be unrolled (`any`, `all`,
    /// `sum`, `count_if`; `map`, into the list written out, [`Expr::List`]) whose list is
    /// a constant of at most [`UNROLL_ELEMENTS`]
    /// elements: the per-element argument is copied once per element with the element put
    /// in, then specialized ([`Folder::specialize`]), into an [`Expr::Unrolled`]. Then no
    /// element is bound at run time, and what each element decides (its columns, the
    /// variable or zone it names, the branches and calls it settles) is folded here. A
    /// call whose copies would hold more than [`UNROLL_NODES`] nodes stays. Whether
    /// anything was unrolled.
    pub(super) fn unroll(&self, e: &mut Expr, bodies: &[Expr]) -> bool {
        let mut changed = false;
        for child in e.children_mut() {
            changed |= self.unroll(child, bodies);
        }
        let Expr::Call { op: call_op, args } = e else {
            return changed;
        };
        // `map` over a constant list is the list written out: one item per element, in
        // order. Its consumers read it as they read the map: all of it where a list is
        // built, item by item up to a match where a search reads it (`Expr::each`).
        if let (Op::Map, [Expr::Const(Value::List(elements)), Expr::Lambda(body)]) =
            (*call_op, args.as_slice())
        {
            if elements.len() > UNROLL_ELEMENTS {
                return changed;
            }
            let Some(items) = self.copies(elements, body, bodies, |item, _| Some(item)) else {
                return changed;
            };
            *e = Expr::List(items);
            return true;
        }
        let (Some(op), [list, Expr::Lambda(body)]) =
            (crate::builtins::of(*call_op).unroll, args.as_slice())
        else {
            return changed;
        };
        // Over a filter of a constant list, each element is first tested by the filter's
        // condition, in the same order: `any(filter(l, c), d)` is `any(l, c and d)`.
        let (elements, filter) = match list {
            Expr::Const(Value::List(elements)) => (elements, None),
            other => match filter_of_constant_list(other) {
                Some((elements, cond)) => (elements, Some(cond)),
                None => return changed,
            },
        };
        if elements.is_empty() || elements.len() > UNROLL_ELEMENTS {
            return changed;
        }
        // Over a filter, an item holds (or counts) only where the filter passes.
        let filtered = |item: Expr, element: &Value| {
            let Some(cond) = filter else {
                return Some(item);
            };
            let passes = put_in(cond, PutIn::Element(element), 0)?;
            Some(match op {
                Unroll::Test(Quantifier::Any) | Unroll::Total(Total::Count) => {
                    Expr::And(passes.boxed(), item.boxed())
                }
                Unroll::Test(Quantifier::All) => {
                    Expr::Or(Expr::Not(passes.boxed()).boxed(), item.boxed())
                }
                Unroll::Total(Total::Sum) => Expr::If {
                    cond: passes.boxed(),
                    then: item.boxed(),
                    otherwise: Expr::Const(Value::Int(0)).boxed(),
                },
            })
        };
        let Some(items) = self.copies(elements, body, bodies, filtered) else {
            return changed;
        };
        *e = op.over(items);
        true
    }

    /// The per-element argument `body` copied once per element with the element put in,
    /// passed through `wrap`, then folded and specialized; none when a copy cannot be
    /// made or the copies would hold more than [`UNROLL_NODES`] nodes.
    fn copies(
        &self,
        elements: &[Value],
        body: &Expr,
        bodies: &[Expr],
        wrap: impl Fn(Expr, &Value) -> Option<Expr>,
    ) -> Option<Vec<Expr>> {
        let mut items = Vec::with_capacity(elements.len());
        let mut nodes = 0;
        for element in elements {
            let mut item = wrap(put_in(body, PutIn::Element(element), 0)?, element)?;
            self.expr(&mut item);
            self.specialize(&mut item, bodies);
            nodes += size(&item);
            if nodes > UNROLL_NODES {
                return None;
            }
            items.push(item);
        }
        Some(items)
    }
}

/// The most elements a constant list may have for a search or total over it to be
/// unrolled, and the most IR nodes the unrolled copies may hold in all.
pub(super) const UNROLL_ELEMENTS: usize = 32;

pub(super) const UNROLL_NODES: usize = 2048;

/// A read of an indexed zone with a constant row for its index, as a read of the one
/// instance that row names.
pub(super) fn fixed_instance(z: &ZoneRead) -> Option<ZoneRead> {
    let r = u32::from(row_code(z.index.as_deref()?)?);
    (r < z.len).then(|| ZoneRead {
        base: ZoneSlot::at(z.base.index() + r as usize),
        len: 1,
        index: None,
        of: z.of,
        name: z.name.clone(),
    })
}

/// An unrolled search or total without the items that cannot change it (a constant
/// false in `any` or `count_if`, true in `all`, 0 in `sum`) nor those after an item that
/// decides it (a constant true in `any`, false in `all`: the call stops there); one item
/// of `any`, `all` or `sum` is that item. None when nothing changes.
pub(super) fn without_neutral_items(op: Unroll, items: &[Expr]) -> Option<Expr> {
    let neutral = |e: &Expr| match (op, e) {
        (
            Unroll::Test(Quantifier::Any) | Unroll::Total(Total::Count),
            Expr::Const(Value::Bool(b)),
        ) => !*b,
        (Unroll::Test(Quantifier::All), Expr::Const(Value::Bool(b))) => *b,
        (Unroll::Total(Total::Sum), Expr::Const(Value::Int(n))) => *n == 0,
        _ => false,
    };
    let decides = |e: &Expr| {
        matches!(
            (op, e),
            (
                Unroll::Test(Quantifier::Any),
                Expr::Const(Value::Bool(true))
            ) | (
                Unroll::Test(Quantifier::All),
                Expr::Const(Value::Bool(false))
            )
        )
    };
    let end = items
        .iter()
        .position(decides)
        .map_or(items.len(), |i| i + 1);
    let kept: Vec<Expr> = items[..end]
        .iter()
        .filter(|e| !neutral(e))
        .cloned()
        .collect();
    let alone = kept.len() == 1 && op != Unroll::Total(Total::Count);
    if kept.len() == items.len() && !alone {
        return None;
    }
    Some(match (op, kept.len()) {
        (Unroll::Test(Quantifier::Any), 0) => Expr::Const(Value::Bool(false)),
        (Unroll::Test(Quantifier::All), 0) => Expr::Const(Value::Bool(true)),
        (Unroll::Total(_), 0) => Expr::Const(Value::Int(0)),
        // The one number of a sum: 0 plus it cannot overflow.
        (_, 1) if alone => kept.into_iter().next()?,
        _ => op.over(kept),
    })
}
