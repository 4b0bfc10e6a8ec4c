//! The state of a running game: plain data (numbers, zones, boards, the continuation,
//! what is pending, what was revealed), cheap to clone, compare and serialize. Below the
//! step machine: the evaluator, scripts and views read it without knowing how a step runs.

use std::sync::Arc;

use crate::grid::Grid;
use crate::id::{BlockId, Slot};
use crate::value::Value;

/// A running game. Plain data: cheap to clone, comparable, serializable. Only the game's
/// steps (and the reading of a position, checked against the game) change it: outside
/// the interpreter it is read through its accessors, and its numbers may be set in place
/// (`ints_mut`, which keeps the layout), so that what a state holds always fits the game
/// that made it: its sizes, its continuation, what is pending, what was revealed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The players' names, in seat order.
    pub(crate) names: Arc<Vec<String>>,
    // Fixed in number for a game: boxed slices, a word smaller than vectors in every
    // state (bytes per state clone are a measured aim).
    pub(crate) ints: Box<[i64]>,
    pub(crate) zones: Box<[Vec<u16>]>,
    pub(crate) boards: Box<[Grid]>,
    pub(crate) stack: Vec<Frame>,
    pub(crate) locals: Vec<Value>,
    pub(crate) pending: Pending,
    /// Decisions and chance outcomes applied so far.
    pub(crate) steps: u32,
    /// Hidden elements `reveal:` has shown to some players, sorted by zone and element.
    pub(crate) seen: Reveals,
}

impl State {
    /// The players' names, in seat order.
    pub fn names(&self) -> &[String] {
        &self.names
    }
    /// Every number of the state: each variable's slots, flattened (`Var::base`).
    #[inline]
    pub fn ints(&self) -> &[i64] {
        &self.ints
    }
    /// The numbers, to set in place (a test's position, generated code's assignments):
    /// their count is the game's layout and cannot change.
    #[inline]
    pub fn ints_mut(&mut self) -> &mut [i64] {
        &mut self.ints
    }
    /// Each zone instance's element codes, in order (`Zone::base`).
    #[inline]
    pub fn zones(&self) -> &[Vec<u16>] {
        &self.zones
    }
    /// Each board instance's pieces (`Board::base`).
    pub fn boards(&self) -> &[Grid] {
        &self.boards
    }
    /// The continuation: the frames of the blocks being run, innermost last.
    pub fn stack(&self) -> &[Frame] {
        &self.stack
    }
    /// The locals of the procedures being run.
    pub fn locals(&self) -> &[Value] {
        &self.locals
    }
    /// What the state waits for, as data ([`crate::Game::status`] reads it).
    pub fn pending(&self) -> &Pending {
        &self.pending
    }
    /// Decisions and chance outcomes applied so far.
    pub fn steps(&self) -> u32 {
        self.steps
    }
    /// What `reveal:` has shown to whom.
    pub fn seen(&self) -> &Reveals {
        &self.seen
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub block: BlockId,
    pub pc: u32,
    /// Where this procedure activation's locals start in [`State::locals`].
    pub base: u32,
    pub kind: FrameKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// A procedure body: leaving it frees its locals. `into` is the caller's local
    /// (relative to the caller's frame) that receives the value of its `return:`.
    Call {
        into: Option<Slot>,
    },
    /// A nested block (a branch, an option's effects).
    Block,
    ForEach {
        slot: Slot,
        list: Arc<Vec<Value>>,
        next: u32,
    },
    Repeat {
        left: i64,
    },
    /// A while loop; its condition is the statement at (block, pc).
    While {
        block: BlockId,
        pc: u32,
    },
    /// A `repeat: { up_to }` loop (the statement at (block, pc)) in its round `round` of
    /// at most `count`.
    UpTo {
        block: BlockId,
        pc: u32,
        round: u16,
        count: u16,
    },
}

/// Where the state is suspended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Only while running between two suspensions.
    Running,
    Decision {
        player: u8,
        block: BlockId,
        pc: u32,
        options: Vec<(u16, Value)>,
    },
    // Boxed: with two lists inline it was the largest variant, in every state's size.
    Chance(Box<ChancePoint>),
    Shuffle {
        zone: usize,
    },
    // Boxed: a finished game is rare, and every state would otherwise carry an
    // outcome's size.
    Over(Box<Outcome>),
}

/// A `random:` statement waiting for its outcome: the local that receives it, the
/// outcomes and their weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChancePoint {
    pub slot: Slot,
    pub outcomes: Vec<Value>,
    pub weights: Vec<u64>,
}

/// The final result: a score per seat and a rank per seat (1 = winner; equal ranks share).
#[derive(Clone, Debug)]
pub struct Outcome {
    pub scores: Vec<i64>,
    pub tiebreaks: Vec<Vec<i64>>,
    pub ranks: Vec<u8>,
    /// Where the game ended: the ruleset path of the `end_game` statement that ended it
    /// (e.g. `procedures.scoring.do[6].then[0]`), or none when the play flow ran out (or
    /// the state was read from a position, which keeps no history). Results report it; it
    /// is not part of the outcome's equality.
    pub ended_by: Option<std::sync::Arc<str>>,
    /// Each seat's return, when the ruleset declares an `outcome:`.
    pub returns: Option<Returns>,
}

/// The seats' returns over a common denominator: seat p's return is `values[p] / scale`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Returns {
    pub values: Vec<i64>,
    /// Positive.
    pub scale: i64,
}

/// How a game ended for one seat, read from the returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    Win,
    Draw,
    Loss,
}

impl Returns {
    /// Seat `p`'s return as a decimal number.
    pub fn value(&self, p: usize) -> f64 {
        self.values[p] as f64 / self.scale as f64
    }

    /// Every seat draws when all returns are equal; otherwise the seats with the highest
    /// return win (several share a win) and the others lose.
    pub fn standings(&self) -> Vec<Standing> {
        let best = self.values.iter().copied().max();
        let all_equal = self.values.iter().all(|&v| Some(v) == best);
        self.values
            .iter()
            .map(|&v| match (all_equal, Some(v) == best) {
                (true, _) => Standing::Draw,
                (false, true) => Standing::Win,
                (false, false) => Standing::Loss,
            })
            .collect()
    }
}

/// Equal outcomes have the same scores, tie-breaks and ranks, however the game ended: a
/// position file of a finished game does not say which `end_game` ended it.
impl PartialEq for Outcome {
    fn eq(&self, other: &Self) -> bool {
        self.scores == other.scores
            && self.tiebreaks == other.tiebreaks
            && self.ranks == other.ranks
            && self.returns == other.returns
    }
}

impl Eq for Outcome {}

impl Outcome {
    /// The seats that win: by the returns when the ruleset declares an `outcome:` (none
    /// in a draw), else those ranked first.
    pub fn winners(&self) -> Vec<usize> {
        match &self.returns {
            Some(returns) => (0..returns.values.len())
                .filter(|&p| returns.standings()[p] == Standing::Win)
                .collect(),
            None => (0..self.ranks.len())
                .filter(|&p| self.ranks[p] == 1)
                .collect(),
        }
    }

    /// Whether the game is a draw: the ruleset declares an `outcome:` and every return
    /// is equal.
    pub fn is_draw(&self) -> bool {
        self.returns
            .as_ref()
            .is_some_and(|r| r.standings().first() == Some(&Standing::Draw))
    }
}

/// What a state waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status<'a> {
    Decision { player: u8, options: usize },
    Chance(Chance<'a>),
    Over(&'a Outcome),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chance<'a> {
    /// One outcome among these, with these weights.
    Pick {
        outcomes: &'a [Value],
        weights: &'a [u64],
    },
    /// A new order for the zone instance (all orders equally likely).
    Shuffle { zone: usize, len: usize },
}

/// How a suspended state is resumed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// The index of one of the decision's options.
    Option(usize),
    /// The index of one of a chance point's outcomes.
    Outcome(usize),
    /// A shuffle's result: the zone's elements in their new order.
    Order(Vec<u16>),
}

impl State {
    /// Moves `zones[from][taken]` to the end of `zones[to]`, keeping their order; what
    /// leaves its zone is no longer shown to anyone (`reveal:`).
    pub(crate) fn move_to_end(&mut self, from: usize, to: usize, taken: std::ops::Range<usize>) {
        move_elements(&mut self.zones, from, to, taken);
        if from != to {
            self.forget_moved();
        }
    }
}

/// Moves `zones[from][taken]` to the end of `zones[to]`, keeping their order.
fn move_elements(zones: &mut [Vec<u16>], from: usize, to: usize, taken: std::ops::Range<usize>) {
    if from == to {
        let moved: Vec<u16> = zones[from].drain(taken).collect();
        zones[to].extend(moved);
        return;
    }
    let (source, target) = if from < to {
        let (a, b) = zones.split_at_mut(to);
        (&mut a[from], &mut b[0])
    } else {
        let (a, b) = zones.split_at_mut(from);
        (&mut b[0], &mut a[to])
    };
    target.extend(source.drain(taken));
}

impl State {
    /// The memory a clone of this state allocates and copies, in bytes.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        size_of::<State>()
            + self.ints.len() * size_of::<i64>()
            + self
                .zones
                .iter()
                .map(|z| size_of::<Vec<u16>>() + z.len() * size_of::<u16>())
                .sum::<usize>()
            + self.stack.len() * size_of::<Frame>()
            + self.locals.len() * size_of::<Value>()
            + self
                .boards
                .iter()
                .map(|b| size_of::<Grid>() + b.len() * size_of::<(crate::grid::Pos, u16)>())
                .sum::<usize>()
    }
}

/// A hidden element shown to some players by `reveal:`, for as long as it stays in the
/// zone instance it was revealed in (moving it out, even back again, forgets it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Seen {
    pub zone: u32,
    pub element: u16,
    /// One bit per seat.
    pub players: u64,
}

/// Seats a reveal can name: one bit each in [`Seen::players`].
pub const MAX_SEATS: usize = 64;

/// What `reveal:` has shown, sorted by zone and element (so that equal knowledge is an
/// equal state). Most games reveal nothing: the list is allocated only when something
/// is shown, and an empty one costs a state one word.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[allow(clippy::box_collection)] // one word in every state, not three
pub struct Reveals(Option<Box<Vec<Seen>>>);

impl Reveals {
    pub fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(|v| v.is_empty())
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Seen> {
        self.0.as_deref().map_or(&[][..], |v| &v[..]).iter()
    }
    pub(crate) fn retain(&mut self, keep: impl FnMut(&Seen) -> bool) {
        if let Some(v) = &mut self.0 {
            v.retain(keep);
            if v.is_empty() {
                self.0 = None;
            }
        }
    }
    fn add(&mut self, zone: u32, element: u16, players: u64) {
        let list = self.0.get_or_insert_with(Default::default);
        match list
            .iter_mut()
            .find(|s| s.zone == zone && s.element == element)
        {
            Some(s) => s.players |= players,
            None => {
                list.push(Seen {
                    zone,
                    element,
                    players,
                });
                list.sort_unstable_by_key(|s| (s.zone, s.element));
            }
        }
    }
}

impl State {
    /// Forgets what was revealed of elements that have left the zone they were revealed in.
    /// Called after every statement that takes elements out of a zone.
    #[inline]
    pub(crate) fn forget_moved(&mut self) {
        if self.seen.is_empty() {
            return;
        }
        let zones = &self.zones;
        self.seen
            .retain(|s| zones[s.zone as usize].contains(&s.element));
    }

    /// Records that `element` of zone instance `zone` is shown to these seats.
    pub(crate) fn reveal(&mut self, zone: usize, element: u16, players: u64) {
        self.seen.add(zone as u32, element, players);
    }

    /// Whether a reveal showed `element` of zone instance `zone` to `viewer`.
    pub fn revealed_to(&self, zone: usize, element: u16, viewer: u8) -> bool {
        self.seen.iter().any(|s| {
            s.zone as usize == zone && s.element == element && s.players >> viewer & 1 == 1
        })
    }
}
