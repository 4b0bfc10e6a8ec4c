//! A game and its compiled code owned together, for front ends that keep a game behind an
//! `Arc` as long as they play it (a web session): [`CompiledGame`] borrows the game it
//! was compiled from, which a value that owns both cannot express with a lifetime.

use std::sync::Arc;

use frontier_interpreter::{Game, Stepper};

use crate::{CompileError, CompiledGame};

/// A shared game and its compiled code.
pub struct SharedCompiled {
    // Declared first: dropped before the game its code points into.
    code: CompiledGame<'static>,
    game: Arc<Game>,
}

impl SharedCompiled {
    /// `game` compiled, kept with it.
    pub fn new(game: Arc<Game>) -> Result<SharedCompiled, CompileError> {
        // SAFETY: the game lives behind the `Arc` this value holds: on the heap, where it
        // does not move, alive as long as this value, and only ever shared (an `Arc`
        // lends no `&mut`). `code`, which borrows it, is dropped first (field order) and
        // is only lent out for as long as `self` is borrowed.
        let borrowed: &'static Game = unsafe { &*Arc::as_ptr(&game) };
        Ok(SharedCompiled {
            code: CompiledGame::new(borrowed)?,
            game,
        })
    }

    pub fn game(&self) -> &Arc<Game> {
        &self.game
    }

    /// What steps the game with its compiled code.
    pub fn stepper(&self) -> Stepper<'_> {
        Stepper::compiled(&self.game, &self.code)
    }
}
