//! Derived tables, written out as rows before the tables are read: a table of `pairs:`
//! (every ordered pair of different rows of another table), a `product:` (every
//! combination of a row of each of several tables) and a `grid:` (the squares of a
//! rectangular grid).

use serde_yaml::{Mapping, Value as Yaml};

use super::yaml::{join, scalar_text};
use super::Builder;
use crate::format;
use crate::hints::did_you_mean;

impl Builder {
    /// The tables section with each table declared `grid: { width, height, neighbours }`
    /// written out: a row per square, `a1` (x 0, y 0, lower left) to the upper right
    /// corner, row by row from the bottom, with the columns `x` and `y` and a square
    /// geometry.
    pub(super) fn derive_grids(&mut self, map: &Mapping) -> Mapping {
        let mut out = map.clone();
        for (key, v) in map {
            let (Some(name), Some(grid)) = (key.as_str(), v.get("grid")) else {
                continue;
            };
            let path = format!("tables.{name}.grid");
            let mut table = v.as_mapping().cloned().unwrap_or_default();
            table.remove("grid");
            table.insert("rows".into(), Yaml::Sequence(Vec::new()));
            out.insert(key.clone(), Yaml::Mapping(table.clone()));
            let derived = ["rows", "columns", "pairs", "product", "geometry"];
            if let Some(k) = derived.iter().find(|k| v.get(**k).is_some()) {
                self.error(
                    &join(&format!("tables.{name}"), k),
                    "a grid table has no rows, columns, pairs, product or geometry of its own: they are derived",
                );
                continue;
            }
            let Some(g) = grid.as_mapping() else {
                self.error(
                    &path,
                    "grid takes {width: <1 to 26>, height: <1 to 99>, neighbours: 8 or 4}",
                );
                continue;
            };
            self.check_keys(g, &path, &format::key_lists().grid);
            let mut size = |k: &str, most: i64| match g.get(k).and_then(Yaml::as_i64) {
                Some(n) if (1..=most).contains(&n) => Some(n),
                _ => {
                    self.error(
                        &join(&path, k),
                        format!("expected a whole number from 1 to {most}"),
                    );
                    None
                }
            };
            let (Some(width), Some(height)) = (size("width", 26), size("height", 99)) else {
                continue;
            };
            let neighbours = match g.get("neighbours").map(Yaml::as_i64) {
                None => 8,
                Some(Some(n @ (4 | 8))) => n,
                Some(_) => {
                    self.error(
                        &join(&path, "neighbours"),
                        "squares touch by a side (4) or by a side or a corner (8)",
                    );
                    continue;
                }
            };
            let mut rows = Vec::new();
            for y in 0..height {
                for x in 0..width {
                    let file = char::from(b'a' + x as u8);
                    rows.push(Yaml::Sequence(vec![
                        format!("{file}{}", y + 1).into(),
                        x.into(),
                        y.into(),
                    ]));
                }
            }
            let mut columns = Mapping::new();
            columns.insert("x".into(), "int".into());
            columns.insert("y".into(), "int".into());
            let mut geometry = Mapping::new();
            geometry.insert("square".into(), neighbours.into());
            geometry.insert("x".into(), "x".into());
            geometry.insert("y".into(), "y".into());
            table.insert("columns".into(), Yaml::Mapping(columns));
            table.insert("rows".into(), Yaml::Sequence(rows));
            table.insert("geometry".into(), Yaml::Mapping(geometry));
            out.insert(key.clone(), Yaml::Mapping(table));
        }
        out
    }

    /// The tables section with each table declared `pairs: { of: <table> }` written out:
    /// one row per ordered pair of different rows of the other table (`a--b`, from `a`,
    /// to `b`), in the other table's order, with the columns `from` and `to`.
    pub(super) fn derive_pairs(&mut self, map: &Mapping) -> Mapping {
        let mut out = self.derive_products(map);
        for (key, v) in map {
            if self.full() {
                break;
            }
            let (Some(name), Some(pairs)) = (key.as_str(), v.get("pairs")) else {
                continue;
            };
            let path = format!("tables.{name}.pairs");
            if v.get("rows").is_some() || v.get("columns").is_some() {
                self.error(
                    &path,
                    "a table of pairs has no rows or columns of its own: they are derived",
                );
                continue;
            }
            let Some(of) = pairs
                .as_mapping()
                .and_then(|p| p.get("of"))
                .and_then(Yaml::as_str)
            else {
                self.error(
                    &path,
                    "pairs takes {of: <table>}: every ordered pair of different rows of that table",
                );
                continue;
            };
            if let Some(p) = pairs.as_mapping() {
                self.check_keys(p, &path, &format::key_lists().pairs);
            }
            let ids: Option<Vec<String>> = map
                .get(of)
                .and_then(|t| t.get("rows"))
                .and_then(Yaml::as_sequence)
                .map(|rows| {
                    rows.iter()
                        .filter_map(|r| match r {
                            Yaml::Sequence(items) => items.first().and_then(scalar_text),
                            Yaml::Mapping(m) => m.get("id").and_then(scalar_text),
                            other => scalar_text(other),
                        })
                        .collect()
                });
            let Some(ids) = ids.filter(|_| map.get(of).and_then(|t| t.get("pairs")).is_none())
            else {
                let names: Vec<String> = map
                    .iter()
                    .filter(|(_, t)| t.get("pairs").is_none())
                    .filter_map(|(k, _)| k.as_str().map(str::to_string))
                    .collect();
                let hint = did_you_mean(of, &names);
                self.error(
                    &join(&path, "of"),
                    format!("'{of}' is not a table with rows of its own{hint}"),
                );
                // Reported once: the table stands with no rows.
                let mut table = v.as_mapping().cloned().unwrap_or_default();
                table.insert("rows".into(), Yaml::Sequence(Vec::new()));
                out.insert(key.clone(), Yaml::Mapping(table));
                continue;
            };
            let mut rows = Vec::new();
            for a in &ids {
                for b in ids.iter().filter(|b| *b != a) {
                    rows.push(Yaml::Sequence(vec![
                        format!("{a}--{b}").into(),
                        a.as_str().into(),
                        b.as_str().into(),
                    ]));
                }
            }
            let mut table = v.as_mapping().cloned().unwrap_or_default();
            table.remove("pairs");
            let mut columns = Mapping::new();
            columns.insert("from".into(), of.into());
            columns.insert("to".into(), of.into());
            table.insert("columns".into(), Yaml::Mapping(columns));
            table.insert("rows".into(), Yaml::Sequence(rows));
            out.insert(key.clone(), Yaml::Mapping(table));
        }
        out
    }

    /// The tables section with each table declared `product: { <column>: <table>, … }`
    /// written out: one row per combination of a row of each table, the first table
    /// outermost, its id the rows' ids joined by `-` (`abilene-bank`), its columns the
    /// keys, each holding that table's row.
    fn derive_products(&mut self, map: &Mapping) -> Mapping {
        let mut out = map.clone();
        let derived = |t: &Yaml| t.get("pairs").is_some() || t.get("product").is_some();
        for (key, v) in map {
            if self.full() {
                break;
            }
            let (Some(name), Some(product)) = (key.as_str(), v.get("product")) else {
                continue;
            };
            let path = format!("tables.{name}.product");
            if v.get("rows").is_some() || v.get("columns").is_some() || v.get("pairs").is_some() {
                self.error(
                    &path,
                    "a product table has no rows, columns or pairs of its own: they are derived",
                );
                continue;
            }
            let factors: Vec<(String, String)> = product
                .as_mapping()
                .map(|m| {
                    m.iter()
                        .filter_map(|(c, t)| {
                            Some((c.as_str()?.to_string(), t.as_str()?.to_string()))
                        })
                        .collect()
                })
                .unwrap_or_default();
            // Reported once: a faulty product stands as a table without rows or columns.
            let mut table = v.as_mapping().cloned().unwrap_or_default();
            table.remove("product");
            table.insert("rows".into(), Yaml::Sequence(Vec::new()));
            if factors.len() < 2 || factors.len() != product.as_mapping().map_or(0, Mapping::len) {
                self.error(&path, "product takes {<column>: <table>, <column>: <table>, …}: two or more tables, each row of one with each row of the others");
                out.insert(key.clone(), Yaml::Mapping(table));
                continue;
            }
            // Each combination is the ids of its rows, one per factor.
            let mut combinations: Vec<Vec<String>> = vec![Vec::new()];
            let mut ok = true;
            for (column, of) in &factors {
                let ids = map
                    .get(of.as_str())
                    .filter(|t| !derived(t))
                    .and_then(|t| t.get("rows"))
                    .and_then(Yaml::as_sequence)
                    .map(|rows| {
                        rows.iter()
                            .filter_map(|r| match r {
                                Yaml::Sequence(items) => items.first().and_then(scalar_text),
                                Yaml::Mapping(m) => m.get("id").and_then(scalar_text),
                                other => scalar_text(other),
                            })
                            .collect::<Vec<_>>()
                    });
                let Some(ids) = ids else {
                    let names: Vec<String> = map
                        .iter()
                        .filter(|(_, t)| !derived(t))
                        .filter_map(|(k, _)| k.as_str().map(str::to_string))
                        .collect();
                    let hint = did_you_mean(of, &names);
                    self.error(
                        &join(&path, column),
                        format!("'{of}' is not a table with rows of its own{hint}"),
                    );
                    ok = false;
                    continue;
                };
                combinations = combinations
                    .into_iter()
                    .flat_map(|c| {
                        ids.iter()
                            .map(move |i| c.iter().chain(std::iter::once(i)).cloned().collect())
                    })
                    .collect();
            }
            if ok {
                let columns: Mapping = factors
                    .iter()
                    .map(|(c, t)| (Yaml::from(c.as_str()), Yaml::from(t.as_str())))
                    .collect();
                let rows = combinations
                    .into_iter()
                    .map(|c| {
                        Yaml::Sequence(
                            std::iter::once(c.join("-"))
                                .chain(c)
                                .map(Yaml::from)
                                .collect(),
                        )
                    })
                    .collect();
                table.insert("columns".into(), Yaml::Mapping(columns));
                table.insert("rows".into(), Yaml::Sequence(rows));
            }
            out.insert(key.clone(), Yaml::Mapping(table));
        }
        out
    }
}
