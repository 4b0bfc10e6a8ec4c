//! The rule that picks what plays a run's games: the ruleset's compiled native code, the
//! game's code compiled when it loads (frontier-engine), and the IR walker.

use frontier_engine::CompiledGame;
use frontier_interpreter::native::Native;
use frontier_interpreter::{Game, Stepper};

/// Whether a ruleset's compiled native code may play games (`--native`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NativeCode {
    On,
    Off,
}

/// Whether a game's code is compiled to machine code when it loads, to run parts of its
/// steps (`--compile`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compile {
    On,
    Off,
}

/// What plays the games of a run. Every back end plays the same games.
pub struct BackEnd<'g> {
    /// Code generated from exactly this game and compiled into frontier-native. It plays
    /// the games that keep counts only, between random agents at every seat, and gives a
    /// game back wherever it could not play it as the walker would.
    pub native: Option<Native<'g>>,
    /// The game's code compiled when it loaded: it runs parts of every other game's steps
    /// (and of search agents' playouts), the walker the rest.
    pub compiled: Option<CompiledGame<'g>>,
}

impl<'g> BackEnd<'g> {
    /// The native code compiled for exactly `game` when `native` allows it, and the game
    /// compiled now when `compile` allows it and this machine has a code generator.
    pub fn for_game(game: &'g Game, native: NativeCode, compile: Compile) -> BackEnd<'g> {
        BackEnd {
            native: match native {
                NativeCode::On => frontier_native::find(game),
                NativeCode::Off => None,
            },
            compiled: match compile {
                Compile::On => CompiledGame::new(game).ok(),
                Compile::Off => None,
            },
        }
    }

    /// What steps the games the native code does not play.
    pub fn stepper(&self, game: &'g Game) -> Stepper<'_> {
        match &self.compiled {
            Some(code) => Stepper::compiled(game, code),
            None => Stepper::walker(game),
        }
    }

    /// In words, for `bench`: what plays seeded random playouts.
    pub fn describe(&self) -> String {
        match (&self.native, &self.compiled) {
            (Some(native), _) => format!(
                "native code generated from the IR of {}",
                native.compiled.ruleset
            ),
            (None, Some(code)) => {
                let (listed, decisions) = code.listings();
                let (blocks, procedures) = code.statements();
                format!(
                    "the IR walker with compiled code ({listed} of {decisions} decisions listed by it, the statements of {blocks} blocks, {procedures} procedures run in line)"
                )
            }
            (None, None) => "the IR walker".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Settings;
    use frontier_interpreter::Optimizer;

    /// The back end of a shipped ruleset loaded with these settings: the ruleset whose
    /// native code plays it, or none for the walker.
    const CASES: &[(&str, Optimizer, NativeCode, Option<&str>)] = &[
        ("go-west", Optimizer::On, NativeCode::On, Some("go-west")),
        ("go-west", Optimizer::On, NativeCode::Off, None),
        // Unoptimized, Go West is other IR than the one its code was generated from.
        ("go-west", Optimizer::Off, NativeCode::On, None),
        // No code is compiled for Circle the Wagons.
        ("circle-the-wagons", Optimizer::On, NativeCode::On, None),
    ];

    #[test]
    fn native_code_plays_only_the_game_it_was_generated_from() {
        for &(name, optimizer, native, expected) in CASES {
            let settings = Settings {
                optimizer,
                native,
                ..Settings::default()
            };
            let source = frontier_tests::source(&frontier_tests::ruleset_path(name));
            let game = settings
                .load(&source, &frontier_tests::resolve, &[])
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let back_end = BackEnd::for_game(&game, native, Compile::Off);
            let chosen = back_end.native.map(|code| code.compiled.ruleset);
            assert_eq!(chosen, expected, "{name}, {optimizer:?}, {native:?}");
        }
    }

    #[test]
    fn every_ruleset_is_compiled_unless_asked_not_to() {
        let source = frontier_tests::source(&frontier_tests::ruleset_path("circle-the-wagons"));
        let game = Settings::default()
            .load(&source, &frontier_tests::resolve, &[])
            .expect("it loads");
        let on = BackEnd::for_game(&game, NativeCode::On, Compile::On);
        assert!(on.compiled.is_some() && on.native.is_none());
        let off = BackEnd::for_game(&game, NativeCode::On, Compile::Off);
        assert!(off.compiled.is_none());
    }
}
