//! The rule that picks what plays a run's games: the ruleset's compiled native code, or
//! the IR walker.

use frontier_interpreter::native::Native;
use frontier_interpreter::Game;

/// Whether a ruleset's compiled native code may play games (`--native`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NativeCode {
    On,
    Off,
}

/// What plays the games of a run.
pub enum BackEnd<'g> {
    /// Code generated from exactly this game and compiled into frontier-native. It plays
    /// the games that keep counts only, between random agents at every seat, and gives a
    /// game back to the walker wherever it could not play it as the walker would.
    Native(Native<'g>),
    /// The IR walker, which plays every game.
    Walker,
}

impl<'g> BackEnd<'g> {
    /// The native code compiled for exactly `game` when `native` allows it, else the walker.
    pub fn for_game(game: &'g Game, native: NativeCode) -> BackEnd<'g> {
        match native {
            NativeCode::On => frontier_native::find(game).map_or(BackEnd::Walker, BackEnd::Native),
            NativeCode::Off => BackEnd::Walker,
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
            let chosen = match BackEnd::for_game(&game, native) {
                BackEnd::Native(code) => Some(code.compiled.ruleset),
                BackEnd::Walker => None,
            };
            assert_eq!(chosen, expected, "{name}, {optimizer:?}, {native:?}");
        }
    }
}
