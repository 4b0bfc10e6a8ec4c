//! What each player may know of the hidden state: a zone's visibility, an element's
//! `visible_if:`, and the elements `reveal:` has shown to some players. Views, the `?`
//! display of `frontier play`, the `knows()` built-in and [`Game::determinize`] (the
//! sampling an information-set search needs) all ask [`Game::sees`], so they agree.

use crate::eval::{Env, RuntimeError};
use crate::model::{Domain, Game, Visibility};
use crate::rng::GameRng;
use crate::state::State;
use crate::value::Value;

pub use crate::state::{Reveals, Seen, MAX_SEATS};

/// Who looks at the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    /// Sees everything (a finished game, a replay, a table of bots).
    Everyone,
    /// One seat: what its player may see.
    Seat(u8),
    /// What every player sees (hot-seat play between several hands at one screen).
    Table,
}

impl Viewer {
    /// Whether every seat this viewer stands for is among `seats` (one bit per seat, of
    /// `of` seats at the table): for everyone, always.
    pub fn within(self, seats: u64, of: usize) -> bool {
        match self {
            Viewer::Everyone => true,
            Viewer::Seat(p) => seats >> p & 1 == 1,
            Viewer::Table => (0..of).all(|p| seats >> p & 1 == 1),
        }
    }

    /// The seat `viewer` names in display lines: a seat's, or none.
    pub fn seat(self) -> Option<u8> {
        match self {
            Viewer::Seat(p) => Some(p),
            Viewer::Everyone | Viewer::Table => None,
        }
    }
}

/// What [`Game::deal_unseen`] leaves in place besides what the viewer sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// The elements the running procedures hold in locals (the card being auctioned, which
    /// a prompt names): a search's sample must be a state the rules can reach.
    Named,
    /// Nothing: a display drawn from the sample must not read a hidden element because a
    /// procedure named it.
    Seen,
}

impl Game {
    /// Whether `viewer` sees the element at position `at` of zone instance `zone`: its zone
    /// shows it (visibility), or its `visible_if:` holds, or a reveal showed it to them.
    pub fn sees(
        &self,
        state: &State,
        viewer: u8,
        zone: usize,
        at: usize,
    ) -> Result<bool, RuntimeError> {
        let (z, i) = self.zone_of_instance(zone);
        let decl = &self.zones[z];
        let by_zone = match decl.visibility {
            Visibility::All => true,
            Visibility::Owner => decl.per == Domain::Players && i == viewer as usize,
            Visibility::Top => at == 0,
            Visibility::Count | Visibility::Hidden => false,
        };
        if by_zone {
            return Ok(true);
        }
        let Some(&element) = state.zones[zone].get(at) else {
            return Ok(false);
        };
        if let Some(cond) = &decl.visible_if {
            let locals = [Value::Player(viewer)];
            let it = crate::eval::decode_element(decl.of, element);
            let root = Env::new(self, state, &locals);
            if cond.bool(&root.with_it(&it))? {
                return Ok(true);
            }
        }
        Ok(state.revealed_to(zone, element, viewer))
    }

    /// Whether `viewer` sees position `at` of zone instance `zone`; at a table, whether
    /// every seat does.
    pub fn sees_as(
        &self,
        state: &State,
        viewer: Viewer,
        zone: usize,
        at: usize,
    ) -> Result<bool, RuntimeError> {
        match viewer {
            Viewer::Everyone => Ok(true),
            Viewer::Seat(p) => self.sees(state, p, zone, at),
            Viewer::Table => {
                for p in 0..state.names.len() as u8 {
                    if !self.sees(state, p, zone, at)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }

    /// Whether `viewer` may know `value` (see [`Game::sees_value`]); at a table, whether
    /// every seat may. A value the rules cannot evaluate the sight of is not known.
    pub fn may_know(&self, state: &State, viewer: Viewer, value: &Value) -> bool {
        match viewer {
            Viewer::Everyone => true,
            Viewer::Seat(p) => self.sees_value(state, p, value).unwrap_or(false),
            Viewer::Table => (0..state.names.len() as u8)
                .all(|p| self.sees_value(state, p, value).unwrap_or(false)),
        }
    }

    /// The seats that may know `value` (one bit each), as [`Game::sees_value`] says.
    pub fn seen_by(&self, state: &State, value: &Value) -> u64 {
        (0..state.names.len() as u8)
            .filter(|&p| self.sees_value(state, p, value).unwrap_or(false))
            .fold(0, |bits, p| bits | 1 << p)
    }

    /// Whether `viewer` may know `value`: a value that is no element of any zone (a
    /// number, a seat) is known to all; an element, when they see it at some place of
    /// the zones where it lies.
    pub fn sees_value(
        &self,
        state: &State,
        viewer: u8,
        value: &Value,
    ) -> Result<bool, RuntimeError> {
        let mut found = false;
        for zone in 0..state.zones.len() {
            let of = self.zone_element(zone);
            for (at, code) in state.zones[zone].iter().enumerate() {
                if crate::eval::decode_element(of, *code) == *value {
                    if self.sees(state, viewer, zone, at)? {
                        return Ok(true);
                    }
                    found = true;
                }
            }
        }
        Ok(!found)
    }

    /// Which positions of zone instance `zone` `viewer` sees.
    pub fn seen_positions(
        &self,
        state: &State,
        viewer: u8,
        zone: usize,
    ) -> Result<Vec<bool>, RuntimeError> {
        (0..state.zones[zone].len())
            .map(|at| self.sees(state, viewer, zone, at))
            .collect()
    }

    /// A state `viewer` cannot tell from this one: every element they do not see is dealt
    /// at random among the places of unseen elements of the same kind, anywhere in the
    /// zones. What they see, the sizes of zones and everything outside zones stay as they
    /// are. An information-set search samples the states it plays out from this.
    ///
    /// The result depends only on what `viewer` may know and on `rng`: two states that
    /// differ only in hidden contents give the same sample.
    ///
    /// An element that the running procedures hold in a local (the card being auctioned,
    /// which the prompt names) stays where it is: a sample that moved it would be a state
    /// the rules cannot reach, and would read differently to the viewer. Knowledge the
    /// rules keep elsewhere (a state variable recording a card's owner) is public and is
    /// not resampled.
    pub fn determinize(
        &self,
        state: &State,
        viewer: u8,
        rng: &mut GameRng,
    ) -> Result<State, RuntimeError> {
        self.deal_unseen(state, Viewer::Seat(viewer), Keep::Named, rng)
    }

    /// Two states `viewer` cannot tell from this one, dealt with fixed seeds and nothing
    /// kept for the procedures ([`Keep::Seen`]): what a text computes on both reads only
    /// what the viewer knows, and a text that differs between them depends on what they
    /// cannot see (the display, the score changes a log tells).
    pub fn two_deals(&self, state: &State, viewer: Viewer) -> Result<(State, State), RuntimeError> {
        let deal = |seed| self.deal_unseen(state, viewer, Keep::Seen, &mut GameRng::new(seed));
        Ok((deal(1)?, deal(2)?))
    }

    /// A state `viewer` cannot tell from this one, as [`Game::determinize`] deals it, for
    /// one seat or a whole table, keeping in place what `keep` says besides what they see.
    pub fn deal_unseen(
        &self,
        state: &State,
        viewer: Viewer,
        keep: Keep,
        rng: &mut GameRng,
    ) -> Result<State, RuntimeError> {
        let named = match keep {
            Keep::Named => named_by_procedures(state),
            Keep::Seen => Vec::new(),
        };
        let mut places: Vec<(usize, usize)> = Vec::new();
        for zone in 0..state.zones.len() {
            let of = self.zone_element(zone);
            for at in 0..state.zones[zone].len() {
                let pinned = || {
                    let element = crate::eval::decode_element(of, state.zones[zone][at]);
                    named.contains(&element)
                };
                if !self.sees_as(state, viewer, zone, at)? && !pinned() {
                    places.push((zone, at));
                }
            }
        }
        let mut out = state.clone();
        // Deal within each kind of element: a card never lands where a token was.
        let mut kinds: Vec<crate::model::Element> = Vec::new();
        for &(z, _) in &places {
            if !kinds.contains(&self.zone_element(z)) {
                kinds.push(self.zone_element(z));
            }
        }
        for kind in kinds {
            let slots: Vec<(usize, usize)> = places
                .iter()
                .copied()
                .filter(|&(z, _)| self.zone_element(z) == kind)
                .collect();
            let mut elements: Vec<u16> = slots.iter().map(|&(z, at)| state.zones[z][at]).collect();
            // Dealt from a sorted pile, so that the sample depends on which elements are
            // hidden, not on where they really are.
            elements.sort_unstable();
            rng.shuffle(&mut elements);
            for (&(z, at), e) in slots.iter().zip(elements) {
                out.zones[z][at] = e;
            }
        }
        // Reveals to others are not the viewer's to know where they went.
        let seats = state.names.len();
        out.seen.retain(|s| viewer.within(s.players, seats));
        out.forget_moved();
        Ok(out)
    }
}

/// The values the running procedures hold: their locals (and the elements of lists among
/// them). (A pending decision's options name elements by who they are, not where they
/// lie: they stay valid wherever the elements are dealt.)
fn named_by_procedures(state: &State) -> Vec<Value> {
    let mut named: Vec<Value> = Vec::new();
    let mut note = |v: &Value| match v {
        Value::List(items) => named.extend(items.iter().cloned()),
        Value::None | Value::Int(_) | Value::Bool(_) => {}
        other => named.push(other.clone()),
    };
    state.locals.iter().for_each(&mut note);
    named
}
