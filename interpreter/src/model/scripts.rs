//! The ruleset's Rhai scripts as data: what `script/` runs.

use std::collections::HashMap;
use std::fmt;

use super::ScriptFnId;

/// The ruleset's Rhai scripts, compiled: what the script runtime (`script/`) runs. Each
/// file's functions are merged into one AST, so that a function may call one defined in
/// another file.
pub struct ScriptLibrary {
    pub ast: rhai::AST,
    /// The file names, for messages.
    pub files: Vec<String>,
    /// The functions, in the order the files define them: a [`ScriptFnId`] indexes them.
    pub functions: Vec<ScriptFunction>,
    /// Each function's id by its name, so that finding one takes no time in their number.
    pub by_name: HashMap<String, ScriptFnId>,
    /// The game's table rows as scripts see them, made at the first call.
    pub rows: std::sync::OnceLock<ScriptRows>,
}

/// A function of the ruleset's scripts.
pub struct ScriptFunction {
    pub name: String,
    /// Its parameters, less the game.
    pub arity: usize,
    /// The file that defines it: an index into [`ScriptLibrary::files`].
    pub file: usize,
}

/// The rows of a game's tables as scripts see them, converted once per game rather than at
/// every read: each row's id as a Rhai string, and the map `#{id, <columns>…}` that every
/// board cell holding that row copies (strings shared, not copied). A library belongs to
/// the one game loaded with it; the script runtime still checks that they were made from
/// the tables at hand (and otherwise converts without them).
pub struct ScriptRows {
    /// The address of the tables they were made from (a game's tables never change).
    pub tables: usize,
    /// Per table, per row: the id.
    pub ids: Vec<Vec<rhai::Dynamic>>,
    /// Per table, per row: `#{id, <column>: value…}`.
    pub cells: Vec<Vec<rhai::Map>>,
}

impl ScriptLibrary {
    /// The function named `name`.
    pub fn find(&self, name: &str) -> Option<ScriptFnId> {
        self.by_name.get(name).copied()
    }

    /// The file that defines a function.
    pub fn file_of(&self, name: &str) -> Option<&str> {
        let f = &self.functions[self.find(name)?.index()];
        Some(self.files[f.file].as_str())
    }

    /// Each function's name and arity (less the game).
    pub fn functions(&self) -> Vec<(String, usize)> {
        self.functions
            .iter()
            .map(|f| (f.name.clone(), f.arity))
            .collect()
    }
}

impl fmt::Debug for ScriptLibrary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ScriptLibrary({:?})", self.files)
    }
}
