//! Agents decide for players. An agent sees a [`View`]: the decision it is asked and the
//! state as its player may see it (zone visibility), never the hidden contents. The
//! interpreter ships the seeded random agent; the terminal agent for people lives in the
//! `frontier` binary, which owns the terminal.

use crate::eval::RuntimeError;
use crate::machine::{State, Status, Stepper};
use crate::model::Game;
use crate::render::Style;
use crate::rng::GameRng;

pub trait Agent {
    /// The index of the option to take at the view's pending decision.
    fn decide(&mut self, view: &View) -> Result<usize, String>;

    /// A decision of this seat's was taken from a record (a resumed game) instead of by
    /// this agent. An agent whose later decisions depend on the ones it took (a stream it
    /// draws from) moves on as if it had decided here, so that the game goes on as it
    /// would have; an agent that decides from the view alone has nothing to do.
    fn replay(&mut self, _view: &View) -> Result<(), String> {
        Ok(())
    }
}

/// An agent that can be copied and sent to another thread: what the agent table
/// ([`crate::roster`]) builds. `frontier play` keeps copies to undo decisions, and
/// simulations play games on a thread pool.
pub trait Bot: Agent + Send {
    fn clone_bot(&self) -> Box<dyn Bot>;
}

impl<T: Agent + Clone + Send + 'static> Bot for T {
    fn clone_bot(&self) -> Box<dyn Bot> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn Bot> {
    fn clone(&self) -> Self {
        self.clone_bot()
    }
}

/// What the player deciding may know: the decision (prompt and options) and the state as
/// that player sees it. Everything is computed on demand, so a random playout that only
/// counts options formats nothing.
pub struct View<'a> {
    /// The game, and what a search agent plays its searches with.
    stepper: Stepper<'a>,
    state: &'a State,
    player: u8,
}

impl Game {
    /// The view of the player who must decide at `state` (none if the state is not at a
    /// decision).
    pub fn view<'a>(&'a self, state: &'a State) -> Option<View<'a>> {
        Stepper::walker(self).view(state)
    }
}

impl<'a> Stepper<'a> {
    /// [`Game::view`], for agents that play searches with this stepper.
    pub fn view(&self, state: &'a State) -> Option<View<'a>> {
        match self.game().status(state) {
            Status::Decision { player, .. } => Some(View {
                stepper: *self,
                state,
                player,
            }),
            _ => None,
        }
    }
}

impl<'a> View<'a> {
    /// What steps the game for an agent that plays it further (a search).
    pub fn stepper(&self) -> Stepper<'a> {
        self.stepper
    }
}

impl View<'_> {
    /// The seat deciding.
    pub fn player(&self) -> u8 {
        self.player
    }

    pub fn name(&self) -> &str {
        &self.state.names[self.player as usize]
    }

    /// How many options the decision has.
    pub fn options(&self) -> usize {
        match self.game().status(self.state) {
            Status::Decision { options, .. } => options,
            _ => 0,
        }
    }

    /// The options' labels, in order.
    pub fn labels(&self) -> Result<Vec<String>, RuntimeError> {
        self.game().option_labels(self.state)
    }

    /// Each option's details for a person (what its rows are, by their tables' `show:`
    /// templates; empty strings when there is nothing to add to the label).
    pub fn details(&self) -> Vec<String> {
        (0..self.options())
            .map(|i| self.game().option_details(self.state, i))
            .collect()
    }

    pub fn prompt(&self) -> Result<String, RuntimeError> {
        self.game().prompt(self.state)
    }

    /// The ruleset's display lines (empty when it has none).
    pub fn display(&self) -> String {
        self.game()
            .render_display(self.state, crate::Viewer::Seat(self.player()))
    }

    /// The display lines with the colours of `colour()` for a terminal, or plain.
    pub fn display_styled(&self, style: Style) -> String {
        self.game()
            .render_display_styled(self.state, crate::Viewer::Seat(self.player()), style)
    }

    /// The rules being played (public: they say nothing of the hidden state).
    pub fn game(&self) -> &Game {
        self.stepper.game()
    }

    /// How many players are seated.
    pub fn seats(&self) -> usize {
        self.state.names.len()
    }

    /// Decisions and chance outcomes applied so far in the game.
    pub fn steps(&self) -> u32 {
        self.state.steps
    }

    /// A state this player cannot tell from the real one, drawn with `rng`: what they do
    /// not see is dealt at random among the places they do not see ([`Game::determinize`]).
    /// It depends only on what the player may know and on `rng`, never on the real hidden
    /// contents, so a search agent plays out sampled states without reading them.
    pub fn sample_state(&self, rng: &mut GameRng) -> Result<State, RuntimeError> {
        self.game().determinize(self.state, self.player, rng)
    }

    /// The state as this player may see it: zones they may not see show only what their
    /// visibility allows.
    pub fn render(&self, style: Style) -> String {
        self.game()
            .render_state_styled(self.state, Some(self.player), style)
    }
}

/// Picks uniformly among the options, from its own seeded stream. Cloned, it goes on
/// drawing as the original would (`frontier play` keeps copies to undo decisions).
#[derive(Clone)]
pub struct RandomAgent {
    rng: GameRng,
}

impl RandomAgent {
    pub fn new(rng: GameRng) -> RandomAgent {
        RandomAgent { rng }
    }
}

impl Agent for RandomAgent {
    fn decide(&mut self, view: &View) -> Result<usize, String> {
        match view.options() {
            0 => Err("no decision to take".into()),
            n => Ok(self.rng.below(n as u64) as usize),
        }
    }

    /// Its draw, so that its stream goes on as it would have.
    fn replay(&mut self, view: &View) -> Result<(), String> {
        self.decide(view).map(|_| ())
    }
}
