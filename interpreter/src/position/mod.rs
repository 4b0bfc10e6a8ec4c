//! The readable serialization of a state (YAML), and positions: hand-written states
//! that start a scenario mid-game, as rulebook examples do.
//!
//! ```yaml
//! players: [red, green, blue]
//! vars:   { active: red, vp: { red: 10, green: 12 }, wagons: { east: 4 } }
//! zones:  { hand: { red: [gw-01, gw-17] }, track: { east: [green, red] } }
//! boards: { town: { red: [[0, 0, c01-tl], [0, 1, c01-tr]] } }   # [row, col, element]
//! ```
//! A variable or zone with two keys is a mapping by the first of mappings by the second:
//! `supply: { red: { mine: 2 } }`.
//! A position lists only what differs from the declared initial values; without a
//! `continuation` it resumes at the start of `play` (after setup). A serialized state
//! also has its `continuation`, `pending` and `steps`, and resumes exactly where it was.
//!
//! `write.rs` writes a state; `read.rs` reads a state or a position back, and
//! `continuation.rs` the frames and locals of a serialized state, each checked against
//! the ruleset.

mod continuation;
mod read;
mod write;
