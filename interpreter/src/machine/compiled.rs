//! Compiled code the step machine runs in place of walking parts of a game's IR. The
//! machine knows only this interface; `frontier-engine` compiles a game and implements it.
//! Whatever it runs must give exactly what the walker gives (the engine's differential
//! tests hold it to that), and it may decline any part, which the walker then runs.

use crate::eval::{Env, RuntimeError};
use crate::model::BlockId;
use crate::value::Value;

/// A game's compiled code, as the step machine asks for it ([`crate::Game::apply_with`]).
pub trait CompiledCode: Sync {
    /// Lists into `options` (empty) the options of the `choose` statement at `at` (block,
    /// statement), in `env` (its frame's), as the walker lists them: `(group, element)`
    /// in the ruleset's order. `None` when this code does not list that decision: the
    /// walker lists it (with `options` left empty).
    fn list_options(
        &self,
        at: (BlockId, u32),
        env: &Env,
        options: &mut Vec<(u16, Value)>,
    ) -> Option<Result<(), RuntimeError>>;

    /// The condition of the `if` statement at `at`, in `env`, as the walker gives it;
    /// `None` when this code does not evaluate it (the walker does).
    fn condition(&self, at: (BlockId, u32), env: &Env) -> Option<Result<bool, RuntimeError>>;

    /// The number the assignment of a number variable at `at` computes (its value:
    /// what is set, or what is added), in `env`, as the walker gives it; `None` when this
    /// code does not evaluate it (the walker does).
    fn number(&self, at: (BlockId, u32), env: &Env) -> Option<Result<i64, RuntimeError>>;
}
