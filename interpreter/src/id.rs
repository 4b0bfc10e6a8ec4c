//! Typed ids: an index into one of the game's arenas, which cannot be mistaken for
//! another kind of index or for a number of the game. The bottom of the crate: every
//! layer names things by these.

/// Typed ids: an index into one of the game's arenas, which cannot be mistaken for
/// another kind of index or for a number of the game.
macro_rules! id {
    ($(#[$doc:meta])* $name:ident($int:ty)) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        // Laid out as its number: a value's layout (`value::layout`) holds ids.
        #[repr(transparent)]
        pub struct $name($int);

        impl $name {
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// The id of entry `i` of its arena. The loader refuses a ruleset with more
            /// entries than an id can name (`load::MAX_IDS`), so `i` fits.
            pub const fn at(i: usize) -> Self {
                debug_assert!(i <= <$int>::MAX as usize, "an id past the loader's limit");
                Self(i as $int)
            }
        }

        /// Its number, as messages and generated code write it.
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

id!(
    /// A table: an index into `Game::tables`.
    TableId(u16)
);
id!(
    /// A local variable's position in its procedure's frame.
    Slot(u16)
);
id!(
    /// A state variable: an index into `Game::vars`.
    VarId(u16)
);
id!(
    /// A zone declaration: an index into `Game::zones`.
    ZoneId(u16)
);
id!(
    /// A board declaration: an index into `Game::boards`.
    BoardId(u16)
);
id!(
    /// A function of the ruleset's `functions:`: an index into `Game::functions`.
    FunctionId(u16)
);
id!(
    /// A block of statements: an index into `Game::blocks`.
    BlockId(u32)
);
id!(
    /// A procedure: an index into `Game::procedures`.
    ProcId(u16)
);
id!(
    /// A function of the ruleset's scripts: an index into `ScriptLibrary::functions`.
    ScriptFnId(u16)
);
id!(
    /// A number of a running game's state: an index into `State::ints` (a variable's
    /// slots start at `Var::base`).
    IntSlot(u32)
);
id!(
    /// A zone instance of a running game's state: an index into `State::zones`.
    ZoneSlot(u32)
);
id!(
    /// A board instance of a running game's state: an index into `State::boards`.
    BoardSlot(u32)
);
