//! The trace notation: a line-oriented record of one game (or scenario) that
//! `frontier check` replays. `trace.pest` is the grammar, `parse` reads a trace and
//! reports every bad line, and `Trace::to_text` writes the canonical form back.

mod assemble;
mod ast;
mod diagnose;
mod parser;
mod writer;

#[cfg(test)]
mod tests;

pub use assemble::MAX_TRACE_ERRORS;
pub use ast::*;
pub use parser::{parse, TraceError};
