//! A table's `geometry:`: its rows are hexes, placed by coordinate columns in a hex
//! layout, or neighbours listed by id in a column.

use serde_yaml::Value as Yaml;

use super::yaml::join;
use super::Builder;
use crate::format;
use crate::hints::did_you_mean;
use crate::model::Table;
use crate::value::{Type, Value};

impl Builder {
    /// `geometry: { hex: even-q, x: <int column>, y: <int column> }` (or `square: 8`): the
    /// table's rows are hexes (or squares) at those coordinates.
    pub(super) fn geometry(
        &mut self,
        value: &Yaml,
        table: &Table,
        path: &str,
    ) -> Option<crate::hex::HexTable> {
        let shape = "a geometry is {hex: even-q, odd-q or axial, x: <column>, y: <column>}, {square: 4 or 8, x: <column>, y: <column>} or {neighbours: <column>}";
        let Some(m) = value.as_mapping() else {
            self.error(path, shape);
            return None;
        };
        self.check_keys(m, path, &format::key_lists().geometry);
        if let Some(column) = m.get("neighbours") {
            if m.len() > 1 {
                self.error(
                    path,
                    "a geometry lists neighbours or gives coordinates (hex, x, y), not both",
                );
                return None;
            }
            return self.listed_neighbours(column, table, &join(path, "neighbours"));
        }
        if m.get("hex").is_some() && m.get("square").is_some() {
            self.error(path, "a geometry is hex or square, not both");
            return None;
        }
        let layout = match (m.get("hex"), m.get("square")) {
            (Some(hex), _) => match hex.as_str().and_then(crate::hex::Layout::named) {
                Some(layout) => layout,
                None => {
                    let message = format!("unknown hex layout '{}': even-q (even columns half a hex lower), odd-q or axial", hex.as_str().unwrap_or_default());
                    self.error(&join(path, "hex"), message);
                    return None;
                }
            },
            (None, Some(square)) => match square.as_i64() {
                Some(4) => crate::hex::Layout::Square4,
                Some(8) => crate::hex::Layout::Square8,
                _ => {
                    self.error(
                        &join(path, "square"),
                        "a square grid's cells have 4 neighbours (sides) or 8 (sides and corners)",
                    );
                    return None;
                }
            },
            (None, None) => {
                self.error(path, shape);
                return None;
            }
        };
        let mut column = |key: &str| -> Option<usize> {
            let name = m.get(key).and_then(Yaml::as_str)?;
            match table.column_index(name) {
                Some(c) if table.columns[c].ty == Type::Int => Some(c),
                Some(_) => {
                    self.error(
                        &join(path, key),
                        format!("column '{name}' must hold whole numbers to be a coordinate"),
                    );
                    None
                }
                None => {
                    let names: Vec<String> = table.columns.iter().map(|c| c.name.clone()).collect();
                    let hint = did_you_mean(name, &names);
                    self.error(
                        &join(path, key),
                        format!("table {} has no column '{name}'{hint}", table.name),
                    );
                    None
                }
            }
        };
        let (x, y) = (column("x"), column("y"));
        let (Some(x), Some(y)) = (x, y) else {
            if m.get("x").is_none() || m.get("y").is_none() {
                self.error(path, shape);
            }
            return None;
        };
        let int = |v: &Value| if let Value::Int(n) = v { *n } else { 0 };
        let coords = table
            .rows
            .iter()
            .map(|r| (int(&r.values[x]), int(&r.values[y])))
            .collect();
        crate::hex::HexTable::new(layout, coords)
            .map_err(|e| self.error(path, e))
            .ok()
    }

    /// `geometry: { neighbours: <text column> }`: each row lists its neighbours' ids.
    fn listed_neighbours(
        &mut self,
        column: &Yaml,
        table: &Table,
        path: &str,
    ) -> Option<crate::hex::HexTable> {
        let name = column.as_str().unwrap_or_default();
        let Some(c) = table.column_index(name) else {
            let names: Vec<String> = table.columns.iter().map(|c| c.name.clone()).collect();
            self.error(
                path,
                format!(
                    "table {} has no column '{name}'{}",
                    table.name,
                    did_you_mean(name, &names)
                ),
            );
            return None;
        };
        if table.columns[c].ty != Type::Str {
            self.error(
                path,
                format!("column '{name}' must be text: the neighbours' ids, separated by blanks"),
            );
            return None;
        }
        let ids: Vec<String> = table.rows.iter().map(|r| r.id.clone()).collect();
        let mut neighbours = Vec::with_capacity(ids.len());
        for row in &table.rows {
            let Value::Str(text) = &row.values[c] else {
                return None;
            };
            let mut around = Vec::new();
            for id in text.split_whitespace() {
                match table.row_index(id) {
                    Some(n) if !around.contains(&n) => around.push(n),
                    Some(_) => {}
                    None => {
                        self.error(
                            path,
                            format!(
                                "row '{}' lists '{id}', which is no row of {}",
                                row.id, table.name
                            ),
                        );
                        return None;
                    }
                }
            }
            neighbours.push(around);
        }
        crate::hex::HexTable::listed(neighbours, &ids)
            .map_err(|e| self.error(path, e))
            .ok()
    }
}
