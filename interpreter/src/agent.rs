//! Agents decide for players. The interpreter ships the seeded random agent; the
//! terminal agent for people lives in the `frontier` binary, which owns the terminal.

use crate::machine::{State, Status};
use crate::model::Game;
use crate::rng::GameRng;

pub trait Agent {
    /// The index of the option to take at the state's pending decision.
    fn decide(&mut self, game: &Game, state: &State) -> Result<usize, String>;
}

/// Picks uniformly among the options, from its own seeded stream.
pub struct RandomAgent {
    rng: GameRng,
}

impl RandomAgent {
    pub fn new(rng: GameRng) -> RandomAgent {
        RandomAgent { rng }
    }
}

impl Agent for RandomAgent {
    fn decide(&mut self, game: &Game, state: &State) -> Result<usize, String> {
        match game.status(state) {
            Status::Decision { options, .. } if options > 0 => Ok(self.rng.below(options as u64) as usize),
            _ => Err("no decision to take".into()),
        }
    }
}
