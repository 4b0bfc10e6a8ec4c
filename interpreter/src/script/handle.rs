//! The game handle a script receives: a read-only view of the running call's game and
//! state (`game.vp[p]`, `game.town[p]`), valid only while that call runs.

use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString, Map};

use crate::ir::decode;
use crate::model::{Domain, Game};
use crate::state::State;

use super::convert::Conv;

/// The game as a script's first parameter: a read-only handle on the state of the call
/// that created it. It holds no pointer itself, only the number of that call; reading an
/// entry (`game.vp`, `game["town"]`) asks `with_reading` for the state, which is there
/// only on the thread running that call and only while it runs.
///
/// Why this is sound without copying the state: Rhai values must be `'static`, so a
/// handle cannot borrow `&Game`/`&State`. Instead `Reading::enter` takes the borrows
/// for a lifetime `'a` and stores them as raw pointers in a thread-local slot, with a
/// call number unique in the process; the `Reading` guard cannot outlive `'a` (it holds a
/// `PhantomData<&'a _>`) and empties the slot when dropped, at the end of
/// [`super::call`] or while unwinding. So whenever the slot holds pointers, the game
/// and the state they point to are alive and shared-borrowed (neither has interior
/// mutability, and nothing can take `&mut` to them meanwhile). A handle dereferences
/// only when the slot's call number is its own: a handle that somehow outlived its call,
/// or reached another thread, finds nothing (or another call's number) and its reads
/// fail with an error instead of touching freed memory. By construction it cannot
/// escape anyway: a call returns a value converted to [`crate::value::Value`] (a handle is refused),
/// errors are turned into text, and the scope and arguments are dropped with the call.
#[derive(Clone, Debug)]
pub struct GameHandle {
    pub(crate) call: u64,
}

/// `game.<board>` for a board per player or per row: a handle like [`GameHandle`] (the
/// call's number, and which board), indexed as the array by seat or the map by row id
/// that it stands for. Only the board indexed is converted: `game.town[p]` builds the
/// cells of seat p's town, not those of every seat.
#[derive(Clone, Debug)]
pub struct Boards {
    call: u64,
    board: usize,
}

impl Boards {
    /// The board at `index` (a seat, or a row's position in its table), converted; `None`
    /// when there is none.
    fn read(
        &self,
        index: impl FnOnce(&Game, &State, Domain) -> Option<usize>,
    ) -> Result<Option<Dynamic>, String> {
        with_reading(&GameHandle { call: self.call }, |game, state| {
            let Some(board) = game.boards.get(self.board) else {
                return Ok(None);
            };
            let Some(grid) =
                index(game, state, board.per).and_then(|i| state.boards.get(board.base + i))
            else {
                return Ok(None);
            };
            converting(grid.len())?;
            Ok(Some(Conv::new(game).board(grid, board.of)))
        })?
    }

    fn per(&self) -> Result<Domain, String> {
        with_reading(&GameHandle { call: self.call }, |game, _| {
            game.boards
                .get(self.board)
                .map_or(Domain::Global, |b| b.per)
        })
    }

    fn len(&self) -> Result<i64, String> {
        with_reading(&GameHandle { call: self.call }, |game, state| {
            match game.boards.get(self.board).map(|b| b.per) {
                Some(Domain::Players) => state.names.len() as i64,
                Some(Domain::Table(t)) => game.tables[t.index()].rows.len() as i64,
                _ => 0,
            }
        })
    }
}

#[derive(Clone, Copy)]
struct Current {
    game: *const Game,
    state: *const State,
    call: u64,
}

thread_local! {
    static CURRENT: Cell<Option<Current>> = const { Cell::new(None) };
}

static CALLS: AtomicU64 = AtomicU64::new(0);

/// The guard of one script call's state: see [`GameHandle`].
pub(crate) struct Reading<'a> {
    call: u64,
    previous: Option<Current>,
    _borrow: PhantomData<(&'a Game, &'a State)>,
}

impl<'a> Reading<'a> {
    pub(crate) fn enter(game: &'a Game, state: &'a State) -> Reading<'a> {
        let call = CALLS.fetch_add(1, Ordering::Relaxed);
        let current = Current { game, state, call };
        let previous = CURRENT.with(|c| c.replace(Some(current)));
        Reading {
            call,
            previous,
            _borrow: PhantomData,
        }
    }

    pub(crate) fn handle(&self) -> GameHandle {
        GameHandle { call: self.call }
    }
}

impl Drop for Reading<'_> {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(self.previous));
    }
}

/// Runs `read` on the game and state of the handle's call, if that call is running on
/// this thread. `read` cannot keep the references: its result type is chosen by the
/// caller, outside their (higher-ranked) lifetime.
pub(crate) fn with_reading<R>(
    handle: &GameHandle,
    read: impl FnOnce(&Game, &State) -> R,
) -> Result<R, String> {
    match CURRENT.with(Cell::get) {
        Some(current) if current.call == handle.call => {
            // SAFETY: the slot holds this call's pointers only while its `Reading<'a>`
            // guard lives, which keeps `&'a Game` and `&'a State` borrowed (see
            // `GameHandle`); we are on the thread that set them, inside that call.
            let (game, state) = unsafe { (&*current.game, &*current.state) };
            Ok(read(game, state))
        }
        _ => Err("the game may only be read during the script call that received it".to_string()),
    }
}

pub(super) fn register_game_handle(engine: &mut Engine) {
    engine.register_type_with_name::<GameHandle>("Game");
    // `game.town` falls back to this indexer with the name as a string: no getter per
    // declaration is needed, and no setter exists, so writes fail.
    engine.register_indexer_get(
        |handle: &mut GameHandle, name: ImmutableString| -> Result<Dynamic, Box<EvalAltResult>> {
            Ok(with_reading(handle, |game, state| {
                read_entry(game, state, &name, handle.call)
            })??)
        },
    );
    engine.register_type_with_name::<Boards>("Boards");
    // game.town[p]: by seat, counting from the end when negative, as an array.
    engine.register_indexer_get(
        |boards: &mut Boards, seat: i64| -> Result<Dynamic, Box<EvalAltResult>> {
            if boards.per()? != Domain::Players {
                return Err(format!(
                    "a board per row is indexed by row id, not by the number {seat}"
                )
                .into());
            }
            let read = boards.read(|_, state, _| {
                let n = state.names.len() as i64;
                let i = if seat < 0 { seat + n } else { seat };
                (0..n).contains(&i).then_some(i as usize)
            })?;
            read.ok_or_else(|| {
                format!(
                    "no board of index {seat} (there are {})",
                    boards.len().unwrap_or(0)
                )
                .into()
            })
        },
    );
    // game.track["east"]: by row id, () for an id that is no row, as a map.
    engine.register_indexer_get(
        |boards: &mut Boards, id: ImmutableString| -> Result<Dynamic, Box<EvalAltResult>> {
            let Domain::Table(t) = boards.per()? else {
                return Err(format!(
                    "a board per player is indexed by seat number, not by the text \"{id}\""
                )
                .into());
            };
            let read = boards
                .read(|game, _, _| game.tables.get(t.index())?.row_index(&id).map(usize::from))?;
            Ok(read.unwrap_or(Dynamic::UNIT))
        },
    );
    engine.register_fn(
        "len",
        |boards: &mut Boards| -> Result<i64, Box<EvalAltResult>> { Ok(boards.len()?) },
    );
}

/// What `game.<name>` reads: the same value the whole state's map used to hold under that
/// name (boards over zones over variables over `players` when names collide), `()` for
/// an unknown name.
fn read_entry(game: &Game, state: &State, name: &str, call: u64) -> Result<Dynamic, String> {
    let conv = Conv::new(game);
    if let Some(index) = game.boards.iter().rposition(|b| b.name == name) {
        let board = &game.boards[index];
        if board.per == Domain::Global {
            converting(state.boards[board.base].len())?;
            return Ok(conv.board(&state.boards[board.base], board.of));
        }
        return Ok(Dynamic::from(Boards { call, board: index }));
    }
    if let Some(zone) = game.zones.iter().rev().find(|z| z.name == name) {
        let instances = zone.base..zone.base + game.domain_len(zone.per);
        converting(state.zones[instances].iter().map(|z| z.len() + 1).sum())?;
        let read = |i: usize| {
            let items: Array = state.zones[zone.base + i]
                .iter()
                .map(|e| conv.value(&crate::value::decode_element(zone.of, *e)))
                .collect();
            Dynamic::from_array(items)
        };
        return Ok(by_index(game, state, zone.per, read));
    }
    if let Some(var) = game.vars.iter().rev().find(|v| v.name == name) {
        converting(game.domain_len(var.per))?;
        let read = |i: usize| conv.value(&decode(&var.ty, state.ints[var.base + i]));
        return Ok(by_index(game, state, var.per, read));
    }
    if name == "players" {
        return Ok(Dynamic::from_int(state.names.len() as i64));
    }
    Ok(Dynamic::UNIT)
}

/// Counts the `n` values a read converts for the script as steps of the work budget
/// (reading a long zone in a loop is work the operations alone do not show).
fn converting(n: usize) -> Result<(), String> {
    crate::work::charge_work(n as u64).map_err(|spent| spent.to_string())
}

/// A value per index of a domain: one value, an array by seat, or a map by row id; for
/// two keys, the first key's array or map of the second key's (`game.supply[p]["s1"]`).
fn by_index(game: &Game, state: &State, per: Domain, read: impl Fn(usize) -> Dynamic) -> Dynamic {
    match per {
        Domain::Global => read(0),
        Domain::Pair(a, b) => {
            let stride = game.domain_len(b.domain());
            by_key(game, state, a.domain(), &|i| {
                by_key(game, state, b.domain(), &|j| read(i * stride + j))
            })
        }
        one => by_key(game, state, one, &read),
    }
}

/// One key's array by seat or map by row id.
fn by_key(game: &Game, state: &State, per: Domain, read: &dyn Fn(usize) -> Dynamic) -> Dynamic {
    match per {
        Domain::Players => Dynamic::from_array((0..state.names.len()).map(read).collect()),
        Domain::Table(t) => {
            let mut m = Map::new();
            for (i, row) in game.tables[t.index()].rows.iter().enumerate() {
                m.insert(row.id.as_str().into(), read(i));
            }
            Dynamic::from_map(m)
        }
        Domain::Global | Domain::Pair(..) => read(0),
    }
}
