//! Tables: each table's columns and rows read from the YAML (tables of pairs and
//! products written out first, `derived.rs`), each value checked against its column's
//! type, and a row named in a value found once every table's rows are read.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_yaml::{Mapping, Value as Yaml};

use super::expr::Named;
use super::yaml::{join, scalar_text};
use super::{Builder, MAX_ROWS};
use crate::format;
use crate::model::{Column, Row, Table};
use crate::value::{Type, Value};

/// A row as written: its id, its values in column order, and its YAML path.
type RawRow = (String, Vec<Yaml>, String);

impl Builder {
    /// `tables:`, every table with its rows (and its geometry, once its rows are read).
    pub(super) fn tables(&mut self, value: Option<&Yaml>) -> Vec<Table> {
        let Some(value) = value else {
            return Vec::new();
        };
        let Some(map) = value.as_mapping() else {
            self.error("tables", "expected a mapping of table names to tables");
            return Vec::new();
        };
        let grids = self.derive_grids(map);
        let map = &self.derive_pairs(&grids);
        // Only the tables that will be built: a type naming one refers to it by position.
        let names: Named<String> = map
            .iter()
            .filter(|(_, v)| v.is_mapping())
            .filter_map(|(k, _)| k.as_str().map(str::to_string))
            .collect();
        let mut tables = Vec::new();
        // Row values may name rows of any table: read all rows first, then resolve.
        let mut raw_rows: Vec<Vec<RawRow>> = Vec::new();
        for (key, v) in map {
            if self.full() {
                break;
            }
            let Some(name) = key.as_str() else { continue };
            let path = format!("tables.{name}");
            let Some(t) = v.as_mapping() else {
                self.error(&path, "a table is a mapping with columns: and rows:");
                continue;
            };
            self.check_keys(t, &path, &format::key_lists().table);
            let columns = self.columns(t, &path, &names);
            let rows = self.raw_rows(t, name, &path, &columns);
            raw_rows.push(rows);
            tables.push(Table {
                name: name.to_string(),
                columns,
                rows: Vec::new(),
                doc: self.string(t, "doc", &path),
                rule: self.rule(t, &path),
                reconstructed: self.string(t, "reconstructed", &path),
                show: None,
                geometry: None,
                ids: Default::default(),
            });
        }
        self.read_cells(&mut tables, raw_rows);
        for table in &mut tables {
            let path = format!("tables.{}", table.name);
            if let Some(g) = map.get(table.name.as_str()).and_then(|t| t.get("geometry")) {
                table.geometry = self.geometry(g, table, &join(&path, "geometry"));
            }
        }
        tables
    }

    /// A table's `columns:`, each with its type (which may name any table in `names`).
    fn columns(&mut self, t: &Mapping, path: &str, names: &Named<String>) -> Vec<Column> {
        let mut columns = Vec::new();
        if let Some(cols) = t.get("columns") {
            match cols.as_mapping() {
                Some(cols) => {
                    for (c, ty) in cols {
                        let cname = c.as_str().unwrap_or_default().to_string();
                        let cpath = format!("{path}.columns.{cname}");
                        let ty = match ty.as_str() {
                            Some(ty) => self.type_named(ty, names, &cpath),
                            None => {
                                self.error(
                                    &cpath,
                                    "a column type is a name: int, bool, str, player or a table",
                                );
                                Type::Any
                            }
                        };
                        if cname == "id" {
                            self.error(
                                &cpath,
                                "'id' is every row's first value; it is not declared as a column",
                            );
                        }
                        columns.push(Column { name: cname, ty });
                    }
                }
                None => self.error(
                    &format!("{path}.columns"),
                    "expected a mapping of column names to types",
                ),
            }
        }
        columns
    }

    /// A table's `rows:` as written (at most [`MAX_ROWS`]), each with its id and as many
    /// values as the table has columns.
    fn raw_rows(&mut self, t: &Mapping, name: &str, path: &str, columns: &[Column]) -> Vec<RawRow> {
        let mut rows = Vec::new();
        let mut ids: HashSet<String> = HashSet::new();
        match t.get("rows").and_then(Yaml::as_sequence) {
            Some(seq) => {
                for (i, row) in seq.iter().enumerate() {
                    if self.full() {
                        break;
                    }
                    let rpath = format!("{path}.rows[{i}]");
                    let (id, values) = match row {
                        Yaml::Sequence(items) => {
                            let id = items.first().and_then(scalar_text);
                            (id, items.iter().skip(1).cloned().collect::<Vec<_>>())
                        }
                        Yaml::Mapping(m) => {
                            let id = m.get("id").and_then(scalar_text);
                            let values = columns
                                .iter()
                                .map(|c| m.get(c.name.as_str()).cloned().unwrap_or(Yaml::Null))
                                .collect();
                            for k in m.keys().filter_map(Yaml::as_str) {
                                if k != "id" && !columns.iter().any(|c| c.name == k) {
                                    self.error(
                                        &format!("{rpath}.{k}"),
                                        format!("table {name} has no column '{k}'"),
                                    );
                                }
                            }
                            (id, values)
                        }
                        Yaml::String(s) if columns.is_empty() => (Some(s.clone()), Vec::new()),
                        _ => (None, Vec::new()),
                    };
                    let Some(id) = id else {
                        self.error(
                            &rpath,
                            "a row is [id, value, …] in column order, or {id: …, column: value, …}",
                        );
                        continue;
                    };
                    if values.len() != columns.len() {
                        self.error(
                            &rpath,
                            format!(
                                "row '{id}' has {} values for {} columns",
                                values.len(),
                                columns.len()
                            ),
                        );
                        continue;
                    }
                    if !ids.insert(id.clone()) {
                        self.error(&rpath, format!("duplicate row id '{id}'"));
                    }
                    rows.push((id, values, rpath));
                }
            }
            None => self.error(path, "a table needs rows: a list of rows"),
        }
        if rows.len() > MAX_ROWS {
            // Zones and boards store a row as a 16-bit code.
            self.error(
                &format!("{path}.rows"),
                format!("a table holds at most {MAX_ROWS} rows, not {}", rows.len()),
            );
            rows.truncate(MAX_ROWS);
        }
        rows
    }

    /// Each table's rows, their values read and checked: a row of another table is named
    /// by its id, found among that table's rows as written.
    fn read_cells(&mut self, tables: &mut [Table], raw_rows: Vec<Vec<RawRow>>) {
        // Each table's rows by id (the first of a duplicated id, which is reported).
        let ids: Vec<std::collections::HashMap<String, usize>> = raw_rows
            .iter()
            .map(|rows| {
                rows.iter()
                    .enumerate()
                    .rev()
                    .map(|(i, r)| (r.0.clone(), i))
                    .collect()
            })
            .collect();
        for (t, rows) in raw_rows.into_iter().enumerate() {
            for (id, values, rpath) in rows {
                let mut row = Vec::new();
                for (c, v) in values.iter().enumerate() {
                    let ty = tables[t].columns[c].ty.clone();
                    let cpath = format!("{rpath}[{}]", c + 1);
                    row.push(self.cell(v, &ty, &ids, &tables[t].columns[c].name, &cpath));
                }
                let at = tables[t].rows.len() as u16;
                tables[t].ids.entry(id.clone()).or_insert(at);
                tables[t].rows.push(Row { id, values: row });
            }
        }
    }

    fn cell(
        &mut self,
        v: &Yaml,
        ty: &Type,
        ids: &[HashMap<String, usize>],
        column: &str,
        path: &str,
    ) -> Value {
        if self.full() {
            return Value::None;
        }
        match (ty, v) {
            (Type::Int, Yaml::Number(n)) if n.as_i64().is_some() => {
                Value::Int(n.as_i64().unwrap_or(0))
            }
            (Type::Bool, Yaml::Bool(b)) => Value::Bool(*b),
            (Type::Str, _) if scalar_text(v).is_some() => {
                Value::Str(Arc::from(scalar_text(v).unwrap_or_default().as_str()))
            }
            (Type::Row(_) | Type::Player, Yaml::Null) => Value::None,
            (Type::Row(_), Yaml::String(s)) if s == "none" => Value::None,
            (Type::Row(t), _) if scalar_text(v).is_some() => {
                let id = scalar_text(v).unwrap_or_default();
                match ids[t.index()].get(&id) {
                    Some(&r) => Value::Row(*t, r as u16),
                    None => {
                        self.error(
                            path,
                            format!("column '{column}': no row '{id}' in the table it refers to"),
                        );
                        Value::None
                    }
                }
            }
            (Type::Any, _) => Value::None,
            _ => {
                self.error(
                    path,
                    format!("column '{column}' holds {}", simple_type_name(ty)),
                );
                Value::None
            }
        }
    }
}

fn simple_type_name(ty: &Type) -> &'static str {
    match ty {
        Type::Int => "whole numbers",
        Type::Bool => "true or false",
        Type::Str => "texts",
        Type::Player => "players",
        Type::Row(_) => "row ids",
        _ => "values",
    }
}
