//! Runs of many seeded games as a library: what `frontier simulate`, `balance` and
//! `merge` compute, for any front end. Settings are values passed in, never globals. No
//! terminal, no clock, no process: the caller reads the files, measures time, shows
//! progress and prints.

pub mod back_end;
pub mod balance;
pub mod games;
pub mod results;
pub mod settings;
pub mod statistics;
pub mod summary;

pub use back_end::{BackEnd, Compile};
pub use games::{Games, Played};
pub use settings::Settings;
pub use summary::Summary;
