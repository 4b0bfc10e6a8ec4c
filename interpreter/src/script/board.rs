//! The grid built-ins of scripts (`neighbours`, `at`, `cells`, `holes`, `placements`,
//! `groups`): native functions over boards as scripts see them, arrays of cell maps.

use rhai::{Array, Dynamic, Engine, EvalAltResult, FnPtr, Map, NativeCallContext};

use crate::grid::{Grid, Pos};

use super::convert::{pos_map, type_name};
use super::Native;

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

pub(super) fn register_grid(engine: &mut Engine) {
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
