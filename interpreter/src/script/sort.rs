//! `array.sort` for scripts: a stable merge sort that stops at the comparator's first
//! error instead of sorting wrongly or panicking.

use rhai::{Array, Dynamic, Engine, EvalAltResult, FnPtr, NativeCallContext};

use super::Native;

/// `array.sort(|a, b| …)`: Rhai's own takes a comparator's error for "equal" and goes on,
/// so a mistake in it would sort wrongly without a word; and a comparator that is not a
/// total order may make Rust's slice sort panic. This one is a merge sort (stable, like
/// Rhai's) that stops at the comparator's first error and never panics. Registered on
/// the engine itself, it is found before the array package's.
pub(super) fn register_sort(engine: &mut Engine) {
    engine.register_fn(
        "sort",
        |context: NativeCallContext, array: &mut Array, compare: FnPtr| -> Native<()> {
            let items = std::mem::take(array);
            let mut before_or_equal = |a: &Dynamic, b: &Dynamic| -> Native<bool> {
                let order =
                    compare.call_within_context::<Dynamic>(&context, (a.clone(), b.clone()))?;
                let order = order.as_int().map_err(|t| {
                    Box::<EvalAltResult>::from(format!(
                        "sort: the comparator must return a number, not {t}"
                    ))
                })?;
                Ok(order <= 0)
            };
            *array = merge_sort(items, &mut before_or_equal)?;
            Ok(())
        },
    );
}

/// Sorts `items` stably with a fallible comparison (`before_or_equal(a, b)`: whether `a`
/// may stay before `b`). Recursion is as deep as the logarithm of the length.
fn merge_sort(
    mut items: Array,
    before_or_equal: &mut dyn FnMut(&Dynamic, &Dynamic) -> Native<bool>,
) -> Native<Array> {
    if items.len() <= 1 {
        return Ok(items);
    }
    let right = items.split_off(items.len() / 2);
    let (left, right) = (
        merge_sort(items, before_or_equal)?,
        merge_sort(right, before_or_equal)?,
    );
    let mut out = Array::with_capacity(left.len() + right.len());
    let (mut left, mut right) = (left.into_iter().peekable(), right.into_iter().peekable());
    while let (Some(a), Some(b)) = (left.peek(), right.peek()) {
        let next = if before_or_equal(a, b)? {
            left.next()
        } else {
            right.next()
        };
        out.extend(next);
    }
    out.extend(left);
    out.extend(right);
    Ok(out)
}
