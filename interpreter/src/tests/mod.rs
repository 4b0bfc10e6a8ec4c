//! Tests of the interpreter's layers on whole loaded games: they load rulesets, so they
//! stand above every layer they test.

mod layers;
mod optimize;
mod script;
mod verify;
