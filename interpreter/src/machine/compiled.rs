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

/// What steps a game: the walker alone, or the walker with code compiled from the game.
/// Both give the same steps; front ends that play many games take a stepper so that the
/// compiled code runs wherever it is available.
#[derive(Clone, Copy)]
pub struct Stepper<'g> {
    game: &'g crate::Game,
    code: Option<&'g dyn CompiledCode>,
}

impl<'g> Stepper<'g> {
    /// The walker alone.
    pub fn walker(game: &'g crate::Game) -> Stepper<'g> {
        Stepper { game, code: None }
    }

    /// The walker with `code`, compiled from `game`.
    pub fn compiled(game: &'g crate::Game, code: &'g dyn CompiledCode) -> Stepper<'g> {
        Stepper {
            game,
            code: Some(code),
        }
    }

    pub fn game(&self) -> &'g crate::Game {
        self.game
    }

    /// [`crate::Game::apply`], with the compiled code where there is some.
    pub fn apply(
        &self,
        state: &mut crate::State,
        choice: crate::Choice,
        journal: &mut super::Journal,
    ) -> Result<(), super::ApplyError> {
        match self.code {
            Some(code) => self.game.apply_with(state, choice, journal, code),
            None => self.game.apply(state, choice, journal),
        }
    }
}
