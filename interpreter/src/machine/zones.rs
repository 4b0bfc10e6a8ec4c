//! Statements on zones and boards: `move`, `push`, `remove`, `clear`, `reveal` and
//! `place`, and the bound on the elements the zones hold.

use super::{as_list, as_pos, State};
use crate::eval::{code_of, RuntimeError};
use crate::grid::Piece;
use crate::ir::{BoardRead, Expr, ZoneRead};
use crate::model::{Game, MoveAt, MoveWhat, RemoveWhat};
use crate::value::Value;

impl Game {
    /// `move`: an element, the top n or all of one zone moved to the end of another, or
    /// inserted at a position.
    // Run from one arm of `exec_rest`: inlined there, as when it was written in place.
    #[inline]
    pub(super) fn move_elements(
        &self,
        state: &mut State,
        base: usize,
        from: &ZoneRead,
        to: &ZoneRead,
        what: &MoveWhat,
        at: &MoveAt,
    ) -> Result<(), RuntimeError> {
        let env = self.frame_env(state, base);
        let (from, of) = (from.instance(&env)?, from.of);
        let to = to.instance(&env)?;
        let at = match at {
            MoveAt::Bottom => None,
            MoveAt::Top => Some(0),
            MoveAt::Index(k) => Some(k.int(&env)?),
        };
        let taken = match what {
            MoveWhat::Item(item) => {
                let item = item.eval(&env)?;
                let code = self.zone_code(of, &item, &state.names)?;
                let Some(at) = position(state, from, code) else {
                    return Err(RuntimeError::new(format!(
                        "{} is not in {}",
                        self.value_text(&item, &state.names),
                        self.zone_instance_name(from)
                    )));
                };
                at..at + 1
            }
            MoveWhat::Top(n) => 0..n.int(&env)?.clamp(0, state.zones[from].len() as i64) as usize,
            MoveWhat::All => 0..state.zones[from].len(),
        };
        match at {
            None => state.move_to_end(from, to, taken),
            Some(at) => {
                // The position counts in the destination once the elements are out.
                let len = state.zones[to].len() - if from == to { taken.len() } else { 0 };
                if at < 0 || at as usize > len {
                    return Err(RuntimeError::new(format!(
                                "position {at} is outside {} ({len} elements: a move inserts at 0 to {len})",
                                self.zone_instance_name(to)
                            )));
                }
                let moved: Vec<u16> = state.zones[from].drain(taken).collect();
                let at = at as usize;
                state.zones[to].splice(at..at, moved);
                if from != to {
                    state.forget_moved();
                }
            }
        }
        Ok(())
    }

    /// `push` of `code` at the end of zone instance `zone`, the elements' bound checked.
    pub(super) fn push_code(
        &self,
        state: &mut State,
        zone: usize,
        code: u16,
    ) -> Result<(), RuntimeError> {
        self.check_elements(state, 1)?;
        state.zones[zone].push(code);
        Ok(())
    }

    /// `push`: a new element at the end of a zone.
    // Run from one arm of `exec_rest`: inlined there, as when it was written in place.
    #[inline]
    pub(super) fn push_element(
        &self,
        state: &mut State,
        base: usize,
        to: &ZoneRead,
        value: &Expr,
    ) -> Result<(), RuntimeError> {
        let env = self.frame_env(state, base);
        let zone = to.instance(&env)?;
        let code = self.zone_code(to.of, &value.eval(&env)?, &state.names)?;
        self.push_code(state, zone, code)
    }

    /// `remove`: the element at a position, or an element (if the zone holds it), taken
    /// out of the game.
    // Run from one arm of `exec_rest`: inlined there, as when it was written in place.
    #[inline]
    pub(super) fn remove_element(
        &self,
        state: &mut State,
        base: usize,
        from: &ZoneRead,
        what: &RemoveWhat,
    ) -> Result<(), RuntimeError> {
        let env = self.frame_env(state, base);
        let zone = from.instance(&env)?;
        match what {
            RemoveWhat::At(at) => {
                let at = at.int(&env)?;
                let len = state.zones[zone].len();
                if at < 0 || at as usize >= len {
                    return Err(RuntimeError::new(format!(
                        "position {at} is outside {} ({len} elements)",
                        self.zone_instance_name(zone)
                    )));
                }
                state.zones[zone].remove(at as usize);
            }
            RemoveWhat::Item(item) => {
                if let Some(code) = code_of(&item.eval(&env)?) {
                    if let Some(at) = state.zones[zone].iter().position(|e| *e == code) {
                        state.zones[zone].remove(at);
                    }
                }
            }
        }
        state.forget_moved();
        Ok(())
    }

    /// `clear`: a zone emptied.
    // Run from one arm of `exec_rest`: inlined there, as when it was written in place.
    #[inline]
    pub(super) fn clear_zone(
        &self,
        state: &mut State,
        base: usize,
        zone: &ZoneRead,
    ) -> Result<(), RuntimeError> {
        let zone = zone.instance(&self.frame_env(state, base))?;
        state.zones[zone].clear();
        state.forget_moved();
        Ok(())
    }

    /// `reveal`: an element of a zone shown to players, until it leaves the zone.
    // Run from one arm of `exec_rest`: inlined there, as when it was written in place.
    #[inline]
    pub(super) fn reveal_element(
        &self,
        state: &mut State,
        base: usize,
        read: &ZoneRead,
        what: &Expr,
        to: &Expr,
    ) -> Result<(), RuntimeError> {
        let env = self.frame_env(state, base);
        let zone = read.instance(&env)?;
        let item = what.eval(&env)?;
        let code = self.zone_code(read.of, &item, &state.names)?;
        if !state.zones[zone].contains(&code) {
            return Err(RuntimeError::new(format!(
                "reveal: {} is not in {}",
                self.value_text(&item, &state.names),
                self.zone_instance_name(zone)
            )));
        }
        let players = match to.eval(&env)? {
            Value::List(list) => list.iter().map(as_seat).collect::<Result<Vec<_>, _>>()?,
            one => vec![as_seat(&one)?],
        };
        let mut mask = 0u64;
        for p in players {
            if p as usize >= crate::knowledge::MAX_SEATS {
                return Err(RuntimeError::new(format!(
                    "reveal: at most {} seats can be shown an element",
                    crate::knowledge::MAX_SEATS
                )));
            }
            mask |= 1 << p;
        }
        state.reveal(zone, code, mask);
        Ok(())
    }

    /// `place`: a piece laid on a board at a position.
    // Run from one arm of `exec_rest`: inlined there, as when it was written in place.
    #[inline]
    pub(super) fn place_piece(
        &self,
        state: &mut State,
        base: usize,
        board: &BoardRead,
        at: &Expr,
        piece: &Expr,
    ) -> Result<(), RuntimeError> {
        let env = self.frame_env(state, base);
        let instance = board.instance(&env)?;
        let at = as_pos(&at.eval(&env)?)?;
        let piece = piece_of(&piece.eval(&env)?)?;
        state.boards[instance]
            .place(at, &piece)
            .map_err(RuntimeError::new)?;
        if state.boards[instance].len() > self.limits.board_cells {
            return Err(RuntimeError::new(format!(
                "a board covered on more than {} cells (--limit cells=N raises the limit)",
                self.limits.board_cells
            )));
        }
        Ok(())
    }

    /// Refuses `adding` new elements when the zones of `state` would then hold more than
    /// the limit: elements are made by `push` and zone `init`s only (moves keep the
    /// total), so this bounds the memory zones take. Zones are few, so their lengths are
    /// added up each time rather than kept in the state.
    pub(crate) fn check_elements(&self, state: &State, adding: usize) -> Result<(), RuntimeError> {
        let held: usize = state.zones.iter().map(Vec::len).sum();
        if held.saturating_add(adding) > self.limits.zone_elements {
            return Err(RuntimeError::new(format!(
                "the zones would hold more than {} elements (--limit elements=N raises the limit)",
                self.limits.zone_elements
            )));
        }
        Ok(())
    }
}

/// Where zone instance `zone` first holds `code`.
pub(super) fn position(state: &State, zone: usize, code: u16) -> Option<usize> {
    state.zones[zone].iter().position(|e| *e == code)
}

/// A piece as statements give it: a list of rows, each a list of elements or none.
fn piece_of(v: &Value) -> Result<Piece, RuntimeError> {
    let rows = as_list(v.clone())?;
    let mut piece = Vec::with_capacity(rows.len());
    for row in rows.iter() {
        let cells = as_list(row.clone())?;
        piece.push(
            cells
                .iter()
                .map(|c| {
                    if *c == Value::None {
                        Ok(None)
                    } else {
                        code_of(c).map(Some).ok_or(())
                    }
                })
                .collect::<Result<Vec<_>, ()>>()
                .map_err(|_| {
                    RuntimeError::new("a piece holds rows or players, or none for a gap")
                })?,
        );
    }
    crate::grid::check_piece(&piece).map_err(RuntimeError::new)?;
    Ok(piece)
}

/// The seat a player value stands for (`none` is an error).
fn as_seat(v: &Value) -> Result<u8, RuntimeError> {
    match v {
        Value::Player(p) => Ok(*p),
        other => Err(RuntimeError::new(format!(
            "expected a player, found {other:?}"
        ))),
    }
}
