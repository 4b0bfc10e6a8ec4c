//! The expression language: `expr.pest`, its AST and parser.

pub mod ast;
mod parser;

pub use ast::*;
pub use parser::{parse_expr, parse_template, Bounds, SyntaxError};

#[cfg(test)]
mod tests;
