//! The compiled engine, under construction (ARCHITECTURE.md, "The engine"): the optimized,
//! verified IR of a loaded game compiled at load time to machine code with Cranelift, so
//! that every ruleset, variant and position runs compiled without a Rust compiler on the
//! user's machine.
//!
//! Today it compiles one part: expressions of numbers and truth values
//! ([`ExprCompiler`]), the conditions and values the step machine evaluates most. The
//! machine does not run them yet; `tests/` holds them equal to the walker (the reference
//! semantics) on every shipped ruleset, and `benches/expressions.rs` measures both.
//!
//! One semantics: compiled code computes only what it is sure to compute as the walker
//! does. A node it does not compile is evaluated by the walker, called from the compiled
//! code; and wherever the walker would report an error (an overflow, a read of none, an
//! index out of range), the compiled code stops and the whole expression is evaluated
//! again by the walker, which gives the error with its message. Expressions read the
//! state and change nothing, so evaluating one again gives the same result.

mod expr;
mod options;

pub use expr::{CompileError, CompiledExpr, ExprCompiler, NodeCount};
pub use options::CompiledGame;
