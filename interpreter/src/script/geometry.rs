//! The hex-table built-ins of scripts (`game.neighbours`, `game.distance`,
//! `game.components`, `game.lines`, `game.on_edge`): native functions on the game handle.

use rhai::{Array, Dynamic, Engine, ImmutableString};

use super::handle::{with_reading, GameHandle};
use super::Native;

/// The geometry of a table (`geometry:`) from scripts, by table name and row ids:
/// `game.neighbours("hexes", "h3")`, `game.distance("hexes", a, b)`,
/// `game.components("hexes", ids)`, `game.lines("hexes", ids)`, `game.on_edge("hexes", id)`.
/// The same answers as the built-ins of the same names.
pub(super) fn register_geometry(engine: &mut Engine) {
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
                Some(layout) => Ok(g.neighbours[rows[0] as usize].len() < layout.directions()),
                None => Err(format!(
                    "on_edge needs hex coordinates, and {table} only lists its neighbours"
                )),
            })
        },
    );
}
