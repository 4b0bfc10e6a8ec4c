//! Rhai scripts for effects that YAML says badly. Each file is compiled once into one
//! sandboxed engine: no modules, no IO, no floats, and limits on operations, call depth
//! and sizes, so a runaway script stops with an error naming it and the limit.
//!
//! Every script function receives the game as its first parameter: a read-only handle
//! on the state (`game.vp[p]`, `game.deck`, `game.wagons["east"]`, `game.players`,
//! `game.town[p]`) whose entries are converted when read, then the arguments given in the
//! expression. Players are seat numbers from 0, rows their id; a declaration with two
//! keys is the first key's array or map of the second key's (`game.supply[p]["mine"]`). The grid built-ins
//! (`groups`, `holes`, `neighbours`, `placements`, `cells`, `at`) are native functions
//! over boards as scripts see them: arrays of cell maps `#{row, col, id, …}`.

use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use rhai::{
    Array, Dynamic, Engine, EvalAltResult, FnPtr, ImmutableString, Map, NativeCallContext, AST,
};

use crate::grid::{Grid, Pos};
use crate::id::ScriptFnId;
use crate::ir::decode;
use crate::model::{Domain, Game, ScriptFunction, ScriptLibrary, ScriptRows};
use crate::state::State;
use crate::value::Value;

pub const MAX_OPERATIONS: u64 = 200_000;
pub const MAX_CALL_DEPTH: usize = 32;

/// A problem in a script file: file, line:column if known, message.
pub type ScriptError = (String, Option<(usize, usize)>, String);

/// The one sandboxed engine every game's scripts are compiled and run with: its packages,
/// limits and native functions are the same for every ruleset, and it keeps no state
/// between calls.
fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(sandbox)
}

/// Compiles a ruleset's script files (file name, text) into one library, or says what is
/// wrong with each.
pub fn compile(files: &[(String, String)]) -> Result<ScriptLibrary, Vec<ScriptError>> {
    let engine = engine();
    let mut compiled = Vec::new();
    let mut functions: Vec<ScriptFunction> = Vec::new();
    let mut errors = Vec::new();
    for (file, text) in files {
        match engine.compile(text) {
            Ok(ast) => {
                for f in ast.iter_functions() {
                    if f.params.is_empty() {
                        errors.push((
                            file.clone(),
                            None,
                            format!(
                                "script function {} must take the game as its first parameter",
                                f.name
                            ),
                        ));
                        continue;
                    }
                    if functions.iter().any(|g| g.name == f.name) {
                        errors.push((
                            file.clone(),
                            None,
                            format!("script function {} is defined twice", f.name),
                        ));
                    }
                    functions.push(ScriptFunction {
                        name: f.name.to_string(),
                        arity: f.params.len() - 1,
                        file: compiled.len(),
                    });
                }
                compiled.push((file.clone(), ast));
            }
            Err(e) => {
                let pos = e.position();
                let at = pos.line().map(|l| (l, pos.position().unwrap_or(1)));
                errors.push((
                    file.clone(),
                    at,
                    format!("script syntax error: {}", e.err_type()),
                ));
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut all = AST::empty();
    for (_, ast) in &compiled {
        all = all.merge(ast);
    }
    let files = compiled.into_iter().map(|(file, _)| file).collect();
    Ok(ScriptLibrary {
        ast: all,
        files,
        functions,
        rows: OnceLock::new(),
    })
}

/// Calls the game's script function `function` with these arguments, the game handle
/// reading `state`; an error is the message a runtime error gives.
pub fn call(
    game: &Game,
    state: &State,
    function: ScriptFnId,
    args: Vec<Value>,
) -> Result<Value, String> {
    let Some(library) = game.scripts.as_deref() else {
        return Err("the ruleset has no scripts".to_string());
    };
    let Some(f) = library.functions.get(function.index()) else {
        return Err(format!("no script function number {}", function.index()));
    };
    let (name, file_name) = (f.name.as_str(), &library.files[f.file]);
    // The handle reads game and state only while `reading` lives: until the end of this
    // function, within their borrows (see `Reading`).
    let reading = Reading::enter(game, state);
    let mut call_args: Vec<Dynamic> = vec![Dynamic::from(reading.handle())];
    let conv = Conv::new(game);
    call_args.extend(args.iter().map(|v| conv.value(v)));
    let mut scope = rhai::Scope::new();
    let result = engine().call_fn_with_options::<Dynamic>(
        rhai::CallFnOptions::new().eval_ast(false),
        &mut scope,
        &library.ast,
        name,
        call_args,
    );
    drop(reading);
    match result {
        Ok(value) => {
            from_dynamic(value).map_err(|m| format!("script {file_name}, function {name}: {m}"))
        }
        Err(e) => {
            let message = match *e {
                rhai::EvalAltResult::ErrorTooManyOperations(_) => {
                    format!("stopped after {MAX_OPERATIONS} operations (the script limit): does it loop forever?")
                }
                rhai::EvalAltResult::ErrorStackOverflow(_) => {
                    format!("exceeded the call depth limit of {MAX_CALL_DEPTH}")
                }
                ref other => other.to_string(),
            };
            Err(format!("script {file_name}, function {name}: {message}"))
        }
    }
}

fn sandbox() -> Engine {
    let mut engine = Engine::new_raw();
    engine.register_global_module(rhai::packages::Package::as_shared_module(
        &rhai::packages::CorePackage::new(),
    ));
    engine.register_global_module(rhai::packages::Package::as_shared_module(
        &rhai::packages::BasicArrayPackage::new(),
    ));
    engine.register_global_module(rhai::packages::Package::as_shared_module(
        &rhai::packages::BasicMapPackage::new(),
    ));
    engine.register_global_module(rhai::packages::Package::as_shared_module(
        &rhai::packages::LogicPackage::new(),
    ));
    engine.register_global_module(rhai::packages::Package::as_shared_module(
        &rhai::packages::ArithmeticPackage::new(),
    ));
    engine.set_max_operations(MAX_OPERATIONS);
    engine.set_max_call_levels(MAX_CALL_DEPTH);
    engine.set_max_expr_depths(64, 32);
    engine.set_max_string_size(10_000);
    engine.set_max_array_size(10_000);
    engine.set_max_map_size(1_000);
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
    register_game_handle(&mut engine);
    register_geometry(&mut engine);
    register_grid(&mut engine);
    register_sort(&mut engine);
    engine
}

/// `array.sort(|a, b| …)`: Rhai's own takes a comparator's error for "equal" and goes on,
/// so a mistake in it would sort wrongly without a word; and a comparator that is not a
/// total order may make Rust's slice sort panic. This one is a merge sort (stable, like
/// Rhai's) that stops at the comparator's first error and never panics. Registered on
/// the engine itself, it is found before the array package's.
fn register_sort(engine: &mut Engine) {
    engine.register_fn(
        "sort",
        |context: NativeCallContext, array: &mut Array, compare: FnPtr| -> Native<()> {
            let items = std::mem::take(array);
            let mut before_or_equal = |a: &Dynamic, b: &Dynamic| -> Native<bool> {
                let order =
                    compare.call_within_context::<Dynamic>(&context, (a.clone(), b.clone()))?;
                let order = order.as_int().map_err(|t| {
                    Box::<EvalAltResult>::from(format!(
                        "sort: the comparator must return a number, not {t}"
                    ))
                })?;
                Ok(order <= 0)
            };
            *array = merge_sort(items, &mut before_or_equal)?;
            Ok(())
        },
    );
}

/// Sorts `items` stably with a fallible comparison (`before_or_equal(a, b)`: whether `a`
/// may stay before `b`). Recursion is as deep as the logarithm of the length.
fn merge_sort(
    mut items: Array,
    before_or_equal: &mut dyn FnMut(&Dynamic, &Dynamic) -> Native<bool>,
) -> Native<Array> {
    if items.len() <= 1 {
        return Ok(items);
    }
    let right = items.split_off(items.len() / 2);
    let (left, right) = (
        merge_sort(items, before_or_equal)?,
        merge_sort(right, before_or_equal)?,
    );
    let mut out = Array::with_capacity(left.len() + right.len());
    let (mut left, mut right) = (left.into_iter().peekable(), right.into_iter().peekable());
    while let (Some(a), Some(b)) = (left.peek(), right.peek()) {
        let next = if before_or_equal(a, b)? {
            left.next()
        } else {
            right.next()
        };
        out.extend(next);
    }
    out.extend(left);
    out.extend(right);
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// The game handle
// ---------------------------------------------------------------------------------------

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
/// [`Scripts::call`] or while unwinding. So whenever the slot holds pointers, the game
/// and the state they point to are alive and shared-borrowed (neither has interior
/// mutability, and nothing can take `&mut` to them meanwhile). A handle dereferences
/// only when the slot's call number is its own: a handle that somehow outlived its call,
/// or reached another thread, finds nothing (or another call's number) and its reads
/// fail with an error instead of touching freed memory. By construction it cannot
/// escape anyway: a call returns a value converted to [`Value`] (a handle is refused),
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
            let board = game.boards.get(self.board)?;
            let i = index(game, state, board.per)?;
            Some(Conv::new(game).board(state.boards.get(board.base + i)?, board.of))
        })
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

fn register_game_handle(engine: &mut Engine) {
    engine.register_type_with_name::<GameHandle>("Game");
    // `game.town` falls back to this indexer with the name as a string: no getter per
    // declaration is needed, and no setter exists, so writes fail.
    engine.register_indexer_get(
        |handle: &mut GameHandle, name: ImmutableString| -> Result<Dynamic, Box<EvalAltResult>> {
            Ok(with_reading(handle, |game, state| {
                read_entry(game, state, &name, handle.call)
            })?)
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
fn read_entry(game: &Game, state: &State, name: &str, call: u64) -> Dynamic {
    let conv = Conv::new(game);
    if let Some(index) = game.boards.iter().rposition(|b| b.name == name) {
        let board = &game.boards[index];
        if board.per == Domain::Global {
            return conv.board(&state.boards[board.base], board.of);
        }
        return Dynamic::from(Boards { call, board: index });
    }
    if let Some(zone) = game.zones.iter().rev().find(|z| z.name == name) {
        let read = |i: usize| {
            let items: Array = state.zones[zone.base + i]
                .iter()
                .map(|e| conv.value(&crate::value::decode_element(zone.of, *e)))
                .collect();
            Dynamic::from_array(items)
        };
        return by_index(game, state, zone.per, read);
    }
    if let Some(var) = game.vars.iter().rev().find(|v| v.name == name) {
        let read = |i: usize| conv.value(&decode(&var.ty, state.ints[var.base + i]));
        return by_index(game, state, var.per, read);
    }
    if name == "players" {
        return Dynamic::from_int(state.names.len() as i64);
    }
    Dynamic::UNIT
}

impl ScriptRows {
    fn new(game: &Game) -> ScriptRows {
        let ids: Vec<Vec<Dynamic>> = game
            .tables
            .iter()
            .map(|t| {
                t.rows
                    .iter()
                    .map(|r| Dynamic::from(ImmutableString::from(r.id.as_str())))
                    .collect()
            })
            .collect();
        let with_ids = ScriptRows {
            tables: game.tables.as_ptr() as usize,
            ids,
            cells: Vec::new(),
        };
        let conv = Conv {
            game,
            rows: Some(&with_ids),
        };
        let cells = game
            .tables
            .iter()
            .enumerate()
            .map(|(t, table)| (0..table.rows.len()).map(|r| conv.row_map(t, r)).collect())
            .collect();
        ScriptRows {
            tables: game.tables.as_ptr() as usize,
            ids: with_ids.ids,
            cells,
        }
    }

    /// Whether these rows were made from `game`'s tables (same tables, same row counts).
    fn fits(&self, game: &Game) -> bool {
        self.tables == game.tables.as_ptr() as usize
            && self.ids.len() == game.tables.len()
            && self
                .ids
                .iter()
                .zip(&game.tables)
                .all(|(ids, t)| ids.len() == t.rows.len())
    }
}

/// Converts values of one game to Rhai values, with its converted rows when there are.
#[derive(Clone, Copy)]
struct Conv<'a> {
    game: &'a Game,
    rows: Option<&'a ScriptRows>,
}

impl<'a> Conv<'a> {
    fn new(game: &'a Game) -> Conv<'a> {
        let rows = game
            .scripts
            .as_ref()
            .map(|s| s.rows.get_or_init(|| ScriptRows::new(game)))
            .filter(|r| r.fits(game));
        Conv { game, rows }
    }

    fn value(&self, v: &Value) -> Dynamic {
        match v {
            Value::None => Dynamic::UNIT,
            Value::Int(n) => Dynamic::from_int(*n),
            Value::Bool(b) => Dynamic::from_bool(*b),
            Value::Player(p) => Dynamic::from_int(*p as i64),
            Value::Row(t, r) => match self
                .rows
                .and_then(|rows| rows.ids.get(t.index())?.get(*r as usize))
            {
                Some(id) => id.clone(),
                None => Dynamic::from(self.game.tables[t.index()].rows[*r as usize].id.clone()),
            },
            Value::Str(s) => Dynamic::from(ImmutableString::from(&**s)),
            Value::List(items) => {
                Dynamic::from_array(items.iter().map(|i| self.value(i)).collect())
            }
            Value::Pos(p) => Dynamic::from_map(pos_map(*p)),
        }
    }

    /// `#{id, <column>: value…}` for row `r` of table `t`.
    fn row_map(&self, t: usize, r: usize) -> Map {
        let mut m = Map::new();
        m.insert(
            "id".into(),
            self.value(&Value::Row(crate::ir::TableId::at(t), r as u16)),
        );
        let table = &self.game.tables[t];
        for (column, value) in table.columns.iter().zip(&table.rows[r].values) {
            m.insert(column.name.as_str().into(), self.value(value));
        }
        m
    }

    /// A board cell as scripts see it: `#{row, col, id}` and, for a row of a table, its
    /// columns.
    fn cell(&self, p: Pos, element: &Value) -> Map {
        let mut m = match element {
            Value::Row(t, r) => match self
                .rows
                .and_then(|rows| rows.cells.get(t.index())?.get(*r as usize))
            {
                Some(m) => m.clone(),
                None => self.row_map(t.index(), *r as usize),
            },
            other => {
                let mut m = Map::new();
                m.insert("id".into(), self.value(other));
                m
            }
        };
        m.insert("row".into(), Dynamic::from_int(p.row as i64));
        m.insert("col".into(), Dynamic::from_int(p.col as i64));
        m
    }

    fn board(&self, grid: &Grid, of: crate::model::Element) -> Dynamic {
        let cells: Array = grid
            .cells()
            .iter()
            .map(|(p, e)| Dynamic::from_map(self.cell(*p, &crate::value::decode_element(of, *e))))
            .collect();
        Dynamic::from_array(cells)
    }
}

fn from_dynamic(d: Dynamic) -> Result<Value, String> {
    if d.is_unit() {
        return Ok(Value::None);
    }
    if let Some(n) = d.clone().try_cast::<i64>() {
        return Ok(Value::Int(n));
    }
    if let Some(b) = d.clone().try_cast::<bool>() {
        return Ok(Value::Bool(b));
    }
    if d.is_string() {
        return Ok(Value::Str(Arc::from(
            d.into_string().unwrap_or_default().as_str(),
        )));
    }
    if d.is_array() {
        let items: Array = d.cast();
        return Ok(Value::list(
            items
                .into_iter()
                .map(from_dynamic)
                .collect::<Result<_, _>>()?,
        ));
    }
    Err(format!(
        "returned a {}, expected a number, true/false, a text or a list",
        type_name(&d)
    ))
}

/// A value's type as scripts name it (`type_of`).
fn type_name(d: &Dynamic) -> &'static str {
    if d.is::<GameHandle>() {
        "Game"
    } else if d.is::<Boards>() {
        "Boards"
    } else {
        d.type_name()
    }
}

fn pos_map(p: Pos) -> Map {
    let mut m = Map::new();
    m.insert("row".into(), Dynamic::from_int(p.row as i64));
    m.insert("col".into(), Dynamic::from_int(p.col as i64));
    m
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

// ---------------------------------------------------------------------------------------
// Grid built-ins
// ---------------------------------------------------------------------------------------

type Native<T> = Result<T, Box<EvalAltResult>>;

/// The largest piece `placements` takes, as in expressions.
const MAX_PIECE_SIDE: i64 = 64;

/// The most candidate positions `placements` examines (a board of the array size limit
/// with a large piece would otherwise allocate hundreds of megabytes).
const MAX_PLACEMENT_CANDIDATES: i64 = 4_000_000;

/// The cells of a board (or any array of maps with `row` and `col`) as a grid whose
/// element codes are the indices in the array; a later cell at the same position covers
/// an earlier one.
fn grid_of(board: &Array) -> Result<Grid, String> {
    if board.len() > u16::MAX as usize {
        return Err(format!(
            "a board of {} cells: at most {}",
            board.len(),
            u16::MAX
        ));
    }
    let mut grid = Grid::default();
    for (i, cell) in board.iter().enumerate() {
        let p = position(cell).map_err(|m| format!("element {i} of the board: {m}"))?;
        grid.set(p, i as u16);
    }
    Ok(grid)
}

/// A position: a map with integer `row` and `col` (a position or a cell).
fn position(d: &Dynamic) -> Result<Pos, String> {
    let expected = || {
        format!(
            "expected a position #{{row, col}} or a cell, found {}",
            type_name(d)
        )
    };
    let map = d.read_lock::<Map>().ok_or_else(expected)?;
    // One walk over the (few, sorted) keys costs less than two searches: "col" comes
    // before "row", so the walk stops at "row".
    let (mut row, mut col) = (None, None);
    for (key, value) in map.iter() {
        match key.as_str() {
            "col" => col = Some(value),
            "row" => {
                row = Some(value);
                break;
            }
            _ => {}
        }
    }
    let coordinate =
        |v: Option<&Dynamic>| v.and_then(|v| v.as_int().ok()).and_then(Pos::coordinate);
    match (coordinate(row), coordinate(col)) {
        (Some(row), Some(col)) => Ok(Pos::new(row, col)),
        _ => Err(format!(
            "{}: row and col must be integers within ±{}",
            expected(),
            crate::grid::LIMIT - 1
        )),
    }
}

fn positions(list: impl IntoIterator<Item = Pos>) -> Array {
    list.into_iter()
        .map(|p| Dynamic::from_map(pos_map(p)))
        .collect()
}

/// The index in `board` of the cell at `p` (the last one there), by a scan: one call
/// reads each cell once, less than building a grid.
fn index_at(board: &Array, p: Pos) -> Result<Option<usize>, String> {
    let mut found = None;
    for (i, cell) in board.iter().enumerate() {
        if position(cell).map_err(|m| format!("element {i} of the board: {m}"))? == p {
            found = Some(i);
        }
    }
    Ok(found)
}

fn register_grid(engine: &mut Engine) {
    // neighbours(pos): the four edge neighbours' positions, above, left, right, below.
    engine.register_fn("neighbours", |pos: Dynamic| -> Native<Array> {
        Ok(positions(position(&pos)?.neighbours()))
    });
    // neighbours(board, pos): the occupied ones among them, as cells, in the same order.
    engine.register_fn(
        "neighbours",
        |board: &mut Array, pos: Dynamic| -> Native<Array> {
            let around = position(&pos)?.neighbours();
            let mut found = [None; 4];
            for (i, cell) in board.iter().enumerate() {
                let p = position(cell).map_err(|m| format!("element {i} of the board: {m}"))?;
                if let Some(k) = around.iter().position(|n| *n == p) {
                    found[k] = Some(i);
                }
            }
            Ok(found.iter().flatten().map(|&i| board[i].clone()).collect())
        },
    );
    // at(board, pos): the cell there, or () when it is empty.
    engine.register_fn("at", |board: &mut Array, pos: Dynamic| -> Native<Dynamic> {
        let p = position(&pos)?;
        Ok(index_at(board, p)?.map_or(Dynamic::UNIT, |i| board[i].clone()))
    });
    // cells(board): the positions of its occupied cells, reading order.
    engine.register_fn("cells", |board: &mut Array| -> Native<Array> {
        Ok(positions(grid_of(board)?.cells().iter().map(|(p, _)| *p)))
    });
    // holes(board): the empty positions it encloses, reading order.
    engine.register_fn("holes", |board: &mut Array| -> Native<Array> {
        Ok(positions(grid_of(board)?.holes()?))
    });
    // placements(board, rows, cols): where a rows × cols piece may go, reading order.
    engine.register_fn(
        "placements",
        |board: &mut Array, rows: i64, cols: i64| -> Native<Array> {
            if !(1..=MAX_PIECE_SIDE).contains(&rows) || !(1..=MAX_PIECE_SIDE).contains(&cols) {
                return Err(format!(
                    "placements of a {rows}×{cols} piece: sizes go from 1 to {MAX_PIECE_SIDE}"
                )
                .into());
            }
            // The candidates examined grow with cells × piece area: bound them like the result.
            if board.len() as i64 * (rows * cols + 2 * rows + 2 * cols) > MAX_PLACEMENT_CANDIDATES {
                return Err(format!(
                    "placements of a {rows}×{cols} piece on {} cells: too many candidates",
                    board.len()
                )
                .into());
            }
            Ok(positions(
                grid_of(board)?.placements(rows as i16, cols as i16),
            ))
        },
    );
    // groups(board, |cell| …): the edge-connected groups of the cells the function keeps,
    // largest first, each an array of cells in reading order. The board is taken by value
    // (a copy) because the function may read the variable that holds it.
    engine.register_fn(
        "groups",
        |context: NativeCallContext, board: Array, keep: FnPtr| -> Native<Array> {
            let grid = grid_of(&board)?;
            let groups = grid.groups(|e| {
                match keep.call_within_context::<Dynamic>(&context, (board[e as usize].clone(),))? {
                    kept if kept.is_bool() => Ok(kept.as_bool().unwrap_or(false)),
                    other => Err(Box::<EvalAltResult>::from(format!(
                        "groups: the function must return true or false, not a {}",
                        type_name(&other)
                    ))),
                }
            })?;
            let cell = |p: Pos| {
                grid.get(p)
                    .map_or(Dynamic::UNIT, |e| board[e as usize].clone())
            };
            Ok(groups
                .into_iter()
                .map(|g| Dynamic::from_array(g.into_iter().map(cell).collect()))
                .collect())
        },
    );
}

/// The geometry of a table (`geometry:`) from scripts, by table name and row ids:
/// `game.neighbours("hexes", "h3")`, `game.distance("hexes", a, b)`,
/// `game.components("hexes", ids)`, `game.lines("hexes", ids)`, `game.on_edge("hexes", id)`.
/// The same answers as the built-ins of the same names.
fn register_geometry(engine: &mut Engine) {
    /// Runs `f` on the table's geometry with the rows named.
    fn with_geometry<R>(
        handle: &GameHandle,
        table: &str,
        ids: &[Dynamic],
        f: impl FnOnce(&crate::hex::HexTable, &[u16], &dyn Fn(u16) -> Dynamic) -> Result<R, String>,
    ) -> Native<R> {
        let result = with_reading(handle, |game, _| {
            let Some(t) = game.tables.iter().find(|t| t.name == table) else {
                return Err(format!("no table '{table}'"));
            };
            let Some(geometry) = &t.geometry else {
                return Err(format!("table '{table}' has no geometry"));
            };
            let mut rows = Vec::with_capacity(ids.len());
            for id in ids {
                let text = id.clone().into_string().map_err(|_| {
                    format!("expected a row id of {table}, found {}", id.type_name())
                })?;
                rows.push(
                    t.row_index(&text)
                        .ok_or_else(|| format!("no row '{text}' in {table}"))?,
                );
            }
            let id_of = |r: u16| Dynamic::from(t.rows[r as usize].id.clone());
            f(geometry, &rows, &id_of)
        })?;
        Ok(result?)
    }
    let ids = |rows: &[u16], id_of: &dyn Fn(u16) -> Dynamic| -> Array {
        rows.iter().map(|r| id_of(*r)).collect()
    };
    engine.register_fn(
        "neighbours",
        move |game: &mut GameHandle, table: ImmutableString, id: Dynamic| -> Native<Array> {
            with_geometry(game, &table, &[id], |g, rows, id_of| {
                Ok(ids(&g.neighbours[rows[0] as usize], id_of))
            })
        },
    );
    engine.register_fn(
        "distance",
        |game: &mut GameHandle,
         table: ImmutableString,
         a: Dynamic,
         b: Dynamic|
         -> Native<Dynamic> {
            with_geometry(game, &table, &[a, b], |g, rows, _| {
                Ok(g.distance(rows[0], rows[1])
                    .map_or(Dynamic::UNIT, Dynamic::from_int))
            })
        },
    );
    engine.register_fn(
        "components",
        move |game: &mut GameHandle, table: ImmutableString, cells: Array| -> Native<Array> {
            with_geometry(game, &table, &cells, |g, rows, id_of| {
                Ok(g.components(rows)
                    .iter()
                    .map(|group| Dynamic::from_array(ids(group, id_of)))
                    .collect())
            })
        },
    );
    engine.register_fn(
        "lines",
        move |game: &mut GameHandle, table: ImmutableString, cells: Array| -> Native<Array> {
            with_geometry(game, &table, &cells, |g, rows, id_of| {
                Ok(g.lines(rows)
                    .iter()
                    .map(|line| Dynamic::from_array(ids(line, id_of)))
                    .collect())
            })
        },
    );
    engine.register_fn(
        "on_edge",
        |game: &mut GameHandle, table: ImmutableString, id: Dynamic| -> Native<bool> {
            with_geometry(game, &table, &[id], |g, rows, _| match g.layout {
                Some(_) => Ok(g.neighbours[rows[0] as usize].len() < 6),
                None => Err(format!(
                    "on_edge needs hex coordinates, and {table} only lists its neighbours"
                )),
            })
        },
    );
}
