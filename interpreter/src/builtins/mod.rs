//! The registry of built-in functions: one entry per function, holding everything the
//! loader and the optimizer know about it (its compile half). The type checker lowers a
//! call through the entry's `lower`, which checks the arguments through `Lowering` (the
//! loader implements it) and picks the [`Op`] the IR records; the optimizer asks `reduce`
//! for a cheaper form and `pure` whether it may fold a call of constants; "did you mean"
//! hints and the check that script functions do not shadow a built-in read `name`; the
//! table of built-ins in docs/rulesets.md is generated from `forms` (a test keeps it in
//! step). The run half of each op is the evaluator's (`eval::call::run`): this module
//! imports neither the loader nor the evaluator.
//!
//! Adding a built-in: its op(s) in [`Op`] (`ir.rs`), one entry in [`BUILTINS`] with its
//! lowering beside the others of its kind (`list.rs`, `seats.rs`, `text.rs`, `board.rs`,
//! `geometry.rs`, `knowledge.rs`), and each op's evaluation in `eval/` with its arm in
//! `eval/call.rs` and its `Signature` in `signature.rs` (neither compiles without it).

mod board;
mod geometry;
mod knowledge;
pub(crate) mod list;
mod reduce;
mod seats;
pub mod signature;
mod text;

pub use list::{MAX_LIST_ELEMENTS, MAX_RANGE, MAX_TEXT_BYTES};

use std::sync::OnceLock;

use frontier_grammar::Span;

use crate::ir::{BoardRead, Expr, Op};
use crate::value::{TableId, Type, Value};

/// A lowered expression and its static type.
pub(crate) type Compiled = (Expr, Type);

/// What a failed lowering gives: a placeholder whose type accepts anything, so that one
/// mistake is reported once.
pub(crate) fn nothing() -> Compiled {
    (Expr::Const(Value::None), Type::Any)
}

/// The IR node of a call of `op` on these lowered arguments.
pub(crate) fn call(op: Op, args: Vec<Expr>) -> Expr {
    Expr::Call { op, args }
}

/// A built-in's strength reduction: a cheaper node for a call with these arguments.
pub(crate) type Reduce = fn(&[Expr]) -> Option<Expr>;

/// The type checker as a built-in's lowering sees it, for one call: its arguments by
/// position, lowered and checked on request, and where to report a problem.
pub(crate) trait Lowering {
    /// The built-in's name, for messages.
    fn name(&self) -> &'static str;
    /// Where the call stands.
    fn span(&self) -> Span;
    fn arg_count(&self) -> usize;
    fn arg_span(&self, i: usize) -> Span;
    /// Whether the call has one of these numbers of arguments (reported if not).
    fn arity(&mut self, counts: &[usize]) -> bool;
    /// Argument `i`, lowered, with its type.
    fn compile(&mut self, i: usize) -> Compiled;
    /// Argument `i`, lowered and checked to be of type `want`.
    fn expect(&mut self, i: usize, want: &Type) -> Expr;
    /// Argument `i` as a list, and its element type.
    fn list_arg(&mut self, i: usize) -> (Expr, Type);
    /// Argument `i` as a per-element argument (a lambda) over elements of type `elem`.
    fn per_element(&mut self, i: usize, elem: &Type) -> Compiled;
    /// Argument `i` as a board instance.
    fn board_read(&mut self, i: usize) -> Option<BoardRead>;
    fn report(&mut self, span: Span, message: String);
    /// A type as messages name it.
    fn type_name(&self, ty: &Type) -> String;
    /// The type both `a` and `b` may be read as (reported if none, the message saying
    /// what differs: `differ`, then both types).
    fn unify(&mut self, span: Span, a: &Type, b: &Type, differ: &str) -> Type;
    /// Whether table `t` is a map (has a geometry: hexes, squares or listed neighbours).
    fn is_hex_table(&self, t: TableId) -> bool;
    /// Whether map `t`'s rows have coordinates.
    fn has_coordinates(&self, t: TableId) -> bool;
    fn table_name(&self, t: TableId) -> String;
    /// Reports `message` at `span` and gives [`nothing`].
    fn error(&mut self, span: Span, message: String) -> Compiled {
        self.report(span, message);
        nothing()
    }
}

pub struct Builtin {
    pub name: &'static str,
    /// Each way it is called, as the docs list it.
    pub forms: &'static [Form],
    /// Type-checks a call and lowers it to IR.
    pub(crate) lower: fn(&mut dyn Lowering) -> Compiled,
    /// The ops its lowering may choose: each op belongs to exactly one built-in.
    pub ops: &'static [Op],
    /// A cheaper form of a call with these (already optimized) arguments, if any.
    pub(crate) reduce: Option<Reduce>,
    /// The result depends only on the arguments: a call of constants may be folded.
    pub pure: bool,
    /// How a call of a per-element argument over a constant list is unrolled (one copy
    /// of the argument per element, see [`Expr::UnrolledTest`](crate::ir::Expr::UnrolledTest)),
    /// when it may be.
    pub(crate) unroll: Option<crate::ir::Unroll>,
}

impl std::fmt::Debug for Builtin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// One way of calling a built-in: the call, the type of its result, what it gives.
pub struct Form {
    pub call: &'static str,
    pub result: &'static str,
    pub meaning: &'static str,
}

/// The built-in an op belongs to.
pub fn of(op: Op) -> &'static Builtin {
    static BY_OP: OnceLock<Vec<&'static Builtin>> = OnceLock::new();
    let by_op = BY_OP.get_or_init(|| {
        Op::ALL
            .iter()
            .map(|op| {
                BUILTINS
                    .iter()
                    .find(|b| b.ops.contains(op))
                    .unwrap_or_else(|| panic!("{op:?} belongs to no built-in"))
            })
            .collect()
    });
    by_op[op as usize]
}

pub static BUILTINS: &[Builtin] = &[
    list::LEN,
    list::COUNT,
    list::COUNT_IF,
    list::SUM,
    list::MIN,
    list::MAX,
    list::ARGMAX,
    list::ARGMIN,
    list::FIRST,
    list::LAST,
    list::TAKE,
    list::DROP,
    list::FILTER,
    list::MAP,
    list::SORT_BY,
    list::REVERSE,
    list::ANY,
    list::FIND,
    list::ALL,
    list::CONTAINS,
    list::INDEX_OF,
    list::RANGE,
    seats::NEXT_PLAYER,
    seats::SEATS_FROM,
    text::ABS,
    list::CONCAT,
    text::TEXT,
    text::PAD,
    text::COLOUR,
    board::CELLS,
    board::AT,
    board::GROUPS,
    board::HOLES,
    board::PLACEMENTS,
    board::POS,
    board::NEIGHBOURS,
    board::ROTATE,
    geometry::COMPONENTS,
    geometry::LINES,
    geometry::ON_EDGE,
    geometry::DISTANCE,
    geometry::STEP,
    geometry::RAY,
    knowledge::KNOWS,
];

/// The built-in of this name.
pub fn find(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}

pub fn names() -> impl Iterator<Item = &'static str> {
    BUILTINS.iter().map(|b| b.name)
}

pub fn is_builtin(name: &str) -> bool {
    find(name).is_some()
}

/// The table of built-ins as docs/rulesets.md shows it (generated from the registry;
/// a test keeps the docs in step).
pub fn markdown_table() -> String {
    let mut out = String::from("| Call | Result | Meaning |\n|---|---|---|\n");
    for form in BUILTINS.iter().flat_map(|b| b.forms) {
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            form.call, form.result, form.meaning
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        let mut names: Vec<&str> = names().collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len(), "a built-in is registered twice");
    }

    #[test]
    fn every_op_belongs_to_exactly_one_built_in() {
        for (i, op) in Op::ALL.iter().enumerate() {
            assert_eq!(*op as usize, i, "Op::ALL is in declaration order");
            let owners: Vec<&str> = BUILTINS
                .iter()
                .filter(|b| b.ops.contains(op))
                .map(|b| b.name)
                .collect();
            assert_eq!(owners.len(), 1, "{op:?} belongs to {owners:?}");
            assert_eq!(of(*op).name, owners[0]);
        }
    }

    #[test]
    fn every_built_in_is_documented_by_calls_of_its_name() {
        for b in BUILTINS {
            assert!(!b.forms.is_empty(), "{} has no documented call", b.name);
            for form in b.forms {
                assert!(
                    form.call.starts_with(&format!("{}(", b.name)),
                    "{}: {}",
                    b.name,
                    form.call
                );
                assert!(
                    !form.result.is_empty() && !form.meaning.is_empty(),
                    "{}: {}",
                    b.name,
                    form.call
                );
            }
        }
    }
}
