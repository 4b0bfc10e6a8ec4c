//! The registry of built-in functions: one entry per function, holding everything the
//! rest of the interpreter knows about it. The type checker lowers a call through the
//! entry's `lower` (which checks the arguments and picks an evaluation function for the
//! IR), the optimizer asks `reduce` for a cheaper form and `pure` whether it may fold a
//! call of constants, "did you mean" hints and the check that script functions do not
//! shadow a built-in read `name`, and the table of built-ins in docs/rulesets.md is
//! generated from `signature` and `doc` (a test keeps it in step).
//!
//! Adding a built-in is one entry in [`BUILTINS`] and its lowering and evaluation
//! functions beside the others of its kind (`list.rs`, `board.rs`, `geometry.rs`,
//! `knowledge.rs`).

mod board;
mod geometry;
mod knowledge;
pub(crate) mod list;

pub use list::MAX_RANGE;

use frontier_grammar::expr::Expr as Ast;
use frontier_grammar::Span;

use crate::ir::Expr;
use crate::load::{Compiled, Compiler, Scope};

/// A built-in's strength reduction: a cheaper node for a call with these arguments.
pub(crate) type Reduce = fn(&[Expr]) -> Option<Expr>;

pub struct Builtin {
    pub name: &'static str,
    /// Each way it is called, as the docs list it.
    pub forms: &'static [Form],
    /// Type-checks a call and lowers it to IR.
    pub(crate) lower: fn(&mut Compiler, &CallSite) -> Compiled,
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

/// A call being lowered: which built-in, where, its arguments and the scope they see.
pub(crate) struct CallSite<'a, 'b> {
    pub builtin: &'static Builtin,
    pub span: Span,
    pub args: &'a [Ast],
    pub scope: &'a Scope<'b>,
}

impl CallSite<'_, '_> {
    pub fn name(&self) -> &'static str {
        self.builtin.name
    }
    /// The IR node of this call with the chosen evaluation.
    pub fn call(&self, eval: crate::ir::BuiltinEval, args: Vec<Expr>) -> Expr {
        Expr::Call {
            builtin: self.builtin,
            eval,
            args,
        }
    }
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
    list::ALL,
    list::CONTAINS,
    list::INDEX_OF,
    list::RANGE,
    list::NEXT_PLAYER,
    list::SEATS_FROM,
    list::ABS,
    list::CONCAT,
    list::TEXT,
    list::PAD,
    list::COLOUR,
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
