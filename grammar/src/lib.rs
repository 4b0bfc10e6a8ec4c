//! Frontier's text grammars: the expression language used inside rulesets and the
//! trace notation used to record and check games. Each grammar is a pest file next to
//! its parser; parsers return plain ASTs with byte spans and never panic on any input.

pub mod expr;
pub mod shown;
pub mod span;
pub mod trace;

pub use shown::{shown, shown_list};
pub use span::{LineCol, Span};
