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
    /// A hidden element that the running procedures hold (a local naming the card in
    /// transit, an option of the pending decision) is dealt with its place: the local or
    /// option then names the element dealt there, so that the sample stays a state the
    /// rules could reach. Knowledge the rules keep elsewhere (a state variable recording
    /// a card's owner) is public and is not resampled.
    pub fn determinize(
        &self,
        state: &State,
        viewer: u8,
        rng: &mut GameRng,
    ) -> Result<State, RuntimeError> {
        let mut places: Vec<(usize, usize)> = Vec::new();
        for zone in 0..state.zones.len() {
            for (at, seen) in self
                .seen_positions(state, viewer, zone)?
                .into_iter()
                .enumerate()
            {
                if !seen {
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
            let mut dealt: Vec<(u16, u16)> = Vec::new();
            for (&(z, at), e) in slots.iter().zip(elements) {
                dealt.push((state.zones[z][at], e));
                out.zones[z][at] = e;
            }
            follow_dealt(&mut out, kind, &dealt);
        }
        // Reveals to others are not the viewer's to know where they went.
        out.seen.retain(|s| s.players >> viewer & 1 == 1);
        out.forget_moved();
        Ok(out)
    }
}

/// Makes the locals and the pending decision's options that name an element dealt away
/// from its place name the element dealt there instead (`dealt`: what each hidden place
/// of elements of `kind` held, and holds now). An element held at several hidden places
/// is left as it is: which of them a local means cannot be told.
fn follow_dealt(state: &mut State, kind: crate::model::Element, dealt: &[(u16, u16)]) {
    let mut moved: Vec<(Value, Value)> = Vec::new();
    for &(was, now) in dealt {
        if was == now || dealt.iter().filter(|(w, _)| *w == was).count() > 1 {
            continue;
        }
        moved.push((
            crate::eval::decode_element(kind, was),
            crate::eval::decode_element(kind, now),
        ));
    }
    if moved.is_empty() {
        return;
    }
    let follow = |v: &mut Value| {
        if let Some((_, now)) = moved.iter().find(|(was, _)| was == v) {
            *v = now.clone();
        } else if let Value::List(items) = v {
            if items.iter().any(|i| moved.iter().any(|(was, _)| was == i)) {
                let mapped: Vec<Value> = items
                    .iter()
                    .map(|i| match moved.iter().find(|(was, _)| was == i) {
                        Some((_, now)) => now.clone(),
                        None => i.clone(),
                    })
                    .collect();
                *v = Value::list(mapped);
            }
        }
    };
    state.locals.iter_mut().for_each(follow);
    if let crate::state::Pending::Decision { options, .. } = &mut state.pending {
        options.iter_mut().for_each(|(_, v)| follow(v));
    }
}
