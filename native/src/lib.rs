//! Rulesets compiled to native code: for each, the Rust that
//! `frontier_interpreter::native::generate` makes of its optimized IR, compiled in.
//! [`find`] gives a loaded game's compiled code when it was generated from exactly that
//! game (a variant or another setting gives none, and the walker plays).
//!
//! A ruleset is added by naming it in `tests/tests/native_modules.rs` and running
//! `FRONTIER_NATIVE_WRITE=1 cargo test -p frontier-tests --test integration
//! native_modules::`, which writes its module; then a `mod` line and an entry of
//! [`COMPILED`]. Without the variable, that test fails when a module is not what the
//! generator makes of its ruleset today.

use frontier_interpreter::native::{Compiled, Native};
use frontier_interpreter::Game;

#[rustfmt::skip]
mod go_west;

pub static COMPILED: &[Compiled] = &[Compiled {
    ruleset: "go-west",
    fingerprint: go_west::FINGERPRINT,
    play: go_west::play,
}];

/// The compiled code of `game`, if it is one of [`COMPILED`] as it was generated.
pub fn find(game: &Game) -> Option<Native<'_>> {
    frontier_interpreter::native::find(game, COMPILED)
}
