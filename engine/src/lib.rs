//! The compiled engine, under construction (ARCHITECTURE.md, "The engine"): the optimized,
//! verified IR of a loaded game compiled at load time to machine code with Cranelift, so
//! that every ruleset, variant and position runs compiled without a Rust compiler on the
//! user's machine.
//!
//! Today it compiles a game's decision listings, `if` conditions and number assignments
//! ([`CompiledGame`]), which the step machine runs through
//! [`frontier_interpreter::CompiledCode`] (`Game::apply_with`, a `Stepper`), and
//! expressions of numbers and truth values on their own ([`ExprCompiler`]). `tests/` holds
//! them equal to the walker (the reference semantics) step by step on every shipped
//! ruleset and on generated ones; `benches/` measures both.
//!
//! One semantics: compiled code computes only what it is sure to compute as the walker
//! does. A node it does not compile is evaluated by the walker, called from the compiled
//! code; and wherever the walker would report an error (an overflow, a read of none, an
//! index out of range), the compiled code stops and the whole expression is evaluated
//! again by the walker, which gives the error with its message. Expressions read the
//! state and change nothing, so evaluating one again gives the same result.

mod blocks;
mod expr;
mod options;
mod shared;

pub use expr::{CompileError, CompiledExpr, ExprCompiler, NodeCount};
pub use options::CompiledGame;
pub use shared::SharedCompiled;
