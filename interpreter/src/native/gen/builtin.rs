//! The built-in calls generated code does itself (`min`, `max`, `next_player`, `count`,
//! `sort_by`, `take`, `any`, `all`), and the elements of a list as a Rust iterator.

use super::{element, Gen};
use crate::ir::{Expr, Op};

impl<'g> Gen<'g> {
    /// A built-in call in Rust, for the built-ins generated code knows (by their op: a
    /// form of a built-in is one op); none for the others.
    pub(super) fn builtin(&mut self, op: Op, args: &'g [Expr]) -> Option<BuiltinCode> {
        let is = |o: Op| op == o;
        if (is(Op::Min) || is(Op::Max)) && !args.is_empty() {
            let pick = if is(Op::Min) { "min" } else { "max" };
            let mut terms = args.iter().map(|a| self.int(a));
            let first = terms.next()?;
            return Some(BuiltinCode::Int(
                terms.fold(first, |acc, t| format!("{acc}.{pick}({t})")),
            ));
        }
        if is(Op::NextPlayer) && args.len() == 1 {
            let p = self.value(&args[0]);
            return Some(BuiltinCode::Value(format!(
                "(match {p} {{ Value::Player(p) => Value::Player(((p as usize + 1) % cx.state.names().len()) as u8), _ => return Err(Stop::Bail) }})"
            )));
        }
        if is(Op::Count) && args.len() == 2 {
            // A local list is read where it lies.
            let list = match &args[0] {
                Expr::Local(slot) => format!("l[{}]", slot.index()),
                list => self.value(list),
            };
            return Some(BuiltinCode::Int(format!(
                "{{ let x = {}; count_in(&{list}, &x) }}",
                self.value(&args[1])
            )));
        }
        if let (true, [list, Expr::Lambda(key)], false) = (is(Op::SortBy), args, self.it) {
            // Stable, as the walker's: equal keys keep their order.
            if !plain_body(key) {
                return None;
            }
            self.it = true;
            let key = self.int(key);
            self.it = false;
            let list = self.elements(list);
            return Some(BuiltinCode::Value(format!(
                "{{ let mut keyed: Vec<(i64, Value)> = Vec::with_capacity(8); for it in {list} {{ let k = {{ let it = &it; {key} }}; keyed.push((k, it)); }} keyed.sort_by_key(|(k, _)| *k); Value::list(keyed.into_iter().map(|(_, v)| v).collect()) }}"
            )));
        }
        if is(Op::Take) && args.len() == 2 {
            return Some(BuiltinCode::Value(format!(
                "take_list({}, {})?",
                self.value(&args[0]),
                self.int(&args[1])
            )));
        }
        let quantifier = if is(Op::Any) {
            Some(true)
        } else if is(Op::All) {
            Some(false)
        } else {
            None
        };
        if let (Some(any), [list, Expr::Lambda(body)], false) = (quantifier, args, self.it) {
            if !plain_body(body) {
                return None;
            }
            self.it = true;
            let test = self.truth(body);
            self.it = false;
            let (list, decides) = (self.elements(list), any);
            return Some(BuiltinCode::Bool(format!(
                "{{ let mut found = {}; for it in {list} {{ let it = &it; if {test} == {decides} {{ found = {decides}; break; }} }} found }}",
                !decides
            )));
        }
        None
    }

    /// The elements of a list, as a Rust iterator of `Value`s: the players and zones where
    /// they lie, other lists built by the walker.
    fn elements(&mut self, list: &'g Expr) -> String {
        match list {
            Expr::Players => "(0..cx.state.names().len()).map(|p| Value::Player(p as u8))".to_string(),
            Expr::Zone(z) => format!("{{ let z = {}; let cx = &*cx; (0..cx.state.zones()[z].len()).map(move |at| cx.element(z, at, {})) }}", self.instance(z), element(z.of)),
            _ => format!("{{ let items = as_list({})?; (0..items.len()).map(move |at| items[at].clone()) }}", self.value(list)),
        }
    }
}

/// A built-in call generated in Rust, by the type of its value.
pub(super) enum BuiltinCode {
    Int(String),
    Bool(String),
    Value(String),
}

/// Whether a per-element argument's body can be generated with its element in a Rust
/// variable: it reads no enclosing element and no lifted value.
fn plain_body(e: &Expr) -> bool {
    !matches!(e, Expr::Outer(_) | Expr::Hoisted { .. } | Expr::With { .. })
        && e.children().into_iter().all(plain_body)
}
