//! Frontier's interpreter: loads a ruleset (YAML + expressions + Rhai scripts) into a
//! [`Game`], and runs games of it as a step machine over plain-data [`State`]s.
//! Pure: no file, terminal or network IO happens here (the `frontier` binary does that).

pub mod actions;
pub mod agent;
pub mod award;
pub mod builtins;
pub mod colour;
pub mod coverage;
pub mod diagnostic;
pub mod display;
pub mod episode;
pub mod eval;
pub mod format;
pub mod grid;
pub mod hex;
pub mod hints;
pub mod id;
pub mod ir;
pub mod knowledge;
mod load;
mod locate;
pub mod machine;
pub mod model;
pub mod narrate;
mod optimize;
pub mod perft;
pub mod position;
pub mod render;
pub mod rng;
pub mod roster;
pub mod runner;
pub mod scene;
pub mod script;
pub mod search;
pub mod state;
pub use frontier_grammar;
pub mod trace;
pub mod value;
pub mod verify;
pub mod work;

pub use diagnostic::{Diagnostic, LoadError};
pub use knowledge::Viewer;
pub use load::{
    load, load_with, load_with_params, statement_verbs, Resolver, RulesetSource, MAX_YAML_DEPTH,
    MAX_YAML_VALUES,
};
pub use machine::{ApplyError, CompiledCode, Journal, Secret, Stepper};
pub use model::{Game, Optimizer};
pub use rng::GameRng;
pub use state::{Chance, Choice, Outcome, Pending, Returns, Standing, State, Status};
pub use value::Value;

#[cfg(test)]
mod tests;
