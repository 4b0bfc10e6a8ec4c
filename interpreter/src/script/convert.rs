//! Values between the interpreter and scripts: [`Value`]s, rows and board cells into
//! Rhai values (`Conv`, with each game's rows converted once), and script results back.

use std::sync::Arc;

use rhai::{Array, Dynamic, ImmutableString, Map};

use crate::grid::{Grid, Pos};
use crate::model::{Game, ScriptRows};
use crate::value::Value;

use super::handle::{Boards, GameHandle};

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
pub(super) struct Conv<'a> {
    game: &'a Game,
    rows: Option<&'a ScriptRows>,
}

impl<'a> Conv<'a> {
    pub(super) fn new(game: &'a Game) -> Conv<'a> {
        let rows = game
            .scripts
            .as_ref()
            .map(|s| s.rows.get_or_init(|| ScriptRows::new(game)))
            .filter(|r| r.fits(game));
        Conv { game, rows }
    }

    pub(super) fn value(&self, v: &Value) -> Dynamic {
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

    pub(super) fn board(&self, grid: &Grid, of: crate::model::Element) -> Dynamic {
        let cells: Array = grid
            .cells()
            .iter()
            .map(|(p, e)| Dynamic::from_map(self.cell(*p, &crate::value::decode_element(of, *e))))
            .collect();
        Dynamic::from_array(cells)
    }
}

/// A script's result as a value: a number, true/false, a text, `()` or an array of these
/// (an array holding an array is refused, not flattened or kept: no value of a ruleset
/// is a list of lists).
pub(super) fn from_dynamic(d: Dynamic) -> Result<Value, String> {
    if d.is_array() {
        let items: Array = d.cast();
        return Ok(Value::list(
            items
                .into_iter()
                .map(|item| {
                    if item.is_array() {
                        return Err("returned an array holding an array: an array's items are numbers, true/false, texts or ()".to_string());
                    }
                    scalar_from_dynamic(item)
                })
                .collect::<Result<_, _>>()?,
        ));
    }
    scalar_from_dynamic(d)
}

fn scalar_from_dynamic(d: Dynamic) -> Result<Value, String> {
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
    Err(format!(
        "returned a {}, expected a number, true/false, a text or a list",
        type_name(&d)
    ))
}

/// A value's type as scripts name it (`type_of`).
pub(super) fn type_name(d: &Dynamic) -> &'static str {
    if d.is::<GameHandle>() {
        "Game"
    } else if d.is::<Boards>() {
        "Boards"
    } else {
        d.type_name()
    }
}

pub(super) fn pos_map(p: Pos) -> Map {
    let mut m = Map::new();
    m.insert("row".into(), Dynamic::from_int(p.row as i64));
    m.insert("col".into(), Dynamic::from_int(p.col as i64));
    m
}
