//! The rule that picks what plays a run's games: the game's code compiled when it loads
//! (frontier-engine) with the IR walker, or the walker alone.

use frontier_engine::CompiledGame;
use frontier_interpreter::{Game, Stepper};

/// Whether a game's code is compiled to machine code when it loads, to run parts of its
/// steps (`--compile`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compile {
    On,
    Off,
}

/// What plays the games of a run. Every back end plays the same games.
pub struct BackEnd<'g> {
    /// The game's code compiled when it loaded: it runs parts of every game's steps (and
    /// of search agents' playouts), the walker the rest.
    pub compiled: Option<CompiledGame<'g>>,
}

impl<'g> BackEnd<'g> {
    /// The game compiled now when `compile` allows it and this machine has a code
    /// generator; else the walker alone.
    pub fn for_game(game: &'g Game, compile: Compile) -> BackEnd<'g> {
        BackEnd {
            compiled: match compile {
                Compile::On => CompiledGame::new(game).ok(),
                Compile::Off => None,
            },
        }
    }

    /// What steps the games.
    pub fn stepper(&self, game: &'g Game) -> Stepper<'_> {
        match &self.compiled {
            Some(code) => Stepper::compiled(game, code),
            None => Stepper::walker(game),
        }
    }

    /// In words, for `bench`: what plays seeded random playouts.
    pub fn describe(&self) -> String {
        match &self.compiled {
            Some(code) => {
                let (listed, decisions) = code.listings();
                let (blocks, procedures) = code.statements();
                format!(
                    "the IR walker with compiled code ({listed} of {decisions} decisions listed by it, the statements of {blocks} blocks, {procedures} procedures run in line)"
                )
            }
            None => "the IR walker".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Settings;

    #[test]
    fn every_ruleset_is_compiled_unless_asked_not_to() {
        let source = frontier_tests::source(&frontier_tests::ruleset_path("circle-the-wagons"));
        let game = Settings::default()
            .load(&source, &frontier_tests::resolve, &[])
            .expect("it loads");
        assert!(BackEnd::for_game(&game, Compile::On).compiled.is_some());
        assert!(BackEnd::for_game(&game, Compile::Off).compiled.is_none());
    }
}
