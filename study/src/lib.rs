//! Runs of many seeded games as a library: what `frontier simulate`, `balance` and
//! `merge` compute, for any front end. No terminal, no clock, no process: the caller
//! reads the files, measures time, shows progress and prints.

pub mod statistics;
